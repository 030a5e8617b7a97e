"""Lines of Content as Strips without Textual's generic rendering: the same segments, a
fraction of the cost.

``Visual.to_strips`` wraps, aligns, parses every span's style again (its parse cache lives for
one call), combines them and looks for links: ~0.5 ms a line, and a replay jump draws some
thirty log lines and a few roster cards never drawn before. :class:`LineStyles` keeps each
span stack's combined style across lines, so a line costs a walk over its spans.

Only the plain case is drawn here: lines that fit in their width, no tabs, no wide
characters, string styles without links, no selection, left/top alignment. Anything else gives
``None`` and the caller uses Textual's own rendering. Tests compare the strips with Textual's.
:class:`QuickStatic` is a ``Static`` drawn that way.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from operator import itemgetter
from typing import Self

from rich._wrap import divide_line  # private: the very wrapping Content uses
from rich.cells import cell_len
from rich.segment import Segment
from textual.cache import LRUCache
from textual.content import Content
from textual.geometry import Region
from textual.strip import Strip
from textual.style import Style
from textual.widget import Widget, _RenderCache  # private: see QuickStatic
from textual.widgets import Static

KEEP_LINES = (
    256  # lines a QuickStatic or a roster keeps drawn (a few strips each, in the collector)
)


class LineStyles:
    """Combined styles per (base style, span stack) for one widget, kept until the theme or
    the widget's own style changes."""

    def __init__(self, keep_lines: int = 0) -> None:
        self._key: tuple[object, ...] | None = None
        self._styles: dict[tuple[Style, tuple[str, ...]], Style | None] = {}
        # Lines drawn by block(), by what they depend on (see block): a replay jump redraws the
        # detail pane or a card whose lines mostly read as they did at some earlier step.
        self._lines: LRUCache[tuple[object, ...], list[Strip]] | None = (
            LRUCache(keep_lines) if keep_lines else None
        )

    def ready(self, widget: Widget) -> bool:
        """Whether ``widget``'s lines can be drawn here now (else: Textual's way)."""
        styles = widget.styles
        if widget.text_selection is not None or styles.content_align != ("left", "top"):
            return False
        if styles.text_align not in ("left", "start"):
            return False
        key = (widget.visual_style, widget.app.theme, widget.app.ansi_color)
        if key != self._key:
            # A new theme or base style: the $variables and the colours under them changed.
            self._key = key
            self._styles.clear()
            if self._lines is not None:
                self._lines.clear()
        return True

    def _style(self, widget: Widget, base: Style, stack: tuple[str, ...]) -> Style | None:
        """What Content.to_strip gives text under ``stack``: ``base + combine(base, *spans)``."""
        key = (base, stack)
        if key in self._styles:
            return self._styles[key]
        text_style = Style.combine([base, *(widget._get_style(s) for s in stack)])
        style: Style | None = base + text_style
        if style is not None and (style._meta is not None or style.link is not None):
            style = None  # links and meta need Textual's own handling (auto links)
        self._styles[key] = style
        return style

    def segments(
        self, widget: Widget, line: Content, base: Style, width: int, y: int | None, x: int = 0
    ) -> list[Segment] | None:
        """One line's segments as Content.to_strip gives them, with the selection offsets in
        their meta at row ``y`` (None: without them, for ``Strip.apply_offsets`` to add)."""
        text = line.plain
        if line.cell_length > width or line.cell_length != len(text) or "\t" in text:
            return None
        spans = line.spans
        pieces: list[tuple[str, tuple[str, ...]]]
        if not spans:  # Content.render gives the whole text in the base style, even if empty
            pieces = [(text, ())]
        else:
            pieces = []
            styles: list[str] = []
            for span in spans:
                if not isinstance(span.style, str):
                    return None
                styles.append(span.style)
            # Content.render's walk: span starts and ends in order, ends first at a tie.
            marks = [(0, False, 0)]
            marks += [(span.start, False, index) for index, span in enumerate(spans, 1)]
            marks += [(span.end, True, index) for index, span in enumerate(spans, 1)]
            marks.append((len(text), True, 0))
            marks.sort(key=itemgetter(0, 1))
            stack: list[int] = []
            for (offset, leaving, index), (end, _, _) in pairwise(marks):
                if leaving:
                    stack.remove(index)
                else:
                    stack.append(index)
                if end > offset:
                    pieces.append(
                        (text[offset:end], tuple(styles[i - 1] for i in sorted(stack) if i))
                    )
        return self.styled(widget, pieces, base, y, x)

    def styled(
        self,
        widget: Widget,
        pieces: Sequence[tuple[str, tuple[str, ...]]],
        base: Style,
        y: int | None,
        x: int = 0,
    ) -> list[Segment] | None:
        """Segments of ``pieces`` (text, and the styles of the spans over it in their order),
        with offsets at row ``y`` from column ``x``; None if a style needs Textual's way."""
        segments: list[Segment] = []
        for text, stack_key in pieces:
            style = self._style(widget, base, stack_key)
            if style is None:
                return None
            rich = style.rich_style if y is None else style.rich_style_with_offset(x, y)
            segments.append(Segment(text, rich))
            x += len(text)
        return segments

    def log_line(
        self, widget: Widget, content: Content, width: int, y: int | None = None
    ) -> Strip | None:
        """``content`` (one line) on ``widget``, padded to ``width``, as
        ``Visual.to_strips(widget, content, width, 1, widget.visual_style, pad=True)`` draws
        it; with ``y``, as ``Strip.apply_offsets(0, y)`` then makes it (in one pass, not two)."""
        if width <= 0 or "\n" in content.plain:
            return None
        segments = self.segments(widget, content, widget.visual_style, width, y)
        return self._padded(widget, segments, content.cell_length, width, y)

    def log_pieces(
        self, widget: Widget, pieces: list[tuple[str, tuple[str, ...]]], width: int, y: int
    ) -> Strip | None:
        """What :meth:`log_line` draws for the line whose :meth:`segments` walk gives
        ``pieces``, without making that line (printable text of one cell a character only)."""
        length = sum(len(text) for text, _ in pieces)
        if width <= 0 or length > width:
            return None
        if not all(text.isprintable() and cell_len(text) == len(text) for text, _ in pieces):
            return None
        segments = self.styled(widget, pieces, widget.visual_style, y)
        return self._padded(widget, segments, length, width, y)

    @staticmethod
    def _padded(
        widget: Widget, segments: list[Segment] | None, length: int, width: int, y: int | None
    ) -> Strip | None:
        if segments is None:
            return None
        if length < width:
            pad = widget.visual_style + Style(reverse=False)
            rich = pad.rich_style if y is None else pad.rich_style_with_offset(length, y)
            segments.append(Segment(" " * (width - length), rich))
        return Strip(segments, width)

    def block(
        self,
        widget: Widget,
        content: Content,
        base: Style,
        width: int,
        lines: Sequence[Content] | None = None,
    ) -> list[Strip] | None:
        """Every line of ``content`` in ``base``, unpadded, with their offsets, as
        ``Visual.to_strips(widget, content, width, None, base)`` draws them when they fit.

        With ``keep_lines``, a line drawn before (the same text and spans, at the same row,
        for the same look) is not drawn again. (Content's ``==`` compares the text only: the
        spans are in the key too.) ``lines``: ``content``'s lines, if the caller has them
        (``content.split`` costs more than drawing a line kept)."""
        if width <= 0:
            return None
        rules = widget.styles
        # Lines too long wrap as Content._wrap_and_format wraps them (in the default fold mode).
        wrap = rules.text_wrap == "wrap" and rules.text_overflow == "fold" and not rules.line_pad
        kept = self._lines
        strips: list[Strip] = []
        if not lines or not all(_as_split(line) for line in lines):  # (split gives one at least)
            lines = content.split(allow_blank=True)
        for y, line in enumerate(lines):
            if kept is not None:
                key = (self._key, line.plain, tuple(line.spans), y, len(strips), base, width, wrap)
                if (same := kept.get(key)) is not None:
                    strips += same
                    continue
                first = len(strips)
            pieces = [(0, line)]
            if line.cell_length > width and wrap:
                offsets = divide_line(line.plain, width, fold=True)
                parts = line.divide(offsets)
                pieces = [
                    (x, (part if n == len(parts) - 1 else part.rstrip()).truncate(width))
                    for n, (x, part) in enumerate(zip([0, *offsets], parts, strict=True))
                ]
                pieces = [(x, piece.rstrip_end(width)) for x, piece in pieces]
            for x, piece in pieces:
                segments = self.segments(widget, piece, base, width, y, x)
                if segments is None:
                    return None
                strips.append(Strip(segments, piece.cell_length))
            if kept is not None:
                kept[key] = strips[first:]
        return strips


def _as_split(line: Content) -> bool:
    """Whether ``line`` is what ``split`` gives back once it is joined with others: one line,
    and no empty span (split drops them; an empty line drawn with one has no segment)."""
    return "\n" not in line.plain and all(span.end > span.start for span in line.spans)


def render_content_quickly(widget: Widget, styles: LineStyles) -> bool:
    """What ``Widget._render_content`` does (Textual 8.2.8, private: the one place a widget's
    lines are made and cached), with ``styles`` drawing them; False (nothing done) when they
    cannot be drawn here, for the caller to call Textual's own."""
    width, height = widget.size
    visual = widget._render()
    strips = None
    if isinstance(visual, Content) and styles.ready(widget):
        strips = styles.block(widget, visual, widget.visual_style, width)
    if strips is None:
        return False
    widget._render_cache = _RenderCache(widget.size, strips[:height])
    widget._dirty_regions.clear()
    return True


class QuickStatic(Static):
    """A ``Static`` whose Content is drawn by :class:`LineStyles` when every line fits;
    :meth:`show` redraws only the rows that changed."""

    def __init__(
        self, content: str | Content = "", *, id: str | None = None, keep_lines: int = KEEP_LINES
    ) -> None:
        super().__init__(content, id=id)
        self._styles = LineStyles(keep_lines)
        # What show() drew ahead, and for which look (see _look).
        self._drawn: tuple[Content, tuple[object, ...]] | None = None
        self._changed_rows: list[int] | None = None  # what show() asks refresh() to redraw

    def _look(self) -> tuple[object, ...]:
        return (self.visual_style, self.app.theme, self.app.ansi_color, self.size)

    def show(self, content: Content, lines: Sequence[Content] | None = None) -> None:
        """``update(content, layout=False)``, redrawing only the rows whose strips changed:
        a replay jump that keeps the same character changes a few rows of sixteen.
        ``lines``: the lines ``content`` joins, if the caller has them."""
        old = self._render_cache  # private in Textual 8.2.8: the lines Widget.render_line shows
        size = self.size
        strips = None
        # Lines drawn and none waiting to be (a refresh from elsewhere draws them all again).
        drawn = self.is_mounted and not self._dirty_regions and old.size == size and size
        if drawn and self._styles.ready(self):
            strips = self._styles.block(self, content, self.visual_style, size.width, lines)
        if strips is None:
            self.update(content, layout=False)
            return
        strips = strips[: size.height]
        changed = [
            y
            for y in range(max(len(strips), len(old.lines)))
            if y >= len(strips) or y >= len(old.lines) or strips[y] != old.lines[y]
        ]
        self._changed_rows = changed  # Static.update's refresh(), narrowed to them
        try:
            self.update(content, layout=False)
        finally:
            self._changed_rows = None
        self._render_cache = _RenderCache(size, strips)
        self._drawn = (content, self._look())

    def refresh(
        self,
        *regions: Region,
        repaint: bool = True,
        layout: bool = False,
        recompose: bool = False,
    ) -> Self:
        rows = self._changed_rows
        if rows is None or regions or layout or recompose or not repaint:
            self._drawn = None  # anything else (a theme, a resize) draws every line again
            return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)
        if rows:
            width = self.size.width
            super().refresh(*(Region(0, y, width, 1) for y in rows))
        return self  # no row changed: nothing to draw again

    def _render_content(self) -> None:
        # Private in Textual 8.2.8 (see render_content_quickly): the detail pane's text is
        # ~2.5 ms a jump through Visual.to_strips.
        drawn = self._drawn
        if drawn is not None and drawn[0] is self.visual and drawn[1] == self._look():
            self._dirty_regions.clear()  # show() made these lines: only its rows are redrawn
            return
        self._drawn = None
        if not render_content_quickly(self, self._styles):
            super()._render_content()
