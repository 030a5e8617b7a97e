"""The replay's timeline: one line for the whole session, the position and the checks on it.

Steps 0..N are spread over the width; a cell holding several steps shows the strongest mark
(the position, then a fumble, a failure, a success, an undone event). A click jumps there.
"""

from __future__ import annotations

from collections.abc import Mapping

from textual import events
from textual.content import Content
from textual.message import Message
from textual.widget import Widget

from gmscreen.campaign.replay_steps import Steps

PAST, FUTURE, HERE, CHECK, VOID = "━", "─", "●", "◆", "×"
CHECK_STYLES = {"fumble": "bold $error", "failure": "bold $warning", "success": "bold $success"}
RANK = {"here": 5, "fumble": 4, "failure": 3, "success": 2, "void": 1}


class Timeline(Widget):
    DEFAULT_CSS = """
    Timeline { height: 1; padding: 0 1; }
    """

    class Jump(Message):
        """The GM clicked on the timeline: go to ``step``."""

        def __init__(self, step: int) -> None:
            self.step = step
            super().__init__()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.steps: Steps | None = None
        self.outcomes: Mapping[int, str] = {}  # check step -> outcome
        self.step = 0

    def show(self, steps: Steps, outcomes: Mapping[int, str], step: int) -> None:
        self.steps, self.outcomes, self.step = steps, outcomes, step
        self.refresh()

    def _cell(self, step: int, width: int) -> int:
        count = self.steps.count if self.steps else 0
        return step * (width - 1) // count if count else 0

    def render(self) -> Content:
        width = self.content_region.width
        if self.steps is None or width < 2:
            return Content("")
        marks: dict[int, str] = {}

        def mark(cell: int, what: str) -> None:
            if RANK[what] > RANK.get(marks.get(cell, ""), 0):
                marks[cell] = what

        void_steps = (n for n in range(1, self.steps.count + 1) if self.steps.is_void(n))
        for step in void_steps:
            mark(self._cell(step, width), "void")
        for step in self.steps.checks:
            mark(self._cell(step, width), self.outcomes.get(step, "success"))
        here = self._cell(self.step, width)
        mark(here, "here")
        parts: list[tuple[str, str]] = []
        for cell in range(width):
            what = marks.get(cell)
            if what == "here":
                parts.append((HERE, "bold $accent"))
            elif what == "void":
                parts.append((VOID, "dim"))
            elif what is not None:
                parts.append((CHECK, CHECK_STYLES[what]))
            elif cell < here:
                parts.append((PAST, "$accent 60%"))
            else:
                parts.append((FUTURE, "$foreground 30%"))
        return Content.assemble(*parts)

    def on_click(self, event: events.Click) -> None:
        width = self.content_region.width
        if self.steps is None or width < 2 or not self.steps.count:
            return
        cell = min(max(event.x - self.styles.padding.left, 0), width - 1)
        self.post_message(self.Jump(round(cell * self.steps.count / (width - 1))))
