"""``campaigns/<slug>/.lock``: one writer at a time.

The holder keeps an exclusive ``flock`` on the lock file for as long as it has the campaign open,
and the file names it (process id, host, user, since when). The kernel drops the flock when the
process dies, however it dies, so a lock file whose flock can be taken is stale: it is taken
over and the caller is told whose it was. A second writer is refused with the holder's name.
"""

from __future__ import annotations

import fcntl
import getpass
import json
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from gmscreen.campaign.errors import CampaignLocked

LOCK_NAME = ".lock"


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds (or held) a campaign's lock: process id, host, user, and since when (ISO 8601)."""

    pid: int
    host: str
    user: str
    since: str

    def describe(self) -> str:
        return f"process {self.pid} of {self.user} on {self.host}, since {self.since}"


def _parse_holder(text: str) -> Holder | None:
    try:
        raw: Any = json.loads(text)
        return Holder(int(raw["pid"]), str(raw["host"]), str(raw["user"]), str(raw["since"]))
    except (ValueError, KeyError, TypeError):
        return None


def read_holder(path: Path) -> Holder | None:
    """Who the lock file at ``path`` names (None if it is missing or unreadable)."""
    try:
        return _parse_holder(path.read_text(encoding="utf-8"))
    except OSError:
        return None


class CampaignLock:
    """Held from :func:`acquire` until :meth:`release` (or until the process ends)."""

    def __init__(self, path: Path, fd: int, holder: Holder, took_over: Holder | None) -> None:
        self.path = path
        self.holder = holder
        self.took_over = took_over  # whose stale lock was taken over, if any
        self._fd: int | None = fd

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            self.path.unlink(missing_ok=True)  # while still locked: nobody can take it meanwhile
        finally:
            os.close(self._fd)  # drops the flock
            self._fd = None


def acquire(folder: Path, now: Callable[[], datetime] | None = None) -> CampaignLock:
    """Take the lock of the campaign in ``folder`` or raise :class:`CampaignLocked`."""
    path = folder / LOCK_NAME
    since = (now or (lambda: datetime.now(UTC)))().isoformat(timespec="seconds")
    me = Holder(os.getpid(), socket.gethostname(), _user(), since)
    for _attempt in range(5):
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = read_holder(path)
            os.close(fd)
            who = holder.describe() if holder else "another process"
            raise CampaignLocked(
                f"{folder} is open in another gmscreen ({who}); close it there first"
            ) from None
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if not same:  # the holder released (and deleted) it between our open and flock
            os.close(fd)
            continue
        previous = os.read(fd, 4096).decode("utf-8", "replace")
        took_over = _parse_holder(previous) if previous.strip() else None
        if previous.strip() and took_over is None:
            took_over = Holder(0, "?", "unknown", "unknown")
        payload = json.dumps({"pid": me.pid, "host": me.host, "user": me.user, "since": me.since})
        os.ftruncate(fd, 0)
        os.pwrite(fd, payload.encode("utf-8"), 0)
        os.fsync(fd)
        return CampaignLock(path, fd, me, took_over)
    raise CampaignLocked(
        f"{folder}: could not take the lock at {path}; is another gmscreen starting?"
    )
