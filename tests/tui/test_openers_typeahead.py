"""Keys typed right after a key that opens a screen or a dialog go to it, in the order typed, as if
typed slowly.

Each key is queued before any is handled (``type_ahead``), as from a fast GM or a terminal's
buffer. These openers used to push their screen from a worker, or as a binding Textual runs only
once the key has gone through the focused widget and back: by then the keys typed after it had
gone to the screen below, where they were lost or, worse, ran its commands.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.binding import Binding
from textual.dom import DOMNode
from textual.pilot import Pilot

from gmscreen.campaign import events as ev
from gmscreen.campaign.opening import open_campaign
from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.check import CheckScreen
from gmscreen.tui.screens.inventory import InventoryScreen
from gmscreen.tui.screens.item_tables import ItemTableScreen
from gmscreen.tui.screens.main import MainScreen
from gmscreen.tui.screens.notes import NotesScreen
from gmscreen.tui.typeahead import is_opener
from gmscreen.tui.widgets.roster import Roster

from .conftest import ARTINAR, CREW, drain, fixed_clock, madness, play, type_ahead
from .test_items import merp_campaign, text_of


@pytest.mark.parametrize("kind", [MainScreen, InventoryScreen, NotesScreen])
def test_the_keys_that_open_a_screen_are_its_priority_bindings(kind: type[DOMNode]) -> None:
    """A command's ``opens`` (commands.py) and its action's ``@opener`` say the same: a key
    that opens a screen is a priority binding, and its action waits for the keys before it."""
    for binding in Binding.make_bindings(kind.BINDINGS):
        assert binding.priority == is_opener(kind, binding.action), binding.id


def kinds(app: GMScreenApp) -> list[str]:
    return [entry.event.kind for entry in app.live.events]


def selected(app: GMScreenApp) -> str | None:
    assert app.main is not None
    return app.main.query_one(Roster).selected_id


# --- the main screen ---------------------------------------------------------------------------


def test_a_preset_typed_at_once_after_g(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        # "elemental" has e (edit), m (check), a (advance), t (tables): main-screen keys
        type_ahead(app, "g", *"elemental", "enter", "enter")  # no what-happened line
        await drain(app, pilot)
        assert isinstance(app.screen, MainScreen)
        assert madness(app, "artinar") == 2
        # the cursor moved first, then g: the gain goes to the one the cursor is on now
        type_ahead(app, "j", "g", *"elemental", "enter", *"the storm", "enter")
        await drain(app, pilot)
        assert isinstance(app.screen, MainScreen)
        assert madness(app, "bors") == 7

    app = play(table_with(*CREW), scenario)
    assert kinds(app) == ["gain", "gain"]
    assert [e.event.character for e in app.live.events] == ["artinar", "bors"]
    # the what-happened line typed ahead went into the dialog, not to the screen's t, e, s keys
    assert [getattr(e.event.data, "happened", None) for e in app.live.events] == ["", "the storm"]


def test_a_question_and_dice_typed_at_once_after_g(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        keys = ("space", "j", "space", "g", *"friend", "enter", "enter", "3", "enter", "r")
        type_ahead(app, *keys)
        await drain(app, pilot)
        assert isinstance(app.screen, MainScreen)
        assert madness(app, "artinar") == 3
        assert madness(app, "bors") > 5

    app = play(table_with(*CREW), scenario)
    gains = [e.event for e in app.live.events if isinstance(e.event.data, ev.Gain)]
    assert [e.character for e in gains] == ["artinar", "bors"]


def test_a_check_typed_at_once_after_m(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        type_ahead(app, "m", "9", "9", "enter", "enter", "2", "enter")
        await drain(app, pilot)
        assert isinstance(app.screen, MainScreen)

    app = play(table_with(dict(ARTINAR, madness=14)), scenario)
    assert kinds(app) == ["check_roll", "episode_started"]


def test_the_first_check_typed_at_once_after_capital_m(table_with: Callable[..., Path]) -> None:
    crew = (dict(ARTINAR, madness=14), CREW[1], dict(CREW[2], name="Cym"))

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        type_ahead(app, "M", "5", "3", "enter", "enter", "1", "enter")
        await drain(app, pilot)
        assert isinstance(app.screen, CheckScreen) and app.screen.character_name == "Cym"
        type_ahead(app, "9", "0", "enter", "enter", "1", "enter")
        await drain(app, pilot)
        assert isinstance(app.screen, MainScreen)

    app = play(table_with(*crew), scenario)
    rolls = [e.event.character for e in app.live.events if isinstance(e.event.data, ev.CheckRoll)]
    assert rolls == ["artinar", "cym"]


def test_an_amount_typed_at_once_after_a(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        type_ahead(app, "a", "1", "0", "space", "m", "enter")
        await drain(app, pilot)
        assert isinstance(app.screen, MainScreen)
        assert app.live.state.clock == 600

    app = play(table_with(*CREW), scenario)
    assert kinds(app) == ["clock_advanced"]


def test_a_new_character_typed_at_once_after_c(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        type_ahead(app, "c", *"Elric", "tab", *"Ann", "tab", "1", "5", "enter")
        await drain(app, pilot)
        assert isinstance(app.screen, MainScreen)
        elric = app.live.state.characters[-1]
        assert (elric.name, elric.player, elric.sanity.pow) == ("Elric", "Ann", 15)
        assert selected(app) == elric.id

    app = play(table_with(ARTINAR), scenario)
    assert kinds(app) == ["character_added"]


def test_a_new_name_typed_at_once_after_e(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        type_ahead(app, "e", *"Arioch", "enter")  # the name is selected: typing replaces it
        await drain(app, pilot)
        assert isinstance(app.screen, MainScreen)
        assert app.live.state.character("artinar").name == "Arioch"

    app = play(table_with(ARTINAR), scenario)
    assert kinds(app) == ["character_edited"]


def test_yes_typed_at_once_after_delete(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        type_ahead(app, "delete", "n")
        await drain(app, pilot)
        assert isinstance(app.screen, MainScreen) and len(app.live.state.characters) == 3
        type_ahead(app, "j", "delete", "y")  # the one the cursor has moved to
        await drain(app, pilot)
        assert isinstance(app.screen, MainScreen)
        assert [c.name for c in app.live.state.characters] == ["Artinar", "[bold]Cym[/]"]

    app = play(table_with(*CREW), scenario)
    assert kinds(app) == ["character_removed"]


def test_yes_typed_at_once_after_u(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        type_ahead(app, "full_stop", "u", "y")
        await drain(app, pilot)
        assert isinstance(app.screen, MainScreen)
        assert app.live.state.clock == 0

    app = play(table_with(*CREW), scenario)
    assert kinds(app) == ["clock_advanced", "undo"]


def test_escape_typed_at_once_after_capital_r(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        type_ahead(app, "R", "escape")
        await drain(app, pilot)
        assert isinstance(app.screen, MainScreen)

    play(table_with(*CREW), scenario)


def test_keys_typed_at_once_after_help_and_player_view(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        type_ahead(app, "question_mark", "escape")
        await drain(app, pilot)
        assert isinstance(app.screen, MainScreen)
        type_ahead(app, "p", "escape")
        await drain(app, pilot)
        assert isinstance(app.screen, MainScreen)
        assert app.live.events == []

    play(table_with(*CREW), scenario)


# --- the item tables and the inventory -------------------------------------------------------


def campaign_with_items(root: Path, n: int) -> Path:
    folder = merp_campaign(root)
    with open_campaign(folder, rng=random.Random(2), clock=fixed_clock) as live:
        for made in range(n):
            tree = {"table": "merp-2", "inputs": [], "tree": {}}
            past_limit = "roll_limit" if made >= 2 else None  # Table 2 allows Ioreth two rolls
            event = live.item_rolled("ioreth", "merp-2", "Runes", tree, past_limit)
            live.item_kept("ioreth", str(event.data.item["id"]))  # type: ignore[union-attr]
    return folder


def inventory(app: GMScreenApp) -> list[str]:
    return [item.id for item in app.live.character("ioreth").inventory]


def item_events(app: GMScreenApp) -> list[Any]:
    return [e.event for e in app.live.events if e.event.kind.startswith("item_")]


def test_a_die_typed_at_once_after_t(tmp_path: Path) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        type_ahead(app, "t", "9", "7", "enter")
        await drain(app, pilot)
        screen = app.screen
        assert isinstance(screen, ItemTableScreen) and screen.roll is not None
        assert "Table 2  1d100: 97 (typed)  [97]" in text_of(app, "#tree")

    play(merp_campaign(tmp_path), scenario)


def test_yes_typed_at_once_after_i_and_delete(tmp_path: Path) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        first, _, third = inventory(app)
        type_ahead(app, "i", "down", "delete", "y")  # from the GM's screen
        await drain(app, pilot)
        assert isinstance(app.screen, InventoryScreen)
        assert inventory(app) == [first, third]
        type_ahead(app, "escape", "t")
        await drain(app, pilot)
        assert isinstance(app.screen, ItemTableScreen)
        type_ahead(app, "i", "delete", "y")  # from the item tables
        await drain(app, pilot)
        assert isinstance(app.screen, InventoryScreen)
        assert inventory(app) == [third]
        type_ahead(app, "delete", "n", "delete", "y")  # and within the inventory
        await drain(app, pilot)
        assert isinstance(app.screen, InventoryScreen) and inventory(app) == []

    app = play(campaign_with_items(tmp_path, 3), scenario)
    assert [e.kind for e in item_events(app)][-3:] == ["item_removed"] * 3


def test_a_note_on_the_item_the_cursor_moved_to(tmp_path: Path) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        type_ahead(app, "i", "down", "n", *"hi", "enter")
        await drain(app, pilot)
        assert isinstance(app.screen, InventoryScreen)
        notes = [item.notes for item in app.live.character("ioreth").inventory]
        assert notes == ["", "hi"]

    play(campaign_with_items(tmp_path, 2), scenario)


def test_an_opener_typed_right_after_the_key_that_closed_its_screen(tmp_path: Path) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        type_ahead(app, "i")
        await drain(app, pilot)
        assert isinstance(app.screen, InventoryScreen)
        # esc closes the inventory; the delete typed with it must not ask to remove an item of
        # the inventory the GM has just left (it used to, over the GM's screen)
        type_ahead(app, "escape", "delete")
        await drain(app, pilot)
        assert isinstance(app.screen, MainScreen)
        assert len(inventory(app)) == 2

    play(campaign_with_items(tmp_path, 2), scenario)
