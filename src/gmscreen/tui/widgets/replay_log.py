"""The roll log in replay: the whole session, the current event highlighted, what is still to
come dimmed, undone events struck through with a label.

A :class:`RollLog` (the same lines and cache-per-line rendering as the GM's screen) that also
knows which lines are the current step.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.cache import LRUCache
from textual.content import Content
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.visual import Visual

from gmscreen.tui.widgets.roll_log import LogEntry, RollLog

CURRENT_STYLE = "bold on $accent 35%"
FUTURE_STYLE = "$foreground 45%"
VOID_LABEL_STYLE = "italic $text-warning"
LINE_CACHE = 128  # rendered lines kept: a few screens of them, in their three phases


class ReplayLog(RollLog):
    def __init__(self, void_label: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.void_label = void_label
        self.current = range(0)  # indices of the current step's lines
        # Small on purpose: a step only restyles the lines in view, and each cached Strip is
        # some thirty objects that every full pass of the cyclic collector walks (1,024 of
        # them made those passes 50-100 ms, inside a frame, after a few hundred jumps).
        self._lines: LRUCache[tuple[object, ...], Strip] = LRUCache(LINE_CACHE)
        # The current step stays in view, never the session's end: following it, the first
        # resize scrolled the log to the last lines at step 0 (a jump to 0 showed the first).
        self._follow = False

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        # ScrollView's, not RollLog's: reaching the bottom must not start following the end.
        ScrollView.watch_scroll_y(self, old_value, new_value)

    def load(self, entries: Sequence[LogEntry]) -> None:
        self.entries = list(entries)
        self._lines.clear()
        self._visible = list(range(len(self.entries)))  # no filter in replay
        self._update(False)

    def show_step(self, current: range) -> None:
        """Highlight ``current`` (empty at the session's start) and bring it into view."""
        self.current = current
        self.refresh()
        target = current.start if current else 0
        y = max(0, target - max(0, self.size.height - 1) // 2)
        self.scroll_to(y=y, animate=False, immediate=True)

    def _phase(self, index: int) -> str:
        if index in self.current:
            return "current"
        return "past" if index < self.current.start else "future"

    def line_content(self, index: int, width: int = 0) -> Content:
        """One line; the current one is highlighted across ``width`` cells."""
        entry = self.entries[index]
        content = entry.content()
        if entry.void:
            content = content + Content.styled(f"  {self.void_label}", VOID_LABEL_STYLE)
        phase = self._phase(index)
        if phase == "current":
            line = Content.styled("▶ ", "bold $accent").append(content)
            return line.extend_right(max(0, width - line.cell_length)).stylize(CURRENT_STYLE)
        content = Content("  ").append(content)
        return content.stylize(FUTURE_STYLE) if phase == "future" else content

    def render_line(self, y: int) -> Strip:
        index = self.scroll_offset.y + y
        width = self.size.width
        if index >= len(self.entries):
            return Strip.blank(width, self.rich_style)
        key = (index, self.entries[index].key, self._phase(index), width, self.visual_style)
        strip = self._lines.get(key)
        if strip is None:
            content = self.line_content(index, width)
            strips = Visual.to_strips(self, content, width, 1, self.visual_style, pad=True)
            strip = strips[0] if strips else Strip.blank(width, self.rich_style)
            strip = strip.apply_offsets(0, index)
            self._lines[key] = strip
        return strip
