"""The help screen holds some ninety lines, more than a 40-row terminal shows: its frame says
when there is more below or above, and the key bar offers pgdn / pgup only while they scroll
(Pilot). A terminal tall enough for all of it says nothing and offers neither."""

from __future__ import annotations

from pathlib import Path

from tests.tui.conftest import play
from textual.containers import VerticalScroll
from textual.pilot import Pilot

from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.help import HelpScreen
from gmscreen.tui.widgets.key_bar import KeyBar


def _frame(app: GMScreenApp) -> tuple[str, list[str]]:
    """What the help's frame says at its foot, and the keys the bar offers."""
    assert isinstance(app.screen, HelpScreen)
    scroll = app.screen.query_one(VerticalScroll)
    return str(scroll.border_subtitle).strip(), app.screen.query_one(KeyBar).shown_keys()


def test_at_40_rows_the_help_says_it_scrolls_and_pgdn_reaches_the_end(new_campaign: Path) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        assert _frame(app) == ("↓ more below", ["escape", "pagedown"])
        scroll = app.screen.query_one(VerticalScroll)
        pages = 0
        while "pagedown" in _frame(app)[1]:
            await pilot.press("pagedown")
            await pilot.pause()
            pages += 1
        assert pages >= 2 and scroll.scroll_y == scroll.max_scroll_y > 0
        assert _frame(app) == ("↑ more above", ["escape", "pageup"])
        await pilot.press("up")
        await pilot.pause()
        assert _frame(app) == ("↓ more below", ["escape", "pagedown", "pageup"])
        await pilot.press("home")
        await pilot.pause()
        assert scroll.scroll_y == 0 and _frame(app)[1] == ["escape", "pagedown"]

    play(new_campaign, scenario)


def test_at_80_columns_the_help_fits_the_width_and_says_it_scrolls(new_campaign: Path) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.resize_terminal(80, 24)
        await pilot.press("question_mark")
        await pilot.pause()
        frame = app.screen.query_one(VerticalScroll).region
        assert frame.x >= 0 and frame.right <= 80  # nothing cut off at the right, the hint too
        assert _frame(app) == ("↓ more below", ["escape", "pagedown"])

    play(new_campaign, scenario)


def test_a_terminal_that_shows_it_all_offers_no_scrolling(new_campaign: Path) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        await pilot.resize_terminal(160, 140)
        await pilot.pause()
        await pilot.pause()
        assert app.screen.query_one(VerticalScroll).max_scroll_y == 0
        assert _frame(app) == ("", ["escape"])

    play(new_campaign, scenario)


def test_the_spanish_help_says_it_too(new_campaign: Path) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("L")  # the screen speaks Spanish
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert _frame(app)[0] == "↓ sigue abajo"

    play(new_campaign, scenario)
