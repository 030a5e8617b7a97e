"""A rich session played through the LiveCampaign API, for the player-safe tests.

Everything the GM can do that leaves a secret somewhere: gains of every preset (dice rolled and
typed), checks that succeed, fail and fumble, every kind of madness, an episode that ends and
others still under way, a permanent madness, items from both MERP tables (one with the GM's
override), GM-only and shared notes (one shared note undone), an undo and a redo, a day's end.
:class:`Told` lists what must reach the players and what must never.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from gmscreen.campaign import events as ev
from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.model import Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.rules import dice, merp
from gmscreen.rules.madness_data import load_madness_data
from gmscreen.rules.tables import roll_table
from gmscreen.rules.tables_names import full_name

GM_NOTES = (
    "The cultist in the cellar is Ioreth's brother",
    "Bors will be offered the black blade next session",
)
# The third is written GM-only in other words, then rewritten and shared (campaign/notes.py).
SHARED_NOTES = (
    "The tavern burns behind them",
    "Artinar dreams of a silent city",
    "The stars are wrong over Imrryr tonight",
)
SHARED_BUT_UNDONE = "The ferryman asks for a coin of bone"
# Never the players': a gain's what-happened line (the GM's words), a note shared then made the
# GM's again, one shared then taken back, and the GM-only first words of SHARED_NOTES[2].
HAPPENED = "Arioch's herald, seen through the smoke"
WITHDRAWN = (
    "The innkeeper spies for Pan Tang",
    "The bridge holds for one more crossing",
    "Draft: an omen in the sky",
)


def fixed_clock() -> datetime:
    return datetime(2025, 3, 1, 20, 0, tzinfo=UTC)


@dataclass
class Told:
    """What the session left: the names, the shared notes, the items, the episodes at the end."""

    names: list[str] = field(default_factory=list)
    item_ids: list[str] = field(default_factory=list)  # kept, so in someone's inventory
    under_way: list[str] = field(default_factory=list)  # characters in an episode at the end
    kinds: set[str] = field(default_factory=set)  # every kind of madness that struck


def _item(live: LiveCampaign, who: str, table: str, seed: int, override: str | None) -> str:
    resolution = roll_table(merp.merp_tables(), table, random.Random(seed))
    while resolution.pending is not None and not resolution.done:
        resolution.choose(0)  # a choice offered: the first option
        resolution.auto(random.Random(seed))
    title = full_name(resolution.tree, merp.merp_tables(), "en")
    event = live.item_rolled(who, table, title, resolution.to_dict(), override)
    assert isinstance(event.data, ev.ItemRolled)
    return str(event.data.item["id"])


def play_rich_session(live: LiveCampaign) -> Told:
    """Play the session on ``live`` (a campaign with the madness and MERP modules)."""
    told = Told()
    crew: list[tuple[str, int, dict[str, Any]]] = [
        ("Artinar", 13, {"chaos": 43, "balance": 32, "law": 47, "player": "Ann"}),
        ("Bors", 12, {"chaos": 20, "balance": 10, "law": 5, "player": "Ben"}),
        ("Cymoril", 14, {"chaos": 10, "balance": 30, "law": 47}),
        ("Dyvim", 10, {"chaos": 85, "balance": 0, "law": 0}),
        ("Elwher", 11, {"chaos": 0, "balance": 0, "law": 82}),
        ("Fenna", 12, {"chaos": 85, "balance": 2, "law": 0}),
        ("Gorjon", 99, {"chaos": 20, "balance": 20, "law": 20}),
    ]
    for name, pow_, values in crew:
        live.add_character(name, pow_, **values)
        told.names.append(name)
    merp_profile = {"category": "pure_spell_user", "race": "Noldo", "points_total": 3}
    live.add_character("Ioreth", 15, merp=merp_profile)
    told.names.append("Ioreth")

    # Gains of every preset, on Gorjon (POW 99: the check waits), dice rolled and typed.
    inputs: dict[str, dict[str, int | str]] = {
        "gain_chaos": {"points": 3},
        "gain_law": {"points": 2},
        "demon": {"pow": 16},
        "chaotic_creature": {"pow": 20},
        "chaotic_feature": {"app_dice": 1},
        "chaotic_transformation": {"app_lost": 1},
        "confined": {"amount": 2},
        "frustrated_by_law": {"amount": 1},
        "custom": {"amount": "1d6"},
    }
    typed = {"friend_dies": dice.typed("1d6", 4), "end_of_world": dice.typed("2d8", 9)}
    for key, preset in load_madness_data().presets.items():
        adjustment = -1 if key == "true_love_dies" else 0
        expression = preset.dice or ("1d6" if key == "custom" else None)
        roll = typed.get(key) or (live.roll(expression) if expression else None)
        happened = HAPPENED if key == "demon" else ""
        live.gain("gorjon", key, inputs.get(key), roll, adjustment, happened)

    # An undo and a redo of the last gain; a note shared, then undone: it never happened.
    live.undo()
    live.redo()
    live.note(SHARED_BUT_UNDONE, shared=True)
    live.undo()
    live.note(GM_NOTES[0], "ioreth")
    live.note(SHARED_NOTES[0], shared=True)

    # Bors fumbles (d100 100): catatonia, for good; the episode ends as rounds pass.
    live.gain("bors", "custom", {"amount": 13})
    live.check_roll("bors", dice.typed("d100", 100))
    live.check_kind("bors", dice.typed("1d6", 1))
    told.kinds.add("catatonia")
    live.advance(13 * 12 * 2)  # rounds of 12 s: well past its end
    assert live.character("bors").sanity.episode is None
    assert live.character("bors").sanity.permanent == ("catatonia",)

    # Cymoril fights it off (a success).
    live.gain("cymoril", "custom", {"amount": 14})
    live.check_roll("cymoril", dice.typed("d100", 10))
    live.end_day()

    # Items: both tables for Ioreth (2 + 1 points), then one more the GM allows anyway.
    first = _item(live, "ioreth", merp.TABLE_1, 3, None)
    live.item_kept("ioreth", first)
    second = _item(live, "ioreth", merp.TABLE_2, 4, None)
    live.item_kept("ioreth", second)
    third = _item(live, "ioreth", merp.TABLE_2, 5, "no_points")
    live.item_kept("ioreth", third)
    passed = _item(live, "ioreth", merp.TABLE_2, 6, "roll_limit")
    live.item_discarded("ioreth", passed)
    told.item_ids += [first, second, third]

    # The other kinds strike and last: days for Dyvim, Elwher and Fenna, rounds for Artinar.
    for who, d100, kind in (
        ("dyvim", 87, 2),
        ("elwher", 85, 5),
        ("fenna", 99, 6),
        ("artinar", 53, 3),
        ("cymoril", 60, 4),
    ):
        live.gain(who, "friend_dies", roll=dice.typed("1d6", 6))
        live.gain(who, "chaos_god")
        live.check_roll(who, dice.typed("d100", d100))
        live.check_kind(who, dice.typed("1d6", kind))
        told.under_way.append(who)
    told.kinds |= {"stupor", "amnesia", "suicide", "paranoia", "phobia"}
    live.note(GM_NOTES[1], "bors")
    live.note(SHARED_NOTES[1], "artinar", shared=True)

    # Notes rewritten and taken back: the players read what the GM left shared, as last written.
    spy = live.note(WITHDRAWN[0], shared=True)
    live.edit_note(spy.seq, WITHDRAWN[0], shared=False)
    bridge = live.note(WITHDRAWN[1], "bors", shared=True)
    live.remove_note(bridge.seq)
    omen = live.note(WITHDRAWN[2])
    live.edit_note(omen.seq, SHARED_NOTES[2], shared=True)
    return told


def rich_campaign(tmp_path: Path) -> tuple[Path, Told]:
    """A campaign folder holding one journal: the rich session."""
    # No check opens by itself (Gorjon's waits): the player view tests open the app on it.
    settings = Settings(modules=("madness", "merp-items"), auto_check=False)
    folder = create_campaign(tmp_path, "Imrryr", settings)
    with open_campaign(folder, rng=random.Random(7), clock=fixed_clock) as live:
        told = play_rich_session(live)
    return folder, told
