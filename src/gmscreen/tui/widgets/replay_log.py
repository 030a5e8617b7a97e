"""The roll log in replay: the whole session, the current event highlighted, what is still to
come dimmed, undone events struck through with a label.

A :class:`RollLog` (the same lines and cache-per-line rendering as the GM's screen) that also
knows which lines are the current step.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.color import Color
from textual.cache import LRUCache
from textual.content import Content
from textual.geometry import Region
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.strip import Strip
from textual.visual import Visual
from textual.widget import _RenderCache

from gmscreen.tui.widgets.fast_lines import LineStyles
from gmscreen.tui.widgets.roll_log import LogEntry, RollLog

SCROLLBAR_KEEP = 128  # the log scrollbar's renderings kept: a 10-row bar has ~80 positions

CURRENT_STYLE = "bold on $accent 35%"
FUTURE_STYLE = "$foreground 45%"
VOID_LABEL_STYLE = "italic $text-warning"
LINE_CACHE = 128  # rendered lines kept: a few screens of them, in their three phases


class QuickScrollBar(ScrollBar):
    """Textual's ScrollBar, keeping its lines by the bar they show.

    A replay jump moves the log's thumb; drawn again through Rich (a console render, lines
    split and cropped), the 10-row bar cost ~1 ms a jump. Its rows are what
    ``ScrollBarRender.render_bar`` gives for this size (the renderable Textual draws yields just
    that), so the lines drawn for the same bar, size and style are reused."""

    def __init__(self, vertical: bool = True, name: str | None = None, thickness: int = 1):
        super().__init__(vertical, name=name, thickness=thickness)
        self._kept: LRUCache[tuple[object, ...], list[Strip]] = LRUCache(SCROLLBAR_KEEP)

    def _render_content(self) -> None:
        # Private in Textual 8.2.8 (Widget._render_content, _RenderCache): see fast_lines.
        size = self.size
        bar = self.render()
        if type(bar) is not ScrollBarRender or not self.vertical:
            super()._render_content()
            return
        style = self.app.console.get_style(bar.style)
        # As ScrollBarRender.__rich_console__ calls it, drawn at this size (RichVisual renders
        # with the widget's width and height).
        segments = bar.render_bar(
            size=size.height,
            window_size=bar.window_size,
            virtual_size=bar.virtual_size,
            position=bar.position,
            vertical=True,
            thickness=size.width,
            back_color=style.bgcolor or Color.parse("#555555"),
            bar_color=style.color or Color.parse("bright_magenta"),
        )
        key = (tuple(segments.segments), size, self.visual_style)
        lines = self._kept.get(key)
        if lines is None:
            super()._render_content()
            self._kept[key] = self._render_cache.lines
        else:
            self._render_cache = _RenderCache(size, lines)
            self._dirty_regions.clear()


class ReplayLog(RollLog):
    def __init__(self, void_label: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.void_label = void_label
        self.current = range(0)  # indices of the current step's lines
        # Small on purpose: a step only restyles the lines in view, and each cached Strip is
        # some thirty objects that every full pass of the cyclic collector walks (1,024 of
        # them made those passes 50-100 ms, inside a frame, after a few hundred jumps).
        self._lines: LRUCache[tuple[int, str, str, int, bool], Strip] = LRUCache(LINE_CACHE)
        # The current step stays in view, never the session's end: following it, the first
        # resize scrolled the log to the last lines at step 0 (a jump to 0 showed the first).
        self._follow = False
        self._styles = LineStyles()
        self._direct = False  # whether lines are drawn by LineStyles (render_lines says)

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        # Widget's (Textual 8.2.8: _vertical_scrollbar and App._start_widget are private),
        # with a QuickScrollBar.
        if self._vertical_scrollbar is None:
            bar = QuickScrollBar(
                vertical=True, name="vertical", thickness=self.scrollbar_size_vertical
            )
            bar.display = False
            self._vertical_scrollbar = bar
            self.app._start_widget(self, bar)
        return self._vertical_scrollbar

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

    def line_pieces(self, index: int, width: int = 0) -> list[tuple[str, tuple[str, ...]]]:
        """The pieces LineStyles.segments walks out of ``line_content(index, width)``: each
        stretch of text between two span edges, with the styles of the spans over it in their
        order (the entry's own, its strike-through, the phase's), made without the Content."""
        entry = self.entries[index]
        phase = self._phase(index)
        # (text, its own span's style or None, whether the entry's strike-through covers it)
        runs: list[tuple[str, str | None, bool]] = []
        runs.append(("▶ ", "bold $accent", False) if phase == "current" else ("  ", None, False))
        for part in entry.parts():
            text, style = (part, None) if isinstance(part, str) else (part[0], part[1] or None)
            if style is None and runs[-1][1] is None and len(runs) > 1:
                runs[-1] = (runs[-1][0] + text, None, entry.void)  # no span edge between them
            else:
                runs.append((text, style, entry.void))  # even empty: a span edge
        if entry.void:
            runs.append((f"  {self.void_label}", VOID_LABEL_STYLE, False))
        if phase == "current":
            # extend_right lengthens the spans that end with the text: the last run's
            length = sum(len(text) for text, _, _ in runs)
            last, style, void = runs[-1]
            runs[-1] = (last + " " * max(0, width - length), style, void)
        over = {"current": (CURRENT_STYLE,), "future": (FUTURE_STYLE,)}.get(phase, ())
        return [
            (text, (*((style,) if style else ()), *(("strike dim",) if void else ()), *over))
            for text, style, void in runs
            if text
        ]

    def render_lines(self, crop: Region) -> list[Strip]:
        self._direct = self._styles.ready(self)  # once a frame, not once a line
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        index = self.scroll_offset.y + y
        width = self.size.width
        if index >= len(self.entries):
            return Strip.blank(width, self.rich_style)
        direct = self._direct
        key = (index, self.entries[index].key, self._phase(index), width, direct)
        strip = self._lines.get(key)
        if strip is None:
            # Drawn directly when it can be (the same strip, ~10x faster, its selection offsets
            # made with it); Textual's way if not.
            quick = None
            if direct:
                quick = self._styles.log_pieces(self, self.line_pieces(index, width), width, index)
            if quick is not None:
                strip = quick
            else:
                content = self.line_content(index, width)
                strips = Visual.to_strips(self, content, width, 1, self.visual_style, pad=True)
                strip = strips[0] if strips else Strip.blank(width, self.rich_style)
                strip = strip.apply_offsets(0, index)
            self._lines[key] = strip
        return strip
