"""Events: one typed record for every action at the table, and their JSON form.

Every event carries its sequence number, the action it belongs to (an action is what one key
press did: an ``advance`` may end episodes and days too; undo works on whole actions), the wall
clock, the game clock, the character, and a typed payload with the rule inputs, every die as
``Roll.to_dict()``, the outcome and the values it changed as ``changes`` (field -> [before,
after]). Payloads hold keys and numbers only, never words in a language.

Every record is a frozen msgspec Struct; a journal line is encoded and decoded by msgspec,
each value checked against its type and the bounds of :mod:`gmscreen.campaign.bounds` as it is
read. :mod:`gmscreen.campaign.event_json` puts msgspec's errors in our words.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

import msgspec

from gmscreen.campaign.bounds import MAX_CLOCK, MAX_DEPTH, MAX_INT, MAX_LINE, MAX_NAME, MAX_TEXT

# Part of this module's interface (the payloads' ``changes``, the error reading them raises):
from gmscreen.campaign.event_json import Changes as Changes
from gmscreen.campaign.event_json import EventFormatError as EventFormatError
from gmscreen.campaign.event_json import check_changes, check_plain, error_text
from gmscreen.rules.dice import Roll
from gmscreen.rules.madness import Alignment, Outcome, Unit

# The bounds of a journal's values (gmscreen.campaign.bounds), checked as each line is decoded.
Int = Annotated[int, msgspec.Meta(ge=-MAX_INT, le=MAX_INT)]
Count = Annotated[int, msgspec.Meta(ge=0, le=MAX_INT)]
Clock = Annotated[int, msgspec.Meta(ge=0, le=MAX_CLOCK)]
Name = Annotated[str, msgspec.Meta(max_length=MAX_NAME)]
Text = Annotated[str, msgspec.Meta(max_length=MAX_TEXT)]


class Record(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """A journal record: frozen, and never in a reference cycle (so the collector skips it).

    A field added later has a default, and is left out of the line while it holds it: events
    written before the field existed re-encode byte for byte (``ItemRolled.override``).
    """


class Gain(Record, frozen=True):
    """Madness gained from one preset (RULES.md "Gaining madness"), with its dice if any.

    ``base`` is the preset's amount (fixed, rolled or from the GM's ``inputs``) before the GM's
    ``adjustment``; ``amount`` is what was added (never below 0). ``first_time`` is None unless
    the preset costs less after the character's first sighting; ``day`` is the game day.
    """

    preset: Name
    inputs: dict[Name, Int | Text]
    roll: Roll | None
    base: Int
    adjustment: Int
    amount: Int
    first_time: bool | None
    day: Count
    changes: Changes
    # What happened, in the GM's words (the demon's name, the friend who died); empty when the
    # GM left it out, and absent in older journals.
    happened: Text = ""

    def __post_init__(self) -> None:
        check_changes(self.changes)


class CheckRoll(Record, frozen=True):
    """One d100 of a madness check (RULES.md "The madness check"), rolled or typed.

    ``target_value`` is the Chaos or Law rolled against; ``fumble_base`` is the campaign setting,
    ``fumble_chance`` the percent that fumbles and ``fumble_from`` the lowest roll that does (101:
    none). A success lowers madness by ``drop``; ``repeat`` says another d100 is due.
    """

    roll: Roll
    target: Alignment
    target_value: Int
    fumble_base: Int
    fumble_chance: Int
    fumble_from: Int
    outcome: Outcome
    drop: Int
    repeat: bool
    changes: Changes

    def __post_init__(self) -> None:
        check_changes(self.changes)


class EpisodeStarted(Record, frozen=True):
    """The kind of madness (a 1d6, rolled or picked) after a failed or fumbled check: an episode.

    It lasts ``amount`` units of ``unit``, the unit chosen by ``unit_value`` (max(Chaos, Law) -
    Balance), and ends at game second ``ends_at``. ``permanent``: a fumble, so the kind is also
    added to the permanent madnesses.
    """

    kind: Name
    kind_roll: Roll
    permanent: bool
    amount: Int
    unit: Unit
    unit_value: Int
    ends_at: Clock
    changes: Changes

    def __post_init__(self) -> None:
        check_changes(self.changes)


class EpisodeEnded(Record, frozen=True):
    """A madness episode ran out as the clock advanced: ``changes`` ends it and halves madness."""

    kind: Name
    changes: Changes

    def __post_init__(self) -> None:
        check_changes(self.changes)


class Recovery(Record, frozen=True):
    """One character's madness recovery in a :class:`DayEnded` (part of it, not an event).

    ``blocked``: a gain that day prevented it; ``roll`` is the 1d6 under care (None for the plain
    1 point or when blocked); ``amount`` is the madness lost.

    Across many days one record covers ``nights`` nights in a row from the end of ``day`` (None:
    the :class:`DayEnded`'s day): the plain 1 point a night, or nights with no recovery because
    the temporary madness ``episode`` (its kind) lasted. The fields with defaults are absent in
    older journals.
    """

    character: Name
    blocked: bool
    roll: Roll | None
    amount: Int
    changes: Changes
    day: Count | None = None
    nights: Count = 1
    episode: Name | None = None  # no recovery: in the grip of this madness

    def __post_init__(self) -> None:
        check_changes(self.changes)


class DayEnded(Record, frozen=True):
    """Midnight on the game clock: game day ``day`` (0 is the first) is over, or ``days`` days
    from it (one event for time across many midnights, not one a day).

    ``recoveries`` holds the daily recovery of every character who had madness to lose, in
    order for each character (see :class:`Recovery`'s ``day`` and ``nights``).
    """

    day: Count
    recoveries: tuple[Recovery, ...]
    days: Count = 1  # absent in older journals


CLOCK_REASONS = ("advance", "round", "end_day")


class ClockAdvanced(Record, frozen=True):
    """The game clock moved on ``seconds``, from ``before`` to ``after`` (game seconds).

    ``reason`` is the command: ``advance``, ``round`` (next round) or ``end_day``. The episodes and
    days that end on the way follow as their own events in the same action.
    """

    seconds: Int
    reason: Name  # one of CLOCK_REASONS
    before: Clock
    after: Clock

    def __post_init__(self) -> None:
        # Checked here rather than typed as a Literal while actions.advance takes a plain str.
        # A reason the recaps have no words for would be a traceback when a session is told.
        if self.reason not in CLOCK_REASONS:
            raise ValueError(f"reason: expected one of {', '.join(CLOCK_REASONS)}")


class CharacterAdded(Record, frozen=True):
    """A character joined the campaign, as its whole plain form (``fields.character_to_dict``)."""

    character: dict[str, Any]  # fields.character_to_dict

    def __post_init__(self) -> None:
        check_plain(self.character, "character")


class CharacterEdited(Record, frozen=True):
    """The GM edited a character; ``changes`` holds only the fields that differ."""

    changes: Changes

    def __post_init__(self) -> None:
        check_changes(self.changes)


class CharacterRemoved(Record, frozen=True):
    """A character left the campaign; ``character`` is its plain form when it left."""

    character: dict[str, Any]

    def __post_init__(self) -> None:
        check_plain(self.character, "character")


class ItemRolled(Record, frozen=True):
    """A roll on a MERP special-item table (RULES.md Part 2), paid in background points.

    ``item`` is the result in plain form (``fields.encode_item``); it joins the inventory only if
    an :class:`ItemKept` follows, but the points are spent either way.
    """

    item: dict[str, Any]  # fields.encode_item
    cost: Int  # the points paid
    changes: Changes  # the MERP profile: points spent and rolls per table
    # The rule the GM overrode to allow this roll ("roll_limit" or "no_points", the key of
    # merp.RollRefused); None for a roll within the rules. Absent in older journals.
    override: Name | None = None
    # The id of the abandoned roll (ItemAbandoned) this one finished; None for a fresh roll.
    resumes: Name | None = None

    def __post_init__(self) -> None:
        check_changes(self.changes)
        check_plain(self.item, "item")


class ItemKept(Record, frozen=True):
    """A rolled item the GM kept: it goes into the character's inventory."""

    item: dict[str, Any]

    def __post_init__(self) -> None:
        check_plain(self.item, "item")


class ItemDiscarded(Record, frozen=True):
    """A rolled item the GM let go; it changes nothing (the points stay spent)."""

    item: dict[str, Any]

    def __post_init__(self) -> None:
        check_plain(self.item, "item")


class ItemNoted(Record, frozen=True):
    """The notes of an item in the character's inventory changed from ``before`` to ``after``."""

    item_id: Name
    before: Text
    after: Text


class ItemRemoved(Record, frozen=True):
    """An item taken out of the character's inventory; ``item`` is what it was."""

    item: dict[str, Any]

    def __post_init__(self) -> None:
        check_plain(self.item, "item")


# --- items: rolls left half way, names the GM gives (issue #16) ------------------------------


class ItemAbandoned(Record, frozen=True):
    """A roll on a MERP table left half way (``esc`` after some dice): ``item`` holds the
    resolution so far, every die already rolled, so that resuming it later rolls none again.

    ``counted``: the roll counts against the table's limit and is paid as a roll (the rule);
    False only when the GM said so. ``changes`` holds the MERP profile when counted, else
    nothing; ``override`` is the rule the GM overrode to start the roll, as on ItemRolled.
    """

    item: dict[str, Any]  # fields.encode_item: the tree is the Resolution's to_dict, not done
    cost: Int
    changes: Changes
    counted: bool = True
    override: Name | None = None
    # The abandoned roll this one went on with before it was left again (paid once, not twice)
    resumes: Name | None = None

    def __post_init__(self) -> None:
        check_changes(self.changes)
        check_plain(self.item, "item")


class ItemRenamed(Record, frozen=True):
    """The GM named an item of the inventory ``after`` ("" gives back the name read off its
    dice); ``item`` is the item before, so the log and the recaps can say which one it was."""

    item: dict[str, Any]  # fields.encode_item
    after: Text

    def __post_init__(self) -> None:
        check_plain(self.item, "item")


class Note(Record, frozen=True):
    """A note the GM wrote in the journal, about one character or (no character) the table.

    ``shared``: the GM showed it to the players (the player view and the players' recap print
    it); a note without the key, as journals before it wrote them, is the GM's alone.
    """

    text: Text
    shared: bool = False


# --- notes edited and removed (campaign/notes.py) ----------------------------------------------


class NoteEdited(Record, frozen=True):
    """The GM rewrote the note journaled as event ``note`` (its seq): ``text`` and ``shared``
    are what it says and who may read it now, ``before`` and ``was_shared`` what they were."""

    note: Count
    text: Text
    shared: bool
    before: Text
    was_shared: bool


class NoteRemoved(Record, frozen=True):
    """The GM took back the note journaled as event ``note``; ``text`` is what it said."""

    note: Count
    text: Text
    shared: bool


class SettingsChanged(Record, frozen=True):
    """The GM changed the campaign settings; ``changes`` holds only the ones that differ."""

    changes: Changes

    def __post_init__(self) -> None:
        check_changes(self.changes)


# --- GM rulings (campaign/rulings.py) ---------------------------------------------------------

RULINGS = (
    "end_episode",
    "add_permanent",
    "remove_permanent",
    "forget_sighting",
    "set_madness",
    "under_care",
)


class Ruling(Record, frozen=True):
    """A correction the GM ruled on one character, with the GM's ``reason`` (RULES.md's numbers
    set by hand, outside the rules' own steps): ``ruling`` is one of :data:`RULINGS`.

    ``subject`` is the kind of madness ended, added or removed, or the gain preset whose first
    sighting is forgotten; ``halved``: an episode ended now had its madness halved as at its
    natural end (None for the other rulings). ``changes`` holds what the ruling set.
    """

    ruling: Name  # one of RULINGS
    reason: Text
    changes: Changes
    subject: Name | None = None
    halved: bool | None = None

    def __post_init__(self) -> None:
        check_changes(self.changes)
        # As ClockAdvanced's reason: a ruling the recaps have no words for would be a traceback.
        if self.ruling not in RULINGS:
            raise ValueError(f"ruling: expected one of {', '.join(RULINGS)}")


class Undo(Record, frozen=True):
    """The GM undid the action ``target``: its events stay in the journal but no longer count.

    Undoing an undo is a redo (``redo`` is True): the action that undo voided counts again.
    """

    target: Count  # the action undone
    redo: bool  # the target was itself an undo: its action comes back


# --- undo across sessions ----------------------------------------------------------------------


class Restored(Record, frozen=True):
    """One character as an :class:`UndoEarlier` sets it back (part of it, not an event).

    ``changes``: its fields, field -> [as it is now, as it was before the undone action];
    ``inventory``: its whole inventory as the undo leaves it (None: the inventory stays).
    """

    character: Name
    changes: Changes
    inventory: tuple[dict[str, Any], ...] | None = None

    def __post_init__(self) -> None:
        check_changes(self.changes)
        check_plain(list(self.inventory or ()), "inventory")


class UndoEarlier(Record, frozen=True):
    """The GM undid ``target``, an action of an earlier session (``session``: its id, started at
    ``started_at``), from this one: undo reaches back past a reopen.

    That journal is never written again, so this event carries what the undo changes: the
    characters set back (``characters``), put back whole (``returned``: the action removed
    them; at the end of the roster, as campaign.toml keeps them) or taken out (``dropped``: the
    action added them), and the clock and the settings as they were before it. ``undone`` holds the action's events as that journal has them (plain
    values, keys and numbers), so the log and the recaps can tell what was undone in any
    language without reading the earlier journal. A redo is a plain :class:`Undo` of this one.
    """

    target: Count
    session: Name
    started_at: Name
    undone: tuple[dict[str, Any], ...]
    characters: tuple[Restored, ...] = ()
    returned: tuple[dict[str, Any], ...] = ()
    dropped: tuple[Name, ...] = ()
    clock: Clock | None = None
    settings: Changes = msgspec.field(default_factory=dict)

    def __post_init__(self) -> None:
        check_plain(list(self.undone), "undone")
        check_plain(list(self.returned), "returned")
        check_changes(self.settings)

    def undone_events(self) -> list[Event]:
        """The undone action's events, as its journal has them."""
        return [Event.from_dict(raw) for raw in self.undone]


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
    | ItemAbandoned
    | ItemRenamed
    | Note
    | NoteEdited
    | NoteRemoved
    | SettingsChanged
    | Undo
    | Ruling
    | UndoEarlier
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
    "item_abandoned",
    "item_renamed",
    "note",
    "note_edited",
    "note_removed",
    "settings_changed",
    "undo",
    "ruling",
    "undo_earlier",
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
    "item_abandoned": ItemAbandoned,
    "item_renamed": ItemRenamed,
    "note": Note,
    "note_edited": NoteEdited,
    "note_removed": NoteRemoved,
    "settings_changed": SettingsChanged,
    "undo": Undo,
    "ruling": Ruling,
    "undo_earlier": UndoEarlier,
}
KIND_OF: dict[type[Any], EventKind] = {v: k for k, v in PAYLOADS.items()}  # type: ignore[misc]


class Event(Record, frozen=True):
    """One line of a session journal: a payload stamped with its place and both clocks.

    ``character`` is the one the event is about; None for the clock, days, settings and some notes.
    """

    seq: Count
    action: Count  # seq of the first event of the action this event belongs to
    at: Name  # wall clock, ISO 8601
    game: Clock  # game clock, seconds
    character: Name | None
    data: Payload

    @property
    def kind(self) -> EventKind:
        return KIND_OF[type(self.data)]

    def to_json(self) -> bytes:
        """The event's journal line (without its newline): compact JSON, UTF-8, keys in order."""
        line = _Line(
            self.seq, self.action, self.at, self.game, self.kind, self.character, self.data
        )
        return _ENCODER.encode(line)

    def to_dict(self) -> dict[str, Any]:
        """The journal line as plain values."""
        return msgspec.json.decode(self.to_json())  # type: ignore[no-any-return]

    @classmethod
    def from_json(cls, line: bytes) -> Event:
        """The event on one journal line; raises :class:`EventFormatError` naming the key."""
        if len(line) > MAX_LINE:
            raise EventFormatError(f"the line is longer than {MAX_LINE:,} bytes")
        try:
            head = _LINE_DECODER.decode(line)
        except msgspec.MsgspecError as error:
            unknown = _UNKNOWN_KIND.match(str(error))
            if unknown:
                raise EventFormatError(f"kind: unknown event kind {unknown[1]}") from None
            raise EventFormatError(error_text(error)) from None
        except RecursionError:
            raise EventFormatError(f"nested more than {MAX_DEPTH} deep") from None
        try:
            data = _payload_decoder(head.kind).decode(head.data)
        except msgspec.MsgspecError as error:
            raise EventFormatError(error_text(error, "data")) from None
        except RecursionError:
            raise EventFormatError(f"data: nested more than {MAX_DEPTH} deep") from None
        return cls(head.seq, head.action, head.at, head.game, head.character, data)

    @classmethod
    def from_dict(cls, raw: Any) -> Event:
        """The event in plain values (a parsed line), checked as a line is."""
        try:
            line = msgspec.json.encode(raw)
        except (TypeError, OverflowError) as error:
            raise EventFormatError(f"not a JSON value: {error}") from None
        return cls.from_json(line)


class _Line(msgspec.Struct, frozen=True, gc=False):
    """A journal line as it is written: ``kind`` beside the payload, the payload as ``data``.

    Reading takes ``data`` as raw JSON and decodes it with the payload type its ``kind`` names
    (a tagged union would put the tag inside ``data``: not the format journals have).
    """

    seq: Count
    action: Count
    at: Name
    game: Clock
    kind: EventKind
    character: Name | None = None
    data: Any = None


class _RawLine(_Line, frozen=True, gc=False):
    data: msgspec.Raw = msgspec.Raw(b"null")


_UNKNOWN_KIND = re.compile(r"^Invalid enum value (.*) - at `\$\.kind`$")
_ENCODER = msgspec.json.Encoder()
_LINE_DECODER = msgspec.json.Decoder(_RawLine)
_PAYLOAD_DECODERS: dict[str, msgspec.json.Decoder[Any]] = {}


def _payload_decoder(kind: str) -> msgspec.json.Decoder[Any]:
    """The decoder of one kind's payload, made the first time a journal holds that kind."""
    decoder = _PAYLOAD_DECODERS.get(kind)
    if decoder is None:
        decoder = _PAYLOAD_DECODERS[kind] = msgspec.json.Decoder(PAYLOADS[kind])
    return decoder
