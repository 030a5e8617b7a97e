"""The GM's own events: notes (written, rewritten, taken back), settings, rulings.

Part of the union of :mod:`gmscreen.campaign.events`, which re-exports every name here: import
them from there (``from gmscreen.campaign import events as ev``; ``ev.Note``).
"""

from __future__ import annotations

from typing import Any

from gmscreen.campaign.event_json import Changes, check_changes, check_plain
from gmscreen.campaign.event_record import Count, Name, Record, Text


class Note(Record, frozen=True):
    """A note the GM wrote in the journal, about one character or (no character) the table.

    ``shared``: the GM showed it to the players (the player view and the players' recap print
    it); a note without the key, as journals before it wrote them, is the GM's alone.
    ``kept``: a handout, shared and kept for the players across sessions until the GM stops
    sharing it (the state's ``handouts``); absent in older journals. Its text may hold line
    breaks.
    """

    text: Text
    shared: bool = False
    kept: bool = False


# --- notes edited and removed (campaign/notes.py) ----------------------------------------------


class NoteEdited(Record, frozen=True):
    """The GM rewrote the note journaled as event ``note`` (its seq): ``text`` and ``shared``
    are what it says and who may read it now, ``before`` and ``was_shared`` what they were;
    ``kept`` and ``was_kept``: a handout now, and before (absent in older journals). The note
    may be an earlier session's, if it is a handout."""

    note: Count
    text: Text
    shared: bool
    before: Text
    was_shared: bool
    kept: bool = False
    was_kept: bool = False


class NoteRemoved(Record, frozen=True):
    """The GM took back the note journaled as event ``note``; ``text`` is what it said,
    ``kept``: it was a handout (absent in older journals)."""

    note: Count
    text: Text
    shared: bool
    kept: bool = False


# --- the campaign's own horrors (campaign/horrors.py) -----------------------------------------


class HorrorAdded(Record, frozen=True):
    """The GM added a horror to the campaign's bestiary: ``horror`` is its plain form
    (``horrors.horror_to_dict``). ``from_gain``: saved from that gain event (its seq), the GM's
    "save what was just done as a horror"."""

    horror: dict[str, Any]
    from_gain: Count | None = None

    def __post_init__(self) -> None:
        check_plain(self.horror, "horror")


class HorrorEdited(Record, frozen=True):
    """The GM changed a horror: its plain form ``before`` and ``after`` (the same id)."""

    before: dict[str, Any]
    after: dict[str, Any]

    def __post_init__(self) -> None:
        check_plain(self.before, "before")
        check_plain(self.after, "after")


class HorrorRemoved(Record, frozen=True):
    """The GM took a horror out of the bestiary; ``horror`` is its plain form when it went.
    The characters who saw it keep its first sighting (by id)."""

    horror: dict[str, Any]

    def __post_init__(self) -> None:
        check_plain(self.horror, "horror")


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
    """A correction the GM ruled on one character, with the GM's ``reason`` (numbers set by
    hand, outside the rules' own steps: docs/RULES.md "The GM's word"): ``ruling`` is one of
    :data:`RULINGS`.

    ``subject`` is the kind of madness ended, added or removed, or the gain preset whose first
    sighting is forgotten (or the campaign horror's id, when ``changes`` sets ``horrors_seen``); ``halved``: an episode ended now had its madness halved as at its
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
