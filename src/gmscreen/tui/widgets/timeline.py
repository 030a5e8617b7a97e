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
        self._marks: tuple[int, dict[int, str]] = (0, {})  # width -> marks, without the position

    def show(self, steps: Steps, outcomes: Mapping[int, str], step: int) -> None:
        if steps is not self.steps or outcomes is not self.outcomes:
            self._marks = (0, {})
        self.steps, self.outcomes, self.step = steps, outcomes, step
        self.refresh()

    def _cell(self, step: int, width: int) -> int:
        count = self.steps.count if self.steps else 0
        return step * (width - 1) // count if count else 0

    def render(self) -> Content:
        parts = self._parts()
        return Content.assemble(*parts) if parts else Content("")

    def _parts(self) -> list[tuple[str, str]]:
        """The line as runs of one style each, left to right (none if there is no line)."""
        width = self.content_region.width
        if self.steps is None or width < 2:
            return []
        marks = dict(self._session_marks(width))
        here = self._cell(self.step, width)
        marks[here] = "here"
        parts: list[tuple[str, str]] = []
        for cell in range(width):
            what = marks.get(cell)
            if what == "here":
                part = (HERE, "bold $accent")
            elif what == "void":
                part = (VOID, "dim")
            elif what is not None:
                part = (CHECK, CHECK_STYLES[what])
            elif cell < here:
                part = (PAST, "$accent 60%")
            else:
                part = (FUTURE, "$foreground 30%")
            if parts and parts[-1][1] == part[1]:  # one span per run of the same style
                parts[-1] = (parts[-1][0] + part[0], part[1])
            else:
                parts.append(part)
        return parts

    def _session_marks(self, width: int) -> dict[int, str]:
        """The checks and undone events, per cell: the same at every step, so kept per width."""
        if self._marks[0] == width:
            return self._marks[1]
        marks: dict[int, str] = {}

        def mark(cell: int, what: str) -> None:
            if RANK[what] > RANK.get(marks.get(cell, ""), 0):
                marks[cell] = what

        assert self.steps is not None
        for step in self.steps.void_steps:
            mark(self._cell(step, width), "void")
        for step in self.steps.checks:
            mark(self._cell(step, width), self.outcomes.get(step, "success"))
        self._marks = (width, marks)
        return marks

    def on_click(self, event: events.Click) -> None:
        width = self.content_region.width
        if self.steps is None or width < 2 or not self.steps.count:
            return
        cell = min(max(event.x - self.styles.padding.left, 0), width - 1)
        self.post_message(self.Jump(round(cell * self.steps.count / (width - 1))))
