"""Session journals: ``sessions/<YYYY-MM-DD>-<n>.jsonl``, a header line then one action a line.

One key, one record: an action of one event is that event's JSON object on a line; an action of
several (the end of a day with its recoveries, a gain to every marked character) is a JSON array
of its events on one line, written with one ``write`` and one fsync. A crash or a full disk can
only cut the last line short, and a line cut short is no valid JSON, so recovery applies whole
actions or none of one. Older journals (header schema 1, one event a line) read as before.

Appends are fsynced before they return. A session file appears complete with its header (and
any events it starts with: written to a temporary file and linked into place), so a crash leaves
either no file or a file whose only possible damage is a torn last line. Reading never writes:
a torn last line is reported (``SessionLog.torn``, named by what it was) and left out; the store
sets it aside. Before each append the writer checks that the journal is still the file it wrote
(same device and inode, the size it left it at): one deleted, replaced or cut short is never
appended to (:class:`JournalChanged`).
Journals are read only as regular files of at most ``JOURNAL_LIMIT`` bytes (a FIFO, a device
or a link is refused by name), and every file here is created through :mod:`safe_files`.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import IO, Any, ClassVar

import msgspec

from gmscreen.campaign.bounds import MAX_DEPTH, MAX_FILE, MAX_LINE
from gmscreen.campaign.codec import campaign_from_dict, campaign_to_dict
from gmscreen.campaign.errors import CampaignError, CampaignFileError, Problem
from gmscreen.campaign.event_json import error_text
from gmscreen.campaign.events import Event, EventFormatError, Undo
from gmscreen.campaign.model import Campaign
from gmscreen.campaign.safe_files import (
    JOURNAL_LIMIT,
    UnsafeFile,
    check_real_folder,
    component_problem,
    describe_kind,
    ensure_folder,
    open_append,
    publish_new,
    read_regular,
    write_exclusive,
)
from gmscreen.campaign.safe_files import fsync_dir as fsync_dir  # re-exported, as before
from gmscreen.campaign.torn_lines import torn_action

SESSION_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})-(\d+)\.jsonl$")
HEADER_TAG = "gmscreen-session"
# The header's schema: 2 may hold multi-event lines (a JSON array: one action). 1 is read too.
JOURNAL_SCHEMA = 2
READS_SCHEMAS = (1, 2)


class SessionHeader(msgspec.Struct, frozen=True, gc=False):
    """A journal's first line: the session's id and start, and the campaign state it began from."""

    id: str
    started_at: str  # wall clock, ISO 8601
    first_seq: int  # the sequence number the session's first event will have
    state: Campaign  # the campaign when the session started
    # The journal's schema: a new session is written as JOURNAL_SCHEMA; one read keeps its own
    # (a schema-1 header re-encodes byte for byte).
    schema: int = JOURNAL_SCHEMA

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": HEADER_TAG,
            "schema": self.schema,
            "id": self.id,
            "started_at": self.started_at,
            "first_seq": self.first_seq,
            "state": campaign_to_dict(self.state),
        }

    def to_json(self) -> bytes:
        """The journal's first line (without its newline): compact JSON, UTF-8."""
        return msgspec.json.encode(self.to_dict())


class TornLine(msgspec.Struct, frozen=True, gc=False):
    """A journal's unreadable line (cut short, or damaged): number, bytes, why, and what it was.

    ``what`` names the action as far as the bytes tell (``the end of day 3``, ``a gain for
    artinar``; see :func:`torn_action`), for the GM: a line number means nothing at the table.
    """

    line: int
    data: bytes
    reason: str
    what: str = "an action"


class SessionLog(msgspec.Struct):
    """One session journal as read: header, events in order, and the torn last line left out.

    ``damaged`` lists unreadable lines before the last (a journal cut short and written to
    again by an older gmscreen); read with ``damaged_ok``, the events after them are kept and
    ``gap_after`` is the last sequence number read before the first of them.
    """

    path: Path
    header: SessionHeader
    events: list[Event] = msgspec.field(default_factory=list)
    torn: TornLine | None = None
    damaged: list[TornLine] = msgspec.field(default_factory=list)
    gap_after: int | None = None
    # The journal's size in bytes when it was read (what these events are the reading of);
    # None for a log not read from a file. The session index keys its entries by it.
    size: int | None = None

    @property
    def last_seq(self) -> int:
        return self.events[-1].seq if self.events else self.header.first_seq - 1


def session_sort_key(path: Path) -> tuple[str, int]:
    match = SESSION_NAME.match(path.name)
    return (match[1], int(match[2])) if match else ("", 0)


def list_sessions(folder: Path) -> list[Path]:
    """Session files in the order they were played (``sessions/`` itself must not be a link)."""
    try:
        if not check_real_folder(folder):
            return []
        names = [p for p in folder.iterdir() if SESSION_NAME.match(p.name)]
    except UnsafeFile as error:
        raise CampaignFileError([Problem(folder, 0, error.reason)]) from None
    except OSError as error:  # as read_checkpoint: a readable problem, not a traceback
        raise CampaignFileError([Problem(folder, 0, f"cannot read: {error.strerror}")]) from None
    return sorted(names, key=session_sort_key)


def next_session_id(folder: Path, date: str) -> str:
    taken = [session_sort_key(p)[1] for p in list_sessions(folder) if p.name.startswith(date)]
    return f"{date}-{max(taken, default=0) + 1}"


class HeaderFacts(msgspec.Struct, frozen=True, gc=False):
    """What a journal's header says of its session, checked, without its start state (cheap:
    the session index reads it from every journal it trusts)."""

    id: str
    started_at: str
    first_seq: int
    schema: int


def header_facts(raw: Any, path: Path) -> HeaderFacts:
    """The header's id, start, first sequence number and schema, checked as reading the
    journal checks them; raises :class:`CampaignFileError` naming line 1."""
    if not isinstance(raw, dict) or raw.get("type") != HEADER_TAG:
        raise _header_problem(
            path,
            f'expected a session header (an object with "type": "{HEADER_TAG}") '
            "on the first line; is this a gmscreen journal?",
        )
    schema = raw.get("schema")
    if isinstance(schema, bool) or schema not in READS_SCHEMAS:
        raise _header_problem(
            path,
            f"unknown schema {schema!r}: this gmscreen reads schema "
            + " and ".join(str(n) for n in READS_SCHEMAS),
        )
    first = raw.get("first_seq")
    if isinstance(first, bool) or not isinstance(first, int) or first < 1:
        raise _header_problem(path, "first_seq: expected a whole number from 1")
    session_id = raw.get("id", path.stem)
    if not isinstance(session_id, str):
        raise _header_problem(path, "id: expected a session id (text)")
    problem = component_problem(session_id)
    if problem is not None:  # it names exported files: no separators, no '..', no controls
        raise _header_problem(path, f"id: the session id {session_id!r} {problem}")
    return HeaderFacts(session_id, str(raw.get("started_at", "")), first, schema)


def _header_problem(path: Path, message: str) -> CampaignFileError:
    return CampaignFileError([Problem(path, 1, message)])


def parse_header(raw: Any, path: Path) -> SessionHeader:
    facts = header_facts(raw, path)
    try:
        state = campaign_from_dict(raw.get("state"))
    except ValueError as error:
        raise _header_problem(path, f"the start state is not a campaign: {error}") from None
    return SessionHeader(
        id=facts.id,
        started_at=facts.started_at,
        first_seq=facts.first_seq,
        state=state,
        schema=facts.schema,
    )


def _check_order(event: Event, expected: int, actions: set[int] | None) -> str | None:
    """What is wrong with ``event`` in its place; ``actions`` None: after a damaged line, where
    the action or the undone one may have been."""
    if event.seq != expected:
        return f"event {event.seq} is out of order: expected event {expected}"
    if actions is None:
        return None
    if event.action != event.seq and event.action not in actions:
        return f"event {event.seq} belongs to action {event.action}, which is not in this session"
    if isinstance(event.data, Undo) and event.data.target not in actions:
        return f"event {event.seq} undoes action {event.data.target}, which is not in this session"
    return None


def _take_line(
    log: SessionLog, events: list[Event], expected: int, actions: set[int]
) -> str | None:
    """Add one action's events (or one event after a damaged line) to ``log``, or say why not."""
    if log.damaged and events[0].seq > expected:
        expected = events[0].seq  # after a damaged line: the gap it left
    if events[0].action == events[0].seq:  # the line starts its action
        actions.add(events[0].seq)
    known = None if log.damaged else actions
    for n, event in enumerate(events):
        problem = _check_order(event, expected + n, known)
        if problem is not None:
            return problem
    log.events.extend(events)
    return None


def line_events(line: bytes) -> list[Event]:
    """The events of one journal line: one event (an object), or one action (an array)."""
    if not line.startswith(b"["):
        return [Event.from_json(line)]
    try:
        items = _ACTION_LINE.decode(line)
    except msgspec.MsgspecError as error:
        raise EventFormatError(error_text(error)) from None
    except RecursionError:
        raise EventFormatError(f"nested more than {MAX_DEPTH} deep") from None
    if not items:
        raise EventFormatError("an action line holds one or more events")
    events = [Event.from_json(bytes(item)) for item in items]
    first = events[0]
    if first.action != first.seq or any(e.action != first.seq for e in events):
        raise EventFormatError(f"the events of one line are one action: {first.seq}")
    return events


_ACTION_LINE = msgspec.json.Decoder(list[msgspec.Raw])


def read_session(path: Path, *, damaged_ok: bool = False) -> SessionLog:
    """Read a journal. Raises :class:`CampaignFileError` for anything but a bad last line.

    With ``damaged_ok`` a bad line before the last is reported in ``SessionLog.damaged``
    instead, and the events after it are read (in order, with a gap where it was): opening a
    campaign whose checkpoint already covers the damage needs no more (see ``store.recover``).
    """
    try:
        data = read_regular(path, JOURNAL_LIMIT)
    except OSError as error:
        raise CampaignFileError([Problem(path, 0, f"cannot read: {error.strerror}")]) from None
    return parse_session(path, data, damaged_ok=damaged_ok)


def parse_session(path: Path, data: bytes, *, damaged_ok: bool = False) -> SessionLog:
    """The journal whose bytes are ``data`` (read from ``path``), as :func:`read_session`
    reads it: for a caller that needs the very bytes it parsed too (the session index)."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if not lines:
        raise CampaignFileError([Problem(path, 1, "empty journal: expected a session header")])
    if len(lines[0]) > MAX_FILE:
        raise CampaignFileError(
            [Problem(path, 1, f"the session header is longer than {MAX_FILE:,} bytes")]
        )
    try:
        raw_header = msgspec.json.decode(lines[0])
    except msgspec.MsgspecError as error:
        raise CampaignFileError(
            [Problem(path, 1, f"expected a session header: {error_text(error, 'header')}")]
        ) from None
    except RecursionError:
        raise CampaignFileError(
            [Problem(path, 1, f"expected a session header: nested more than {MAX_DEPTH} deep")]
        ) from None
    log = SessionLog(path, parse_header(raw_header, path), size=len(data))
    actions: set[int] = set()
    expected = log.header.first_seq
    last = len(lines)
    append = log.events.append
    for number, line in enumerate(lines[1:], start=2):
        problem: str | None = None
        try:
            if not log.damaged and not line.startswith(b"["):  # one event: the common case
                event = Event.from_json(line)
                if event.action == event.seq:
                    actions.add(event.seq)
                problem = _check_order(event, expected, actions)
                if problem is None:
                    append(event)
                    expected += 1
                    continue
            else:
                problem = _take_line(log, line_events(line), expected, actions)
                if problem is None:
                    expected = log.last_seq + 1
                    continue
        except EventFormatError as error:
            problem = str(error)
            if not problem.startswith("not valid JSON"):
                problem = f"not a gmscreen event: {problem}"
        bad = TornLine(number, line, problem, torn_action(line))
        if number == last:
            log.torn = bad
            break
        if not damaged_ok:
            raise CampaignFileError([Problem(path, number, problem)])
        if not log.damaged:
            log.gap_after = expected - 1
        log.damaged.append(bad)
    return log


class JournalChanged(CampaignError):
    """The journal on disk is not the one this writer left: deleted, replaced or cut short.

    ``what`` says which, for the GM; the writer never appends to such a file.
    """

    def __init__(self, path: Path, what: str) -> None:
        super().__init__(f"{path} was {what} while gmscreen had it open")
        self.path = path
        self.what = what


class JournalWriter:
    """Appends actions to one session file; each append is on disk when it returns.

    A new writer writes the header, and ``events`` (the session so far, when a journal that
    went missing is written anew), to a temporary file and links it into place: the session
    file appears whole or not at all, and an existing one is never overwritten.
    """

    # For tests only: called with the journal's path and the bytes of each append just before
    # they are written, so a crash test can kill the process at a chosen append (and write
    # part of the line first, as a kill inside ``write`` would). None in the app.
    before_append: ClassVar[Callable[[Path, bytes], None] | None] = None

    def __init__(self, path: Path, header: SessionHeader, events: Sequence[Event] = ()) -> None:
        # ``sessions/`` a real folder, the header (and the events) in a temporary file with a
        # random name, linked into place only if nothing (not even a dangling link) has the
        # journal's name: the session file appears whole or not at all.
        folder = ensure_folder(path.parent.parent, path.parent.name)
        content = header.to_json() + b"\n" + b"".join(action_lines(events))
        try:
            identity = publish_new(folder, path.name, content)
        except FileExistsError:
            raise CampaignError(f"{path} already exists; not overwriting a journal") from None
        self.path = path
        self.header = header
        # Appends go to its descriptor with os.write (one write of the whole line, or a loop
        # over a short one), never through the file object's buffer.
        self._file: IO[bytes] | None = open_append(path, identity)
        self._identity = (identity.st_dev, identity.st_ino)
        self._size = len(content)  # what the file holds when nobody else touched it

    @property
    def size(self) -> int:
        """What the journal holds, in bytes, as this writer left it."""
        return self._size

    def check(self) -> None:
        """Raise :class:`JournalChanged` unless the path is still this file at the size we left."""
        if self._file is None:
            raise CampaignError("the journal is closed")
        try:
            on_disk = os.stat(self.path)
        except FileNotFoundError:
            raise JournalChanged(self.path, "deleted") from None
        if (on_disk.st_dev, on_disk.st_ino) != self._identity:
            raise JournalChanged(self.path, "replaced by another file")
        size = os.fstat(self._file.fileno()).st_size
        if size < self._size:
            raise JournalChanged(self.path, f"cut short (to {size} of {self._size} bytes)")
        if size > self._size:
            raise JournalChanged(self.path, "made longer (a failed write, or another program)")

    def append(self, event: Event) -> None:
        """Journal one action of one event (see :meth:`append_action`)."""
        self.append_action([event])

    def append_action(self, events: Sequence[Event]) -> None:
        """Journal one action (its events, in order) as one line, fsynced.

        Raises :class:`JournalChanged` (nothing written) or the ``OSError`` of a failed write;
        then the part of the line that did get written is cut off again, so the file stays
        as it was (if even that fails, the next :meth:`check` says the file changed).
        """
        self.check()
        assert self._file is not None
        data = action_line(events)
        if JournalWriter.before_append is not None:
            JournalWriter.before_append(self.path, data)
        fd = self._file.fileno()
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]  # a short write (a disk filling up) goes on
            os.fsync(fd)
        except OSError:
            with suppress(OSError):  # if it fails, the size check before the next append notices
                os.ftruncate(fd, self._size)
            raise
        self._size += len(data)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def action_line(events: Sequence[Event]) -> bytes:
    """One journal line: the event's object, or the JSON array of an action's events.

    Raises :class:`CampaignError` for an event longer than a journal line may be (the reader
    refuses those): such an action is refused before anything is written.
    """
    lines = [e.to_json() for e in events]
    for event, line in zip(events, lines, strict=True):
        if len(line) > MAX_LINE:
            raise CampaignError(
                f"this action is too large to journal ({event.kind}: {len(line):,} bytes, at "
                f"most {MAX_LINE:,}): do it in smaller steps"
            )
    if len(lines) == 1:
        return lines[0] + b"\n"
    return b"[" + b",".join(lines) + b"]\n"


def action_lines(events: Sequence[Event]) -> list[bytes]:
    """The lines of a run of whole actions (their events are consecutive: grouped by action)."""
    lines: list[bytes] = []
    start = 0
    for n in range(1, len(events) + 1):
        if n == len(events) or events[n].action != events[start].action:
            lines.append(action_line(events[start:n]))
            start = n
    return lines


def set_aside(log: SessionLog) -> Path | None:
    """Copy the unreadable lines (damaged ones, then the torn last line) to ``<session>.corrupt``
    (once); the journal itself is not touched.

    Created exclusively: a link planted at that name (even a dangling one) is never followed,
    and is refused (:class:`UnsafeFile`) rather than taken for an earlier copy.
    """
    bad = [*log.damaged, *([log.torn] if log.torn else [])]
    if not bad:
        return None
    target = log.path.with_name(log.path.name + ".corrupt")
    try:
        write_exclusive(target, b"\n".join(line.data for line in bad))
    except FileExistsError:
        mode = os.lstat(target).st_mode
        if not stat.S_ISREG(mode):
            raise UnsafeFile(
                target,
                f"is {describe_kind(mode)}: the unreadable line was not copied there "
                f"(it stays in {log.path.name}, unchanged); remove it",
            ) from None
    return target
