"""The detail pane's sparkline draws what Textual's Sparkline drew, through the line API."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from textual.app import App, ComposeResult
from textual.color import Color
from textual.renderables.sparkline import Sparkline as RichSparkline
from textual.strip import Strip
from textual.widgets import Sparkline

from gmscreen.tui.widgets.sparkline import LineSparkline, bar_rows, blend

LOW = Color(10, 40, 200)
HIGH = Color(250, 120, 30)

Cells = list[tuple[str, tuple[int, int, int] | None]]


def textual_cells(data: Sequence[int], width: int, height: int) -> list[Cells]:
    """Textual's own renderable, rendered by Rich: each cell's character and colour."""
    console = Console(width=width, color_system="truecolor", force_terminal=True)
    spark = RichSparkline(
        data, width=width, height=height, min_color=LOW.rich_color, max_color=HIGH.rich_color
    )
    rows: list[Cells] = []
    for line in console.render_lines(spark, console.options.update_width(width), pad=True):
        cells: Cells = []
        for segment in line:
            color = segment.style.color if segment.style else None
            triplet = color.get_truecolor() if color is not None and segment.text != " " else None
            rgb = None if triplet is None else (triplet.red, triplet.green, triplet.blue)
            cells += [(char, rgb) for char in segment.text]
        rows.append(cells)
    return rows


def our_cells(data: Sequence[int], width: int, height: int) -> list[Cells]:
    rows: list[Cells] = []
    for row in bar_rows(data, width, height, max):
        cells: Cells = []
        for text, ratio in row:
            rgb = None
            if ratio is not None and text != " ":
                color = blend(LOW, HIGH, ratio)
                rgb = (color.r, color.g, color.b)
            cells += [(char, rgb) for char in text]
        cells += [(" ", None)] * (width - len(cells))
        rows.append(cells)
    return rows


@settings(max_examples=300, deadline=None)
@given(
    data=st.lists(st.integers(min_value=0, max_value=300), max_size=150),
    width=st.integers(min_value=1, max_value=60),
    height=st.integers(min_value=1, max_value=4),
)
def test_the_bars_and_their_colours_are_textuals(data: list[int], width: int, height: int) -> None:
    assert our_cells(data, width, height) == textual_cells(data, width, height)


class TwoSparklines(App[None]):
    CSS = "Sparkline { height: 3; width: 40; }"

    def compose(self) -> ComposeResult:
        history = [0, 3, 3, 7, 12, 9, 4, 4, 14, 7, 6, 5, 5, 4]
        yield Sparkline(history, id="textual")
        yield LineSparkline(history, id="ours")


def text_and_styles(strip: Strip) -> list[tuple[str, object]]:
    return [(char, segment.style) for segment in strip for char in segment.text]


def test_the_widget_draws_as_textuals_on_the_screen() -> None:
    """Drawn in an app, with the theme's colours and the widget's background: cell for cell
    what Textual's widget draws."""

    async def go() -> None:
        app = TwoSparklines()
        async with app.run_test(size=(50, 8)) as pilot:
            await pilot.pause()
            textual = app.query_one("#textual", Sparkline)
            ours = app.query_one("#ours", LineSparkline)
            for y in range(3):
                drawn = text_and_styles(ours.render_line(y))
                assert drawn == text_and_styles(textual.render_line(y))

    asyncio.run(go())
