"""A sparkline that draws its lines directly: the same strips as Textual's, a tenth of the cost.

Textual's ``Sparkline`` renders a Rich renderable through the generic machinery (a console
render, a style applied to each of its segments, lines split and cropped, links looked for):
~3 ms for the detail pane's 3 x 40 cells, on every replay jump. :class:`QuickSparkline` builds
the same segments itself, with one style per bar height rather than one per cell, and keeps
them until the data, size or colours change. Tests compare its strips with Textual's.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.geometry import Region
from textual.renderables._blend_colors import blend_colors
from textual.strip import Strip
from textual.widgets import Sparkline

# blend_colors is private in Textual 8.2.8, used on purpose: the bar colours must be the very
# ones Textual's Sparkline blends (a copy could drift on a bump; the tests would say so).
BARS = "▁▂▃▄▅▆▇█"  # Textual's Sparkline.BARS


def _buckets(data: Sequence[float], count: int) -> list[Sequence[float]]:
    """``data`` in ``count`` parts, the empty ones left out (as Textual's Sparkline does).

    Textual cuts at ``int(Fraction(len(data), count) * n)``: the same integers, without the
    Fractions (half the time of a whole draw)."""
    size = len(data)
    parts = (data[size * n // count : size * (n + 1) // count] for n in range(count))
    return [part for part in parts if part]


def spark_lines(
    data: Sequence[float],
    width: int,
    height: int,
    base: RichStyle,
    min_color: RichStyle,
    max_color: RichStyle,
) -> list[list[Segment]]:
    """The lines of segments Textual's Sparkline renderable gives once ``base`` is applied
    to them and they are split into lines (``width`` > 0, ``height`` > 0, max as summary)."""

    def styled(style: RichStyle | None) -> RichStyle | None:
        combined = base + style if base else style
        return combined if combined else None  # a null style is dropped, as links are applied

    if not data:
        bottom = [Segment("▁" * width, styled(min_color))] if width else []
        return [*([] for _ in range(height - 1)), bottom]
    if len(data) == 1:
        return [[Segment("█" * width, styled(max_color))] for _ in range(height)]
    low, high = min(data), max(data)
    extent = high - low or 1
    segments_per_bar = len(BARS) * height - 1
    low_color, high_color = min_color.color, max_color.color
    assert low_color is not None and high_color is not None
    buckets = _buckets(data, width)
    # Which bucket each cell shows: the same float steps as Textual, so the same rounding.
    columns: list[tuple[int, RichStyle | None]] = []
    styles: dict[float, RichStyle | None] = {}
    step = len(buckets) / width
    at = 0.0
    for _ in range(width):
        ratio = (max(buckets[int(at)]) - low) / extent
        if ratio not in styles:
            styles[ratio] = styled(RichStyle.from_color(blend_colors(low_color, high_color, ratio)))
        columns.append((int(ratio * segments_per_bar), styles[ratio]))
        at += step
    blank = styled(None)
    lines: list[list[Segment]] = []
    for row in reversed(range(height)):
        floor, ceiling = row * len(BARS), (row + 1) * len(BARS)
        line: list[Segment] = []
        for bar, style in columns:
            if bar < floor:
                line.append(Segment(" ", blank))
            elif bar >= ceiling:
                line.append(Segment("█", style))
            else:
                line.append(Segment(BARS[bar % len(BARS)], style))
        lines.append(line)
    return lines


class QuickSparkline(Sparkline):
    """Textual's ``Sparkline`` (same CSS, component classes and data), drawn line by line.

    Only the default summary (``max``) and the colours from CSS are drawn directly; anything
    else, or a style carrying links, goes through Textual's own rendering.
    """

    def __init__(self, data: Sequence[float] | None = None, *, id: str | None = None) -> None:
        super().__init__(data, id=id)
        self._drawn: tuple[object, ...] | None = None
        self._kept: list[Strip] | None = None  # the lines drawn for _drawn
        self._strips: list[Strip] | None = None  # the lines shown (None: Textual's way)
        self._frame = False  # while render_lines draws
        self._ready = False  # _strips are this frame's

    def _direct(self) -> bool:
        return (
            self.min_color is None
            and self.max_color is None
            and self.summary_function is max
            and self.text_selection is None
        )

    def render_lines(self, crop: Region) -> list[Strip]:
        self._frame, self._ready = True, False  # the frame's first render_line draws them all
        try:
            return super().render_lines(crop)
        finally:
            self._frame = False

    def render_line(self, y: int) -> Strip:
        if not self._ready:  # once a frame (render_lines), not once a line
            self._ready = self._frame
            self._strips = self._draw()
        if self._strips is None:
            return super().render_line(y)
        if y < len(self._strips):
            return self._strips[y]
        return Strip.blank(self.size.width, self.visual_style.rich_style)

    def _draw(self) -> list[Strip] | None:
        """The lines, drawn again only if the data, size or colours changed (None: Textual's
        way)."""
        width, height = self.size
        base = self.visual_style.rich_style
        if not self._direct() or base._meta or width <= 0 or height <= 0:
            self._drawn = None
            return None
        _, background = self.background_colors
        low = background + self.get_component_styles("sparkline--min-color").color
        high = background + self.get_component_styles("sparkline--max-color").color
        data = tuple(self.data or ())
        key = (data, width, height, base, low, high)
        if key != self._drawn or self._kept is None:
            lines = spark_lines(
                data,
                width,
                height,
                base,
                RichStyle.from_color(low.rich_color),
                RichStyle.from_color(high.rich_color),
            )
            self._kept = [Strip(line, width if line else 0) for line in lines]
            self._drawn = key
        return self._kept
