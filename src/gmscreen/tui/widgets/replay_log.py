"""The roll log in replay: the whole session, the current event highlighted, what is still to
come dimmed, undone events struck through with a label.

A :class:`RollLog` (the same lines, wrapped the same way, and cache-per-row rendering as the
GM's screen) that also knows which lines are the current step.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from rich.cells import cell_len
from textual.cache import LRUCache
from textual.content import Content
from textual.scroll_view import ScrollView
from textual.strip import Strip

from gmscreen.campaign.gm_words import Line
from gmscreen.tui.widgets.roll_log import (
    COMMAND_MARKS,
    RollLog,
    cell_length,
    content,
    head_length,
)
from gmscreen.tui.widgets.wrapping import hanging

MARKER = "▶ "  # before the current step's lines; the others have as many spaces

CURRENT_STYLE = "bold on $accent 35%"
FUTURE_STYLE = "$foreground 45%"
VOID_LABEL_STYLE = "italic $text-warning"
LINE_CACHE = 128  # rendered lines kept: a few screens of them, in their three phases


def _labelled(entry: Line) -> bool:
    """An undone happening carries the label; an undo that a redo took back does not (its arrow
    says what it is: "undone" after it would read as a redo)."""
    return entry.void and entry.style not in COMMAND_MARKS


class ReplayLog(RollLog):
    def __init__(self, void_label: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.void_label = void_label
        self.current = range(0)  # indices of the current step's lines
        # Small on purpose: a step only restyles the lines in view, and each cached Strip is
        # some thirty objects that every full pass of the cyclic collector walks (1,024 of
        # them made those passes 50-100 ms, inside a frame, after a few hundred jumps).
        self._lines: LRUCache[tuple[object, ...], list[Strip]] = LRUCache(LINE_CACHE)
        # The current step stays in view, never the session's end: following it, the first
        # resize scrolled the log to the last lines at step 0 (a jump to 0 showed the first).
        self._follow = False

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        # ScrollView's, not RollLog's: reaching the bottom must not start following the end.
        ScrollView.watch_scroll_y(self, old_value, new_value)

    def load(self, entries: Sequence[Line]) -> None:
        self.entries = list(entries)
        self._lines.clear()
        self._visible = list(range(len(self.entries)))  # no filter in replay
        self._recount()
        self._update(False)

    def show_step(self, current: range) -> None:
        """Highlight ``current`` (empty at the session's start) and bring it into view."""
        self.current = current
        self.refresh()
        target = self.row_of(current.start) if current else 0
        y = max(0, target - max(0, self.size.height - 1) // 2)
        self.scroll_to(y=y, animate=False, immediate=True)

    def _phase(self, index: int) -> str:
        if index in self.current:
            return "current"
        return "past" if index < self.current.start else "future"

    def _line(self, index: int) -> Content:
        """Entry ``index``'s line, with the label of an undone one (no marker, no phase)."""
        entry = self.entries[index]
        drawn = content(entry)
        if _labelled(entry):
            drawn = drawn + Content.styled(f"  {self.void_label}", VOID_LABEL_STYLE)
        return drawn

    def entry_cells(self, index: int) -> int:
        entry = self.entries[index]
        label = cell_len(self.void_label) + 2 if _labelled(entry) else 0
        return cell_len(MARKER) + cell_length(entry) + label

    def entry_rows(self, index: int, width: int) -> list[Content]:
        """The rows of entry ``index``: the current one's marked and highlighted across
        ``width`` cells, those still to come dimmed."""
        entry = self.entries[index]
        phase = self._phase(index)
        marker = Content.styled(MARKER, "bold $accent") if phase == "current" else "  "
        rows = hanging(
            Content("").append(marker).append(self._line(index)),
            width,
            len(MARKER) + head_length(entry),
        )
        if phase == "current":
            return [
                r.extend_right(max(0, width - r.cell_length)).stylize(CURRENT_STYLE) for r in rows
            ]
        return [r.stylize(FUTURE_STYLE) for r in rows] if phase == "future" else rows

    def line_content(self, index: int, width: int = 0) -> Content:
        """One entry's rows at ``width`` (one row, unwrapped, at 0); the current one is
        highlighted across ``width`` cells."""
        return Content("\n").join(self.entry_rows(index, width))

    def entry_strips(self, index: int, width: int) -> list[Strip]:
        phase, wrap = self._phase(index), self._rows_width
        key = (index, self.entries[index].key, phase, width, wrap, self.visual_style)
        strips = self._lines.get(key)
        if strips is None:
            first = self.row_of(index)  # in replay every entry is visible: its position
            rows = self.entry_rows(index, wrap)
            strips = [self._strip(r, width).apply_offsets(0, first + n) for n, r in enumerate(rows)]
            self._lines[key] = strips
        return strips

    def render_line(self, y: int) -> Strip:
        # The base class's, but the Strips cached with their offsets: a step restyles the rows
        # in view, and the rows it leaves alone are the very same Strips.
        row = self.scroll_offset.y + y
        width = self.size.width
        if row >= self._rows:
            return Strip.blank(width, self.rich_style)
        position = bisect_right(self._row_starts, row) - 1
        strips = self.entry_strips(self._visible[position], width)
        return strips[min(row - self._row_starts[position], len(strips) - 1)]
