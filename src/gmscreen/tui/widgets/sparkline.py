"""The detail pane's sparkline, drawn through Textual's line API.

Textual's ``Sparkline`` renders a Rich renderable: each time its data changes (every move of
the roster's cursor, every gain) the whole widget goes through Rich's console, segment by
segment, with a Rich colour blended per bar: about a fifth of the detail pane's redraw after a
dialog closes. :class:`LineSparkline` is that widget (same CSS, component classes, ``data`` and
``summary_function``), drawing the same bars, in the same colours, as one :class:`Strip` per row,
kept in a small cache by what they were drawn from: a character shown before is drawn again from
the cache, and a new history costs a few hundred arithmetic steps, no Rich rendering.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.cache import LRUCache
from textual.color import Color
from textual.strip import Strip
from textual.widgets import Sparkline

BARS = "▁▂▃▄▅▆▇█"  # as Textual's renderable draws them, lowest first
KEEP = 32  # histories kept drawn: the characters the GM moved through lately


def buckets(data: Sequence[float], count: int) -> list[Sequence[float]]:
    """``data`` in ``count`` consecutive parts (empty parts left out), as Textual's renderable
    partitions it: part ``n`` is ``data[len*n//count : len*(n+1)//count]``."""
    size = len(data)
    parts = (data[size * n // count : size * (n + 1) // count] for n in range(count))
    return [part for part in parts if part]


def bar_rows(
    data: Sequence[float],
    width: int,
    height: int,
    summary: object,
) -> list[list[tuple[str, float | None]]]:
    """The bars, row by row from the top: each cell's character and the height ratio its colour
    is blended by (``None``: a blank cell, no colour). The same arithmetic as Textual's
    ``textual.renderables.sparkline.Sparkline``, so that the drawing does not change."""
    if not data:
        return [[] for _ in range(height - 1)] + [[("▁" * width, 0.0)]]
    if len(data) == 1:
        return [[("█" * width, 1.0)] for _ in range(height)]
    assert callable(summary)
    per_row = len(BARS)
    segments = per_row * height - 1
    low, high = min(data), max(data)
    extent = high - low or 1
    parts = buckets(data, width)
    ratios = []
    index, step = 0.0, len(parts) / width
    for _ in range(width):
        ratios.append((summary(parts[int(index)]) - low) / extent)
        index += step
    rows: list[list[tuple[str, float | None]]] = []
    for row in reversed(range(height)):
        bottom, top = row * per_row, (row + 1) * per_row
        cells: list[tuple[str, float | None]] = []
        for ratio in ratios:
            bar = int(ratio * segments)
            if bar < bottom:
                cells.append((" ", None))
            elif bar >= top:
                cells.append(("█", ratio))
            else:
                cells.append((BARS[bar % per_row], ratio))
        rows.append(cells)
    return rows


class LineSparkline(Sparkline):
    """Textual's ``Sparkline``, drawn one row at a time from cached strips: see the module."""

    def __init__(self, data: Sequence[float] | None = None, *, id: str | None = None) -> None:
        super().__init__(data, id=id)
        self._drawn: LRUCache[tuple[object, ...], list[Strip]] = LRUCache(KEEP)

    def _colors(self) -> tuple[Color, Color]:
        """The colours of the lowest and the highest bar, over the background (as Sparkline)."""
        _, base = self.background_colors
        low = self.min_color
        if low is None:
            low = self.get_component_styles("sparkline--min-color").color
        high = self.max_color
        if high is None:
            high = self.get_component_styles("sparkline--max-color").color
        return base + low, base + high

    def render_line(self, y: int) -> Strip:
        width, height = self.size
        style = self.visual_style.rich_style
        low, high = self._colors()
        data = tuple(self.data or ())
        key = (data, width, height, low, high, style, self.summary_function)
        strips = self._drawn.get(key)
        if strips is None:
            rows = bar_rows(data, width, height, self.summary_function)
            strips = [self._strip(cells, width, style, low, high) for cells in rows]
            self._drawn[key] = strips
        return strips[y] if y < len(strips) else Strip.blank(width, style)

    @staticmethod
    def _strip(
        cells: list[tuple[str, float | None]],
        width: int,
        style: RichStyle,
        low: Color,
        high: Color,
    ) -> Strip:
        segments = []
        for text, ratio in cells:
            if ratio is None:
                segments.append(Segment(text, style))
            else:
                color = blend(low, high, ratio)
                segments.append(Segment(text, style + RichStyle(color=color.rich_color)))
        return Strip(segments).extend_cell_length(width, style).simplify()


def blend(low: Color, high: Color, ratio: float) -> Color:
    """The colour ``ratio`` of the way from ``low`` to ``high``, each channel rounded down (as
    Textual's renderable blends its Rich colours)."""
    return Color(
        int(low.r + (high.r - low.r) * ratio),
        int(low.g + (high.g - low.g) * ratio),
        int(low.b + (high.b - low.b) * ratio),
    )
