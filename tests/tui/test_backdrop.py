"""A dialog's dimmed background is kept between draws, and drawn again when the screen below
changes: what shows through the dialog is always the GM's screen as it is now."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

from tests.tui.conftest import CREW, play
from textual.pilot import Pilot
from textual.strip import Strip
from textual.widgets import Static

from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.gain import GainScreen
from gmscreen.tui.widgets.roster import Roster


def plain(app: GMScreenApp) -> str:
    return app.export_screenshot().replace("&#160;", " ")


async def redrawn_everywhere(app: GMScreenApp, pilot: Pilot[None]) -> str:
    """The screenshot once every widget of both screens is drawn again after a layout."""
    for screen in app.screen_stack:
        for widget in screen.query("*"):
            widget.refresh()
        screen.refresh(layout=True)
    await pilot.pause()
    return plain(app)


def test_what_changes_below_an_open_dialog_shows_through_it(table_with: Any) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("g")
        assert isinstance(app.screen, GainScreen)
        shown = plain(app)
        assert "Bors" in shown and "Fresh words" not in shown
        main = app.screen_stack[0]
        main.query_one("#header", Static).update("Fresh words here")
        await pilot.pause()
        shown = plain(app)
        assert "Fresh words here" in shown
        assert shown == await redrawn_everywhere(app, pilot)
        roster = main.query_one(Roster)
        roster.highlighted = 2  # a card below changes its look
        await pilot.pause()
        assert plain(app) == await redrawn_everywhere(app, pilot)
        await pilot.resize_terminal(100, 36)  # a new size: the background drawn for it
        await pilot.pause()
        assert plain(app) == await redrawn_everywhere(app, pilot)

    folder: Path = table_with(*CREW)
    play(folder, scenario)


def live_strips() -> int:
    gc.collect()
    return sum(isinstance(thing, Strip) for thing in gc.get_objects())


def test_a_closed_dialog_leaves_none_of_its_drawn_lines_behind(table_with: Any) -> None:
    """Textual keeps the line caches of widgets that are gone (see widgets/backdrop.py): a
    dialog opened and closed all evening must not leave its lines for the collector to walk."""

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        counts = []
        for _ in range(6):
            await pilot.press("g")
            assert isinstance(app.screen, GainScreen)
            await pilot.press("escape")
            await pilot.pause()
            counts.append(live_strips())
        # Each picker draws some 200 lines (its own, the dimmed GM's screen, their crops).
        assert counts[-1] - counts[1] < 50, counts

    play(table_with(*CREW), scenario)
