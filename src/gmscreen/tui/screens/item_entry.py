"""The way in to the item screens from the GM's screen: the module must be on, the character must
have a MERP profile (asked for first if it has none), and a roll left waiting is picked up again.

Each screen opens through :func:`gmscreen.tui.typeahead.open_screen` (from a priority binding), so
the keys typed right after the key that opens it go to it.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

from textual.screen import Screen

from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.live import LiveCampaign
from gmscreen.rules.merp import merp_tables
from gmscreen.tui.format import as_lang, error_text
from gmscreen.tui.i18n import Translate
from gmscreen.tui.item_roll import ItemRoll
from gmscreen.tui.screens.inventory import InventoryScreen
from gmscreen.tui.screens.item_tables import ItemTableScreen
from gmscreen.tui.screens.merp_profile import MerpProfileForm
from gmscreen.tui.typeahead import Done, open_screen

MODULE = "merp-items"


async def _when_ready(
    below: Screen[Any],
    live: LiveCampaign,
    character_id: str,
    t: Translate,
    lang: str,
    then: Callable[[], Awaitable[None]],
) -> None:
    """``then``, once the campaign uses the items and the character has a profile (asked for
    now if not)."""
    app = below.app
    if MODULE not in live.state.settings.modules:
        app.notify(t("items.module_off"), severity="warning")
        return
    character = live.character(character_id)
    if character.merp is not None:
        await then()
        return

    async def profiled(values: dict[str, Any] | None) -> None:
        if values is None:
            return
        try:
            live.edit_character(character_id, merp=values)
        except CampaignError as error:
            app.notify(error_text(error, t, lang), severity="error")
            return
        await then()

    await open_screen(below, MerpProfileForm(character.name, t, as_lang(lang)), profiled)


async def open_item_tables(
    below: Screen[Any],
    live: LiveCampaign,
    character_id: str,
    t: Translate,
    lang: str,
    rng: random.Random,
    done: Done[None] | None = None,
) -> None:
    async def show() -> None:
        tables = merp_tables()
        code = as_lang(lang)
        pending = ItemRoll.pending(live, tables, character_id, code)
        screen = ItemTableScreen(live, tables, character_id, t, code, rng, pending)
        await open_screen(below, screen, done)
        await screen.offer_resume()  # a roll left half way: go on with it? (its dice kept)

    await _when_ready(below, live, character_id, t, lang, show)


async def open_inventory(
    below: Screen[Any],
    live: LiveCampaign,
    character_id: str,
    t: Translate,
    lang: str,
    done: Done[None] | None = None,
) -> None:
    async def show() -> None:
        screen = InventoryScreen(live, merp_tables(), character_id, t, as_lang(lang))
        await open_screen(below, screen, done)

    await _when_ready(below, live, character_id, t, lang, show)
