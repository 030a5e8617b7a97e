"""Session journals: ``sessions/<YYYY-MM-DD>-<n>.jsonl``, a header line then one event a line.

Appends are flushed and fsynced before they return. A session file appears complete with its
header (written to a temporary file and linked into place), so a crash leaves either no file or
a file whose only possible damage is a torn last line. Reading never writes: a torn or
unparseable last line is reported (``SessionLog.torn``) and left out; the store sets it aside.
Journals are read only as regular files of at most ``JOURNAL_LIMIT`` bytes (a FIFO, a device
or a link is refused by name), and every file here is created through :mod:`safe_files`.
"""

from __future__ import annotations

import gc
import os
import re
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import msgspec

from gmscreen.campaign.bounds import MAX_DEPTH, MAX_FILE
from gmscreen.campaign.codec import campaign_from_dict, campaign_to_dict
from gmscreen.campaign.errors import CampaignError, CampaignFileError, Problem
from gmscreen.campaign.event_json import error_text
from gmscreen.campaign.events import Event, EventFormatError, Undo
from gmscreen.campaign.model import SCHEMA, Campaign
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

SESSION_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})-(\d+)\.jsonl$")
HEADER_TAG = "gmscreen-session"


class SessionHeader(msgspec.Struct, frozen=True, gc=False):
    """A journal's first line: the session's id and start, and the campaign state it began from."""

    id: str
    started_at: str  # wall clock, ISO 8601
    first_seq: int  # the sequence number the session's first event will have
    state: Campaign  # the campaign when the session started

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": HEADER_TAG,
            "schema": SCHEMA,
            "id": self.id,
            "started_at": self.started_at,
            "first_seq": self.first_seq,
            "state": campaign_to_dict(self.state),
        }

    def to_json(self) -> bytes:
        """The journal's first line (without its newline): compact JSON, UTF-8."""
        return msgspec.json.encode(self.to_dict())


class TornLine(msgspec.Struct, frozen=True, gc=False):
    """A journal's unreadable last line (cut short, or damaged): number, bytes, why."""

    line: int
    data: bytes
    reason: str


class SessionLog(msgspec.Struct):
    """One session journal as read: header, events in order, and the torn last line left out."""

    path: Path
    header: SessionHeader
    events: list[Event] = msgspec.field(default_factory=list)
    torn: TornLine | None = None

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


def _header(raw: Any, path: Path) -> SessionHeader:
    def bad(message: str) -> CampaignFileError:
        return CampaignFileError([Problem(path, 1, message)])

    if not isinstance(raw, dict) or raw.get("type") != HEADER_TAG:
        raise bad(
            f'expected a session header (an object with "type": "{HEADER_TAG}") '
            "on the first line; is this a gmscreen journal?"
        )
    if raw.get("schema") != SCHEMA:
        raise bad(f"unknown schema {raw.get('schema')!r}: this gmscreen reads schema {SCHEMA}")
    first = raw.get("first_seq")
    if isinstance(first, bool) or not isinstance(first, int) or first < 1:
        raise bad("first_seq: expected a whole number from 1")
    session_id = raw.get("id", path.stem)
    if not isinstance(session_id, str):
        raise bad("id: expected a session id (text)")
    problem = component_problem(session_id)
    if problem is not None:  # it names exported files: no separators, no '..', no controls
        raise bad(f"id: the session id {session_id!r} {problem}")
    try:
        state = campaign_from_dict(raw.get("state"))
    except ValueError as error:
        raise bad(f"the start state is not a campaign: {error}") from None
    return SessionHeader(
        id=session_id,
        started_at=str(raw.get("started_at", "")),
        first_seq=first,
        state=state,
    )


def _check_order(event: Event, expected: int, actions: set[int]) -> str | None:
    if event.seq != expected:
        return f"event {event.seq} is out of order: expected event {expected}"
    if event.action != event.seq and event.action not in actions:
        return f"event {event.seq} belongs to action {event.action}, which is not in this session"
    if isinstance(event.data, Undo) and event.data.target not in actions:
        return f"event {event.seq} undoes action {event.data.target}, which is not in this session"
    return None


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection inside (reference counting still frees what it can).

    Reading a journal makes tens of thousands of dicts and lists (the parse) and events that
    all live on, none in a cycle (JSON cannot make one): the collector, triggered by the count
    of new objects, would walk them and the rest of the heap several times for nothing, 15 to
    110 ms for bench_store's 10,000-event journal. As replay's gc.freeze, for the same reason.
    The pause is process-wide, so other threads' cycles wait too: a tenth of a second.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def read_session(path: Path) -> SessionLog:
    """Read a journal. Raises :class:`CampaignFileError` for anything but a bad last line."""
    with _collector_paused():
        return _read_session(path)


def _read_session(path: Path) -> SessionLog:
    try:
        data = read_regular(path, JOURNAL_LIMIT)
    except OSError as error:
        raise CampaignFileError([Problem(path, 0, f"cannot read: {error.strerror}")]) from None
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
    log = SessionLog(path, _header(raw_header, path))
    actions: set[int] = set()
    expected = log.header.first_seq
    last = len(lines)
    for number, line in enumerate(lines[1:], start=2):
        try:
            event = Event.from_json(line)
            problem = _check_order(event, expected, actions)
        except EventFormatError as error:
            problem = str(error)
            if not problem.startswith("not valid JSON"):
                problem = f"not a gmscreen event: {problem}"
        if problem is not None:
            if number == last:
                log.torn = TornLine(number, line, problem)
                break
            raise CampaignFileError([Problem(path, number, problem)])
        log.events.append(event)
        actions.add(event.action)
        expected += 1
    return log


class JournalWriter:
    """Appends events to one session file; each append is on disk when it returns."""

    def __init__(self, path: Path, header: SessionHeader) -> None:
        # ``sessions/`` a real folder, the header in a temporary file with a random name, linked
        # into place only if nothing (not even a dangling link) has the journal's name.
        folder = ensure_folder(path.parent.parent, path.parent.name)
        try:
            identity = publish_new(folder, path.name, header.to_json() + b"\n")
        except FileExistsError:
            raise CampaignError(f"{path} already exists; not overwriting a journal") from None
        self.path = path
        self.header = header
        self._file: IO[bytes] | None = open_append(path, identity)

    def append(self, event: Event) -> None:
        if self._file is None:
            raise CampaignError("the journal is closed")
        self._file.write(event.to_json() + b"\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def set_aside(log: SessionLog) -> Path | None:
    """Copy a torn last line to ``<session>.corrupt`` (once); the journal itself is not touched.

    Created exclusively: a link planted at that name (even a dangling one) is never followed,
    and is refused (:class:`UnsafeFile`) rather than taken for an earlier copy.
    """
    if log.torn is None:
        return None
    target = log.path.with_name(log.path.name + ".corrupt")
    try:
        write_exclusive(target, log.torn.data)
    except FileExistsError:
        mode = os.lstat(target).st_mode
        if not stat.S_ISREG(mode):
            raise UnsafeFile(
                target,
                f"is {describe_kind(mode)}: the torn line was not copied there "
                f"(it stays in {log.path.name}, unchanged); remove it",
            ) from None
    return target
