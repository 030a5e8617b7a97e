"""Issue #16's acceptance, played as a GM would: a MERP-only campaign, a character created
without madness fields, its profile edited (e), an item rolled, left half way (esc), resumed
the next time the tables open (its d100 kept), finished, kept and renamed; at every step the
key bar offers no key that refuses."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import OptionList

from gmscreen.campaign import events as ev
from gmscreen.campaign.model import Settings
from gmscreen.campaign.paths import create_campaign
from gmscreen.rules.merp import merp_tables
from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.character_form import CharacterForm
from gmscreen.tui.screens.dialogs import ConfirmScreen, TextPrompt
from gmscreen.tui.screens.inventory import InventoryScreen
from gmscreen.tui.screens.item_abandon import AbandonScreen
from gmscreen.tui.screens.item_tables import ItemTableScreen
from gmscreen.tui.screens.main import MainScreen
from gmscreen.tui.screens.merp_profile import MerpProfileForm
from gmscreen.tui.widgets.key_bar import KeyBar
from gmscreen.tui.widgets.roll_log import RollLog

from .conftest import play, type_ahead
from .test_items import journal, settle, text_of

# Keys that only refuse in a campaign without the madness module, and with no character yet
MADNESS_KEYS = {"mark", "gain", "check", "check_all"}
CHARACTER_KEYS = {"item_tables", "inventory", "edit_character"}
# What the item screen may offer while a roll is under way (browsing keys do nothing then)
ROLLING_KEYS = {"items_roll", "items_roll_rest", "items_confirm", "items_back", "help", "quit"}


def offered(app: GMScreenApp) -> set[str]:
    """The ids of the commands the key bar shows on the current screen."""
    return app.screen.query_one(KeyBar).shown_commands()


def refusing(app: GMScreenApp) -> set[str]:
    """The offered keys that would refuse on the screen shown now."""
    shown, screen = offered(app), app.screen
    if isinstance(screen, MainScreen):
        return shown & (MADNESS_KEYS | (set() if app.live.state.characters else CHARACTER_KEYS))
    if isinstance(screen, ItemTableScreen) and screen.roll is not None:
        return shown - ROLLING_KEYS
    if isinstance(screen, InventoryScreen) and not screen.items:
        return shown & {"inventory_note", "inventory_rename", "inventory_remove"}
    if isinstance(screen, AbandonScreen) and not screen.free:
        return shown & {"dialog_free"}
    return set()


def asks_for_more() -> int:
    """A d100 on Table 1 whose entry rolls more tables: a roll that can be left half way."""
    row = next(r for r in merp_tables()["merp-1"].rows if "*" in r.markers)
    return row.lo


def test_a_merp_table_from_a_new_character_to_a_renamed_item(tmp_path: Path) -> None:
    folder = create_campaign(tmp_path, "Arnor", Settings(modules=("merp-items",)))
    d100 = asks_for_more()

    async def press(app: GMScreenApp, pilot: Pilot[None], *keys: str) -> None:
        await pilot.press(*keys)
        await settle(app, pilot)
        assert not refusing(app), f"{type(app.screen).__name__} offers {refusing(app)}"

    async def until_done(app: GMScreenApp, pilot: Pilot[None], screen: ItemTableScreen) -> None:
        while screen.roll is not None and not screen.roll.done:
            await press(app, pilot, "a" if "a rolls" in text_of(app, "#prompt") else "1")

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        assert not refusing(app) and not offered(app) & CHARACTER_KEYS  # no one to roll for yet
        # a character, asked for no madness field; then its MERP profile
        await press(app, pilot, "c")
        assert isinstance(app.screen, CharacterForm)
        assert {w.id for w in app.screen.query("Input")} == {"f-name", "f-player", "f-notes"}
        type_ahead(app, *"Hador", "tab", *"Ana")  # text typed at once: each key pressed waits
        await press(app, pilot, "enter")
        assert isinstance(app.screen, MerpProfileForm)
        await press(app, pilot, "enter", *"Dúnadan", "tab", *"4", "enter")
        merp = app.live.state.character("hador").merp
        assert merp is not None and (merp.category, merp.points_total) == ("non_spell_user", 4)
        assert offered(app) >= CHARACTER_KEYS  # t, i and e, now that there is someone
        # the profile edited with e: 4 points become 5
        await press(app, pilot, "e")
        await press(app, pilot, "enter")
        assert isinstance(app.screen, MerpProfileForm)
        await press(app, pilot, "enter", "tab", "end", "backspace", "5", "enter")
        merp = app.live.state.character("hador").merp
        assert merp is not None and merp.points_total == 5
        # Table 1, the player's d100, and esc after it: left half way, counted
        await press(app, pilot, "t")
        screen = app.screen
        assert isinstance(screen, ItemTableScreen) and screen.current == "merp-1"
        await press(app, pilot, *str(d100), "enter")
        assert screen.roll is not None and not screen.roll.done
        await press(app, pilot, "escape")
        assert isinstance(app.screen, AbandonScreen) and "dialog_free" in offered(app)
        await press(app, pilot, "y")
        assert screen.roll is None
        left = journal(app)[-1]
        assert left["kind"] == "item_abandoned" and left["data"]["cost"] == 1
        assert left["data"]["item"]["tree"]["inputs"][0]["roll"]["total"] == d100
        merp = app.live.state.character("hador").merp
        assert merp is not None and dict(merp.rolls) == {"merp-1": 1}
        # closed, opened again: the roll is offered, and goes on from its d100
        await press(app, pilot, "escape")
        await press(app, pilot, "t")
        assert isinstance(app.screen, ConfirmScreen)
        await press(app, pilot, "y")
        screen = app.screen
        assert isinstance(screen, ItemTableScreen) and screen.roll is not None
        first = screen.roll.resolution.inputs[0]
        assert not isinstance(first, int) and first.total == d100  # no free reroll
        await press(app, pilot, "escape")  # paid when left: f (not counted) is not offered now
        assert isinstance(app.screen, AbandonScreen) and "dialog_free" not in offered(app)
        await press(app, pilot, "n")  # go on
        assert app.screen is screen and screen.roll is not None
        await until_done(app, pilot, screen)
        await press(app, pilot, "enter")  # kept
        assert screen.roll is None and not text_of(app, "#error")
        finished = [x for x in journal(app) if x["kind"] == "item_rolled"]
        assert [(x["data"]["resumes"], x["data"]["cost"]) for x in finished] == [("merp-1-1", 0)]
        merp = app.live.state.character("hador").merp
        assert merp is not None and dict(merp.rolls) == {"merp-1": 1}
        # the inventory: renamed with e
        await press(app, pilot, "i")
        assert isinstance(app.screen, InventoryScreen)
        await press(app, pilot, "e")
        assert isinstance(app.screen, TextPrompt)
        type_ahead(app, *"Hador's [b]blade[/b]")
        await press(app, pilot, "enter")
        options = app.screen.query_one("#items", OptionList)
        assert str(options.get_option_at_index(0).prompt).startswith("Hador's [b]blade[/b]\n")
        await press(app, pilot, "escape")
        await press(app, pilot, "escape")
        assert isinstance(app.screen, MainScreen)
        log = " ".join(e.what for e in app.screen.query_one(RollLog).visible_entries)
        assert "as Hador's [b]blade[/b]" in log  # (a long name wraps onto more lines)
        assert "Leaves a roll on Table 1 half way (1d100:" in log

    app = play(folder, scenario)
    renamed = [e for e in app.live.events if isinstance(e.event.data, ev.ItemRenamed)]
    assert [e.event.data.after for e in renamed] == ["Hador's [b]blade[/b]"]  # type: ignore[union-attr]
    assert app.live.state.character("hador").inventory[0].name == "Hador's [b]blade[/b]"
