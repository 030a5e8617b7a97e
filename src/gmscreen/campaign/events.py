"""Events: one typed record for every action at the table, and their JSON form.

Every event carries its sequence number, the action it belongs to (an action is what one key
press did: an ``advance`` may end episodes and days too; undo works on whole actions), the wall
clock, the game clock, the character, and a typed payload with the rule inputs, every die as
``Roll.to_dict()``, the outcome and the values it changed as ``changes`` (field -> [before,
after]). Payloads hold keys and numbers only, never words in a language.

Every record is a frozen msgspec Struct; a journal line is encoded and decoded by msgspec,
each value checked against its type and the bounds of :mod:`gmscreen.campaign.bounds` as it is
read. :mod:`gmscreen.campaign.event_json` puts msgspec's errors in our words.

The payloads live by family (``event_madness``: gains, checks, episodes, days, the clock;
``event_items``: MERP items; ``event_gm``: notes, settings, rulings; ``event_record``: their
base and bounded types); this module keeps the characters' and undo's payloads, the union,
the :class:`Event` line and its decoder, and re-exports every family's names.
"""

from __future__ import annotations

import re
from typing import Any, Literal

import msgspec

from gmscreen.campaign.bounds import MAX_DEPTH, MAX_LINE

# The event families live in modules of their own; every name there is part of this module's
# interface too (``ev.Gain``, ``from gmscreen.campaign.events import Gain``), as are the
# payloads' ``changes`` and the error reading them raises.
from gmscreen.campaign.event_gm import RULINGS as RULINGS
from gmscreen.campaign.event_gm import HorrorAdded as HorrorAdded
from gmscreen.campaign.event_gm import HorrorEdited as HorrorEdited
from gmscreen.campaign.event_gm import HorrorRemoved as HorrorRemoved
from gmscreen.campaign.event_gm import Note as Note
from gmscreen.campaign.event_gm import NoteEdited as NoteEdited
from gmscreen.campaign.event_gm import NoteRemoved as NoteRemoved
from gmscreen.campaign.event_gm import Ruling as Ruling
from gmscreen.campaign.event_gm import SettingsChanged as SettingsChanged
from gmscreen.campaign.event_items import ItemAbandoned as ItemAbandoned
from gmscreen.campaign.event_items import ItemDiscarded as ItemDiscarded
from gmscreen.campaign.event_items import ItemKept as ItemKept
from gmscreen.campaign.event_items import ItemNoted as ItemNoted
from gmscreen.campaign.event_items import ItemRemoved as ItemRemoved
from gmscreen.campaign.event_items import ItemRenamed as ItemRenamed
from gmscreen.campaign.event_items import ItemRolled as ItemRolled
from gmscreen.campaign.event_json import Changes as Changes
from gmscreen.campaign.event_json import EventFormatError as EventFormatError
from gmscreen.campaign.event_json import check_changes, check_plain, error_text
from gmscreen.campaign.event_madness import CLOCK_REASONS as CLOCK_REASONS
from gmscreen.campaign.event_madness import CheckRoll as CheckRoll
from gmscreen.campaign.event_madness import ClockAdvanced as ClockAdvanced
from gmscreen.campaign.event_madness import DayEnded as DayEnded
from gmscreen.campaign.event_madness import EpisodeEnded as EpisodeEnded
from gmscreen.campaign.event_madness import EpisodeStarted as EpisodeStarted
from gmscreen.campaign.event_madness import Gain as Gain
from gmscreen.campaign.event_madness import Recovery as Recovery
from gmscreen.campaign.event_record import Clock as Clock
from gmscreen.campaign.event_record import Count as Count
from gmscreen.campaign.event_record import Int as Int
from gmscreen.campaign.event_record import Name as Name
from gmscreen.campaign.event_record import Record as Record
from gmscreen.campaign.event_record import Text as Text


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
    action added them), and the clock and the settings (the campaign's ``name`` too) as they
    were before it. ``horrors`` and ``handouts``: the campaign's whole bestiary and handouts as
    the undo leaves them, in their plain forms (None: the action left them alone; absent in
    older journals). ``undone`` holds the action's events as that journal has them (plain
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
    horrors: tuple[dict[str, Any], ...] | None = None
    handouts: tuple[dict[str, Any], ...] | None = None

    def __post_init__(self) -> None:
        check_plain(list(self.undone), "undone")
        check_plain(list(self.returned), "returned")
        check_plain(list(self.horrors or ()), "horrors")
        check_plain(list(self.handouts or ()), "handouts")
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
    | HorrorAdded
    | HorrorEdited
    | HorrorRemoved
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
    "horror_added",
    "horror_edited",
    "horror_removed",
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
    "horror_added": HorrorAdded,
    "horror_edited": HorrorEdited,
    "horror_removed": HorrorRemoved,
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
