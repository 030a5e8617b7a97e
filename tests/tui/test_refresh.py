"""The GM's screen redraws on one trigger: the live campaign telling it of an action.

It subscribes to ``LiveCampaign.listeners`` (which had no subscriber: the screen was redrawn by
whoever changed the campaign, each dialog in its own way). So a change made by anything, a
dialog, an item screen or code that holds the live campaign, shows without that code asking.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot

from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.main import MainScreen
from gmscreen.tui.widgets.roster import Roster

from .conftest import ARTINAR, CREW, play


def main_screen(app: GMScreenApp) -> MainScreen:
    assert app.main is not None
    return app.main


def header(app: GMScreenApp) -> str:
    return str(main_screen(app).query_one("#header").render())


def test_an_action_on_the_live_campaign_shows_without_being_asked(
    table_with: Callable[..., Path],
) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        assert "round" not in header(app)
        app.live.next_round()  # not through the screen: nothing tells it but the campaign
        app.live.add_character("Elric", 16)
        await pilot.pause()
        assert "round 1" in header(app)
        assert "characters: 4" in header(app)
        roster = main_screen(app).query_one(Roster)
        assert roster.option_count == 4

    play(table_with(*CREW), scenario)


def test_the_screen_stops_listening_once_it_is_gone(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        assert len(app.live.listeners) == 1  # the GM's screen

    app = play(table_with(ARTINAR), scenario)
    assert app.live.listeners == []
