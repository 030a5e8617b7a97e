"""A MERP sample campaign and the item screens' pictures, for ``make screenshots`` and the tests.

Built through the campaign's own facade with typed dice, so the pictures change only when the UI does.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.model import ItemNames, Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.rules.merp import merp_tables
from gmscreen.rules.tables import Resolution
from gmscreen.rules.tables_names import rolled_names

# name -> keys pressed after the app starts (Ioreth is selected first, Halbarad below her)
ITEM_SHOTS: dict[str, tuple[str, ...]] = {
    "items-browse": ("down", "t"),
    "items-choice": ("down", "t", "6", "4", "enter"),
    "items-refused": ("t", "r"),
    "inventory": ("i",),
}


def _typed_item(
    live: LiveCampaign, who: str, table_id: str, faces: list[str], choices: list[int]
) -> str:
    resolution = Resolution(merp_tables(), table_id)
    answers = iter(faces)
    picks = iter(choices)
    while resolution.pending is not None:
        if hasattr(resolution.pending, "options"):
            resolution.choose(next(picks))
        else:
            resolution.supply_typed(next(answers))
    full, short = rolled_names(resolution.tree, merp_tables())
    names = ItemNames(full, short)
    event = live.item_rolled(who, table_id, full["en"], resolution.to_dict(), names=names)
    item_id = str(event.data.item["id"])  # type: ignore[union-attr]
    live.item_kept(who, item_id)
    return item_id


def merp_sample_campaign(root: Path, clock: Callable[[], datetime]) -> Path:
    """Ioreth (pure spell user) has rolled Table 2 twice; Halbarad has rolled nothing yet."""
    folder = create_campaign(root, "Wardens of Bree", Settings(modules=("merp-items",)))
    with open_campaign(folder, rng=random.Random(1954), clock=clock) as live:
        ioreth = {"category": "pure_spell_user", "race": "Noldo", "points_total": 4}
        live.add_character("Ioreth", 10, player="Fede", merp=ioreth)
        halbarad = {"category": "non_spell_user", "race": "Dúnadan", "points_total": 3}
        live.add_character("Halbarad", 10, player="Eva", merp=halbarad)
        staff = _typed_item(live, "ioreth", "merp-2", ["97", "3", "2", "4", "2", "1"], [])
        live.item_note("ioreth", staff, "Carved with [bold]runes[/] of Eregion")
        _typed_item(live, "ioreth", "merp-2", ["41", "7", "4"], [1])
    return folder
