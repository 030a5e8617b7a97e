"""Time in the GM's roll log (#24 "Time in the players' words", #30.7): a run of rounds is one
line that grows with each `.` and shrinks with `u`; what happens inside an advance or a round
is logged at its own time, before the time passing, and breaks a run of rounds."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from tests.tui.conftest import build, fixed_clock, play
from textual.pilot import Pilot

from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.rules import dice
from gmscreen.rules.madness import MINUTE
from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.main import MainScreen
from gmscreen.tui.widgets.roll_log import RollLog

ARTINAR: dict[str, Any] = {"name": "Artinar", "pow": 13, "chaos": 43, "balance": 32, "law": 47}


def _log(app: GMScreenApp) -> list[Any]:
    screen = app.screen
    assert isinstance(screen, MainScreen)
    return list(screen.query_one(RollLog).entries)


def test_eighteen_rounds_are_one_line_and_u_takes_one_back(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press(*["full_stop"] * 18)
        await pilot.pause()
        times = [e for e in _log(app) if e.who is None and "round" in e.what.lower()]
        assert [e.what for e in times] == ["18 rounds pass"]
        assert times[0].when == "D1 00:03:36"  # the time the rounds reached
        assert app.live.state.clock == 18 * 12
        await pilot.press("u", "y")  # one round taken back, not eighteen
        await pilot.pause()
        assert app.live.state.clock == 17 * 12
        lines = [(e.what, e.void) for e in _log(app) if "round" in e.what.lower()]
        assert lines[:2] == [("17 rounds pass", False), ("Next round", True)]
        await pilot.press("full_stop")  # after the undo's line: a run of its own
        await pilot.pause()
        assert [e.what for e in _log(app)][-2:] == ["Undone: Next round", "Next round"]

    play(table_with(ARTINAR), scenario)


def _played(tmp_path: Path, *, rounds: bool) -> Path:
    """Bors in catatonia until 03:06:36; time passes over its end: one advance from 03:03:48
    (the case seen at the table), or rounds from 03:03:54, out of step with it."""
    folder = create_campaign(tmp_path, "Imrryr")
    with open_campaign(folder, rng=random.Random(3), clock=fixed_clock) as live:
        live.add_character("Bors", 12, chaos=20, balance=10, law=5)
        live.advance(3 * 3600 + 3 * MINUTE + 24)
        live.gain("bors", "custom", {"amount": 16})
        live.check_roll("bors", dice.typed("d100", 100))  # a fumble
        live.check_kind("bors", dice.typed("1d6", 1))  # catatonia, 16 rounds: to 03:06:36
        if rounds:
            live.advance(30)
            for _ in range(15):
                live.next_round()
        else:
            live.advance(24)
            live.advance(4 * MINUTE)  # 03:03:48 to 03:07:48
    return folder


def _opened(folder: Path) -> list[tuple[str, str]]:
    """The log's lines (time, what) as the GM's screen shows them, opened on ``folder``."""

    async def run() -> list[tuple[str, str]]:
        app = build(folder)
        async with app.run_test() as pilot:
            await pilot.pause()
            return [(e.when, e.what) for e in _log(app)]

    return asyncio.run(run())


def test_an_episode_ending_inside_an_advance_is_logged_first_at_its_time(tmp_path: Path) -> None:
    told = _opened(_played(tmp_path, rounds=False))
    over = next(n for n, (_, what) in enumerate(told) if what == "Catatonia is over")
    passing = next(n for n, (_, what) in enumerate(told) if what.startswith("Time passes: 4 min"))
    assert over < passing, told
    assert told[over][0] == "D1 03:06:36" and told[passing][0] == "D1 03:07:48"
    assert [when for when, _ in told] == sorted(when for when, _ in told)  # in time order


def test_a_run_of_rounds_breaks_where_an_episode_ends_inside_a_round(tmp_path: Path) -> None:
    told = _opened(_played(tmp_path, rounds=True))
    assert told[-3:] == [
        ("D1 03:06:30", "13 rounds pass"),
        ("D1 03:06:36", "Catatonia is over"),  # inside the 14th round
        ("D1 03:06:54", "2 rounds pass"),
    ]
