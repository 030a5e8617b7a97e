"""What a session journal says of itself when read cheaply: its size and digest, its header's
facts and its last action, for the session index to check its entries against.

The digest (SHA-256 of every byte) is what an index entry is keyed by: the same bytes give the
same key wherever the file is (a copy, a zip, a sync tool keep it; inode times do not), and any
change to any byte is seen. Hashing costs about 2.5 ms a MiB here, a tenth of parsing the
journal, and reads the file once, a chunk at a time (bounded memory however large it is).

The header's facts (id, start, first sequence number) are checked as reading the journal checks
them (:func:`journal.header_facts`), from the first line alone; the start state is not decoded,
only its clock. The last action is the last line that decodes (one torn line may follow it, as
:func:`journal.read_session` allows). Each says something an index entry must agree with: the
entry then cannot name another session, or claim events the journal does not number.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import msgspec

from gmscreen.campaign import events as ev
from gmscreen.campaign.bounds import MAX_CLOCK, MAX_FILE, MAX_LINE
from gmscreen.campaign.errors import CampaignFileError
from gmscreen.campaign.journal import header_facts, line_events
from gmscreen.campaign.safe_files import JOURNAL_LIMIT, MIB, UnsafeFile, open_regular

_CHUNK = MIB
# The last two lines of a journal fit in this many bytes (each at most MAX_LINE, and newlines).
_TAIL = 2 * MAX_LINE + 4


class JournalDigest(msgspec.Struct, frozen=True, gc=False):
    """A journal as read cheaply: what its header and its last action say, and its key."""

    size: int
    digest: str  # SHA-256 of the whole file, hex
    id: str
    started_at: str
    first_seq: int
    start_clock: int  # the game clock in the header's start state
    last_seq: int  # the last event's sequence number (first_seq - 1 when it has none)
    last_time: int  # the latest game time the last action reached (start_clock when none)
    last_at: str  # the last event's wall clock (started_at when none): when play stopped


def digest_bytes(data: bytes) -> str:
    """The key of a journal whose bytes are ``data`` (see :class:`JournalDigest`)."""
    return hashlib.sha256(data).hexdigest()


class _StartClock(msgspec.Struct):
    clock: Any = 0


class _HeaderLine(msgspec.Struct):
    """The header's fields the index checks; the start state's other fields are skipped."""

    type: Any = None
    schema: Any = None
    first_seq: Any = None
    id: Any = msgspec.UNSET
    started_at: Any = ""
    state: _StartClock | None = None


_HEADER = msgspec.json.Decoder(_HeaderLine)


def digest_journal(path: Path) -> JournalDigest | None:
    """The journal at ``path`` read cheaply; None if it cannot be (unreadable, not a regular
    file, too large, a header or a last action that does not read): reading it whole says why.
    """
    try:
        fd = open_regular(path, os.O_RDONLY)
    except (OSError, UnsafeFile):
        return None
    try:
        return _digest(path, fd)
    except OSError:
        return None
    finally:
        os.close(fd)


def _digest(path: Path, fd: int) -> JournalDigest | None:
    if os.fstat(fd).st_size > JOURNAL_LIMIT:
        return None
    hashed = hashlib.sha256()
    head = bytearray()  # the first line, while it is being read
    header_end = -1  # where the header's line ends (its newline's offset)
    recent: list[bytes] = []  # the last chunks, enough for the last two lines
    size = 0
    while chunk := os.read(fd, _CHUNK):
        hashed.update(chunk)
        if header_end < 0:
            cut = chunk.find(b"\n")
            head += chunk if cut < 0 else chunk[:cut]
            if cut >= 0:
                header_end = size + cut
            elif len(head) > MAX_FILE:
                return None
        size += len(chunk)
        if size > JOURNAL_LIMIT:
            return None
        recent.append(chunk)
        if len(recent) > 3:
            del recent[0]
    facts = _header(path, bytes(head))
    if facts is None:
        return None
    tail = b"".join(recent)[-_TAIL:]
    start = size - len(tail)  # the tail's offset in the file
    if header_end >= start:
        tail = tail[header_end + 1 - start :]
    elif header_end < 0:
        tail = b""  # the header is all there is, without its newline
    last = _last_action(tail)
    if last is None:
        return None
    session_id, started_at, first_seq, clock = facts
    last_seq, last_time, last_at = last if last else (first_seq - 1, clock, started_at)
    return JournalDigest(
        size,
        hashed.hexdigest(),
        session_id,
        started_at,
        first_seq,
        clock,
        last_seq,
        last_time,
        last_at,
    )


def _header(path: Path, line: bytes) -> tuple[str, str, int, int] | None:
    try:
        light = _HEADER.decode(line)
    except (msgspec.MsgspecError, RecursionError):
        return None
    raw: dict[str, Any] = {"type": light.type, "schema": light.schema}
    raw |= {"first_seq": light.first_seq, "started_at": light.started_at}
    if light.id is not msgspec.UNSET:
        raw["id"] = light.id
    clock = light.state.clock if light.state is not None else None
    if type(clock) is not int or not 0 <= clock <= MAX_CLOCK:
        return None
    try:
        facts = header_facts(raw, path)
    except CampaignFileError:
        return None
    return facts.id, facts.started_at, facts.first_seq, clock


def _last_action(tail: bytes) -> tuple[int, int, str] | tuple[()] | None:
    """The last sequence number, the latest game time and the wall clock of the last line of
    ``tail`` (the lines after the header) that decodes, the last line or the one before it; ()
    when there are no lines; None when neither decodes."""
    lines = _last_lines(tail)
    if lines == [b""]:
        return ()
    for line in lines:
        try:
            events = line_events(line)
        except ev.EventFormatError:
            continue
        times = (e.data.after if isinstance(e.data, ev.ClockAdvanced) else e.game for e in events)
        return events[-1].seq, max(times), events[-1].at
    return None


def _last_lines(tail: bytes) -> list[bytes]:
    """The last line of ``tail`` and the one before it, the last first, split as
    read_session splits a journal (the newline after the last line ends it)."""
    end = len(tail) - 1 if tail.endswith(b"\n") else len(tail)
    found: list[bytes] = []
    while len(found) < 2:
        start = tail.rfind(b"\n", 0, end) + 1
        found.append(tail[start:end])
        if start == 0:
            break
        end = start - 1
    return found
