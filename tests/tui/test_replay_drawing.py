"""Replay, drawing for less: the cards, log lines, timeline and texts drawn by LineStyles are
Textual's strips, and redrawing only the cards that changed leaves the screen as a full redraw would."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.segment import Segment
from tests.tui.conftest import SIZE
from tests.tui.replay_helpers import build_replay, copy_example
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.strip import Strip
from textual.visual import Visual
from textual.widgets import OptionList

from gmscreen.tui.replay_app import ReplayApp
from gmscreen.tui.screens.replay import ReplayScreen
from gmscreen.tui.widgets.fast_lines import QuickStatic
from gmscreen.tui.widgets.replay_log import QuickScrollBar, ReplayLog
from gmscreen.tui.widgets.roll_log import OUTCOME_STYLES, LogEntry
from gmscreen.tui.widgets.roster import Roster
from gmscreen.tui.widgets.timeline import Timeline


def cells(strips: list[Strip]) -> list[list[tuple[str, object, object]]]:
    """Each segment: text, style without meta, and the meta (compared as data, not bytes)."""
    return [
        [
            (text, style.clear_meta_and_links() if style else None, style.meta if style else None)
            for text, style, _ in strip
        ]
        for strip in strips
    ]


def test_cards_log_lines_and_texts_are_textuals_strips(tmp_path: Path) -> None:
    folder = copy_example(tmp_path)

    async def run() -> int:
        app: ReplayApp = build_replay(folder)
        compared = 0
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            roster = screen.query_one(Roster)
            log = screen.query_one(ReplayLog)
            styles = [
                roster.get_visual_style(name)
                for name in ("option-list--option", "option-list--option-highlighted")
            ]
            pairs: list[tuple[Strip, Strip]] = []
            own = roster.render_line

            def spy(y: int) -> Strip:
                pairs.append((own(y), OptionList.render_line(roster, y)))
                return pairs[-1][0]

            for step in range(screen.steps.count + 1):
                screen.go(step)
                await pilot.pause()
                for option in roster.options:
                    for style in styles:
                        roster._option_render_cache.clear()
                        quick = roster._get_option_render(option, style)
                        roster._option_render_cache.clear()
                        textual = OptionList._get_option_render(roster, option, style)
                        assert cells(quick) == cells(textual), (step, option.id)
                        compared += 1
                # The roster's own render_line, as the frame calls it, against OptionList's.
                pairs.clear()
                roster.render_line = spy  # type: ignore[method-assign]
                roster._styles_cache.clear()
                roster.render_lines(Region(0, 0, *roster.outer_size))
                del roster.render_line
                assert len(pairs) == roster.size.height
                for quick_line, textual_line in pairs:
                    assert cells([quick_line]) == cells([textual_line]), step
                timeline = screen.query_one(Timeline)  # drawn directly too
                timeline._render_content()
                assert cells(timeline._render_cache.lines) == cells(
                    Visual.to_strips(
                        timeline,
                        timeline._render(),
                        timeline.size.width,
                        timeline.size.height,
                        timeline.visual_style,
                    )
                ), step
                for text in screen.query(QuickStatic):  # the header and the detail pane's text
                    size = text.size
                    text._render_content()
                    quick_lines = text._render_cache.lines
                    textual_lines = Visual.to_strips(
                        text, text._render(), size.width, size.height, text.visual_style
                    )
                    assert cells(quick_lines) == cells(textual_lines), (step, text.id)
                    compared += 1
                width = log.size.width
                for index in range(len(log.entries)):
                    line = log.line_content(index, width)
                    quick_line = log._styles.log_line(log, line, width)
                    if quick_line is None:
                        continue
                    (textual_line,) = Visual.to_strips(
                        log, line, width, 1, log.visual_style, pad=True
                    )
                    textual_at_index = cells([textual_line.apply_offsets(0, index)])
                    assert cells([quick_line.apply_offsets(0, index)]) == textual_at_index
                    assert cells([log.render_line(index - log.scroll_offset.y)]) == (
                        textual_at_index
                    )
                    compared += 1
        return compared

    assert asyncio.run(run()) > 100


def screen_text(app: ReplayApp) -> list[list[Segment]]:
    """The screen as composited, from the widgets' cached lines where they were not redrawn."""
    return [list(strip) for strip in app.screen._compositor.render_strips()]


def test_redrawing_only_changed_cards_and_rows_leaves_the_screen_as_a_full_redraw(
    tmp_path: Path,
) -> None:
    folder = copy_example(tmp_path)
    rng = random.Random(5)

    async def run() -> None:
        app: ReplayApp = build_replay(folder)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            roster = screen.query_one(Roster)
            for _ in range(25):
                screen.go(rng.randint(0, screen.steps.count))
                await pilot.pause()
                partly = screen_text(app)
                roster.refresh()
                for text in screen.query(QuickStatic):  # drawn row by row too (show)
                    text.refresh()
                screen.refresh()
                await pilot.pause()
                assert screen_text(app) == partly

    asyncio.run(run())


def test_a_card_changing_height_is_counted_before_the_frame(tmp_path: Path) -> None:
    """Counted while drawing, the roster's new height asked for a layout, a frame after the
    jump's; counted by go(), that layout is in the jump's own frame."""
    folder = copy_example(tmp_path)

    async def run() -> int:
        app: ReplayApp = build_replay(folder)
        heights: set[int] = set()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            roster = screen.query_one(Roster)
            for step in [*range(screen.steps.count + 1), *range(screen.steps.count, -1, -1)]:
                screen.go(step)
                lines = roster._line_cache.lines
                assert lines, step  # counted already
                assert roster.virtual_size.height == len(lines), step
                heights.add(len(lines))
                await pilot.pause()
        return len(heights)

    assert asyncio.run(run()) > 1  # some card did change height


def test_a_card_changing_height_needs_no_layout_of_the_screen(tmp_path: Path) -> None:
    """The roster's new virtual size is set without the layout Widget's reactive asks for:
    the screen is still what a full layout and redraw give."""
    folder = copy_example(tmp_path)
    layouts: list[int] = []

    async def run() -> int:
        app: ReplayApp = build_replay(folder)
        changed = 0
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            roster = screen.query_one(Roster)
            own = screen._refresh_layout  # private (8.2.8): the screen's layout pass

            def counted(*args: object, **kwargs: object) -> None:
                layouts.append(screen.step)
                own(*args, **kwargs)  # type: ignore[arg-type]

            screen._refresh_layout = counted  # type: ignore[method-assign]
            height = roster.virtual_size.height
            for step in [*range(screen.steps.count + 1), *range(screen.steps.count, -1, -1)]:
                screen.go(step)
                await pilot.pause()
                if roster.virtual_size.height == height:
                    continue
                changed += 1
                height = roster.virtual_size.height
                assert layouts == [], step
                shown = screen_text(app)
                for widget in screen.query("*"):
                    widget.refresh()
                screen.refresh(layout=True)
                await pilot.pause()
                assert screen_text(app) == shown, step
                layouts.clear()  # the forced one
        return changed

    assert asyncio.run(run()) > 1


class OneLog(App[None]):
    def compose(self) -> ComposeResult:
        yield ReplayLog("(undone)", id="log")


FIELD = st.text(alphabet="ab :+-0▶", max_size=6)


@st.composite
def log_entries(draw: st.DrawFn) -> LogEntry:
    return LogEntry(
        key=str(draw(st.integers(0, 9999))),
        when=draw(FIELD),
        who=None,
        who_name=draw(FIELD),
        what=draw(FIELD),
        dice=draw(FIELD),
        outcome=draw(FIELD),
        style=draw(st.sampled_from([*OUTCOME_STYLES, "unknown"])),
        void=draw(st.booleans()),
    )


def test_log_lines_made_without_their_content_are_textuals_strips() -> None:
    """ReplayLog.line_pieces and LineStyles.log_pieces draw a line as Textual draws
    line_content (empty fields, undone entries, each phase, any width)."""
    app = OneLog()
    drawn = 0

    async def run() -> None:
        async with app.run_test(size=(60, 20)):
            log = app.query_one(ReplayLog)

            @settings(max_examples=400, deadline=None)
            @given(
                entries=st.lists(log_entries(), min_size=3, max_size=3),
                current=st.integers(0, 2),
                width=st.integers(1, 60),
                row=st.integers(0, 500),
            )
            def line(entries: list[LogEntry], current: int, width: int, row: int) -> None:
                nonlocal drawn
                log.entries = entries
                log.current = range(current, current + 1)
                assert log._styles.ready(log)
                for index in range(3):
                    content = log.line_content(index, width)
                    pieces = log.line_pieces(index, width)
                    quick = log._styles.log_pieces(log, pieces, width, row)
                    if quick is None:
                        assert content.cell_length > width
                        continue
                    (textual,) = Visual.to_strips(
                        log, content, width, 1, log.visual_style, pad=True
                    )
                    assert cells([quick]) == cells([textual.apply_offsets(0, row)])
                    drawn += 1

            line()

    asyncio.run(run())
    assert drawn > 300


class LongLog(App[None]):
    CSS = "ReplayLog { height: 12; }"

    def compose(self) -> ComposeResult:
        yield ReplayLog("(undone)", id="log")


def test_the_log_scrollbar_kept_by_its_bar_is_textuals() -> None:
    """QuickScrollBar reuses the lines drawn for the same bar: at any position they are what
    Textual's ScrollBar draws there."""
    rng = random.Random(2)
    entries = [
        LogEntry(key=str(n), when="", who=None, who_name="", what=f"{n}") for n in range(3000)
    ]

    async def run() -> tuple[int, int]:
        app = LongLog()
        async with app.run_test(size=(60, 20)) as pilot:
            log = app.query_one(ReplayLog)
            log.load(entries)
            await pilot.pause()
            bar = log.vertical_scrollbar
            assert isinstance(bar, QuickScrollBar) and bar.display
            positions = [rng.randint(0, len(entries)) for _ in range(150)]
            for y in [*positions, *positions[:20]]:
                log.scroll_to(y=y, animate=False, immediate=True)
                await pilot.pause()
                width, height = bar.size
                textual = Visual.to_strips(bar, bar._render(), width, height, bar.visual_style)
                assert cells(bar._render_cache.lines) == cells(textual), y
            return len(bar._kept), len(positions)

    kept, jumps = asyncio.run(run())
    assert kept < jumps  # bars were reused
