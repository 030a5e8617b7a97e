"""The item screens' other paths: override, discard, stop half way, roll the rest, the inventory's
notes and removal, a missing profile, the palette."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from textual.widgets import Static

from gmscreen.campaign.model import Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.tui.screens.dialogs import ConfirmScreen, TextPrompt
from gmscreen.tui.screens.inventory import InventoryScreen
from gmscreen.tui.screens.item_abandon import AbandonScreen
from gmscreen.tui.screens.item_tables import ItemTableScreen
from gmscreen.tui.screens.merp_profile import MerpProfileForm

from .conftest import SIZE, build, fixed_clock
from .test_items import journal, merp_campaign, settle, text_of


def test_override_discard_and_stopping_half_way(tmp_path: Path) -> None:
    asyncio.run(_override_discard_stop(merp_campaign(tmp_path, points_total=1)))


async def _override_discard_stop(folder: Path) -> None:
    app = build(folder)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, ItemTableScreen)
        # Table 2, typed 41: stop at the first sub-roll, not counted by the GM's call (f): it is
        # journaled with its die, and nothing is paid (the counted stop: test_items_acceptance)
        await pilot.press("4", "1", "enter")
        await settle(app, pilot)
        assert screen.roll is not None and not screen.roll.done
        await pilot.press("escape")
        await settle(app, pilot)
        assert isinstance(app.screen, AbandonScreen)
        await pilot.press("f")
        await settle(app, pilot)
        assert screen.roll is None and [e.event.kind for e in app.live.events] == ["item_abandoned"]
        # roll, let the app roll the rest (a), settle the choice if any, discard with esc
        await pilot.press("r")
        await settle(app, pilot)
        while screen.roll is not None and not screen.roll.done:
            await pilot.press("a" if "a rolls" in text_of(app, "#prompt") else "1")
            await settle(app, pilot)
        await pilot.press("escape")
        await settle(app, pilot)
        # no points left: Table 2 is refused, and the GM overrides
        await pilot.press("r")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(app, pilot)
        while screen.roll is not None and not screen.roll.done:
            await pilot.press("a" if "a rolls" in text_of(app, "#prompt") else "1")
            await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
    kinds = [(x["kind"], x["data"].get("override"), x["data"].get("cost")) for x in journal(app)]
    assert kinds == [
        ("item_abandoned", None, 0),
        ("item_rolled", None, 1),
        ("item_discarded", None, None),
        ("item_rolled", "no_points", 0),
        ("item_kept", None, None),
    ]
    ioreth = app.live.character("ioreth")
    assert ioreth.merp is not None and ioreth.merp.rolls == {"merp-2": 2}
    assert ioreth.merp.points_left == 0 and [i.id for i in ioreth.inventory] == ["merp-2-2"]


def test_inventory_notes_stay_literal_and_remove_asks(tmp_path: Path) -> None:
    folder = merp_campaign(tmp_path)
    with open_campaign(folder, rng=random.Random(2), clock=fixed_clock) as live:
        tree = {"table": "merp-2", "inputs": [], "tree": {}}
        event = live.item_rolled("ioreth", "merp-2", "Runes", tree)
        live.item_kept("ioreth", str(event.data.item["id"]))  # type: ignore[union-attr]
    asyncio.run(_inventory(folder))


async def _inventory(folder: Path) -> None:
    app = build(folder)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("i")
        await settle(app, pilot)
        assert isinstance(app.screen, InventoryScreen)
        await pilot.press("n")
        await settle(app, pilot)
        assert isinstance(app.screen, TextPrompt)
        await pilot.press(*"[bold]x[/]", "enter")
        await settle(app, pilot)
        assert "[bold]x[/]" in text_of(app, "#notes")
        assert app.live.character("ioreth").inventory[0].notes == "[bold]x[/]"
        await pilot.press("delete")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await settle(app, pilot)
        assert len(app.live.character("ioreth").inventory) == 1
        await pilot.press("delete")
        await settle(app, pilot)
        await pilot.press("y")
        await settle(app, pilot)
        assert app.live.character("ioreth").inventory == ()
        assert "No special items yet" in str(app.screen.query_one("#tree", Static).content)
    assert [x["kind"] for x in journal(app)][-2:] == ["item_noted", "item_removed"]


def test_a_missing_profile_is_asked_for_first(tmp_path: Path) -> None:
    folder = create_campaign(tmp_path, "Bree", Settings(modules=("merp-items",)))
    with open_campaign(folder, rng=random.Random(1), clock=fixed_clock) as live:
        live.add_character("Nári", 10)
    asyncio.run(_profile(folder))


async def _profile(folder: Path) -> None:
    app = build(folder)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t")
        await settle(app, pilot)
        assert isinstance(app.screen, MerpProfileForm)
        await pilot.press("down", "down", "enter", *"Dwarf", "tab", *"x", "enter")
        await settle(app, pilot)
        assert "whole number" in str(app.screen.query_one("#error", Static).content)
        await pilot.press("backspace", "3", "enter")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, ItemTableScreen) and screen.current == "merp-1"
        # the palette lists the screen's own commands
        names = [c.title for c in app.get_system_commands(screen)]
        assert "Roll the rest" in names and "Search rows" in names
        await pilot.press("slash", *"gold")
        await settle(app, pilot)
        assert screen.query_one("#rows").row_count == 4  # of 33
    merp = app.live.character("nári").merp
    assert merp is not None and (merp.category, merp.race, merp.points_total) == (
        "dwarf_spell_user",
        "Dwarf",
        3,
    )


def test_the_roll_log_says_when_the_gm_overrode_the_rules(tmp_path: Path) -> None:
    folder = merp_campaign(tmp_path, points_total=1)
    with open_campaign(folder, rng=random.Random(2), clock=fixed_clock) as live:
        live.item_rolled("ioreth", "merp-2", "Runes", {})
        live.item_rolled("ioreth", "merp-2", "Staff", {}, "no_points")
    asyncio.run(_log_says(folder))


async def _log_says(folder: Path) -> None:
    from gmscreen.tui.widgets.roll_log import RollLog

    app = build(folder)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        lines = [e.what for e in app.screen.query_one(RollLog).entries]
    assert any("Rolls on Table 2 for 1 point: Runes" in line for line in lines)
    assert any("Staff" in line and "(the GM overrode the no points rule)" in line for line in lines)
