"""The newest session journal as the players' screen follows it, in the memory of a few states.

:class:`StreamedJournal` reads the journal once, a line at a time, checking each line as
:func:`journal.read_session` does, then only the lines appended. It keeps no event: the state
the session's events fold to from its header (with the undos' voids), that state every
:data:`SNAPSHOT_EVERY` events with where the next line starts (all of the newest, one in
:data:`SPARSE` before: a few dozen states for a journal of any length), one bit per event (which
start an action), the undos, and the notes by where they are (:class:`follow_notes.NotesIndex`).
An undo or a redo folds again from the newest kept state before the actions it changes, reading
those lines again; with a checkpoint written during the session, the state shown folds the
events after the checkpoint onto it, read again from the kept state before it, and then each
appended event. So following an event costs its line, however long the evening.

A journal with a damaged line before its last (an older gmscreen writing after a cut) is read
whole instead (:class:`WholeJournal`, as opening reads it), its events kept.

Both give the state :func:`store.recover` gives for the newest journal on top of the state before
it (``shown_state``), and the events :func:`player_safe.player_safe` needs for the notes the
screen shows (``notes_events``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, NamedTuple

import msgspec

from gmscreen.campaign import events as ev
from gmscreen.campaign.bounds import MAX_FILE, MAX_LINE
from gmscreen.campaign.errors import CampaignFileError, Problem
from gmscreen.campaign.follow_notes import NotesIndex
from gmscreen.campaign.journal import SessionHeader, line_events, parse_header, read_session
from gmscreen.campaign.journal_stream import order_problem, void_from_undos
from gmscreen.campaign.model import Campaign
from gmscreen.campaign.reducer import ReplayError, fold, void_actions
from gmscreen.campaign.safe_files import MIB, UnsafeFile, open_regular
from gmscreen.campaign.store import recover

# What a file looked like when last read: inode, size, modification time (ns).
Identity = tuple[int, int, int]

# Events between two kept states: an undo reads again at most about this many lines before the
# action it takes back. The newest DENSE states are all kept, older ones one in SPARSE (undoing
# that far back reads more, which a GM seldom does).
SNAPSHOT_EVERY = 32
DENSE = 64
SPARSE = 64
# The events of one reading kept for the state shown to fold them on (more: read again).
APPENDED_KEPT = 1_000


class Damaged(Exception):
    """A line before the journal's last does not read: the journal is read whole instead."""


class _Line(NamedTuple):
    at: int  # where it starts
    data: bytes  # without its newline (cut, if longer than the limit)
    whole: bool  # its newline is there
    end: int  # where the next line starts


class _Lines:
    """A journal's lines from ``start``, through a buffered file opened as safe_files opens
    every file it reads (regular, no link followed)."""

    def __init__(self, path: Path, start: int) -> None:
        try:
            fd = open_regular(path, os.O_RDONLY)
        except UnsafeFile as error:
            raise CampaignFileError([Problem(path, 0, error.reason)]) from None
        except OSError as error:
            raise CampaignFileError([Problem(path, 0, f"cannot read: {error.strerror}")]) from None
        self._file: BinaryIO = os.fdopen(fd, "rb", buffering=MIB)
        self._file.seek(start)
        self.at = start

    def __enter__(self) -> _Lines:
        return self

    def __exit__(self, *_: object) -> None:
        self._file.close()

    def next(self, limit: int = MAX_LINE) -> _Line | None:
        """The next line (None at the end); one longer than ``limit`` is read to its end and
        given cut (no event is that long: the caller refuses it)."""
        at = self.at
        data = self._file.readline(limit + 2)
        if not data:
            return None
        self.at += len(data)
        if data.endswith(b"\n"):
            return _Line(at, data[:-1], True, self.at)
        if len(data) > limit:
            while rest := self._file.readline(MIB):
                self.at += len(rest)
                if rest.endswith(b"\n"):
                    return _Line(at, data, True, self.at)
        return _Line(at, data, False, self.at)


class _Snapshot(NamedTuple):
    seq: int  # the last event folded into it (first_seq - 1: the header's state)
    at: int  # where the next line starts
    state: Campaign
    number: int  # how many were taken before it (which of the older ones stay)


class _Tail(NamedTuple):
    """The state shown from a checkpoint taken during the session: ``base`` with the events
    after its last one folded on, up to ``last_seq``."""

    base: Campaign
    generation: int
    last_seq: int
    state: Campaign


def _replay_problem(path: Path, first_seq: int, error: ReplayError) -> CampaignFileError:
    """As :func:`store.recover` words it (the event's line, counted one event a line)."""
    line = 0 if error.seq is None else error.seq - first_seq + 2
    return CampaignFileError([Problem(path, line, str(error))])


class StreamedJournal:
    """The newest journal at ``path``, read a line at a time (see the module's doc).

    Raises :class:`CampaignFileError` for a journal that cannot be read, :class:`Damaged` for one
    with a damaged line before its last.
    """

    def __init__(self, path: Path, identity: Identity | None) -> None:
        self.path = path
        self.identity = identity
        self.generation = 0  # counts the folds from a kept state (an undo, a redo)
        self.appended: list[ev.Event] | None = []  # the last reading's events (None: too many)
        self.undos: list[tuple[int, int, int]] = []  # (the undo's seq, its action, its target)
        self.void: set[int] = set()
        self.notes = NotesIndex(self._event_at)
        self._starts = bytearray()  # one bit per event: does it start an action?
        self._undo_actions: set[int] = set()
        self._pending: list[ev.Event] = []  # read, not yet folded
        # The events after the newest kept state (None: not all of them, the fold failed):
        # an undo of one of them folds them again without reading their lines again.
        self._recent: list[ev.Event] | None = []
        self._tail: _Tail | None = None
        self._broken: CampaignFileError | None = None  # the header's fold does not apply
        with _Lines(path, 0) as lines:
            self.header = self._read_header(lines.next(MAX_FILE))
            self.end = lines.at
        self.first_seq = self.header.first_seq
        self.last_seq = self.first_seq - 1
        self._state = self.header.state
        self._snapshots = [_Snapshot(self.last_seq, self.end, self._state, 0)]
        if identity is not None:
            self.grow(identity)

    @property
    def session(self) -> str:
        return self.header.id

    def _read_header(self, first: _Line | None) -> SessionHeader:
        if first is None:
            raise CampaignFileError(
                [Problem(self.path, 1, "empty journal: expected a session header")]
            )
        if not first.whole:
            raise Damaged  # a header without its newline: read whole, which says what it is
        try:
            raw = msgspec.json.decode(first.data)
        except (msgspec.MsgspecError, RecursionError):
            raise Damaged from None  # read whole, which words it
        return parse_header(raw, self.path)

    # --- reading -------------------------------------------------------------------------

    def can_grow(self, identity: Identity) -> bool:
        """Whether the file with ``identity`` is this journal, grown (or touched) since."""
        was = self.identity
        return was is not None and identity[0] == was[0] and identity[1] >= self.end

    def grow(self, identity: Identity) -> None:
        """Read the whole lines appended since the last reading; a bad last line is left for
        the next one (the GM's gmscreen may be writing it), a bad line before it raises
        :class:`Damaged`."""
        self.identity = identity
        self.appended = []
        with _Lines(self.path, self.end) as lines:
            line = lines.next()
            while line is not None and line.whole:
                following = lines.next()
                try:
                    events = line_events(line.data)
                    problem = order_problem(events, self.last_seq + 1, self.first_seq, self._starts)
                except ev.EventFormatError:
                    problem = "unreadable"
                if problem is not None:
                    if following is None:
                        break  # the last line, torn: left out, as read_session does
                    raise Damaged
                self._take(events, line)
                line = following
        self._fold_pending()

    def _take(self, events: list[ev.Event], line: _Line) -> None:
        undone: list[ev.Event] = []
        for event in events:
            self.notes.add(event, line.at)
            if isinstance(event.data, ev.Undo):
                self.undos.append((event.seq, event.action, event.data.target))
                self._undo_actions.add(event.action)
                undone.append(event)
        self._pending += events
        if self._recent is not None:
            self._recent += events
        self.last_seq, self.end = events[-1].seq, line.end
        if self.appended is not None:
            self.appended += events
            if len(self.appended) > APPENDED_KEPT:
                self.appended = None
        if undone:
            changed = self._new_voids(undone)
            if changed:
                self.notes.voids_changed()
                self._refold(min(changed))
                return
        if self.last_seq - self._snapshots[-1].seq >= SNAPSHOT_EVERY:
            self._keep_snapshot()

    def _new_voids(self, undos: list[ev.Event]) -> set[int]:
        """The actions whose voiding the undos just read change (and ``void`` brought up to
        date). The newest undo is in effect: it voids its target, and only an undo of an undo
        (a redo) can bring back an action voided before, which takes working out again."""
        targets = {e.data.target for e in undos if isinstance(e.data, ev.Undo)}
        if targets & self._undo_actions:
            void = void_from_undos([(action, target) for _, action, target in self.undos])
        else:
            void = self.void | targets
        changed, self.void = void ^ self.void, void
        return changed

    def _keep_snapshot(self) -> None:
        self._fold_pending()
        if self._broken is not None:
            return
        number = self._snapshots[-1].number + 1
        self._snapshots.append(_Snapshot(self.last_seq, self.end, self._state, number))
        self._recent = []
        leaving = len(self._snapshots) - 1 - DENSE  # no longer among the newest
        if leaving > 0 and self._snapshots[leaving].number % SPARSE:
            del self._snapshots[leaving]

    def _fold_pending(self) -> None:
        if self._pending and self._broken is None:
            try:
                self._state = fold(self._state, self._pending, self.void)
            except ReplayError as error:
                self._broken = _replay_problem(self.path, self.first_seq, error)
                self._recent = None
        self._pending = []

    def _refold(self, changed: int) -> None:
        """Fold again, with the voids as they are now, from the newest kept state before
        action ``changed`` (the lines after it read again)."""
        self.generation += 1
        self.appended = None
        kept = self._snapshots[-1]
        if kept.seq < changed and self._recent is not None:  # the usual undo: a recent action
            self._state, self._broken = kept.state, None
            self._pending = list(self._recent)
            self._fold_pending()
            return
        while len(self._snapshots) > 1 and self._snapshots[-1].seq >= changed:
            self._snapshots.pop()
        kept = self._snapshots[-1]
        self._state, self._broken = kept.state, None
        self._pending, self._recent = [], []
        last, end = self.last_seq, self.end
        for line_end, events in self._lines_between(kept.at, end):
            self._pending += events
            self._recent += events
            self.last_seq, self.end = events[-1].seq, line_end
            if self.last_seq - self._snapshots[-1].seq >= SNAPSHOT_EVERY:
                self._keep_snapshot()
        self._fold_pending()
        self.last_seq, self.end = last, end

    def _lines_between(self, start: int, stop: int) -> Iterator[tuple[int, list[ev.Event]]]:
        """The events of each line from ``start`` to ``stop`` (read and checked before), with
        where each line ends."""
        with _Lines(self.path, start) as lines:
            while lines.at < stop and (line := lines.next()) is not None:
                try:
                    yield line.end, line_events(line.data)
                except ev.EventFormatError:
                    raise self._changed() from None

    def _changed(self) -> CampaignFileError:
        return CampaignFileError([Problem(self.path, 0, "changed as it was read: read again")])

    def _event_at(self, at: int, seq: int) -> ev.Event:
        """Event ``seq`` of the line at ``at`` (the notes shown, read back)."""
        for _, events in self._lines_between(at, at + 1):
            for event in events:
                if event.seq == seq:
                    return event
        raise self._changed()

    def events_after(self, seq: int) -> Iterator[ev.Event]:
        """The session's events after ``seq``, in order, read again from the newest kept state
        at or before it."""
        kept = next(s for s in reversed(self._snapshots) if s.seq <= seq)
        if kept is self._snapshots[-1] and self._recent is not None:
            yield from (e for e in self._recent if e.seq > seq)  # in memory still
            return
        for _, events in self._lines_between(kept.at, self.end):
            yield from (e for e in events if e.seq > seq)

    # --- what is shown -------------------------------------------------------------------

    def notes_events(self) -> tuple[ev.Event, ...]:
        return self.notes.events(self.void)

    def header_state(self) -> Campaign:
        """The session's events folded from its header (raises if one does not apply)."""
        self._fold_pending()
        if self._broken is not None:
            raise self._broken
        return self._state

    def shown_state(self, base: Campaign) -> Campaign:
        """What :func:`store.recover` makes of this journal on top of ``base``, the state
        before it (the checkpoint, brought up to date with the older journals it lacks)."""
        known = base.last_event
        if self.last_seq <= known:
            return base
        if self.first_seq - 1 >= known:
            return self.header_state()
        undos_then = [(action, target) for seq, action, target in self.undos if seq <= known]
        if any(action <= known for action in self.void ^ void_from_undos(undos_then)):
            return self.header_state()  # an undo since voids what the checkpoint folded
        return self._tail_state(base, known)

    def _tail_state(self, base: Campaign, known: int) -> Campaign:
        tail, new = self._tail, self.appended
        try:
            if tail is None or tail.base is not base or tail.generation != self.generation:
                state = fold(base, self.events_after(known), self.void)
            elif tail.last_seq == self.last_seq:
                return tail.state
            elif new and new[0].seq == tail.last_seq + 1 and new[-1].seq == self.last_seq:
                state = fold(tail.state, new, self.void)  # only what was appended
            else:
                state = fold(base, self.events_after(known), self.void)
        except ReplayError as error:
            raise _replay_problem(self.path, self.first_seq, error) from None
        self._tail = _Tail(base, self.generation, self.last_seq, state)
        return state


class WholeJournal:
    """A newest journal with a damaged line before its last, read whole (its events kept), as
    opening reads it: a rare file (an older gmscreen wrote after a cut), read again on any
    change."""

    def __init__(self, path: Path, identity: Identity | None) -> None:
        self.path = path
        self.identity = identity
        self.log = read_session(path, damaged_ok=True)
        self.header = self.log.header
        self.first_seq = self.header.first_seq
        self.void = void_actions(self.log.events)
        self.notes = NotesIndex(lambda at, _: self.log.events[at])
        for n, event in enumerate(self.log.events):
            self.notes.add(event, n)

    @property
    def session(self) -> str:
        return self.header.id

    def can_grow(self, identity: Identity) -> bool:
        return False

    def grow(self, identity: Identity) -> None:  # pragma: no cover - can_grow says no
        raise Damaged

    def notes_events(self) -> tuple[ev.Event, ...]:
        return self.notes.events(self.void)

    def shown_state(self, base: Campaign) -> Campaign:
        return recover(base, [self.log]).state
