"""Replay, driven by keys (Pilot, 120×40): every step shows the journal folded to it."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from tests.tui.conftest import SIZE
from tests.tui.replay_helpers import SESSION, build_replay, copy_example
from textual.pilot import Pilot

from gmscreen.campaign import events as ev
from gmscreen.campaign.journal import read_session
from gmscreen.campaign.model import Campaign
from gmscreen.campaign.reducer import fold, rounds_running
from gmscreen.campaign.replay_steps import Steps
from gmscreen.campaign.wording import clock_text
from gmscreen.tui.replay_app import ReplayApp
from gmscreen.tui.screens.help import HelpScreen
from gmscreen.tui.screens.replay import SPEEDS, ReplayScreen
from gmscreen.tui.screens.replay_picker import SessionPicker
from gmscreen.tui.session import madness_history
from gmscreen.tui.widgets.replay_log import ReplayLog
from gmscreen.tui.widgets.roster import Roster, card
from gmscreen.tui.widgets.session_table import SessionTable
from gmscreen.tui.widgets.timeline import Timeline

Scenario = Callable[[ReplayApp, Pilot[None]], Awaitable[None]]


@pytest.fixture
def example(tmp_path: Path) -> Path:
    return copy_example(tmp_path)


def play(app: ReplayApp, scenario: Scenario) -> None:
    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await scenario(app, pilot)

    asyncio.run(run())


def replay_screen(app: ReplayApp) -> ReplayScreen:
    assert isinstance(app.screen, ReplayScreen)
    return app.screen


def assert_shows(screen: ReplayScreen, expected: Campaign) -> None:
    """The roster's cards and the header are those of ``expected``."""
    assert screen.state == expected
    roster = screen.query_one(Roster)
    ctx = screen.context(expected)
    shown = [str(roster.card_at(i)) for i in range(roster.option_count)]
    assert shown == [str(card(c, False, ctx, screen.t)) for c in expected.characters]
    header = str(screen.query_one("#header").render())
    rounds = rounds_running(screen.session.events[: screen.step], screen.steps.void)
    assert clock_text(expected.clock, screen.t, rounds) in header
    assert f"step {screen.step} of" in header
    events = screen.session.events[: screen.step]
    for c in expected.characters:  # the sparkline: madness over the session up to this step
        history = madness_history(screen.replay.start, events, screen.steps.void, c.id)
        assert screen._history(c.id) == history[-120:]


def test_every_step_shows_the_journal_folded_to_it(example: Path) -> None:
    log = read_session(example / "sessions" / f"{SESSION}.jsonl")
    steps = Steps(log.events)
    visited: list[int] = []

    async def scenario(app: ReplayApp, pilot: Pilot[None]) -> None:
        screen = replay_screen(app)
        while True:
            visited.append(screen.step)
            assert_shows(screen, fold(log.header.state, log.events[: screen.step]))
            if screen.step == steps.last:
                break
            await pilot.press("right")
        back: list[int] = []
        while screen.step:
            await pilot.press("left")
            back.append(screen.step)
            assert_shows(screen, fold(log.header.state, log.events[: screen.step]))
        assert back == visited[-2::-1]
        for step in range(len(log.events) + 1):  # the void steps too, straight from the replay
            assert screen.replay.state_at(step) == fold(log.header.state, log.events[:step])

    play(build_replay(example), scenario)
    assert visited == [n for n in range(len(log.events) + 1) if n != 5]  # event 5 was undone


def test_checks_first_and_last(example: Path) -> None:
    async def scenario(app: ReplayApp, pilot: Pilot[None]) -> None:
        screen = replay_screen(app)
        events = screen.session.events
        checks = [n + 1 for n, e in enumerate(events) if isinstance(e.data, ev.CheckRoll)]
        await pilot.press("shift+right")
        assert screen.step == checks[0]
        log = screen.query_one(ReplayLog)
        current = [log.entries[i] for i in log.current]
        assert [e.key for e in current] == [str(events[checks[0] - 1].seq)]
        await pilot.press("shift+right")
        assert screen.step == checks[1]
        await pilot.press("shift+right")  # no check after the last one: stays
        assert screen.step == checks[1]
        await pilot.press("shift+left")
        assert screen.step == checks[0]
        await pilot.press("end")
        assert screen.step == len(events)
        assert screen.query_one(Timeline).step == len(events)
        await pilot.press("home")
        assert screen.step == 0 and not log.current

    play(build_replay(example), scenario)


def test_an_undone_event_is_void_in_the_log_and_skipped(example: Path) -> None:
    async def scenario(app: ReplayApp, pilot: Pilot[None]) -> None:
        screen = replay_screen(app)
        log = screen.query_one(ReplayLog)
        void = [e for e in log.entries if e.void]
        assert [e.key for e in void] == ["5"]
        assert "(undone)" in str(log.line_content(log.entries.index(void[0])))
        await pilot.press(*["right"] * 4)
        assert screen.step == 4
        await pilot.press("right")
        assert screen.step == 6  # the undo, with the gain gone again
        assert screen.state.character("artinar").sanity.madness == 9

    play(build_replay(example), scenario)


def test_auto_play_steps_on_each_tick_and_stops_at_the_end(example: Path) -> None:
    async def scenario(app: ReplayApp, pilot: Pilot[None]) -> None:
        screen = replay_screen(app)
        await pilot.press("space")
        assert screen.timer is not None
        assert "playing" in str(screen.query_one("#header").render())
        await pilot.press("plus", "plus")
        assert SPEEDS[screen.speed] == 8
        await pilot.press("minus")
        assert SPEEDS[screen.speed] == 4
        screen.timer.pause()  # the test drives the ticks itself
        # The real timer may have ticked during the key presses (a loaded machine): start over.
        screen.go(0)
        visited = []
        for _ in range(screen.steps.count):
            screen.tick()
            visited.append(screen.step)
        assert visited[:5] == [1, 2, 3, 4, 6]
        assert screen.step == screen.steps.last and screen.timer is None
        await pilot.press("space")  # at the end, play starts again from the start
        assert screen.step == 0 and screen.timer is not None
        await pilot.press("space")
        assert screen.timer is None

    play(build_replay(example), scenario)


def test_clicking_the_timeline_jumps(example: Path) -> None:
    async def scenario(app: ReplayApp, pilot: Pilot[None]) -> None:
        screen = replay_screen(app)
        timeline = screen.query_one(Timeline)
        width = timeline.content_region.width
        await pilot.click(Timeline, offset=(1 + width - 1, 0))
        assert screen.step == screen.steps.count
        await pilot.click(Timeline, offset=(1, 0))
        assert screen.step == 0

    play(build_replay(example), scenario)


def test_help_lists_the_replay_keys(example: Path) -> None:
    async def scenario(app: ReplayApp, pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = str(app.screen.query("Static").last().render())
        assert "Replay (R" in text and "Next check" in text and "Export for players" in text

    play(build_replay(example), scenario)


def test_picker_lists_sessions_and_escape_leaves(example: Path) -> None:
    async def scenario(app: ReplayApp, pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, SessionPicker)
        row = app.screen.query_one(SessionTable).get_row_at(0)
        assert row[0] == SESSION and row[2] == "23" and row[3] == "2" and row[4] == "1"
        assert row[5] == "Artinar, Vadhra of Pan Tang, Moryn the Red"
        await pilot.press("enter")
        assert replay_screen(app).session.header.id == SESSION
        await pilot.press("escape")
        assert isinstance(app.screen, SessionPicker)
        await pilot.press("escape")
        await pilot.pause()
        assert app.return_code == 0 and not app.is_running

    play(build_replay(example, session=None), scenario)


def test_the_picker_lists_an_evening_of_two_openings_as_one_session(tmp_path: Path) -> None:
    """Quitting to fix something and opening again is the same session (issue 30): one row,
    and enter replays both journals' events."""
    from datetime import UTC, datetime

    from gmscreen.campaign.opening import open_campaign
    from gmscreen.campaign.paths import create_campaign

    folder = create_campaign(tmp_path, "Tanelorn")
    for minute, name in ((0, "Artinar"), (40, "Bors")):

        def clock(minute: int = minute) -> datetime:
            return datetime(2025, 3, 1, 20, minute, tzinfo=UTC)

        with open_campaign(folder, rng=random.Random(1), clock=clock) as live:
            live.add_character(name, 12)

    async def scenario(app: ReplayApp, pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, SessionPicker)
        table = app.screen.query_one(SessionTable)
        assert table.row_count == 1 and table.get_row_at(0)[2] == "2"  # events of both
        await pilot.press("enter")
        assert [e.character for e in replay_screen(app).session.events] == ["artinar", "bors"]

    play(build_replay(folder, session=None), scenario)
