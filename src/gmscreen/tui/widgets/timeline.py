"""The replay's timeline: one line for the whole session, the position and the checks on it.

Steps 0..N are spread over the width; a cell holding several steps shows the strongest mark
(the position, then a fumble, a failure, a success, an undone event). A click jumps there.
"""

from __future__ import annotations

from collections.abc import Mapping

from textual import events
from textual.content import Content
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget, _RenderCache  # private: see _render_content

from gmscreen.campaign.replay_steps import Steps
from gmscreen.tui.widgets.fast_lines import LineStyles, render_content_quickly

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
        self._styles = LineStyles()

    def show(self, steps: Steps, outcomes: Mapping[int, str], step: int) -> None:
        if steps is not self.steps or outcomes is not self.outcomes:
            self._marks = (0, {})
        self.steps, self.outcomes, self.step = steps, outcomes, step
        self.refresh()

    def _render_content(self) -> None:
        # Private in Textual 8.2.8 (see render_content_quickly): drawn directly from its parts
        # (runs of one style, side by side: the pieces the walk over render()'s spans gives).
        parts = self._parts()
        width, height = self.size
        if parts and height and self._styles.ready(self):
            pieces = [(text, (style,)) for text, style in parts]
            base = self.visual_style
            line = self._styles.styled(self, pieces, base, 0)
            length = sum(len(text) for text, _ in parts)
            if line is not None and length <= width:
                self._render_cache = _RenderCache(self.size, [Strip(line, length)])
                self._dirty_regions.clear()
                return
        if not render_content_quickly(self, self._styles):
            super()._render_content()

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
