"""The campaign's state: frozen msgspec Structs that only the reducer replaces.

A character's madness numbers are the rules' own :class:`MadnessState` (``Character.sanity``);
the campaign adds who the character is, the MERP profile, the inventory and notes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import msgspec
from msgspec.structs import replace

from gmscreen.campaign.errors import UnknownCharacter
from gmscreen.rules.madness import DEFAULT_FUMBLE_BASE, DEFAULT_ROUND_SECONDS, MadnessState
from gmscreen.rules.merp import CATEGORIES

SCHEMA = 1
MODULES: tuple[str, ...] = ("madness", "merp-items")
SPELL_USER_CATEGORIES: tuple[str, ...] = CATEGORIES
AwaitingKind = Literal["failure", "fumble"]
# A journal begun within this many hours of the previous one's last event is the same session
# (an evening, however many times gmscreen was opened): see gmscreen.campaign.evenings.
DEFAULT_EVENING_HOURS = 6
MAX_EVENING_HOURS = 48


class Settings(msgspec.Struct, frozen=True, gc=False):
    """The campaign's settings: the rule modules in use and the rules' adjustable numbers.

    ``fumble_base`` is the check's fumble chance in percent before the +10 per 5 points over
    POW; ``round_seconds`` is the length of a round in game seconds; ``evening_hours`` how
    long a pause may be and still be the same session (0: every opening is one of its own).
    """

    modules: tuple[str, ...] = ("madness",)
    fumble_base: int = DEFAULT_FUMBLE_BASE
    round_seconds: int = DEFAULT_ROUND_SECONDS
    auto_check: bool = True  # open the madness check as soon as one is due
    # "" until the GM picks one: the GM's config, then the system locale, decide (gmscreen.i18n)
    language: str = ""
    # The player view's words for each band (band key -> what the players read after a name,
    # "is breaking down"); a band not here keeps the bundled words of the language shown.
    player_words: Mapping[str, str] = msgspec.field(default_factory=dict)
    evening_hours: int = DEFAULT_EVENING_HOURS


class ItemNames(msgspec.Struct, frozen=True, gc=False):
    """The names a roll gave an item, by language (``en``, ``es``: the tables' languages):
    ``full`` is the whole name, every sub-roll's result in it; ``short`` the same in few words.
    """

    full: Mapping[str, str] = msgspec.field(default_factory=dict)
    short: Mapping[str, str] = msgspec.field(default_factory=dict)


class Item(msgspec.Struct, frozen=True, gc=False):
    """A special item: the rolled result tree (opaque, JSON-able) from a MERP table.

    ``title`` is its English name as rolled; ``names`` what the roll named it in each language
    (None in items written before names were stored: they are named from the tables, see
    :mod:`gmscreen.campaign.item_names`). ``name`` is the one the GM gave it ("" until then).
    """

    id: str
    table: str
    title: str
    tree: Mapping[str, Any] = msgspec.field(default_factory=dict)
    notes: str = ""
    name: str = ""
    names: ItemNames | None = None


class MerpProfile(msgspec.Struct, frozen=True, gc=False):
    """A character's MERP special-item standing: category, race, background points, rolls.

    ``category`` is a :data:`gmscreen.rules.merp.Category` key; ``rolls`` counts rolls per table id.
    """

    category: str
    race: str = ""
    points_total: int = 0
    points_spent: int = 0
    rolls: Mapping[str, int] = msgspec.field(default_factory=dict)  # table id -> rolls made

    @property
    def points_left(self) -> int:
        return self.points_total - self.points_spent


class Character(msgspec.Struct, frozen=True, gc=False):
    """A character at the table: ``id`` is the key events use, ``name`` the one shown.

    ``sanity`` holds the madness rule's numbers; ``merp`` is None if it buys no MERP items.
    """

    id: str
    name: str
    sanity: MadnessState
    player: str = ""
    merp: MerpProfile | None = None
    inventory: tuple[Item, ...] = ()
    notes: str = ""
    # A check failed (or fumbled) and the kind of madness is still to be rolled.
    awaiting_kind: AwaitingKind | None = None
    # Rolls on a MERP table left half way, their dice kept: the item screen offers to resume them.
    abandoned: tuple[Item, ...] = ()

    def item(self, item_id: str) -> Item | None:
        return next((i for i in self.inventory if i.id == item_id), None)


class Horror(msgspec.Struct, frozen=True, gc=False):
    """One of the campaign's own horrors (its bestiary): a name the GM gave it and the rule it
    follows, a built-in gain preset with that preset's input filled in (a demon of POW 18), so
    a gain from it asks nothing; ``custom`` with ``amount`` a number or a dice expression is a
    fixed amount or dice. ``players`` is what the players are told it is ("a demon", "Arioch");
    "" for the preset's own words. Its first sighting is its own (``MadnessState.horrors_seen``).
    """

    id: str
    name: str
    preset: str
    inputs: Mapping[str, int | str] = msgspec.field(default_factory=dict)
    players: str = ""


class Handout(msgspec.Struct, frozen=True, gc=False):
    """A shared note kept for the players across sessions, until the GM stops sharing it.

    ``id`` is the sequence number of the note's event (edits and removals name it so);
    ``character`` the one it is about (None: the table); ``game`` the game time it was kept from.
    """

    id: int
    text: str
    character: str | None = None
    game: int = 0


class Campaign(msgspec.Struct, frozen=True, gc=False):
    """The whole state of a campaign: settings, game clock, characters, and the GM's own
    horrors and the handouts the players keep.

    What ``campaign.toml`` and every session header hold; events fold into it.
    """

    name: str
    settings: Settings = Settings()
    clock: int = 0  # game seconds since the campaign's day 0, 00:00
    characters: tuple[Character, ...] = ()
    last_event: int = 0  # sequence number of the last event this state includes
    schema: int = SCHEMA
    horrors: tuple[Horror, ...] = ()
    handouts: tuple[Handout, ...] = ()

    def horror(self, horror_id: str) -> Horror | None:
        return next((h for h in self.horrors if h.id == horror_id), None)

    def handout(self, note: int) -> Handout | None:
        return next((h for h in self.handouts if h.id == note), None)

    def character(self, character_id: str) -> Character:
        for c in self.characters:
            if c.id == character_id:
                return c
        raise UnknownCharacter(character_id)

    def has_character(self, character_id: str) -> bool:
        return any(c.id == character_id for c in self.characters)

    def with_character(self, character: Character) -> Campaign:
        """This campaign with ``character`` replacing the one with its id (or added at the end)."""
        chars = list(self.characters)
        for n, c in enumerate(chars):
            if c.id == character.id:
                chars[n] = character
                break
        else:
            chars.append(character)
        return replace(self, characters=tuple(chars))

    def at_event(self, seq: int) -> Campaign:
        """This state, marked as including events up to ``seq``."""
        return replace(self, last_event=seq)

    def without_character(self, character_id: str) -> Campaign:
        self.character(character_id)
        return replace(self, characters=tuple(c for c in self.characters if c.id != character_id))
