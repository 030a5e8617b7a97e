"""``campaigns/<slug>/.lock``: one writer at a time, and honest about who holds it.

The holder keeps an OS lock on the lock file for as long as it has the campaign open (``flock``
on POSIX, a ``msvcrt`` byte-range lock on Windows; both are dropped by the system when the
process dies, however it dies), and the file names it: process id and start time, host, user,
since when, the folder it holds, and a random token.

The OS lock being granted is not trusted on its own: some file systems grant every lock
(NFS mounted with ``nolock``, some FUSE and network shares). So a lock file that names a holder
is taken over only when that holder is provably gone: same host, and its process is not running
or is another program now (a different start time; both asked of psutil, see :mod:`process`).
A live process on this host, or any process on another host, is refused by name;
``take_over=True`` (``gmscreen CAMPAIGN --take-over``) is the GM's explicit say-so.

A lock file copied along with its campaign (``cp -r`` of a folder that is open) names a live
holder, and the system grants the copy's lock: the copy is another file. The folder the holder
wrote tells the two apart: a holder on this host that holds another folder holds nothing here,
so its lock is taken over, saying it was a copy; one on another computer is refused, saying that
a folder copied from there brings its ``.lock`` along.

After writing itself in, the new holder reads the file back: a token that is not its own means
two writers got the lock at once, which is refused too.
"""

from __future__ import annotations

import contextlib
import errno
import getpass
import json
import os
import secrets
import socket
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import msgspec

from gmscreen.campaign.errors import CampaignError, CampaignLocked
from gmscreen.campaign.process import (
    process_running,
    process_start,
    read_start,
    same_start,
    start_text,
)
from gmscreen.campaign.safe_files import SMALL_LIMIT, UnsafeFile, open_regular

LOCK_NAME = ".lock"
TAKE_OVER_HINT = "open it with --take-over"


class OsLock(Protocol):
    """The system's lock on an open file: the seam tests use to stand in a broken file system."""

    def try_lock(self, fd: int) -> bool:
        """Lock ``fd`` without waiting: True if locked, False if another holds it. Raises
        ``OSError`` if the system cannot lock this file at all (``ENOLCK``, …). Closing
        ``fd`` releases the lock."""
        ...


if sys.platform == "win32":
    import msvcrt

    # Windows locks are mandatory: a locked byte cannot be read by anyone else. So the lock is
    # on one byte far past the holder's details, which stay readable to a second gmscreen.
    _LOCKED_BYTE = 1 << 30

    class SystemLock:
        """``msvcrt.locking`` on one byte past the end of the holder's details."""

        def try_lock(self, fd: int) -> bool:
            os.lseek(fd, _LOCKED_BYTE, os.SEEK_SET)
            try:
                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            except OSError as error:
                if error.errno in (errno.EACCES, errno.EDEADLK):
                    return False
                raise
            finally:
                os.lseek(fd, 0, os.SEEK_SET)
            return True

    def _unlock_now(fd: int) -> None:
        """Windows frees a closed file's locks "when resources allow": free it at once."""
        os.lseek(fd, _LOCKED_BYTE, os.SEEK_SET)
        with contextlib.suppress(OSError):
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    class SystemLock:
        """``flock``: whole-file, advisory, held per open file (so even this process's second
        open of the campaign is refused)."""

        def try_lock(self, fd: int) -> bool:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False
            return True


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


class Holder(msgspec.Struct, frozen=True):
    """Who holds (or held) a campaign's lock.

    ``start`` identifies the process beyond its id: when it started, in seconds since the epoch
    (:func:`~gmscreen.campaign.process.start_text`; None where the system does not tell; an
    older gmscreen wrote something else there, which proves nothing); ``token`` is random per
    open; ``folder`` is the campaign folder the holder opened (None in an older gmscreen's file).
    """

    pid: int
    host: str
    user: str
    since: str
    start: str | None = None
    token: str = ""
    folder: str | None = None

    def describe(self) -> str:
        return f"process {self.pid} of {self.user} on {self.host}, since {self.since}"

    def to_json(self) -> str:
        """One line of JSON, ASCII only: a user name from bytes the locale could not decode
        (a lone surrogate) is written escaped, and reads back exactly."""
        fields = {"pid": self.pid, "host": self.host, "user": self.user, "since": self.since}
        values = {**fields, "start": self.start, "token": self.token, "folder": self.folder}
        return json.dumps(values) + "\n"


def _parse_holder(text: str) -> Holder | None:
    try:  # the first line only: a crash while rewriting may leave an old tail after it
        raw: Any = json.loads(text.split("\n", 1)[0])
        start, folder = raw.get("start"), raw.get("folder")
        return Holder(
            int(raw["pid"]),
            str(raw["host"]),
            str(raw["user"]),
            str(raw["since"]),
            None if start is None else str(start),
            str(raw.get("token", "")),
            None if folder is None else str(folder),
        )
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None


def _read_fd(fd: int) -> str:
    if sys.platform == "win32":  # no pread there
        os.lseek(fd, 0, os.SEEK_SET)
        return os.read(fd, SMALL_LIMIT).decode("utf-8", "replace")
    return os.pread(fd, SMALL_LIMIT, 0).decode("utf-8", "replace")


def read_holder(path: Path) -> Holder | None:
    """Who the lock file at ``path`` names (None if it is missing, unreadable or not a file)."""
    try:
        fd = open_regular(path, os.O_RDONLY)
    except (OSError, UnsafeFile):
        return None
    try:
        return _parse_holder(_read_fd(fd))
    except OSError:
        return None
    finally:
        os.close(fd)


def me(since: str, folder: Path) -> Holder:
    """This process as the holder of ``folder``'s lock, with a fresh token."""
    pid = os.getpid()
    token = secrets.token_hex(16)
    host = socket.gethostname()
    start = start_text(process_start(pid))
    return Holder(pid, host, _user(), since, start, token, os.path.abspath(folder))


def holds_another_folder(holder: Holder, folder: Path) -> bool:
    """Whether ``holder`` (on this host) wrote its details for a folder other than ``folder``:
    then this lock file is a copy of that folder's. A folder reached by another path (a link, a
    bind mount) is the same folder; one no longer there is another."""
    if holder.folder is None or holder.folder == os.path.abspath(folder):
        return False
    try:
        return not os.path.samefile(holder.folder, folder)
    except (OSError, ValueError):  # gone, unreadable, or not a path at all (a NUL in the file)
        return True


def why_gone(holder: Holder, host: str) -> str | None:
    """Why ``holder`` provably no longer holds anything (None if it may still be running)."""
    if holder.host != host:
        return None  # another computer: its processes cannot be seen from here
    if not process_running(holder.pid):
        return f"process {holder.pid} is no longer running"
    recorded, now = read_start(holder.start), process_start(holder.pid)
    if recorded is not None and now is not None and not same_start(recorded, now):
        return (
            f"process {holder.pid} is now another program (it started at {_utc(now)}; the "
            f"lock's holder started at {_utc(recorded)})"
        )
    return None


def _utc(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


class TakenOver(msgspec.Struct, frozen=True):
    """Whose lock was taken over, and why that was safe (or that the GM asked for it)."""

    holder: Holder
    reason: str  # why the holder is provably gone; empty when the GM asked (--take-over)
    copied: bool = False  # the lock file was copied from the holder's folder with the campaign

    def notice(self) -> str:
        if self.copied:
            return (
                f"this folder's .lock was copied from {self.holder.folder}, which "
                f"{self.holder.describe()} has open: this folder is a copy, a campaign of its "
                "own from now on, and is yours (the lock was taken over)"
            )
        if not self.reason:
            return f"took over the lock of {self.holder.describe()}, as asked (--take-over)"
        return f"took over a stale lock left by {self.holder.describe()}: {self.reason}"


class _Vanished(Exception):
    """The lock file was released and deleted between our open and our lock: try again."""


class CampaignLock:
    """Held from :func:`acquire` until :meth:`release` (or until the process ends)."""

    def __init__(self, path: Path, fd: int, holder: Holder, took_over: TakenOver | None) -> None:
        self.path = path
        self.holder = holder
        self.took_over = took_over  # whose lock was taken over, if any
        self._fd: int | None = fd

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            if sys.platform == "win32":
                _unlock_now(fd)
            else:  # while still locked: nobody can take it meanwhile
                _unlink_if_same(self.path, fd)
        finally:
            os.close(fd)  # drops the OS lock
        if sys.platform == "win32":  # Windows deletes no open file: after the close
            with contextlib.suppress(OSError):  # (another gmscreen may have it open by then)
                os.unlink(self.path)


def _unlink_if_same(path: Path, fd: int) -> None:
    try:
        if os.lstat(path).st_ino == os.fstat(fd).st_ino:
            os.unlink(path)
    except FileNotFoundError:
        pass


def _failed(path: Path, error: OSError) -> CampaignError:
    hint = " (this file system does not support file locks)" if error.errno == errno.ENOLCK else ""
    return CampaignError(f"{path}: cannot take the lock: {error.strerror or error}{hint}")


def _refusal(folder: Path, path: Path, holder: Holder, host: str) -> CampaignLocked:
    if holder.host != host:
        there = f" in {holder.folder}" if holder.folder else ""
        return CampaignLocked(
            f"{folder} is marked open in gmscreen on another computer ({holder.describe()}"
            f"{there}, per {path}); gmscreen cannot tell from here whether it still is. Close "
            "it there; if it is not open anywhere (a folder copied from another computer "
            f"brings that computer's .lock along), {TAKE_OVER_HINT}"
        )
    if read_start(holder.start) is None or process_start(holder.pid) is None:
        # No start time to compare (an older lock file, or a system that does not tell):
        # the running process may be another program that reuses the id.
        return CampaignLocked(
            f"{path} names {holder.describe()}, and a process {holder.pid} is running here, "
            "although the system granted the lock: either file locking does not work here, "
            "or that is another program now using the same process id (gmscreen cannot tell "
            f"which). If no other gmscreen has this campaign open, {TAKE_OVER_HINT}"
        )
    copy = (
        ""
        if holder.folder
        else " Or this .lock was copied along with the folder (a lock file of an older "
        "gmscreen does not say which folder its holder opened)."
    )
    return CampaignLocked(
        f"{path} names {holder.describe()}, which is still running, yet the system granted "
        "the lock: file locking does not work here (a network file system mounted without "
        f"locks?), so gmscreen cannot keep two writers apart.{copy} Close that gmscreen; if "
        f"that process has not got this campaign open, {TAKE_OVER_HINT}"
    )


def acquire(
    folder: Path,
    now: Callable[[], datetime] | None = None,
    *,
    take_over: bool = False,
    os_lock: OsLock | None = None,
) -> CampaignLock:
    """Take the lock of the campaign in ``folder`` or raise :class:`CampaignLocked`.

    ``take_over`` takes a lock whose holder cannot be proved gone (the GM says it is); a lock
    the system says is held is never taken. ``os_lock`` replaces the system's lock (tests).
    Raises :class:`CampaignError` naming the lock file if the system cannot lock it at all.
    """
    lock = os_lock or SystemLock()
    path = folder / LOCK_NAME
    since = (now or (lambda: datetime.now(UTC)))().isoformat(timespec="seconds")
    mine = me(since, folder)
    for _attempt in range(5):
        try:
            fd = open_regular(path, os.O_RDWR | os.O_CREAT)
        except OSError as error:
            raise _failed(path, error) from None
        try:
            took_over = _claim(folder, path, fd, lock, mine, take_over)
        except _Vanished:
            os.close(fd)
            continue
        except BaseException:
            os.close(fd)
            raise
        return CampaignLock(path, fd, mine, took_over)
    raise CampaignLocked(
        f"{folder}: could not take the lock at {path}; is another gmscreen starting?"
    )


def _claim(
    folder: Path, path: Path, fd: int, lock: OsLock, mine: Holder, take_over: bool
) -> TakenOver | None:
    """Lock ``fd`` and write ``mine`` into it; returns whose lock was taken over, if any."""
    try:
        granted = lock.try_lock(fd)
    except OSError as error:
        raise _failed(path, error) from None
    if not granted:
        holder = read_holder(path)
        who = holder.describe() if holder else "another process"
        raise CampaignLocked(
            f"{folder} is open in another gmscreen ({who}); close it there first"
            + (" (--take-over cannot help: that process holds the lock now)" if take_over else "")
        )
    try:
        same = os.fstat(fd).st_ino == os.lstat(path).st_ino
    except FileNotFoundError:
        same = False
    if not same:
        raise _Vanished
    try:
        previous = _read_fd(fd)
    except OSError as error:
        raise _failed(path, error) from None
    took_over = _judge(folder, path, previous, mine.host, take_over)
    try:
        _write_holder(fd, mine)
        back = read_holder(path)
    except OSError as error:
        raise _failed(path, error) from None
    if back is None or back.token != mine.token:
        who = back.describe() if back else "another process"
        raise CampaignLocked(
            f"{path}: {who} took the lock at the same moment, although the system granted it "
            "to this gmscreen too: file locking does not work here (a network file system "
            "mounted without locks?). Open the campaign in one gmscreen only"
        )
    return took_over


def _judge(folder: Path, path: Path, previous: str, host: str, take_over: bool) -> TakenOver | None:
    """Whose lock is in ``previous`` and whether it may be taken over (raises if not)."""
    if not previous.strip():
        return None  # a fresh file, or one cut short before anything was written
    holder = _parse_holder(previous)
    if holder is None:
        if take_over:
            return TakenOver(Holder(0, "?", "unknown", "unknown"), "")
        raise CampaignLocked(
            f"{path} is not a lock file gmscreen can read, so who holds {folder} is unknown; "
            f"if it is not open anywhere, {TAKE_OVER_HINT}"
        )
    reason = why_gone(holder, host)
    if reason is not None:
        return TakenOver(holder, reason)
    if holder.host == host and holds_another_folder(holder, folder):
        return TakenOver(holder, "", copied=True)
    if take_over:
        return TakenOver(holder, "")
    raise _refusal(folder, path, holder, host)


def _write_holder(fd: int, holder: Holder) -> None:
    payload = holder.to_json().encode("utf-8")
    if sys.platform == "win32":  # no pwrite there
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, payload)
    else:
        os.pwrite(fd, payload, 0)
    os.ftruncate(fd, len(payload))  # after the write: a crash between leaves a readable first line
    os.fsync(fd)
