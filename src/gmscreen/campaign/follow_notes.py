"""The notes the players' screen shows, kept by where they are in the journal, not by their text.

A session may hold thousands of notes of thousands of characters; the players' screen shows the
newest ones the GM shared (:data:`SHOWN_NOTES`, :data:`SHOWN_TEXT`). So :class:`NotesIndex`
keeps, per note, only where each event that wrote, rewrote or took it back is (its line's place
in the journal), its sequence and action numbers, whether it was shared and how long its text is;
per character, where each event that named it is. What a note says now is worked out as
:func:`notes.settled` does, skipping the actions undos voided; the events of the notes shown are
read back from the journal (``fetch``) and kept while they are shown.

:meth:`NotesIndex.events` is what :func:`player_safe.player_safe` needs to give those notes as it
would from the whole session: each shown note's event, the edit its words now come from, and the
last event before it that named its character (player_safe names a note's character as it was
named then), in journal order.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import NamedTuple

from gmscreen.campaign import events as ev

# The newest shared notes the players' screen shows: at most this many, of at most this many
# characters together (the newest always, however long). A screenful and more: a TV shows some
# forty lines, and a note is at most 10,000 characters.
SHOWN_NOTES = 20
SHOWN_TEXT = 4_000

NOTE, EDIT, REMOVED, NAME = range(4)


class Touch(NamedTuple):
    """An event that wrote, rewrote or took back a note, or named a character: where it is."""

    seq: int
    action: int
    kind: int  # NOTE, EDIT, REMOVED or NAME
    shared: bool  # the note's sharing after it (notes and edits)
    size: int  # its note's text length after it, in characters (notes and edits)
    who: str  # the character the note is about ("" for none), or the one named
    at: int  # where its line is: what ``fetch`` is given back


def shown_count(sizes: Sequence[int]) -> int:
    """How many of the newest notes are shown, given their text lengths, newest first."""
    count, total = 0, 0
    for size in sizes:
        if count and (count >= SHOWN_NOTES or total + size > SHOWN_TEXT):
            break
        count += 1
        total += size
    return count


class NotesIndex:
    """A session's notes and namings by where they are; ``fetch(at, seq)`` reads one event
    back (the event numbered ``seq`` of the line at ``at``)."""

    def __init__(self, fetch: Callable[[int, int], ev.Event]) -> None:
        self._fetch = fetch
        self._notes: dict[int, list[Touch]] = {}  # by the note's seq, in journal order
        self._names: dict[str, list[Touch]] = {}  # by character id, in journal order
        self._shown: list[Touch] | None = None  # the events of the notes shown (None: work out)
        self._read: dict[int, ev.Event] = {}  # those events, read back, by seq

    def add(self, event: ev.Event, at: int) -> None:
        """Take note of ``event`` (of the line at ``at``) if it writes a note or names someone."""
        data = event.data
        touch: Touch | None = None
        if isinstance(data, ev.Note):
            who = event.character or ""
            touch = Touch(event.seq, event.action, NOTE, data.shared, len(data.text), who, at)
            self._notes[event.seq] = [touch]
        elif isinstance(data, ev.NoteEdited | ev.NoteRemoved) and data.note in self._notes:
            # (an edit of a note not in this session changes nothing: settled() skips it)
            kind = EDIT if isinstance(data, ev.NoteEdited) else REMOVED
            touch = Touch(event.seq, event.action, kind, data.shared, len(data.text), "", at)
            self._notes[data.note].append(touch)
        elif isinstance(data, ev.CharacterAdded):
            who = str(data.character.get("id"))
            touch = Touch(event.seq, event.action, NAME, False, 0, who, at)
            self._names.setdefault(who, []).append(touch)
        elif isinstance(data, ev.CharacterEdited) and "name" in data.changes:
            who = event.character or ""
            touch = Touch(event.seq, event.action, NAME, False, 0, who, at)
            self._names.setdefault(who, []).append(touch)
        if touch is not None and touch.kind != NAME:
            self._shown = None

    def voids_changed(self) -> None:
        """An undo (or a redo) changed which actions count: work the notes shown out again."""
        self._shown = None

    def events(self, void: Collection[int]) -> tuple[ev.Event, ...]:
        """The events that give the notes shown, in journal order (see the module's doc)."""
        if self._shown is None:
            self._shown = self._work_out(void)
            wanted = {t.seq for t in self._shown}
            self._read = {seq: e for seq, e in self._read.items() if seq in wanted}
        for touch in self._shown:
            if touch.seq not in self._read:
                self._read[touch.seq] = self._fetch(touch.at, touch.seq)
        return tuple(self._read[t.seq] for t in self._shown)

    def _work_out(self, void: Collection[int]) -> list[Touch]:
        """The touches whose events give the newest shared notes, in journal order."""
        picked: list[tuple[Touch, Touch]] = []  # (the note, what its words come from)
        sizes: list[int] = []
        for touches in reversed(self._notes.values()):
            source = _settled(touches, void)
            if source is None or not source.shared:
                continue
            sizes.append(source.size)
            if shown_count(sizes) < len(sizes):
                break
            picked.append((touches[0], source))
        wanted: dict[int, Touch] = {}
        for note, source in picked:
            wanted[note.seq] = note
            wanted[source.seq] = source
            named = self._named_before(note, void)
            if named is not None:
                wanted[named.seq] = named
        return sorted(wanted.values())

    def _named_before(self, note: Touch, void: Collection[int]) -> Touch | None:
        for touch in reversed(self._names.get(note.who, ())):
            if touch.seq < note.seq and touch.action not in void:
                return touch
        return None


def _settled(touches: list[Touch], void: Collection[int]) -> Touch | None:
    """What a note's words and sharing now come from (None: undone or taken back), as
    :func:`notes.settled` works it out: the last of its note and edits that counts."""
    source: Touch | None = None
    for touch in touches:
        if touch.action in void:
            continue
        if touch.kind == NOTE:
            source = touch
        elif source is None:
            continue  # its note undone: the edits of it are nothing
        elif touch.kind == EDIT:
            source = touch
        else:
            source = None
    return source
