"""The GM's notes: written, rewritten and taken back, each a journaled event.

A note is a :class:`~gmscreen.campaign.events.Note` event; it is known by that event's seq for
good (an edit or a removal names it). The campaign state holds no notes: what a note says now is
the journal folded, :func:`settled`, over the events that count (undone actions left out). So
undoing an edit brings the note's words back, and undoing the note undoes its edits with it.
The one exception is a handout, a shared note *kept* for the players: the reducer keeps it in
the state (``Campaign.handouts``, see :mod:`handouts`), so a later session finds it, rewrites
it or stops sharing it without reading the journal that wrote it.

The builders here return drafts for :class:`~gmscreen.campaign.live.LiveCampaign`, which
journals them; they refuse (:class:`InvalidAction`) a note that is not there to edit.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from gmscreen.campaign import events as ev
from gmscreen.campaign.actions import Draft, note_text
from gmscreen.campaign.errors import InvalidAction
from gmscreen.campaign.model import Campaign
from gmscreen.campaign.reducer import void_actions


class NoteNow(msgspec.Struct, frozen=True):
    """A note as it stands: the seq of the event that wrote it, when (game seconds), about whom
    (a character id, or None for the session), what it says now, whether players may read it
    and whether they keep it (a handout, shown on later evenings too)."""

    seq: int
    game: int
    character: str | None
    text: str
    shared: bool
    kept: bool = False


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
                event.seq, event.game, event.character, data.text, data.shared, data.kept
            )
        elif isinstance(data, ev.NoteEdited) and data.note in notes:
            old = notes[data.note]
            notes[data.note] = NoteNow(
                old.seq, old.game, old.character, data.text, data.shared, data.kept
            )
        elif isinstance(data, ev.NoteRemoved):
            notes.pop(data.note, None)
    return notes


def _find(state: Campaign, events: Iterable[ev.Event], seq: int) -> NoteNow:
    """Note ``seq``: one of this session's ``events``, or a handout of an earlier session."""
    note = settled(events).get(seq)
    if note is not None:
        return note
    handout = state.handout(seq)
    if handout is None:
        raise InvalidAction(code="no_note", seq=seq)
    return NoteNow(seq, handout.game, handout.character, handout.text, True, True)


def edit(
    state: Campaign,
    events: Iterable[ev.Event],
    seq: int,
    text: str,
    shared: bool,
    kept: bool | None = None,
) -> Draft | None:
    """Rewrite note ``seq`` (this session's, or a handout); None if nothing changes.

    ``kept``: whether the players keep it (a handout); None leaves that as it was while it is
    shared. A note no longer shared is no longer kept: the GM stops sharing a handout so.
    """
    note = _find(state, events, seq)
    text = note_text(text)
    keep = (note.kept if kept is None else kept) and shared
    if note.text == text and note.shared == shared and note.kept == keep:
        return None
    data = ev.NoteEdited(seq, text, shared, note.text, note.shared, keep, note.kept)
    return note.character, data, state.clock


def remove(state: Campaign, events: Iterable[ev.Event], seq: int) -> Draft:
    """Take back note ``seq`` (this session's, or a handout)."""
    note = _find(state, events, seq)
    return note.character, ev.NoteRemoved(seq, note.text, note.shared, note.kept), state.clock


def handouts_now(state: Campaign) -> list[NoteNow]:
    """The campaign's handouts as notes (oldest first): what the players keep, whichever
    session wrote them."""
    return [NoteNow(h.id, h.game, h.character, h.text, True, True) for h in state.handouts]
