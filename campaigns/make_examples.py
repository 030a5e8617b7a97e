"""Regenerate the example campaigns from the code itself (fixed seed and clock).

    .venv/bin/python campaigns/make_examples.py

Writes ``campaigns/example`` (an Elric! party with a short past session), ``campaigns/merp-party``
(a MERP party with background points to spend and one item already rolled) and the demo that
``make run`` and ``gmscreen --demo`` open (``src/gmscreen/data/demo/party``: both modules at once,
see :func:`build_demo`). Every file is real output of the LiveCampaign API, so replay and export
have something true to show.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

from msgspec.structs import replace

from gmscreen.campaign import open_campaign
from gmscreen.campaign.events import Event
from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.model import Campaign, Character, ItemNames, MerpProfile, Settings
from gmscreen.campaign.session_index import INDEX_FILE
from gmscreen.campaign.store import write_checkpoint
from gmscreen.rules import dice
from gmscreen.rules.madness import HOUR, MadnessState
from gmscreen.rules.merp import TABLE_1, TABLE_2, merp_tables
from gmscreen.rules.tables import roll_table
from gmscreen.rules.tables_names import full_name, rolled_names

HERE = Path(__file__).resolve().parent
DEMO = HERE.parent / "src" / "gmscreen" / "data" / "demo" / "party"
EVENING = datetime(2024, 5, 3, 20, 0, tzinfo=timezone(timedelta(hours=2)))


def wall_clock(start: datetime) -> Callable[[], datetime]:
    """A clock that moves 40 seconds each time it is read, like a GM at the table."""
    now = [start]

    def read() -> datetime:
        now[0] += timedelta(seconds=40)
        return now[0]

    return read


def elric_party() -> Campaign:
    return Campaign(
        name="Example: the Dreaming City",
        settings=Settings(modules=("madness",), fumble_base=1, round_seconds=12),
        clock=8 * HOUR,  # day 1, 08:00
        characters=(
            Character(
                "artinar",
                "Artinar",
                MadnessState(pow=13, app=12, chaos=43, balance=32, law=47),
                player="Ana",
                notes="Sailor from Vilmir; swore revenge on the reavers.",
            ),
            Character(
                "vadhra",
                "Vadhra of Pan Tang",
                MadnessState(pow=16, app=9, chaos=72, balance=8, law=4, madness=9),
                player="Bruno",
                notes="Sorcerer; bound a demon once and has not slept well since.",
            ),
            Character(
                "ylen",
                "Sister Ylen",
                MadnessState(
                    pow=12, app=14, chaos=3, balance=15, law=68, madness=6, under_care=True
                ),
                player="Carla",
                notes="Priestess of Donblas; the temple healers keep her on calming draughts.",
            ),
            Character(
                "moryn",
                "Moryn the Red",
                MadnessState(pow=14, app=11, chaos=12, balance=55, law=14, madness=10),
                player="Dani",
                notes="Archer who walks the Balance.",
            ),
        ),
    )


def play_elric_session(folder: Path) -> None:
    live = open_campaign(folder, rng=random.Random(1972), clock=wall_clock(EVENING))
    with live:
        live.note("The reavers strike the harbour of Ilmar at dawn.")
        # RULES.md's worked example: two companions die (9 in all), revenge (2), a demon (POW 16).
        live.gain("artinar", "friend_dies", roll=dice.typed("1d6", 5))
        live.gain("artinar", "friend_dies", roll=dice.typed("1d6", 4))
        live.advance(2 * HOUR)
        live.gain("artinar", "custom", {"amount": 3})
        live.undo()  # the GM meant 2 for the revenge
        live.gain("artinar", "custom", {"amount": 2})
        live.note("Artinar hunts the murderers down in the alleys.", "artinar")
        live.gain("artinar", "demon", {"pow": 16})
        live.gain("vadhra", "demon", {"pow": 16})
        check = live.start_check("artinar")
        check.roll(dice.typed("d100", 53))  # over Law 47: failure
        check.choose_kind(dice.picked("1d6", 4))  # he flees: the GM picks phobia
        live.advance(14 * 12)  # 14 rounds: the phobia ends, madness 14 -> 7
        live.gain("vadhra", "gain_chaos", {"points": 3})
        live.gain("vadhra", "chaos_god")  # Arioch answers: 10, the first time
        vadhra = live.start_check("vadhra")
        vadhra.roll(dice.typed("d100", "00"))  # a fumble: permanent madness too
        vadhra.choose_kind(dice.typed("1d6", 3))  # paranoia
        live.gain("moryn", "end_of_world", roll=dice.typed("2d8", 5))  # 10 + 5 = 15 >= POW 14
        live.note("Moryn's check is due; the session ends on the cliffhanger.")
        live.advance(4 * HOUR)
        live.end_day()  # Ylen recovers 1d6 under care; gains that day block the others


def merp_party() -> Campaign:
    def pc(cid: str, name: str, player: str, category: str, race: str, points: int) -> Character:
        return Character(
            cid,
            name,
            MadnessState(pow=10),
            player=player,
            merp=MerpProfile(category, race, points_total=points),
        )

    return Campaign(
        name="Example: Wardens of Bree",
        settings=Settings(modules=("merp-items",)),
        clock=10 * HOUR,
        characters=(
            pc("halbarad", "Halbarad", "Eva", "non_spell_user", "Dúnadan", 4),
            pc("ioreth", "Ioreth", "Fede", "pure_spell_user", "Noldo", 5),
            pc("nari", "Nári", "Gala", "dwarf_spell_user", "Dwarf", 3),
            pc("lindir", "Lindir", "Hugo", "elf_non_spell_user", "Sinda", 4),
        ),
    )


def play_merp_session(folder: Path) -> None:
    rng = random.Random(1954)
    with open_campaign(folder, rng=rng, clock=wall_clock(EVENING + timedelta(days=7))) as live:
        for who, table_id in (("halbarad", TABLE_1), ("ioreth", TABLE_2)):
            resolution = roll_table(merp_tables(), table_id, rng, choices=())
            while resolution.pending is not None and not resolution.done:
                resolution.choose(0)
                resolution.auto(rng)
            tree = resolution.to_dict()
            # Named as gmscreen named items before their names were stored (the title only):
            # this campaign is the test of old journals and checkpoints (test_item_names).
            title = full_name(resolution.tree, merp_tables(), "en")
            event = live.item_rolled(who, table_id, title, tree)
            live.item_kept(who, str(event.data.item["id"]))  # type: ignore[union-attr]


# --- the demo: both modules in one party, so `make run` shows everything ------------------------

# The Elric! party, each with a MERP profile: Elric! characters have no MERP category, so each
# takes the one nearest its trade (the sorcerer a pure spell user, the archer a non spell user).
DEMO_PROFILES = {
    "artinar": MerpProfile("non_spell_user", "Vilmirian", points_total=4),
    "vadhra": MerpProfile("pure_spell_user", "Pan Tangian", points_total=5),
    "ylen": MerpProfile("hybrid_spell_user", "Lormyrian", points_total=3),
    "moryn": MerpProfile("non_spell_user", "Ilmioran", points_total=4),
}


def demo_party() -> Campaign:
    elric = elric_party()
    characters = tuple(
        replace(c, merp=DEMO_PROFILES[c.id]) if c.id in DEMO_PROFILES else c
        for c in elric.characters
    )
    return replace(
        elric,
        name="Demo: the Dreaming City",
        settings=replace(elric.settings, modules=("madness", "merp-items")),
        characters=characters,
    )


def roll_item(live: LiveCampaign, rng: random.Random, who: str, table_id: str) -> Event:
    """One item rolled to its end (the first choice wherever the tables ask) and journaled."""
    resolution = roll_table(merp_tables(), table_id, rng, choices=())
    while resolution.pending is not None and not resolution.done:
        resolution.choose(0)
        resolution.auto(rng)
    full, short = rolled_names(resolution.tree, merp_tables())
    return live.item_rolled(
        who, table_id, full["en"], resolution.to_dict(), names=ItemNames(full, short)
    )


def play_demo_sessions(folder: Path) -> None:
    """Session 1 is the example's evening (madness gains, two checks, an episode, a day's end,
    notes); session 2, a week later, shares a note with the players and rolls two items (one
    kept, one still waiting in the inventory), leaving Moryn's check due and points to spend."""
    play_elric_session(folder)
    rng = random.Random(1977)
    with open_campaign(folder, rng=rng, clock=wall_clock(EVENING + timedelta(days=7))) as live:
        live.note("Among the ruins of Imrryr the companions find a sealed vault.", shared=True)
        live.note("The vault's guardian wakes if anyone reads the runes aloud.")
        for who, table_id, keep in (("artinar", TABLE_1, True), ("vadhra", TABLE_2, False)):
            event = roll_item(live, rng, who, table_id)
            if keep:
                live.item_kept(who, str(event.data.item["id"]))  # type: ignore[union-attr]


def build_demo(folder: Path = DEMO) -> None:
    build(folder, demo_party(), play_demo_sessions)


def build(folder: Path, campaign: Campaign, play: Callable[[Path], None]) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    write_checkpoint(folder, campaign)
    play(folder)
    # The session index is a cache made from the journals' sizes and times, which a copy or a
    # checkout changes: not shipped (each campaign makes its own the first time it is opened).
    (folder / "sessions" / INDEX_FILE).unlink(missing_ok=True)


def main() -> None:
    build(HERE / "example", elric_party(), play_elric_session)
    build(HERE / "merp-party", merp_party(), play_merp_session)
    build_demo()
    print(f"wrote {HERE / 'example'}, {HERE / 'merp-party'} and {DEMO}")


if __name__ == "__main__":
    main()
