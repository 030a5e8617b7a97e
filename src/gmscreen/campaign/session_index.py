"""The session index: what the session picker and ``gmscreen sessions`` say of each session,
without reading every journal ever written.

``sessions/index.json`` holds, per journal (by file name), its summary (id, start, events,
undone, checks, characters involved, first and last sequence number, game time span) and the
size, mtime and ctime of the journal it was made from. The journals are the truth: an entry is
used only while its journal's ``lstat`` still shows those three; any other entry, and an index
that is missing, unreadable, too large, a link, not JSON or of the wrong shape, is made again
from the journal itself. A hostile index can at worst cost the time of reading the journals.

Only the process holding the campaign's lock writes the index (the live campaign, when it
opens and when it closes), atomically through :mod:`safe_files` (a link there is replaced,
never written through): the read-only commands (``gmscreen sessions``, ``gmscreen replay``)
stay read-only, and two writers never race. Writing it is best effort: it is a cache, and a
campaign on a read-only medium still lists its sessions, from the journals.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import msgspec

from gmscreen.campaign.errors import CampaignError, CampaignFileError, Problem
from gmscreen.campaign.events import ClockAdvanced
from gmscreen.campaign.journal import SessionLog, list_sessions, read_session
from gmscreen.campaign.replay_steps import summarize
from gmscreen.campaign.safe_files import MIB, component_problem, read_regular, replace_file

INDEX_FILE = "index.json"
INDEX_TAG = "gmscreen-session-index"
INDEX_VERSION = 1
# An entry is a few hundred bytes: 32 MiB is some 80,000 sessions, centuries of weekly play.
INDEX_LIMIT = 32 * MIB
_MAX_NUMBER = 2**62


class SessionEntry(msgspec.Struct, frozen=True):
    """One session as the index keeps it; ``path`` is its journal (not stored: the key is the
    journal's file name)."""

    path: Path
    id: str
    started_at: str  # wall clock, ISO 8601, as the header has it
    events: int
    undone: int  # events an undo voided
    checks: int  # madness check rolls still in effect
    characters: tuple[str, ...]  # names, in the order they first appear in the events
    first_seq: int
    last_seq: int
    game_start: int  # the game clock when the session began, in seconds
    game_end: int  # the latest game time any of its events reached
    size: int  # the journal's size, mtime and ctime when this entry was made
    mtime_ns: int
    ctime_ns: int

    def stored(self) -> dict[str, Any]:
        """The entry's JSON form (everything but the path, which is its key)."""
        raw = msgspec.structs.asdict(self)
        del raw["path"]
        raw["characters"] = list(self.characters)
        return raw


class SessionListing(msgspec.Struct):
    """A campaign's sessions, oldest first, and the journals read to list them.

    ``stale``: the index on disk does not say what ``entries`` say (missing, damaged, an entry
    rebuilt or left out), so the lock holder should write it again. ``unsettled``: journals
    written to while they were read (the session being played, in another gmscreen): listed as
    read, never stored, so they are read again next time.
    """

    folder: Path
    entries: list[SessionEntry]
    stale: bool = False
    read: dict[Path, SessionLog] = msgspec.field(default_factory=dict)
    unsettled: set[Path] = msgspec.field(default_factory=set)

    def log(self, entry: SessionEntry) -> SessionLog:
        """The session's journal: the one read while listing, else read now.

        Raises :class:`CampaignFileError` if it cannot be read (changed since it was listed).
        """
        log = self.read.get(entry.path)
        if log is None:
            log = self.read[entry.path] = read_session(entry.path)
        return log

    def pick(self, session: str | None) -> SessionEntry:
        """The session ``session`` names (its id or its journal's file name), or the last one.

        Raises :class:`CampaignError` if there are no sessions or none is named ``session``.
        """
        if not self.entries:
            raise CampaignError("this campaign has no sessions yet")
        if session is None:
            return self.entries[-1]
        for entry in self.entries:
            if session in (entry.id, entry.path.name):
                return entry
        raise CampaignError(
            f"no session {session!r}: choose one of {', '.join(e.id for e in self.entries)}"
        )


def index_path(sessions: Path) -> Path:
    return sessions / INDEX_FILE


def summary_entry(log: SessionLog, st: os.stat_result) -> SessionEntry:
    """The entry for ``log``, read from a journal whose ``lstat`` was ``st``."""
    summary = summarize(log)
    start = log.header.state.clock
    end = max(
        [
            start,
            *(e.data.after if isinstance(e.data, ClockAdvanced) else e.game for e in log.events),
        ]
    )
    return SessionEntry(
        path=log.path,
        id=summary.id,
        started_at=summary.started_at,
        events=summary.events,
        undone=summary.undone,
        checks=summary.checks,
        characters=summary.characters,
        first_seq=log.header.first_seq,
        last_seq=log.last_seq,
        game_start=start,
        game_end=end,
        size=st.st_size,
        mtime_ns=st.st_mtime_ns,
        ctime_ns=st.st_ctime_ns,
    )


def list_entries(sessions: Path, known: Sequence[SessionLog] = ()) -> SessionListing:
    """Every session in the ``sessions`` folder, from the index where it is still true.

    A journal the index does not describe as it is now is summarized from ``known`` (journals
    the caller has just read, under the lock) or read. Raises :class:`CampaignFileError` with
    every journal that cannot be read, as :func:`store.load_sessions` does.
    """
    paths = list_sessions(sessions)
    listing = SessionListing(sessions.parent, [])
    if not paths:
        return listing
    stored = _read_index(index_path(sessions))
    by_path = {log.path: log for log in known}
    listing.stale = stored is None or set(stored) != {p.name for p in paths}
    problems: list[Problem] = []
    for path in paths:
        try:
            st = os.lstat(path)
        except OSError as error:
            problems.append(Problem(path, 0, f"cannot read: {error.strerror}"))
            continue
        entry = _stored_entry((stored or {}).get(path.name), path, st)
        if entry is None:
            listing.stale = True
            try:
                entry = _rebuilt(path, st, by_path.get(path), listing)
            except CampaignFileError as error:
                problems.extend(error.problems)
                continue
        listing.entries.append(entry)
    if problems:
        raise CampaignFileError(problems)
    return listing


def _rebuilt(
    path: Path, st: os.stat_result, known: SessionLog | None, listing: SessionListing
) -> SessionEntry:
    if known is not None:
        return summary_entry(known, st)
    log = listing.read[path] = read_session(path)
    after = os.lstat(path)
    if _identity(after) != _identity(st):
        listing.unsettled.add(path)  # it changed as it was read: which state did we read?
    return summary_entry(log, after)


def _identity(st: os.stat_result) -> tuple[int, int, int]:
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def write_index(listing: SessionListing) -> bool:
    """Write the listing's index if it is stale; True if written. Call it holding the lock.

    Best effort: an index that cannot be written (a read-only folder, a full disk) is simply
    not written, and the journals are read again next time.
    """
    if not listing.stale:
        return False
    entries = {e.path.name: e.stored() for e in listing.entries if e.path not in listing.unsettled}
    raw = {"type": INDEX_TAG, "version": INDEX_VERSION, "sessions": entries}
    data = json.dumps(raw, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    sessions = listing.folder / "sessions"
    try:
        replace_file(sessions, INDEX_FILE, data)
    except (OSError, CampaignError):
        return False
    listing.stale = False
    return True


_Number = Annotated[int, msgspec.Meta(ge=0, le=_MAX_NUMBER)]


class _Stored(msgspec.Struct, frozen=True):
    """An entry as the index stores it, typed: the index this gmscreen wrote decodes in one
    call (checked by msgspec, in C), not key by key."""

    id: str
    started_at: str
    events: _Number
    undone: _Number
    checks: _Number
    characters: list[str]
    first_seq: _Number
    last_seq: _Number
    game_start: _Number
    game_end: _Number
    size: int
    mtime_ns: int
    ctime_ns: int


class _StoredIndex(msgspec.Struct, frozen=True):
    type: str
    version: int
    sessions: dict[str, _Stored]


_INDEX_DECODER = msgspec.json.Decoder(_StoredIndex)


def _read_index(path: Path) -> dict[str, Any] | None:
    """The index's entries by file name, or None if it is missing or damaged in any way.

    Entries are :class:`_Stored` when the whole index is well typed (the usual case), else
    plain values, each checked on its own by :func:`_stored_entry`.
    """
    try:
        data = read_regular(path, INDEX_LIMIT)  # a link, a FIFO, too large: refused, not followed
    except (OSError, CampaignFileError):
        return None
    try:
        typed = _INDEX_DECODER.decode(data)
    except (msgspec.MsgspecError, RecursionError):
        pass
    else:
        if typed.type == INDEX_TAG and typed.version == INDEX_VERSION:
            return dict(typed.sessions)
        return None
    try:
        raw = json.loads(data)
    except (ValueError, RecursionError):
        return None
    if not isinstance(raw, dict) or raw.get("type") != INDEX_TAG:
        return None
    if raw.get("version") != INDEX_VERSION or not isinstance(raw.get("sessions"), dict):
        return None
    sessions: dict[str, Any] = raw["sessions"]
    return sessions


_NUMBERS = ("events", "undone", "checks", "first_seq", "last_seq", "game_start", "game_end")
_IDENTITY = ("size", "mtime_ns", "ctime_ns")


def _number(value: Any, low: int = 0) -> bool:
    return type(value) is int and low <= value <= _MAX_NUMBER


def _stored_entry(raw: Any, path: Path, st: os.stat_result) -> SessionEntry | None:
    """The stored entry if it is well formed, consistent and still describes the journal."""
    if not stat.S_ISREG(st.st_mode):
        return None
    if isinstance(raw, _Stored):  # typed by the decoder: only the values are left to check
        stored = raw
    elif _well_typed(raw):
        stored = _Stored(**{key: raw[key] for key in _Stored.__struct_fields__})
    else:
        return None
    if (stored.size, stored.mtime_ns, stored.ctime_ns) != _identity(st):
        return None
    if component_problem(stored.id) is not None:
        return None
    events, first, last = stored.events, stored.first_seq, stored.last_seq
    consistent = (
        first >= 1
        and last - first + 1 == events  # a journal's events are numbered without gaps
        and stored.undone <= events
        and stored.checks <= events
        and stored.game_start <= stored.game_end
        and len(stored.characters) <= events
    )
    if not consistent:
        return None
    return SessionEntry(
        path=path,
        id=stored.id,
        started_at=stored.started_at,
        events=events,
        undone=stored.undone,
        checks=stored.checks,
        characters=tuple(stored.characters),
        first_seq=first,
        last_seq=last,
        game_start=stored.game_start,
        game_end=stored.game_end,
        size=st.st_size,
        mtime_ns=st.st_mtime_ns,
        ctime_ns=st.st_ctime_ns,
    )


def _well_typed(raw: Any) -> bool:
    """An entry of an index that did not decode as a whole: is this one of the right shape?"""
    if not isinstance(raw, Mapping):
        return False
    if not all(type(raw.get(key)) is int for key in _IDENTITY):
        return False
    if not all(_number(raw.get(key)) for key in _NUMBERS):
        return False
    names = raw.get("characters")
    return (
        isinstance(raw.get("id"), str)
        and isinstance(raw.get("started_at"), str)
        and isinstance(names, list)
        and all(isinstance(name, str) for name in names)
    )
