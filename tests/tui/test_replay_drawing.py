"""Replay, drawn in parts: each jump redraws only what changed, and the screen it leaves is the
one a full layout and redraw give; the log's lines read as their entries in each phase."""

from __future__ import annotations

import asyncio
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.tui.conftest import SIZE
from tests.tui.replay_helpers import build_replay, copy_example
from textual.app import App, ComposeResult

from gmscreen.campaign.gm_words import Line
from gmscreen.tui.replay_app import ReplayApp
from gmscreen.tui.screens.replay import ReplayScreen
from gmscreen.tui.widgets.replay_log import ReplayLog
from gmscreen.tui.widgets.roll_log import OUTCOME_STYLES, content
from gmscreen.tui.widgets.roster import Roster


def test_every_jump_leaves_the_screen_a_full_redraw_would_draw(tmp_path: Path) -> None:
    """Forwards and backwards through the session (cards change height, characters come and
    go): after each step the screen is what redrawing every widget after a layout gives."""
    folder = copy_example(tmp_path)

    async def run() -> int:
        app: ReplayApp = build_replay(folder)
        heights: set[int] = set()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            roster = screen.query_one(Roster)
            count = screen.steps.count
            for step in [*range(count + 1), *range(count, -1, -1), 0, count, 1, count - 1]:
                screen.go(step)
                await pilot.pause()
                heights.add(roster.virtual_size.height)
                partly = app.export_screenshot()
                for widget in screen.query("*"):
                    widget.refresh()
                screen.refresh(layout=True)
                await pilot.pause()
                assert app.export_screenshot() == partly, step
        return len(heights)

    assert asyncio.run(run()) > 1  # some card did change height on the way


class OneLog(App[None]):
    def compose(self) -> ComposeResult:
        yield ReplayLog("(undone)", id="log")


FIELD = st.text(alphabet="ab :+-0▶[]/", max_size=6)


@st.composite
def log_entries(draw: st.DrawFn) -> Line:
    return Line(
        key=str(draw(st.integers(0, 9999))),
        game=0,
        when=draw(FIELD),
        who=None,
        who_name=draw(FIELD),
        what=draw(FIELD),
        dice=draw(FIELD),
        outcome=draw(FIELD),
        style=draw(st.sampled_from([*OUTCOME_STYLES, "unknown"])),
        void=draw(st.booleans()),
    )


def test_a_log_line_reads_as_its_entry_in_each_phase() -> None:
    """What the replay log draws for an entry: its line (the same as the GM's log makes), a
    marker on the current one, the label on an undone one, padded to the width."""
    app = OneLog()
    drawn = 0

    async def run() -> None:
        async with app.run_test(size=(60, 20)) as pilot:
            log = app.query_one(ReplayLog)

            @settings(max_examples=150, deadline=None)
            @given(
                entries=st.lists(log_entries(), min_size=3, max_size=3),
                current=st.integers(0, 2),
            )
            def line(entries: list[Line], current: int) -> None:
                nonlocal drawn
                log.load(entries)
                log.show_step(range(current, current + 1))
                for index, entry in enumerate(entries):
                    text = content(entry).plain
                    if entry.void:
                        text += "  (undone)"
                    marker = "▶ " if index == current else "  "
                    strip = log.render_line(index - log.scroll_offset.y)
                    assert strip.cell_length == log.size.width
                    assert strip.text.rstrip() == (marker + text).rstrip()
                    drawn += 1

            await pilot.pause()
            line()

    asyncio.run(run())
    assert drawn > 300
