"""Events: one typed record for every action at the table, and their JSON form.

Every event carries its sequence number, the action it belongs to (an action is what one key
press did: an ``advance`` may end episodes and days too; undo works on whole actions), the wall
clock, the game clock, the character, and a typed payload with the rule inputs, every die as
``Roll.to_dict()``, the outcome and the values it changed as ``changes`` (field -> [before,
after]). Payloads hold keys and numbers only, never words in a language.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields, is_dataclass
from functools import cache
from typing import Any, Literal, Union

from gmscreen.campaign.construct import constructor
from gmscreen.code_cache import compile_source
from gmscreen.rules.dice import DiceError, Roll

Changes = dict[str, list[Any]]  # field -> [before, after], plain values


class EventFormatError(ValueError):
    """An event line that does not have the expected shape; the message names the key."""


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
    """A note the GM wrote in the journal, about one character or (no character) the table."""

    text: str


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
            "data": _encode(self.data),
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
            raise EventFormatError(f"seq: {_EXPECTED[int]}")
        action = raw.get("action")
        if type(action) is not int:
            raise EventFormatError(f"action: {_EXPECTED[int]}")
        at = raw.get("at")
        if type(at) is not str:
            raise EventFormatError(f"at: {_EXPECTED[str]}")
        game = raw.get("game")
        if type(game) is not int:
            raise EventFormatError(f"game: {_EXPECTED[int]}")
        decode = _decoder(PAYLOADS[kind])  # type: ignore[arg-type]
        return _event(seq, action, at, game, character, decode(raw.get("data"), "data"))


_event = constructor(Event)


def _encode(value: Any) -> Any:
    if isinstance(value, Roll):
        return value.to_dict()
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, tuple | list):
        return [_encode(v) for v in value]
    return value


# --- decoding, checked, with a decoder built once per type -------------------------------------

Decoder = Callable[[Any, str], Any]

# What a key holds when it is wrong, for the plain types; the generated decoders inline them.
_EXPECTED: dict[type[Any], str] = {
    int: "expected a whole number",
    str: "expected text",
    bool: "expected true or false",
}


def _int(value: Any, key: str) -> int:
    if type(value) is not int:  # not isinstance: a bool is no number here
        raise EventFormatError(f"{key}: {_EXPECTED[int]}")
    return value


def _str(value: Any, key: str) -> str:
    if type(value) is not str:
        raise EventFormatError(f"{key}: {_EXPECTED[str]}")
    return value


def _bool(value: Any, key: str) -> bool:
    if type(value) is not bool:
        raise EventFormatError(f"{key}: {_EXPECTED[bool]}")
    return value


def _roll(value: Any, key: str) -> Roll:
    try:
        return Roll.from_dict(value)
    except (KeyError, TypeError, ValueError, DiceError) as error:
        raise EventFormatError(f"{key}: not a roll ({error})") from None


def _changes(value: Any, key: str) -> Changes:
    if type(value) is not dict:
        raise EventFormatError(f"{key}: expected field -> [before, after]")
    for pair in value.values():
        if type(pair) is not list or len(pair) != 2:
            raise EventFormatError(f"{key}: expected field -> [before, after]")
    return value


def _any_dict(value: Any, key: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise EventFormatError(f"{key}: expected an object")
    return value


def _inputs(value: Any, key: str) -> dict[str, int | str]:
    if isinstance(value, dict):
        for v in value.values():
            # The exact types first: that is all JSON gives, and it is the common case.
            if type(v) is int or type(v) is str:
                continue
            if isinstance(v, bool) or not isinstance(v, int | str):
                break
        else:
            return value
    raise EventFormatError(f"{key}: expected names with numbers or text")


def _optional(tp: Any) -> Any | None:
    """The X of ``X | None``, or None if ``tp`` is not optional."""
    args = typing.get_args(tp)
    if typing.get_origin(tp) in (Union, types.UnionType) and type(None) in args:
        return next(a for a in args if a is not type(None))
    return None


@cache
def _decoder(tp: Any) -> Decoder:
    if tp in _EXPECTED:
        return {int: _int, str: _str, bool: _bool}[tp]
    if tp is Roll:
        return _roll
    if tp == Changes:
        return _changes
    if tp == dict[str, Any]:
        return _any_dict
    if tp == dict[str, int | str]:
        return _inputs
    inner = _optional(tp)
    if inner is not None:
        decode = _decoder(inner)
        return lambda v, k: None if v is None else decode(v, k)
    args = typing.get_args(tp)
    if typing.get_origin(tp) is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _decoder(args[0])

        def _tuple(value: Any, key: str) -> tuple[Any, ...]:
            if not isinstance(value, list):
                raise EventFormatError(f"{key}: expected a list")
            return tuple(item(v, f"{key}[{n}]") for n, v in enumerate(value))

        return _tuple
    if is_dataclass(tp):
        return _object_decoder(tp)
    raise TypeError(f"no decoder for {tp!r}")  # a programming error, caught by the tests


def _check(var: str, name: str, tp: Any, env: dict[str, Any]) -> list[str]:
    """Source lines that check (and decode) ``var``, the raw value of field ``name``."""
    inner = _optional(tp)
    kind = tp if inner is None else inner
    if kind in _EXPECTED:  # inline: a call per field is most of the cost of a small payload
        env[kind.__name__] = kind
        message = f"{name}: {_EXPECTED[kind]}"
        lines = [f"if type({var}) is not {kind.__name__}:", f"    raise Error({message!r})"]
    else:
        env[f"decode_{var}"] = _decoder(kind)
        lines = [f"{var} = decode_{var}({var}, {name!r})"]
    if inner is None:
        return lines
    return [f"if {var} is not None:", *(f"    {line}" for line in lines)]


def _object_decoder(tp: Any) -> Decoder:
    """One function for the dataclass ``tp``: each field read, checked and passed in order.

    Generated once per type (as attrs and cattrs do) so that decoding a payload is one call with
    the checks inline, not a closure per field. It behaves as a loop over the fields would: the
    first bad field in field order is the one named, as ``<key>.<field>: <what was expected>``;
    a missing field names every missing one.
    """
    hints = typing.get_type_hints(tp)
    env: dict[str, Any] = {"Error": EventFormatError, "tp": constructor(tp)}
    body: list[str] = []
    required: list[str] = []
    for n, f in enumerate(fields(tp)):
        var = f"v{n}"
        check = _check(var, f.name, hints[f.name], env)
        if f.default is MISSING and f.default_factory is MISSING:
            required.append(f.name)
            body += [f"{var} = value[{f.name!r}]", *check]
            continue
        # Fields with a default were added later: older journals may leave them out.
        if f.default is not MISSING:
            env[f"default_{var}"], default = f.default, f"default_{var}"
        else:
            env[f"default_{var}"], default = f.default_factory, f"default_{var}()"
        body += [f"if {f.name!r} in value:", f"    {var} = value[{f.name!r}]"]
        body += [f"    {line}" for line in check]
        body += ["else:", f"    {var} = {default}"]
    env["required"] = tuple(required)
    args = ", ".join(f"v{n}" for n in range(len(fields(tp))))
    lines = [
        "def decode(value, key):",
        "    if type(value) is not dict:",
        '        raise Error(f"{key}: expected an object")',
        "    try:",
        *(f"        {line}" for line in body),
        f"        return tp({args})",
        "    except KeyError:",  # only value[name] raises it: the nested decoders convert theirs
        "        missing = [n for n in required if n not in value]",
        """        raise Error(f"{key}: missing {', '.join(missing)}") from None""",
        "    except Error as error:",
        '        raise Error(f"{key}.{error}") from None',
    ]
    exec(compile_source("\n".join(lines), f"<decoder of {tp.__qualname__}>"), env)
    return typing.cast(Decoder, env["decode"])
