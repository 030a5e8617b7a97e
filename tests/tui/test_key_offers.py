"""The GM's screen's key bar offers no key that refuses (Pilot, 120×40): each key it shows is
pressed in turn and must do something (open a screen, journal an action, mark a character)
without a warning; the keys it leaves off are those that would only refuse, and they come back
when they can work (``u`` after a round, ``m`` on a character whose check is due)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from tests.tui.conftest import ARTINAR, CREW, SIZE, build
from textual.pilot import Pilot

from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.main import MainScreen
from gmscreen.tui.widgets.key_bar import KeyBar
from gmscreen.tui.widgets.roster import Roster

NOT_PRESSED = {"q"}  # quit: the end of the test


def bar(app: GMScreenApp) -> list[str]:
    return app.screen.query_one(KeyBar).shown_keys()


def warnings(app: GMScreenApp) -> list[str]:
    return [str(n.message) for n in app.pop_ups_shown() if n.severity in ("warning", "error")]


async def back_to_main(app: GMScreenApp, pilot: Pilot[None]) -> None:
    while not isinstance(app.screen, MainScreen):
        app.pop_screen()
        await pilot.pause()


async def refusing(app: GMScreenApp, pilot: Pilot[None]) -> list[str]:
    """Press every key the bar shows, one at a time, each from the GM's screen: those that
    warned, or did nothing at all (no screen opened, nothing journaled, no mark changed)."""
    refused = []
    for key in bar(app):
        if key in NOT_PRESSED or key not in bar(app):  # an earlier key took it off: not offered
            continue
        roster = app.screen.query_one(Roster)
        before = (len(app.live.events), set(roster.marked), len(warnings(app)))
        await pilot.press(key)
        await pilot.pause()
        await pilot.pause()
        opened = not isinstance(app.screen, MainScreen)
        after = (len(app.live.events), set(roster.marked), len(warnings(app)))
        if after[2] > before[2] or (not opened and after[:2] == before[:2]):
            refused.append(key)
        await back_to_main(app, pilot)
    return refused


def run(folder: Path, scenario: Callable[[GMScreenApp, Pilot[None]], object]) -> None:
    async def go() -> None:
        app = build(folder)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await scenario(app, pilot)  # type: ignore[misc]

    asyncio.run(go())


def test_an_empty_campaign_offers_only_what_works(new_campaign: Path) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        # no one to mark, gain or check; nothing to undo
        assert not {"space", "g", "m", "u"} & set(bar(app))
        assert await refusing(app, pilot) == []  # a round passed (.): something to undo now
        assert "u" in bar(app)
        assert await refusing(app, pilot) == []

    run(new_campaign, scenario)


def test_check_follows_the_selected_character_and_undo_the_journal(
    table_with: Callable[..., Path],
) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        assert "m" not in bar(app)  # Artinar, madness 0 of POW 13
        assert {"space", "g", "u"} <= set(bar(app))  # the characters added can be undone
        assert await refusing(app, pilot) == []
        await pilot.press("j", "j")  # Cym: madness 12 of POW 10, a check due
        await pilot.pause()
        assert "m" in bar(app)
        assert await refusing(app, pilot) == []
        await pilot.press("k")  # Bors: madness 5 of POW 12
        await pilot.pause()
        assert "m" not in bar(app)
        app.live.gain("bors", "custom", {"amount": 7})  # 12: due now, with no key pressed
        await pilot.pause()
        assert "m" in bar(app)

    run(table_with(*CREW), scenario)


def test_undo_leaves_the_bar_when_everything_is_undone(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        while app.live.can_undo():
            app.live.undo()  # the earlier session's character added, taken back
        await pilot.pause()
        assert "u" not in bar(app) and "g" not in bar(app)  # and no one is left to gain
        assert await refusing(app, pilot) == []

    run(table_with(ARTINAR), scenario)
