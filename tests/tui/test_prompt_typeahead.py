"""Keys typed right after the key that opens a one-line prompt (the inventory's note, the log
search) land in the prompt, in order, and enter submits it, as if typed slowly.

Each key is queued before any is handled, as from a fast GM or a terminal's buffer (Pilot's
press waits between keys, which hides the race). The prompt used to be opened from a worker, a
message later, after the binding ran (Textual runs it only once the key has gone through the
focused widget and back): the keys typed meanwhile went to the screen below.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot

from gmscreen.campaign.opening import open_campaign
from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.inventory import InventoryScreen
from gmscreen.tui.screens.main import MainScreen
from gmscreen.tui.widgets.roll_log import RollLog, haystack

from .conftest import CREW, SIZE, build, drain, fixed_clock, type_ahead
from .test_items import journal, merp_campaign, settle, text_of


def campaign_with_an_item(root: Path) -> Path:
    folder = merp_campaign(root)
    with open_campaign(folder, rng=random.Random(2), clock=fixed_clock) as live:
        tree = {"table": "merp-2", "inputs": [], "tree": {}}
        event = live.item_rolled("ioreth", "merp-2", "Runes", tree)
        live.item_kept("ioreth", str(event.data.item["id"]))  # type: ignore[union-attr]
    return folder


def test_a_note_typed_at_once_after_n(tmp_path: Path) -> None:
    asyncio.run(_note_at_once(campaign_with_an_item(tmp_path)))


async def _open_inventory(app: GMScreenApp, pilot: Pilot[None]) -> InventoryScreen:
    await pilot.press("t")  # the item tables, then their inventory
    await settle(app, pilot)
    await pilot.press("i")
    await settle(app, pilot)
    screen = app.screen
    assert isinstance(screen, InventoryScreen)
    return screen


def note(app: GMScreenApp) -> str:
    return app.live.character("ioreth").inventory[0].notes


async def _note_at_once(folder: Path) -> None:
    app = build(folder)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_inventory(app, pilot)
        type_ahead(app, "n", *"hello", "enter")
        await drain(app, pilot)
        assert app.screen is screen
        assert note(app) == "hello"
        assert "hello" in text_of(app, "#notes")
        # the prompt opens with the note kept, selected (the first letter replaces it); the
        # cursor keys and backspace typed at once edit the line in the order typed
        type_ahead(app, "n", "end", *" worlds", "backspace", "!", "home", "O", "delete", "enter")
        await drain(app, pilot)
        assert app.screen is screen and note(app) == "Oello world!"
        type_ahead(app, "n", *"bye", "backspace", "enter")
        await drain(app, pilot)
        assert app.screen is screen and note(app) == "by"
        # esc typed at once cancels: the note is kept as it was, nothing journaled
        type_ahead(app, "n", *"gone", "escape")
        await drain(app, pilot)
        assert app.screen is screen and note(app) == "by"
    kinds = [x["kind"] for x in journal(app)]
    notes = [x["data"]["after"] for x in journal(app) if x["kind"] == "item_noted"]
    assert kinds[-1] == "item_noted" and notes == ["hello", "Oello world!", "by"]


def test_a_log_search_typed_at_once_after_slash(table_with: Callable[..., Path]) -> None:
    asyncio.run(_search_at_once(table_with(*CREW)))


async def _search_at_once(folder: Path) -> None:
    app = build(folder)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        main = app.screen
        assert isinstance(main, MainScreen)
        log = main.query_one(RollLog)
        everyone = len(log.visible_entries)
        type_ahead(app, "/", *"bors", "enter")
        await drain(app, pilot)
        assert app.screen is main
        assert log.search == "bors"
        assert log.visible_entries and all("bors" in haystack(e) for e in log.visible_entries)
        assert len(log.visible_entries) < everyone
        # "c" and "m" are the main screen's keys (a new character, a check): here, letters
        type_ahead(app, "/", *"cym", "enter")  # the search kept is selected: "c" replaces it
        await drain(app, pilot)
        assert app.screen is main and log.search == "cym"
        assert log.visible_entries and all("cym" in haystack(e) for e in log.visible_entries)
        type_ahead(app, "/", *"xyz", "escape")  # esc keeps the search as it was
        await drain(app, pilot)
        assert app.screen is main and log.search == "cym"
    assert app.live.events == []  # nothing was checked, gained or added meanwhile
