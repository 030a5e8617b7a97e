"""QuickSparkline draws exactly what Textual's Sparkline draws, for less."""

from __future__ import annotations

import asyncio
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.color import Color
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.geometry import Region
from textual.renderables.sparkline import Sparkline as SparklineRenderable
from textual.widgets import Sparkline

from gmscreen.tui.widgets.sparkline import QuickSparkline, spark_lines

WIDTHS = (1, 2, 3, 7, 40, 121)
HEIGHTS = (1, 3, 4)


def textual_lines(
    data: list[float], width: int, height: int, base: Style, low: Style, high: Style
) -> list[list[Segment]]:
    """Textual's renderable, its segments styled and split as a widget's render does."""
    assert low.color is not None and high.color is not None
    renderable = SparklineRenderable(
        data, width=width, height=height, min_color=low.color, max_color=high.color
    )
    console = Console(width=width, color_system="truecolor")
    segments = console.render(renderable, console.options.update_width(width))
    if base:
        segments = (Segment(text, base + style) for text, style, _ in segments)
    lines = Segment.split_and_crop_lines(segments, width, include_new_lines=False, pad=False)
    return [[Segment(text, style if style else None) for text, style, _ in line] for line in lines]


numbers = st.one_of(
    st.integers(-50, 200), st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False)
)


@settings(max_examples=300, deadline=None)
@given(
    data=st.lists(numbers, max_size=150),
    width=st.integers(1, 130),
    height=st.integers(1, 5),
    bold=st.booleans(),
)
def test_the_same_segments_as_textuals_renderable(
    data: list[float], width: int, height: int, bold: bool
) -> None:
    base = Style(color="#e0e0e0", bgcolor="#1e1e1e", bold=bold)
    low = Style.from_color(Color.from_rgb(10, 60, 90))
    high = Style.from_color(Color.from_rgb(0, 120, 215))
    assert spark_lines(data, width, height, base, low, high) == textual_lines(
        data, width, height, base, low, high
    )


class Pair(Horizontal):
    DEFAULT_CSS = "Pair { height: auto; } Pair > * { margin-right: 1; }"


class Sparks(App[None]):
    CSS = "Vertical { background: $panel; }"

    def compose(self) -> ComposeResult:
        with Vertical():
            for width in WIDTHS:
                for height in HEIGHTS:
                    with Pair():
                        for spark in (Sparkline([]), QuickSparkline([])):
                            spark.styles.width, spark.styles.height = width, height
                            yield spark


def test_the_same_strips_as_textuals_widget() -> None:
    rng = random.Random(3)
    cases: list[list[float]] = [[], [5], [4, 4], [0, 1], [3, -2, 7.5]]
    for _ in range(25):
        size = rng.choice((2, 3, 10, 120, 121, 300))
        cases.append([rng.randint(0, 40) for _ in range(size)])
    app = Sparks()
    compared = 0

    async def run() -> None:
        nonlocal compared
        async with app.run_test(size=(140, 60)) as pilot:
            pairs = list(app.query(Pair))
            for data in cases:
                for pair in pairs:
                    for spark in pair.query(Sparkline):
                        spark.data = data
                await pilot.pause()
                for pair in pairs:
                    textual, quick = pair.query(Sparkline)
                    assert isinstance(quick, QuickSparkline)
                    width, height = quick.size
                    assert (width, height) in {(w, h) for w in WIDTHS for h in HEIGHTS}
                    region = Region(0, 0, width, height)
                    assert quick.render_lines(region) == textual.render_lines(region), data
                    assert [quick.render_line(y) for y in range(height)] == [
                        textual.render_line(y) for y in range(height)
                    ]
                    compared += 1

    asyncio.run(run())
    assert compared == len(cases) * len(WIDTHS) * len(HEIGHTS)
