"""One rule for pop-ups (#24): no pop-up is drawn on a players' screen, whatever it says.

The GM makes a ruling with a reason and a number, undoes it (its pop-up tells the ruling, the
number and the reason), keeps a MERP item and saves the settings, and opens the player view at
each moment: ``p`` typed right behind the action's keys (the pop-up comes while the players
look), ``p`` while the pop-up is on the GM's screen, and ``p`` again once the GM is back (the
pop-up waited, and is on the GM's screen again). What the player view shows is read off the
screen (the app's screenshot, as text) and must be exactly what it shows with no pop-up about
at all; the pop-up itself must be on the GM's screen before and after. ``show`` draws none
either, while the GM plays beside it (there, Textual's own ``ctrl+c`` pop-up is the one to
hold back).
"""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

import pytest
from tests.tui.conftest import SIZE, build, drain, fixed_clock, type_ahead
from tests.tui.drawn import on_screen
from tests.tui.test_items import IORETH, settle, text_of
from tests.tui.test_show import show, shown_within
from textual.pilot import Pilot
from textual.widgets import Input

from gmscreen.campaign.model import Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.rulings import SetMadness
from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.item_tables import ItemTableScreen
from gmscreen.tui.screens.main import MainScreen
from gmscreen.tui.screens.player_view import PlayerView
from gmscreen.tui.screens.settings import SettingsScreen
from gmscreen.tui.show_app import ShowApp

REASON = "the ferryman's curse"
SET_TO = "10"  # Moryn's madness, from 6 (RULES.md: the count is the GM's alone)
SETTINGS = Settings(modules=("madness", "merp-items"), auto_check=False)


@pytest.fixture(autouse=True)
def long_pop_ups(monkeypatch: pytest.MonkeyPatch) -> None:
    """No pop-up ends mid-test on a slow machine (Textual's public default time, 5 s)."""
    for app in (GMScreenApp, ShowApp):
        monkeypatch.setattr(app, "NOTIFICATION_TIMEOUT", 3600)


def the_table(root: Path) -> Path:
    folder = create_campaign(root, "Imrryr", SETTINGS)
    with open_campaign(folder, rng=random.Random(1), clock=fixed_clock) as live:
        live.add_character("Moryn the Red", 13, chaos=43, balance=32, law=47, madness=6)
        live.add_character("Ioreth", 10, merp=IORETH)
    return folder


async def players_see(app: GMScreenApp, pilot: Pilot[None]) -> str:
    """``p`` (if the player view is not up yet): what the screen shows; then back to the GM."""
    if not isinstance(app.screen, PlayerView):
        await pilot.press("p")
    await pilot.pause()
    assert isinstance(app.screen, PlayerView)
    seen = on_screen(app)
    await pilot.press("escape")
    await pilot.pause()
    assert isinstance(app.screen, MainScreen)
    return seen


async def with_no_pop_up(app: GMScreenApp, pilot: Pilot[None]) -> str:
    """What the player view shows now with no pop-up about at all (Textual's public
    ``clear_notifications``: the reference, whatever the rule for pop-ups does)."""
    app.clear_notifications()
    await pilot.pause()
    return await players_see(app, pilot)


async def at_each_moment(
    app: GMScreenApp, pilot: Pilot[None], last_keys: tuple[str, ...], pop_up: str
) -> list[tuple[str, str]]:
    """The player view at each moment of ``last_keys``' pop-up (which says ``pop_up`` on one
    line of the GM's screen), each (moment, what it showed)."""
    seen: list[tuple[str, str]] = []
    type_ahead(app, *last_keys, "p")  # the pop-up is raised as p opens the view
    await drain(app, pilot)
    seen.append(("p typed behind the action", await players_see(app, pilot)))
    assert pop_up in on_screen(app), "the pop-up waited for the GM's screen"
    seen.append(("p while the pop-up is up", await players_see(app, pilot)))
    assert pop_up in on_screen(app), "and is back on the GM's screen"
    seen.append(("p once the GM was back", await players_see(app, pilot)))
    return seen


def test_no_pop_up_reaches_the_player_view(tmp_path: Path) -> None:
    folder = the_table(tmp_path)
    moments: list[tuple[str, str, str]] = []  # (action, moment, what the players saw)

    async def run() -> None:
        app = build(folder)
        async with app.run_test(size=SIZE, notifications=True) as pilot:  # pop-ups drawn
            await pilot.pause()
            # A ruling: madness set to a number, with a reason (the log says both; no pop-up).
            await pilot.press("x", "s", *SET_TO, "tab", *REASON, "enter")
            await pilot.pause()
            assert app.live.character("moryn-the-red").sanity.madness == int(SET_TO)
            seen = await players_see(app, pilot)
            assert seen == await with_no_pop_up(app, pilot)
            moments.append(("ruling", "after it", seen))

            # Undone: the pop-up names the ruling, the number and the reason.
            await pilot.press("u")
            for moment, seen in await at_each_moment(app, pilot, ("y",), REASON):
                moments.append(("undo", moment, seen))
                assert seen == await with_no_pop_up(app, pilot), moment
            assert app.live.character("moryn-the-red").sanity.madness == 6

            # A MERP item rolled and kept: the pop-up names it and who keeps it.
            await pilot.press("down", "t")
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, ItemTableScreen)
            await pilot.press("r")
            await settle(app, pilot)
            while screen.roll is not None and not screen.roll.done:
                await pilot.press("a" if "a rolls" in text_of(app, "#prompt") else "1")
                await settle(app, pilot)
            kept = "Ioreth keeps"  # the item's name after it (long: the pop-up wraps it)
            for moment, seen in await at_each_moment(app, pilot, ("enter", "escape"), kept):
                moments.append(("item kept", moment, seen))
                assert seen == await with_no_pop_up(app, pilot), moment
            assert app.live.character("ioreth").inventory

            # The settings saved.
            await pilot.press("S")
            assert isinstance(app.screen, SettingsScreen)
            app.screen.query_one("#f-fumble_base", Input).value = "20"
            saved = app.catalog.t("settings.saved")
            for moment, seen in await at_each_moment(app, pilot, ("enter",), saved):
                moments.append(("settings", moment, seen))
                assert seen == await with_no_pop_up(app, pilot), moment
            assert app.live.state.settings.fumble_base == 20

    asyncio.run(run())
    assert len(moments) == 10
    for action, moment, seen in moments:
        where = f"{action}, {moment}"
        assert "PLAYER VIEW" in seen, where
        for secret in (REASON, "Undone", "ruling", "→", "PL ", "keeps", "Settings saved"):
            assert secret not in seen, f"{where}: {secret!r} on the player view"
        if action in ("ruling", "undo"):  # no item yet: the game time is the one number
            assert not re.search(r"\d", seen.replace("Now: day 1, 00:00", "")), where


def test_show_draws_no_pop_up_while_the_gm_plays(tmp_path: Path) -> None:
    folder = the_table(tmp_path)
    drawn: list[str] = []

    async def run() -> None:
        app = show(folder)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.pause()
            with open_campaign(folder, rng=random.Random(2), clock=fixed_clock) as live:
                live.ruling("moryn-the-red", SetMadness(int(SET_TO)), REASON)
                live.undo()
                live.note("The gate opens at dusk", shared=True)
                assert await shown_within(pilot, app, "The gate opens at dusk")
                drawn.append(on_screen(app))
            await pilot.press("ctrl+c")  # Textual's own pop-up: "Do you want to quit? …"
            await pilot.pause()
            await pilot.pause(0.3)  # a poll or so of the screen: what the GM did is read
            drawn.append(on_screen(app))
            app.notify(f"Undone: GM ruling … Reason: {REASON}")  # any pop-up at all
            await pilot.pause()
            drawn.append(on_screen(app))

    asyncio.run(run())
    for seen in drawn:
        assert "Moryn the Red" in seen and "The gate opens at dusk" in seen
        for secret in (REASON, "Undone", "quit", SET_TO):
            assert secret not in seen, f"{secret!r} on the players' screen"


def test_a_waiting_pop_up_is_shown_once_when_the_gm_is_back(tmp_path: Path) -> None:
    """Pop-ups raised while the players look wait for the GM's screen (a notice told twice
    meanwhile, once); the players' screen shows none of them."""
    folder = the_table(tmp_path)

    async def run() -> None:
        app = build(folder)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.pause()
            await pilot.press("p")
            for _ in range(2):  # as a notice of the campaign would come (a checkpoint failed)
                app.notify("campaign.toml could not be written", severity="warning")
            app.notify("The journal is read-only", severity="error")
            await pilot.pause()
            assert "written" not in on_screen(app) and "read-only" not in on_screen(app)
            await pilot.press("escape")
            await pilot.pause()
            back = on_screen(app)
            assert back.count("campaign.toml could not be written") == 1
            assert "The journal is read-only" in back

    asyncio.run(run())
