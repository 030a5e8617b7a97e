"""One key, one action on the screen (#14.2): a gain to every marked character is one action
(one journal line, one undo), and an advance of more than 30 days asks first."""

from __future__ import annotations

import json

from tests.tui.conftest import CREW, madness, play
from textual.pilot import Pilot

from gmscreen.campaign import events as ev
from gmscreen.rules.madness import DAY
from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.dialogs import ConfirmScreen
from gmscreen.tui.screens.main import MainScreen
from gmscreen.tui.widgets.roll_log import RollLog


def test_a_gain_without_dice_to_three_marked_characters_is_one_action(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("space", "j", "space", "j", "space", "g", *"elemental", "enter")
        await pilot.press(*"the storm", "enter")  # what happened: one line, in every gain
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert [madness(app, c) for c in ("artinar", "bors", "bold-cym")] == [2, 7, 4]
        await pilot.press("u", "y")  # one undo takes back the whole gain
        await pilot.pause()
        assert [madness(app, c) for c in ("artinar", "bors", "bold-cym")] == [0, 5, 2]

    calm = (*CREW[:2], dict(CREW[2], madness=2))  # no check due after the gain
    app = play(table_with(*calm), scenario)
    gains = [e.event for e in app.live.events if isinstance(e.event.data, ev.Gain)]
    assert [e.character for e in gains] == ["artinar", "bors", "bold-cym"]
    assert len({e.action for e in gains}) == 1
    assert {e.data.happened for e in gains if isinstance(e.data, ev.Gain)} == {"the storm"}
    path = app.live.session_path
    assert path is not None
    lines = path.read_bytes().splitlines()
    gain_lines = [json.loads(line) for line in lines if b'"kind":"gain"' in line]
    assert len(gain_lines) == 1 and len(gain_lines[0]) == 3  # one line: the action's array


def test_more_than_thirty_days_asks_first(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("a", "4", "0", "space", "d", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert app.live.state.clock == 0
        await pilot.press("a", "4", "0", "space", "d", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert app.live.state.clock == 40 * DAY
        assert madness(app, "bors") == 0
        await pilot.press("a", "3", "0", "space", "d", "enter")  # 30 days: no question
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert app.live.state.clock == 70 * DAY
        whats = [e.what for e in app.main.query_one(RollLog).entries] if app.main else []
        assert whats.count("40 days pass (days 1 to 40 end)") == 1
        assert not any("Day 2 ends" in what for what in whats)

    play(table_with(*CREW), scenario)
