"""The way in to the item screens from the GM's screen: the module must be on, the character must
have a MERP profile (asked for first if it has none), and a roll left waiting is picked up again.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from textual.app import App

from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.table import Table
from gmscreen.rules.merp import merp_tables
from gmscreen.tui.format import as_lang, error_text
from gmscreen.tui.i18n import Translate
from gmscreen.tui.item_roll import ItemRoll
from gmscreen.tui.screens.inventory import InventoryScreen
from gmscreen.tui.screens.item_tables import ItemTableScreen
from gmscreen.tui.screens.merp_profile import MerpProfileForm

MODULE = "merp-items"


async def _ready(
    app: App[object], table: Table, character_id: str, t: Translate, lang: str
) -> bool:
    """The campaign uses the items and the character has a profile (asked for now if not)."""
    if MODULE not in table.state.settings.modules:
        app.notify(t("items.module_off"), severity="warning")
        return False
    character = table.character(character_id)
    if character.merp is not None:
        return True
    values = await app.push_screen_wait(MerpProfileForm(character.name, t, as_lang(lang)))
    if values is None:
        return False
    try:
        table.edit_character(character_id, merp=values)
    except CampaignError as error:
        app.notify(error_text(error, t, lang), severity="error")
        return False
    return True


async def open_item_tables(
    app: App[object],
    table: Table,
    character_id: str,
    t: Translate,
    lang: str,
    rng: random.Random,
    on_change: Callable[[], None] | None = None,
) -> None:
    if not await _ready(app, table, character_id, t, lang):
        return
    if on_change is not None:
        on_change()
    tables = merp_tables()
    code = as_lang(lang)
    pending = ItemRoll.pending(table, tables, character_id, code)
    screen = ItemTableScreen(table, tables, character_id, t, code, rng, pending)
    screen.on_change = on_change
    await app.push_screen_wait(screen)


async def open_inventory(
    app: App[object],
    table: Table,
    character_id: str,
    t: Translate,
    lang: str,
) -> None:
    if not await _ready(app, table, character_id, t, lang):
        return
    screen = InventoryScreen(table, merp_tables(), character_id, t, as_lang(lang))
    await app.push_screen_wait(screen)
