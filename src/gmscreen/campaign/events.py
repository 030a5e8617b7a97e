"""Events: one typed record for every action at the table, and their JSON form.

Every event carries its sequence number, the action it belongs to (an action is what one key
press did: an ``advance`` may end episodes and days too; undo works on whole actions), the wall
clock, the game clock, the character, and a typed payload with the rule inputs, every die as
``Roll.to_dict()``, the outcome and the values it changed as ``changes`` (field -> [before,
after]). Payloads hold keys and numbers only, never words in a language. Their JSON form
(encoding, checked decoding) is :mod:`gmscreen.campaign.event_json`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from gmscreen.campaign.construct import constructor
from gmscreen.campaign.event_json import EXPECTED, decoder, encode

# Part of this module's interface (the payloads' ``changes``, the error reading them raises):
from gmscreen.campaign.event_json import Changes as Changes
from gmscreen.campaign.event_json import EventFormatError as EventFormatError
from gmscreen.rules.dice import Roll


@dataclass(frozen=True, slots=True)
class Gain:
    """Madness gained from one preset (RULES.md "Gaining madness"), with its dice if any.

    ``base`` is the preset's amount (fixed, rolled or from the GM's ``inputs``) before the GM's
    ``adjustment``; ``amount`` is what was added (never below 0). ``first_time`` is None unless
    the preset costs less after the character's first sighting; ``day`` is the game day.
    """

    preset: str
    inputs: dict[str, int | str]
    roll: Roll | None
    base: int
    adjustment: int
    amount: int
    first_time: bool | None
    day: int
    changes: Changes


@dataclass(frozen=True, slots=True)
class CheckRoll:
    """One d100 of a madness check (RULES.md "The madness check"), rolled or typed.

    ``target_value`` is the Chaos or Law rolled against; ``fumble_base`` is the campaign setting,
    ``fumble_chance`` the percent that fumbles and ``fumble_from`` the lowest roll that does (101:
    none). A success lowers madness by ``drop``; ``repeat`` says another d100 is due.
    """

    roll: Roll
    target: str  # "chaos" or "law"
    target_value: int
    fumble_base: int
    fumble_chance: int
    fumble_from: int
    outcome: str  # "success", "failure" or "fumble"
    drop: int
    repeat: bool
    changes: Changes


@dataclass(frozen=True, slots=True)
class EpisodeStarted:
    """The kind of madness (a 1d6, rolled or picked) after a failed or fumbled check: an episode.

    It lasts ``amount`` units of ``unit``, the unit chosen by ``unit_value`` (max(Chaos, Law) -
    Balance), and ends at game second ``ends_at``. ``permanent``: a fumble, so the kind is also
    added to the permanent madnesses.
    """

    kind: str
    kind_roll: Roll
    permanent: bool
    amount: int
    unit: str
    unit_value: int
    ends_at: int
    changes: Changes


@dataclass(frozen=True, slots=True)
class EpisodeEnded:
    """A madness episode ran out as the clock advanced: ``changes`` ends it and halves madness."""

    kind: str
    changes: Changes


@dataclass(frozen=True, slots=True)
class Recovery:
    """One character's madness recovery in a :class:`DayEnded` (part of it, not an event).

    ``blocked``: a gain that day prevented it; ``roll`` is the 1d6 under care (None for the plain
    1 point or when blocked); ``amount`` is the madness lost.
    """

    character: str
    blocked: bool
    roll: Roll | None
    amount: int
    changes: Changes


@dataclass(frozen=True, slots=True)
class DayEnded:
    """Midnight on the game clock: game day ``day`` (0 is the first) is over.

    ``recoveries`` holds the daily recovery of every character who had madness to lose.
    """

    day: int
    recoveries: tuple[Recovery, ...]


@dataclass(frozen=True, slots=True)
class ClockAdvanced:
    """The game clock moved on ``seconds``, from ``before`` to ``after`` (game seconds).

    ``reason`` is the command: ``advance``, ``round`` (next round) or ``end_day``. The episodes and
    days that end on the way follow as their own events in the same action.
    """

    seconds: int
    reason: str  # "advance", "round" or "end_day"
    before: int
    after: int


@dataclass(frozen=True, slots=True)
class CharacterAdded:
    """A character joined the campaign, as its whole plain form (``fields.character_to_dict``)."""

    character: dict[str, Any]  # fields.character_to_dict


@dataclass(frozen=True, slots=True)
class CharacterEdited:
    """The GM edited a character; ``changes`` holds only the fields that differ."""

    changes: Changes


@dataclass(frozen=True, slots=True)
class CharacterRemoved:
    """A character left the campaign; ``character`` is its plain form when it left."""

    character: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ItemRolled:
    """A roll on a MERP special-item table (RULES.md Part 2), paid in background points.

    ``item`` is the result in plain form (``fields.encode_item``); it joins the inventory only if
    an :class:`ItemKept` follows, but the points are spent either way.
    """

    item: dict[str, Any]  # fields.encode_item
    cost: int  # the points paid
    changes: Changes  # the MERP profile: points spent and rolls per table
    # The rule the GM overrode to allow this roll ("roll_limit" or "no_points", the key of
    # merp.RollRefused); None for a roll within the rules. Absent in older journals.
    override: str | None = None


@dataclass(frozen=True, slots=True)
class ItemKept:
    """A rolled item the GM kept: it goes into the character's inventory."""

    item: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ItemDiscarded:
    """A rolled item the GM let go; it changes nothing (the points stay spent)."""

    item: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ItemNoted:
    """The notes of an item in the character's inventory changed from ``before`` to ``after``."""

    item_id: str
    before: str
    after: str


@dataclass(frozen=True, slots=True)
class ItemRemoved:
    """An item taken out of the character's inventory; ``item`` is what it was."""

    item: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Note:
    """A note the GM wrote in the journal, about one character or (no character) the table.

    ``shared``: the GM showed it to the players (the player view and the players' recap print
    it); a note without the key, as journals before it wrote them, is the GM's alone.
    """

    text: str
    shared: bool = False


@dataclass(frozen=True, slots=True)
class SettingsChanged:
    """The GM changed the campaign settings; ``changes`` holds only the ones that differ."""

    changes: Changes


@dataclass(frozen=True, slots=True)
class Undo:
    """The GM undid the action ``target``: its events stay in the journal but no longer count.

    Undoing an undo is a redo (``redo`` is True): the action that undo voided counts again.
    """

    target: int  # the action undone
    redo: bool  # the target was itself an undo: its action comes back


Payload = (
    Gain
    | CheckRoll
    | EpisodeStarted
    | EpisodeEnded
    | DayEnded
    | ClockAdvanced
    | CharacterAdded
    | CharacterEdited
    | CharacterRemoved
    | ItemRolled
    | ItemKept
    | ItemDiscarded
    | ItemNoted
    | ItemRemoved
    | Note
    | SettingsChanged
    | Undo
)
EventKind = Literal[
    "gain",
    "check_roll",
    "episode_started",
    "episode_ended",
    "day_ended",
    "clock_advanced",
    "character_added",
    "character_edited",
    "character_removed",
    "item_rolled",
    "item_kept",
    "item_discarded",
    "item_noted",
    "item_removed",
    "note",
    "settings_changed",
    "undo",
]
PAYLOADS: dict[str, type[Any]] = {
    "gain": Gain,
    "check_roll": CheckRoll,
    "episode_started": EpisodeStarted,
    "episode_ended": EpisodeEnded,
    "day_ended": DayEnded,
    "clock_advanced": ClockAdvanced,
    "character_added": CharacterAdded,
    "character_edited": CharacterEdited,
    "character_removed": CharacterRemoved,
    "item_rolled": ItemRolled,
    "item_kept": ItemKept,
    "item_discarded": ItemDiscarded,
    "item_noted": ItemNoted,
    "item_removed": ItemRemoved,
    "note": Note,
    "settings_changed": SettingsChanged,
    "undo": Undo,
}
KIND_OF: dict[type[Any], EventKind] = {v: k for k, v in PAYLOADS.items()}  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class Event:
    """One line of a session journal: a payload stamped with its place and both clocks.

    ``character`` is the one the event is about; None for the clock, days, settings and some notes.
    """

    seq: int
    action: int  # seq of the first event of the action this event belongs to
    at: str  # wall clock, ISO 8601
    game: int  # game clock, seconds
    character: str | None
    data: Payload

    @property
    def kind(self) -> EventKind:
        return KIND_OF[type(self.data)]

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "action": self.action,
            "at": self.at,
            "game": self.game,
            "kind": self.kind,
            "character": self.character,
            "data": encode(self.data),
        }

    @classmethod
    def from_dict(cls, raw: Any) -> Event:
        if not isinstance(raw, dict):
            raise EventFormatError("an event is a JSON object")
        kind = raw.get("kind")
        if kind not in PAYLOADS:
            raise EventFormatError(f"kind: unknown event kind {kind!r}")
        character = raw.get("character")
        if character is not None and not isinstance(character, str):
            raise EventFormatError("character: expected text or null")
        # Checked in this order, so the first bad key is the one named (as the fields are).
        seq = raw.get("seq")
        if type(seq) is not int:
            raise EventFormatError(f"seq: {EXPECTED[int]}")
        action = raw.get("action")
        if type(action) is not int:
            raise EventFormatError(f"action: {EXPECTED[int]}")
        at = raw.get("at")
        if type(at) is not str:
            raise EventFormatError(f"at: {EXPECTED[str]}")
        game = raw.get("game")
        if type(game) is not int:
            raise EventFormatError(f"game: {EXPECTED[int]}")
        decode = decoder(PAYLOADS[kind])  # type: ignore[arg-type]
        return _event(seq, action, at, game, character, decode(raw.get("data"), "data"))


_event = constructor(Event)
