"""The session index: what the session picker and ``gmscreen sessions`` say of each session,
without reading every journal ever written.

``sessions/index.json`` holds, per journal (by file name), its summary (id, start, events,
undone, checks, characters involved, first and last sequence number, game time span) and the
size and digest (SHA-256) of the journal bytes it was made from. The journals are the truth, and
the index comes from anywhere a campaign folder does, so an entry is used only when:

- its journal's size and digest are the ones it names (:mod:`journal_digest`: any byte changed
  is seen; a copy of the campaign, which keeps the bytes but not the inode times, keeps it);
- every value is within the bounds a journal's own values have (:mod:`bounds`: counts, names
  of at most 200 characters, game times of at most a million years);
- it says what the journal says of itself when read cheaply: the header's id, start, first
  sequence number and start clock, the last action's sequence number (so the count of events)
  and game time; the undone events and checks fit in the events, the characters too.

Any other entry, and an index that is missing, unreadable, too large, a link, not JSON or of the
wrong shape, is made again from the journal itself. So a forged index cannot make a session
stand for another, nor show what no journal could hold; at worst it costs the reading of the
journals, or shows, for the undone events, checks, characters and last game time, other figures
a journal could hold. What is replayed, exported or undone is always read from the journals.

Only a process holding the campaign's lock writes the index, atomically through
:mod:`safe_files` (a link there is replaced, never written through), so two writers never race:
the GM's screen (when it opens, in a worker, and when it closes), and ``gmscreen sessions`` and
``export`` while no gmscreen has the campaign open and it is not one of the repository's examples
(:func:`write_index_if_free`). ``show`` and ``replay`` write nothing. Writing is best effort: a campaign on a read-only medium still lists
its sessions, from the journals. A write that was killed half way leaves a temporary file
(``.index.json.<hex>.tmp``), removed by the next write.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path
from typing import Annotated, Any

import msgspec

from gmscreen.campaign.bounds import MAX_CLOCK, MAX_INT, MAX_NAME
from gmscreen.campaign.errors import CampaignError, CampaignFileError, Problem
from gmscreen.campaign.events import ClockAdvanced
from gmscreen.campaign.examples import is_example
from gmscreen.campaign.journal import SessionLog, list_sessions, parse_session, read_session
from gmscreen.campaign.journal_digest import JournalDigest, digest_bytes, digest_journal
from gmscreen.campaign.lock import LOCK_NAME, acquire
from gmscreen.campaign.replay_steps import summarize
from gmscreen.campaign.safe_files import (
    JOURNAL_LIMIT,
    MIB,
    check_real_folder,
    read_regular,
    replace_file,
)

INDEX_FILE = "index.json"
INDEX_TAG = "gmscreen-session-index"
# 2: entries keyed by size and digest (1 was keyed by size and inode times: read as damaged).
INDEX_VERSION = 2
# An entry is a few hundred bytes: 32 MiB is some 80,000 sessions, centuries of weekly play.
INDEX_LIMIT = 32 * MIB
# What a killed write of the index leaves (safe_files' temporary name for it).
_LEFT_BEHIND = re.compile(r"^\.index\.json\.[0-9a-f]{16}\.tmp$")


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
    size: int  # the journal's size and digest when this entry was made
    digest: str
    # The last event's wall clock (started_at when none): not stored, the journal's last line
    # says it as its entry is checked (journal_digest), and evenings.py groups sessions by it.
    ended_at: str = ""

    def stored(self) -> dict[str, Any]:
        """The entry's JSON form (everything but the path, which is its key, and the end,
        which the journal says)."""
        raw = msgspec.structs.asdict(self)
        del raw["path"], raw["ended_at"]
        raw["characters"] = list(self.characters)
        return raw


class SessionListing(msgspec.Struct):
    """A campaign's sessions, oldest first, and the journals read to list them.

    ``stale``: the index on disk does not say what ``entries`` say (missing, damaged, an entry
    rebuilt or left out), so a lock holder should write it again.
    """

    folder: Path
    entries: list[SessionEntry]
    stale: bool = False
    read: dict[Path, SessionLog] = msgspec.field(default_factory=dict)

    def log(self, entry: SessionEntry) -> SessionLog:
        """The session's journal: the one read while listing, else read now.

        Raises :class:`CampaignFileError` if it cannot be read, or is no longer the session
        listed (changed since).
        """
        log = self.read.get(entry.path)
        if log is None:
            log = self.read[entry.path] = read_session(entry.path)
        if log.header.id != entry.id:
            raise CampaignFileError(
                [Problem(entry.path, 1, f"is no longer session {entry.id!r}: list them again")]
            )
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


def summary_entry(log: SessionLog, size: int, digest: str) -> SessionEntry:
    """The entry for ``log``, read from a journal of ``size`` bytes whose digest is ``digest``."""
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
        size=size,
        digest=digest,
        ended_at=log.events[-1].at if log.events else log.header.started_at,
    )


def read_entry(path: Path) -> tuple[SessionEntry, SessionLog]:
    """The journal at ``path`` read whole, and its entry (keyed by the very bytes read).

    Raises :class:`CampaignFileError` as :func:`journal.read_session` does.
    """
    try:
        data = read_regular(path, JOURNAL_LIMIT)
    except OSError as error:
        raise CampaignFileError([Problem(path, 0, f"cannot read: {error.strerror}")]) from None
    log = parse_session(path, data)
    return summary_entry(log, len(data), digest_bytes(data)), log


def list_entries(sessions: Path, known: Sequence[SessionLog] = ()) -> SessionListing:
    """Every session in the ``sessions`` folder, from the index where it is true.

    A journal the index does not describe as it is now is summarized from ``known`` (journals
    the caller has read, under the lock, if the file still has the size they were read at) or
    read. Raises :class:`CampaignFileError` with every journal that cannot be read, as
    :func:`store.load_sessions` does.
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
        seen = digest_journal(path)
        entry = None if seen is None else _trusted((stored or {}).get(path.name), path, seen)
        if entry is None:
            listing.stale = True
            known_log = by_path.get(path)
            if seen is not None and known_log is not None and known_log.size == seen.size:
                entry = summary_entry(known_log, seen.size, seen.digest)
            else:
                try:
                    entry, listing.read[path] = read_entry(path)
                except CampaignFileError as error:
                    problems.extend(error.problems)
                    continue
        listing.entries.append(entry)
    if problems:
        raise CampaignFileError(problems)
    return listing


def write_index(listing: SessionListing) -> bool:
    """Write the listing's index if it is stale; True if written. Call it holding the lock.

    Removes the temporary files a killed write left. Best effort: an index that cannot be
    written (a read-only folder, a full disk) is simply not written, and the journals are read
    again next time.
    """
    if not listing.stale:
        return False
    entries = {e.path.name: e.stored() for e in listing.entries}
    raw = {"type": INDEX_TAG, "version": INDEX_VERSION, "sessions": entries}
    data = json.dumps(raw, separators=(",", ":")).encode("ascii")  # lone surrogates escaped
    sessions = listing.folder / "sessions"
    try:
        if not check_real_folder(sessions):
            return False
        _remove_left_behind(sessions)
        replace_file(sessions, INDEX_FILE, data)
    except (OSError, CampaignError):
        return False
    listing.stale = False
    return True


def write_index_if_free(listing: SessionListing) -> bool:
    """Write the stale index for a command that only reads (``sessions``, ``export``): only
    while no gmscreen has the campaign open (no lock file), holding its lock for the write as
    the GM's screen does. True if written; never an error (the index is a cache). Never into
    one of the repository's examples (:mod:`examples`): no run changes those."""
    if not listing.stale or os.path.lexists(listing.folder / LOCK_NAME):
        return False  # the gmscreen that has it open writes the index
    if is_example(listing.folder):
        return False
    try:
        lock = acquire(listing.folder)
    except (CampaignError, OSError):
        return False  # taken meanwhile, or a folder where nothing can be written
    try:
        return write_index(listing)
    finally:
        with suppress(OSError):
            lock.release()


def _remove_left_behind(sessions: Path) -> None:
    """Remove the temporary files of index writes that were killed (under the lock: no other
    write is under way)."""
    with os.scandir(sessions) as found:
        names = [e.name for e in found if _LEFT_BEHIND.match(e.name)]
    for name in names:
        with suppress(OSError):  # a folder of that name, or gone meanwhile: left alone
            os.unlink(sessions / name)


_Count = Annotated[int, msgspec.Meta(ge=0, le=MAX_INT)]
_Clock = Annotated[int, msgspec.Meta(ge=0, le=MAX_CLOCK)]
_Name = Annotated[str, msgspec.Meta(max_length=MAX_NAME)]


class _Stored(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An entry as the index stores it, typed with a journal's bounds: the index this
    gmscreen wrote decodes in one call (checked by msgspec, in C), not key by key."""

    id: _Name
    started_at: _Name
    events: _Count
    undone: _Count
    checks: _Count
    characters: list[_Name]
    first_seq: _Count
    last_seq: _Count
    game_start: _Clock
    game_end: _Clock
    size: Annotated[int, msgspec.Meta(ge=0, le=JOURNAL_LIMIT)]
    digest: Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]


class _StoredIndex(msgspec.Struct, frozen=True):
    type: str
    version: int
    sessions: dict[str, _Stored]


_INDEX_DECODER = msgspec.json.Decoder(_StoredIndex)


def _read_index(path: Path) -> dict[str, Any] | None:
    """The index's entries by file name, or None if it is missing or damaged in any way.

    Entries are :class:`_Stored` when the whole index is well typed (the usual case), else
    plain values, each checked on its own by :func:`_trusted`.
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
    try:  # json reads what msgspec refuses (NaN, Infinity): one bad entry, not the index
        raw = json.loads(data)
    except (ValueError, RecursionError):
        return None
    if not isinstance(raw, dict) or raw.get("type") != INDEX_TAG:
        return None
    if raw.get("version") != INDEX_VERSION or not isinstance(raw.get("sessions"), dict):
        return None
    sessions: dict[str, Any] = raw["sessions"]
    return sessions


def _trusted(raw: Any, path: Path, seen: JournalDigest) -> SessionEntry | None:
    """The stored entry if it is well formed, within bounds, and agrees with what the journal
    says of itself (``seen``); else None."""
    if isinstance(raw, _Stored):  # typed by the decoder: only the values are left to check
        stored = raw
    else:
        try:
            stored = msgspec.convert(raw, _Stored)
        except (msgspec.MsgspecError, RecursionError):
            return None
    events = stored.last_seq - stored.first_seq + 1  # a journal numbers its events without gaps
    agrees = (
        (stored.size, stored.digest) == (seen.size, seen.digest)
        and (stored.id, stored.started_at) == (seen.id, seen.started_at)
        and (stored.first_seq, stored.last_seq) == (seen.first_seq, seen.last_seq)
        and stored.events == events
        and stored.undone + stored.checks <= events  # checks: those not undone
        and len(stored.characters) <= events
        and stored.game_start == seen.start_clock
        and max(seen.start_clock, seen.last_time) <= stored.game_end
        and (events > 0 or stored.game_end == stored.game_start)
    )
    if not agrees:
        return None
    return SessionEntry(
        path=path,
        id=stored.id,
        started_at=stored.started_at,
        events=events,
        undone=stored.undone,
        checks=stored.checks,
        characters=tuple(stored.characters),
        first_seq=stored.first_seq,
        last_seq=stored.last_seq,
        game_start=stored.game_start,
        game_end=stored.game_end,
        size=stored.size,
        digest=stored.digest,
        ended_at=seen.last_at,
    )
