"""LineStyles draws lines of Content exactly as Textual's Visual.to_strips does (wrapped in a
Static), or declines; QuickStatic draws what Static draws."""

from __future__ import annotations

import asyncio
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.segment import Segment
from textual.app import App, ComposeResult
from textual.content import Content
from textual.strip import Strip
from textual.style import Style
from textual.visual import Visual
from textual.widgets import Static

from gmscreen.tui.widgets.fast_lines import LineStyles, QuickStatic

STYLES = [
    "",
    "bold",
    "dim",
    "strike dim",
    "italic $text-warning",
    "bold $accent",
    "bold on $accent 35%",
    "$foreground 45%",
    "$text-muted",
    "bold reverse $error",
    "bold $text on $error",
    "$success",
]
TEXT = st.text(alphabet="ab c◆▶█▁─:+-0", max_size=12)
PART = st.one_of(TEXT, st.tuples(TEXT, st.sampled_from(STYLES)))


@st.composite
def contents(draw: st.DrawFn, lines: int = 1) -> Content:
    """Lines assembled from styled parts, some restyled over a range, as the widgets do."""
    out: list[Content] = []
    for _ in range(lines):
        line = Content.assemble(*draw(st.lists(PART, max_size=6)))
        for _ in range(draw(st.integers(0, 2))):
            start = draw(st.integers(0, len(line.plain)))
            end = draw(st.integers(start, len(line.plain)))
            line = line.stylize(draw(st.sampled_from(STYLES)), start, end)
        if draw(st.booleans()):
            line = line.extend_right(draw(st.integers(0, 5)))
        out.append(line)
    return Content("\n").join(out)


def cells(strip: Strip) -> list[tuple[str, object, object]]:
    """Each segment: text, style without meta, and the meta (compared as data, not bytes)."""
    return [
        (text, style.clear_meta_and_links() if style else None, style.meta if style else None)
        for text, style, _ in strip
    ]


def same(a: list[Segment], b: list[Segment]) -> bool:
    return cells(Strip(a)) == cells(Strip(b))


class Lines(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("x", id="plain")


def test_log_lines_and_blocks_match_textuals() -> None:
    app = Lines()
    drawn = 0

    async def run() -> None:
        nonlocal drawn
        async with app.run_test(size=(80, 10)):
            widget = app.query_one(Static)
            styles = LineStyles()
            assert styles.ready(widget)

            @settings(max_examples=400, deadline=None)
            @given(content=contents(), width=st.integers(1, 40), row=st.integers(0, 500))
            def log_line(content: Content, width: int, row: int) -> None:
                nonlocal drawn
                quick = styles.log_line(widget, content, width)
                if quick is None:
                    assert content.cell_length > width
                    return
                strips = Visual.to_strips(widget, content, width, 1, widget.visual_style, pad=True)
                assert quick.cell_length == strips[0].cell_length == width
                assert same(
                    list(quick.apply_offsets(0, row)), list(strips[0].apply_offsets(0, row))
                )
                with_offsets = styles.log_line(widget, content, width, row)
                assert with_offsets is not None and with_offsets.cell_length == width
                assert same(list(with_offsets), list(strips[0].apply_offsets(0, row)))
                assert same(
                    list(quick),
                    [Segment(t, s.clear_meta_and_links() if s else s) for t, s, _ in strips[0]],
                )
                drawn += 1

            @settings(max_examples=300, deadline=None)
            @given(
                content=st.integers(1, 6).flatmap(lambda n: contents(n)),
                width=st.integers(1, 40),
                highlighted=st.booleans(),
            )
            def block(content: Content, width: int, highlighted: bool) -> None:
                nonlocal drawn
                base = widget.visual_style
                if highlighted:
                    base = base + Style.parse("bold on $accent")
                quick = styles.block(widget, content, base, width)
                assert quick is not None  # a Static wraps: lines too long are wrapped here too
                strips = Visual.to_strips(widget, content, width, None, base)
                assert [s.cell_length for s in quick] == [s.cell_length for s in strips]
                assert all(same(list(q), list(s)) for q, s in zip(quick, strips, strict=True))
                drawn += 1

            log_line()
            block()

    asyncio.run(run())
    assert drawn > 200  # most examples fit, so most were drawn directly


class Shown(App[None]):
    CSS = "QuickStatic { border: round red; padding: 0 1; height: 8; width: 24; }"

    def compose(self) -> ComposeResult:
        yield QuickStatic("", id="shown")


def test_show_redraws_the_rows_that_changed_as_a_full_redraw_would() -> None:
    """QuickStatic.show redraws only the rows whose strips changed: after each, the screen is
    the one that redrawing every row gives (a row it missed would stay stale)."""
    rng = random.Random(11)
    pieces = ["ab", "c◆ ", "▶ b", "a" * 30, "0:1", ""]

    def random_lines() -> list[Content]:
        return [
            Content.assemble(*[(rng.choice(pieces), rng.choice(STYLES)) for _ in range(3)])
            for _ in range(rng.randint(0, 9))
        ]

    async def run() -> int:
        app = Shown()
        partial = 0
        async with app.run_test(size=(40, 12)) as pilot:
            widget = app.query_one(QuickStatic)
            await pilot.pause()
            lines = random_lines()
            for _ in range(120):
                if rng.random() < 0.7 and lines:  # often only a line changes, as in a replay
                    lines[rng.randrange(len(lines))] = Content("\n").join(random_lines()[:2])
                else:
                    lines = random_lines()
                content = Content("\n").join(lines)
                # with its lines (some holding a newline) or without: the same strips
                widget.show(content, list(lines) if rng.random() < 0.5 else None)
                rows = widget._repaint_regions  # private (8.2.8): what the frame redraws
                partial += bool(rows) and all(row.height == 1 for row in rows)
                await pilot.pause()
                shown = [list(s) for s in app.screen._compositor.render_strips()]
                widget.refresh()
                await pilot.pause()
                assert [list(s) for s in app.screen._compositor.render_strips()] == shown
                assert widget.visual is content
        return partial

    assert asyncio.run(run()) > 10  # most shows redrew some rows only
