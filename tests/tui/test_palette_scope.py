"""The command palette lists the commands of the screen the GM is looking at, and no other's.

The main screen's commands (gain, check, …) act on the main screen: over the replay or the item
tables they would act on a screen out of sight, so only the app's own commands (help, quit) and
the screen's own are listed there. The palette is opened with its key and read as shown.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.app import App
from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot

from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.commands import PALETTE_KEY, Scope, palette_commands
from gmscreen.tui.i18n import Catalog
from gmscreen.tui.screens.inventory import InventoryScreen
from gmscreen.tui.screens.item_tables import PALETTE, ItemTableScreen
from gmscreen.tui.screens.main import MainScreen
from gmscreen.tui.screens.replay import ReplayScreen
from gmscreen.tui.screens.replay_picker import SessionPicker

from .conftest import SIZE, build
from .replay_helpers import build_replay, copy_example
from .test_items import merp_campaign, settle


def names(catalog: Catalog, scope: Scope, only: tuple[str, ...] | None = None) -> set[str]:
    """The palette names of one scope's commands (or only of some ids)."""
    return {
        catalog.t(f"command.{c.id}.name")
        for c in palette_commands((scope,))
        if only is None or c.id in only
    }


async def palette(app: App[None], pilot: Pilot[None]) -> set[str]:
    """Open the palette, read every command it lists before anything is typed, close it."""
    await pilot.press(PALETTE_KEY)
    shown = app.screen
    assert isinstance(shown, CommandPalette)
    for _ in range(200):  # the palette gathers its commands in a worker
        await pilot.pause(0.01)
        if shown.has_class("-ready"):
            break
    assert shown.has_class("-ready")
    listed = shown.query_one(CommandList)
    titles = {
        str(option.hit.text)  # type: ignore[attr-defined]
        for option in (listed.get_option_at_index(i) for i in range(listed.option_count))
    }
    await pilot.press("escape")
    await pilot.pause()
    assert not isinstance(app.screen, CommandPalette)
    return titles


def test_the_main_screen_lists_its_commands_and_the_apps(tmp_path: Path) -> None:
    async def run() -> None:
        app = build(copy_example(tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, MainScreen)
            catalog = app.catalog
            # the GM rulings act on the selected character of the GM's screen: listed there too
            mains = names(catalog, "main") | names(catalog, "rulings")
            # and serving the players' screen of this campaign (tui/serving.py)
            mains.add(catalog.t("serve.start.name"))
            assert await palette(app, pilot) == mains | names(catalog, "app")

    asyncio.run(run())


def test_over_the_replay_only_the_apps_and_the_replays_commands(tmp_path: Path) -> None:
    async def run() -> None:
        app = build(copy_example(tmp_path))
        app_only = names(app.catalog, "app")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("R")
            assert isinstance(app.screen, SessionPicker)
            assert await palette(app, pilot) == app_only
            await pilot.press("enter")
            assert isinstance(app.screen, ReplayScreen)
            assert await palette(app, pilot) == app_only | names(app.catalog, "replay")
            await pilot.press("escape", "escape")
            assert isinstance(app.screen, MainScreen)
            assert app.catalog.t("command.gain.name") in await palette(app, pilot)

    asyncio.run(run())


def test_over_the_item_screens_only_the_apps_and_their_own_commands(tmp_path: Path) -> None:
    async def run() -> None:
        app = build(merp_campaign(tmp_path))
        app_only = names(app.catalog, "app")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("t")
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, ItemTableScreen)
            assert await palette(app, pilot) == app_only | names(app.catalog, "items", PALETTE)
            assert app.screen is screen
            await pilot.press("escape")
            await settle(app, pilot)
            assert isinstance(app.screen, MainScreen)
            await pilot.press("i")
            await settle(app, pilot)
            inventory = app.screen
            assert isinstance(inventory, InventoryScreen)
            own = names(app.catalog, "items", inventory.PALETTE_COMMANDS)
            assert await palette(app, pilot) == app_only | own

    asyncio.run(run())


def test_the_replay_app_lists_the_apps_and_the_replays_commands(tmp_path: Path) -> None:
    async def run() -> None:
        app = build_replay(copy_example(tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, ReplayScreen)
            everything = names(app.catalog, "app") | names(app.catalog, "replay")
            assert await palette(app, pilot) == everything

    asyncio.run(run())


def test_only_the_main_screen_gets_the_main_screens_commands(tmp_path: Path) -> None:
    """The same rule asked of the app directly, for a screen that is not on top."""

    async def run() -> None:
        app: GMScreenApp = build(copy_example(tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("R", "enter")
            assert isinstance(app.screen, ReplayScreen)
            gain = app.catalog.t("command.gain.name")
            assert gain not in {c.title for c in app.get_system_commands(app.screen_stack[-1])}
            assert gain in {c.title for c in app.get_system_commands(app.screen_stack[0])}

    asyncio.run(run())
