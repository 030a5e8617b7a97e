"""The GM's notes: written, rewritten and taken back, each a journaled event.

A note is a :class:`~gmscreen.campaign.events.Note` event; it is known by that event's seq for
good (an edit or a removal names it). The campaign state holds no notes: what a note says now is
the journal folded, :func:`settled`, over the events that count (undone actions left out). So
undoing an edit brings the note's words back, and undoing the note undoes its edits with it.

The builders here return drafts for :class:`~gmscreen.campaign.live.LiveCampaign`, which
journals them; they refuse (:class:`InvalidAction`) a note that is not there to edit.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from gmscreen.campaign import events as ev
from gmscreen.campaign.actions import Draft
from gmscreen.campaign.bounds import MAX_TEXT
from gmscreen.campaign.errors import InvalidAction
from gmscreen.campaign.model import Campaign
from gmscreen.campaign.reducer import void_actions


class NoteNow(msgspec.Struct, frozen=True):
    """A note as it stands: the seq of the event that wrote it, when (game seconds), about whom
    (a character id, or None for the session), what it says now and whether players may read it."""

    seq: int
    game: int
    character: str | None
    text: str
    shared: bool


def settled(events: Iterable[ev.Event]) -> dict[int, NoteNow]:
    """Every note among ``events`` as the later edits leave it, by seq, oldest first; removed
    notes and undone actions (and undos) are left out."""
    events = list(events)
    void = void_actions(events)
    notes: dict[int, NoteNow] = {}
    for event in events:
        if event.action in void:
            continue
        data = event.data
        if isinstance(data, ev.Note):
            notes[event.seq] = NoteNow(
                event.seq, event.game, event.character, data.text, data.shared
            )
        elif isinstance(data, ev.NoteEdited) and data.note in notes:
            old = notes[data.note]
            notes[data.note] = NoteNow(old.seq, old.game, old.character, data.text, data.shared)
        elif isinstance(data, ev.NoteRemoved):
            notes.pop(data.note, None)
    return notes


def _checked(text: str) -> str:
    if not text.strip():
        raise InvalidAction(code="empty_note")
    if len(text) > MAX_TEXT:
        raise InvalidAction(f"a note is at most {MAX_TEXT:,} characters, not {len(text):,}")
    return text


def _find(notes: dict[int, NoteNow], seq: int) -> NoteNow:
    note = notes.get(seq)
    if note is None:
        raise InvalidAction(code="no_note", seq=seq)
    return note


def edit(
    state: Campaign, events: Iterable[ev.Event], seq: int, text: str, shared: bool
) -> Draft | None:
    """Rewrite note ``seq`` (one of ``events``, this session's); None if nothing changes."""
    note = _find(settled(events), seq)
    _checked(text)
    if note.text == text and note.shared == shared:
        return None
    data = ev.NoteEdited(seq, text, shared, note.text, note.shared)
    return note.character, data, state.clock


def remove(state: Campaign, events: Iterable[ev.Event], seq: int) -> Draft:
    """Take back note ``seq`` (one of ``events``, this session's)."""
    note = _find(settled(events), seq)
    return note.character, ev.NoteRemoved(seq, note.text, note.shared), state.clock
