"""Journals read line by line, in bounded memory (``validate``, and export of a whole campaign).

:func:`journal.read_session` reads a journal whole: what opening and a replay need, and fast.
A journal of years (hundreds of MB) would then hold its bytes, its lines and every event at
once. :class:`JournalStream` reads one line at a time through a buffered file and checks it as
``read_session`` does (the header, each event's decoding and order, the torn last line); the
memory it keeps grows by one bit per event (which sequence numbers start an action).

:func:`check_campaign` folds a campaign's journals onto its checkpoint this way, as recovery
does (``store.recover``), keeping only the state, the undo events and the current line; its
``progress`` says how far it got, which ``validate`` prints if interrupted.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import msgspec

from gmscreen.campaign import events as ev
from gmscreen.campaign.bounds import MAX_DEPTH, MAX_FILE, MAX_LINE
from gmscreen.campaign.errors import CampaignFileError, Problem
from gmscreen.campaign.event_json import error_text
from gmscreen.campaign.events import Event, EventFormatError
from gmscreen.campaign.journal import SessionHeader, TornLine, line_events, parse_header
from gmscreen.campaign.model import Campaign
from gmscreen.campaign.reducer import ReplayError, fold
from gmscreen.campaign.safe_files import JOURNAL_LIMIT, MIB, UnsafeFile, open_regular
from gmscreen.campaign.store import torn_notice
from gmscreen.campaign.torn_lines import torn_action
from gmscreen.i18n import DEFAULT_LANGUAGE, catalog_for, plural
from gmscreen.text import counted

_BUFFER = MIB


@dataclass
class Progress:
    """How far a reading got: the journal, its line, and the journals done before it."""

    journals: int = 0  # journals in all
    done: int = 0  # journals read to their end in this stage
    stage: str = "checked"  # the first reading checks; the second replays
    path: Path | None = None
    line: int = 0
    events: int = 0  # events read, in all journals, in this stage

    def said(self) -> str:
        t = catalog_for(DEFAULT_LANGUAGE).t
        where = f"{self.path.name} line {self.line:,}" if self.path is not None else "the start"
        return (
            f"{self.done} of {plural(t, 'journals', self.journals)} {self.stage} "
            f"({plural(t, 'events', self.events)}); stopped at {where}"
        )


class JournalStream:
    """One journal, read a line at a time: ``header`` on opening, then :meth:`actions`.

    Raises :class:`CampaignFileError` for a journal that cannot be opened, a bad header, and a
    bad line before the last; a bad last line is ``torn`` once :meth:`actions` has ended.
    Use it as a context manager (the file is closed on leaving).
    """

    def __init__(self, path: Path, progress: Progress | None = None) -> None:
        self.path = path
        self.progress = progress if progress is not None else Progress()
        self.torn: TornLine | None = None
        self.line = 0
        self.progress.path, self.progress.line = path, 0
        try:
            fd = open_regular(path, os.O_RDONLY)
        except UnsafeFile as error:
            raise CampaignFileError([Problem(path, 0, error.reason)]) from None
        except OSError as error:
            raise self._problem(0, f"cannot read: {error.strerror}") from None
        self._file: BinaryIO = os.fdopen(fd, "rb", buffering=_BUFFER)
        try:
            size = os.fstat(fd).st_size
            if size > JOURNAL_LIMIT:
                raise self._problem(
                    0,
                    f"is larger than gmscreen reads ({size // MIB} MiB; "
                    f"the limit is {JOURNAL_LIMIT // MIB} MiB)",
                )
            self.header = self._read_header()
        except BaseException:
            self._file.close()
            raise

    def __enter__(self) -> JournalStream:
        return self

    def __exit__(self, *_: object) -> None:
        self._file.close()

    def _problem(self, line: int, message: str) -> CampaignFileError:
        return CampaignFileError([Problem(self.path, line, message)])

    def _next_line(self, limit: int) -> bytes | None:
        """The next line without its newline (None at the end); one longer than ``limit`` is
        read to its end and returned cut at ``limit + 1`` bytes (the caller refuses it)."""
        data = self._file.readline(limit + 2)
        if not data:
            return None
        self.line += 1
        self.progress.line = self.line
        if data.endswith(b"\n"):
            return data[:-1]
        if len(data) > limit:  # too long: skip the rest of it, a chunk at a time
            while True:
                rest = self._file.readline(_BUFFER)
                if not rest or rest.endswith(b"\n"):
                    break
            return data
        return data  # the last line, with no newline after it

    def _read_header(self) -> SessionHeader:
        first = self._next_line(MAX_FILE)
        if first is None:
            raise self._problem(1, "empty journal: expected a session header")
        if len(first) > MAX_FILE:
            raise self._problem(1, f"the session header is longer than {MAX_FILE:,} bytes")
        try:
            raw = msgspec.json.decode(first)
        except msgspec.MsgspecError as error:
            raise self._problem(
                1, f"expected a session header: {error_text(error, 'header')}"
            ) from None
        except RecursionError:
            raise self._problem(
                1, f"expected a session header: nested more than {MAX_DEPTH} deep"
            ) from None
        return parse_header(raw, self.path)

    def actions(self) -> Iterator[list[Event]]:
        """Each line's events (one action), in order, checked as :func:`read_session` does."""
        first = self.header.first_seq
        expected = first
        starts = bytearray()  # one bit per event: does its sequence number start an action?
        line = self._next_line(MAX_LINE)
        while line is not None:
            number = self.line
            following = self._next_line(MAX_LINE)
            problem: str | None = None
            try:
                events = line_events(line)
                problem = order_problem(events, expected, first, starts)
            except EventFormatError as error:
                problem = str(error)
                if not problem.startswith("not valid JSON"):
                    problem = f"not a gmscreen event: {problem}"
            if problem is not None:
                if following is None:  # the last line: torn, left out (as read_session does)
                    self.torn = TornLine(number, line, problem, torn_action(line))
                    return
                raise self._problem(number, problem)
            expected += len(events)
            self.progress.events += len(events)
            yield events
            line = following


def _set(bits: bytearray, index: int) -> None:
    byte = index >> 3
    if byte >= len(bits):
        bits.extend(bytes(byte - len(bits) + 1024))
    bits[byte] |= 1 << (index & 7)


def _is_set(bits: bytearray, index: int) -> bool:
    byte = index >> 3
    return index >= 0 and byte < len(bits) and bool(bits[byte] & (1 << (index & 7)))


def order_problem(
    events: Sequence[Event], expected: int, first: int, starts: bytearray
) -> str | None:
    """What is wrong with one line's events in their place (as ``journal._check_order``);
    ``starts`` has a bit set for each sequence number (from ``first``) that starts an action."""
    for n, event in enumerate(events):
        if event.seq != expected + n:
            return f"event {event.seq} is out of order: expected event {expected + n}"
        if event.action == event.seq:
            _set(starts, event.seq - first)
        elif not _is_set(starts, event.action - first):
            return (
                f"event {event.seq} belongs to action {event.action}, which is not in this session"
            )
        if isinstance(event.data, ev.Undo) and not _is_set(starts, event.data.target - first):
            return (
                f"event {event.seq} undoes action {event.data.target}, which is not in this session"
            )
    return None


@dataclass
class Checked:
    """A campaign's journals as :func:`check_campaign` read them."""

    state: Campaign
    sessions: int = 0
    events: int = 0
    notices: list[str] = field(default_factory=list)


def void_from_undos(undos: Sequence[tuple[int, int]]) -> set[int]:
    """As :func:`reducer.void_actions`, from the undos alone: (undo's action, its target)."""
    void: set[int] = set()
    for action, target in reversed(undos):
        if action not in void:
            void.add(target)
    return void


@dataclass
class _Scanned:
    """One journal after the first reading: enough to fold it in the second."""

    path: Path
    first_seq: int
    last_seq: int
    undos: list[tuple[int, int]]  # (the undo's action, the action it undoes), in order
    torn: TornLine | None


def _scan(path: Path, progress: Progress, on_line: Callable[[Progress], None] | None) -> _Scanned:
    undos: list[tuple[int, int]] = []
    with JournalStream(path, progress) as stream:
        first = stream.header.first_seq
        last = first - 1
        for action in stream.actions():
            for event in action:
                if isinstance(event.data, ev.Undo):
                    undos.append((event.action, event.data.target))
            last = action[-1].seq
            if on_line is not None:
                on_line(progress)
        return _Scanned(path, first, last, undos, stream.torn)


def check_journals(
    paths: Sequence[Path],
    progress: Progress | None = None,
    on_line: Callable[[Progress], None] | None = None,
) -> list[_Scanned]:
    """The first reading: every line of every journal checked; raises
    :class:`CampaignFileError` with the problems of every journal (as ``store.load_sessions``)."""
    progress = progress if progress is not None else Progress()
    progress.journals = len(paths)
    scanned: list[_Scanned] = []
    problems: list[Problem] = []
    for path in paths:
        try:
            scanned.append(_scan(path, progress, on_line))
        except CampaignFileError as error:
            problems.extend(error.problems)
        progress.done += 1
    if problems:
        raise CampaignFileError(problems)
    return scanned


def check_campaign(
    checkpoint: Campaign,
    paths: Sequence[Path],
    progress: Progress | None = None,
    on_line: Callable[[Progress], None] | None = None,
) -> Checked:
    """Read every journal twice, a line at a time, and fold what the checkpoint lacks onto it.

    The first reading checks every line and keeps the undos (:func:`check_journals`); the
    second folds the sessions the checkpoint lacks (with the voids the undos make). Raises
    :class:`CampaignFileError` as ``store.load_sessions`` and ``store.recover`` do;
    ``on_line`` is called after each line read (``progress`` says how far it got).
    """
    progress = progress if progress is not None else Progress()
    scanned = check_journals(paths, progress, on_line)
    checked = Checked(checkpoint, len(scanned))
    progress.done, progress.events, progress.stage = 0, 0, "replayed"
    for journal in scanned:
        checked.events += journal.last_seq - journal.first_seq + 1
        _fold_session(checked, journal, progress, on_line)
        progress.done += 1
    names = {c.id: c.name for c in checked.state.characters}
    checked.notices += [
        torn_notice(journal.path, journal.torn, names)
        for journal in scanned
        if journal.torn is not None
    ]
    return checked


def _fold_session(
    checked: Checked,
    journal: _Scanned,
    progress: Progress,
    on_line: Callable[[Progress], None] | None,
) -> None:
    path, last, undos = journal.path, journal.last_seq, journal.undos
    known = checked.state.last_event
    if last <= known:
        return
    void = void_from_undos(undos)
    from_header = journal.first_seq - 1 >= known or any(
        action <= known for action in void ^ void_from_undos([u for u in undos if u[0] <= known])
    )

    def wanted(stream: JournalStream) -> Iterator[Event]:
        for event in (e for action in stream.actions() for e in action):
            if on_line is not None:
                on_line(progress)
            if from_header or event.seq > known:
                yield event

    try:
        with JournalStream(path, progress) as stream:
            start = stream.header.state if from_header else checked.state
            checked.state = fold(start, wanted(stream), void)
    except ReplayError as error:
        line = 0 if error.seq is None else error.seq - journal.first_seq + 2
        raise CampaignFileError([Problem(path, line, str(error))]) from None
    checked.notices.append(
        f"recovered {counted(last - known, 'event')} from {path.name} "
        "that the checkpoint did not include"
    )
