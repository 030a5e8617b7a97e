"""A dialog's dimmed background is kept between draws, and drawn again when the screen below
changes: what shows through the dialog is always the GM's screen as it is now."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

from tests.tui.conftest import CREW, play
from textual.pilot import Pilot
from textual.strip import Strip

from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.gain import GainScreen
from gmscreen.tui.screens.main import MainScreen
from gmscreen.tui.widgets.roster import Roster


def plain(app: GMScreenApp) -> str:
    return app.export_screenshot().replace("&#160;", " ")


async def redrawn_everywhere(app: GMScreenApp, pilot: Pilot[None]) -> str:
    """The screenshot once every widget of both screens is drawn again after a layout (the GM's
    screen says it drew something new, so the dialog draws its background anew too)."""
    main = app.screen_stack[0]
    assert isinstance(main, MainScreen)
    main.shown_revision += 1
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
        assert isinstance(main, MainScreen)
        main.live.add_character("Fresh words here", 12)  # the campaign changes below the dialog
        await pilot.pause()  # the screen hears of it,
        await pilot.pause()  # redraws, and the dialog draws over it
        shown = plain(app)
        assert "characters: 4" in shown  # the header counts the new character
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


def test_a_repaint_below_that_shows_nothing_new_keeps_the_background(table_with: Any) -> None:
    """Textual repaints the whole GM's screen as a dialog opens (focus, scrollbars): while that
    screen shows what it showed when the dialog first drew, its background is not drawn again."""

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("g")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, GainScreen)
        kept, shown = dialog.below_changes, plain(app)
        main = app.screen_stack[0]
        for widget in main.query("*"):
            widget.refresh()
        main.refresh(layout=True)
        await pilot.pause()
        assert dialog.below_changes == kept
        assert plain(app) == shown == await redrawn_everywhere(app, pilot)

    play(table_with(*CREW), scenario)


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


def test_every_screen_that_closes_leaves_none_of_its_drawn_lines_behind(table_with: Any) -> None:
    """Not only the dialogs with a kept background: a form, the help and the notes list, each
    opened and closed again and again, leave nothing drawn alive once closed."""

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        for opening in ("c", "question_mark", "N"):
            counts = []
            for _ in range(5):
                await pilot.press(opening)
                await pilot.pause()
                assert app.screen is not app.screen_stack[0]
                await pilot.press("escape")
                await pilot.pause()
                assert app.screen is app.screen_stack[0]
                counts.append(live_strips())
            assert counts[-1] - counts[1] < 50, (opening, counts)

    play(table_with(*CREW), scenario)
