"""Is a process still running, and is it still the same program? What the lock needs to know.

A process id alone is not an identity: ids are reused. Its start time, with its id, tells one
process from a later one that got the same id. psutil answers both on Linux, macOS and Windows
alike (``/proc`` on Linux, ``sysctl`` on macOS, the process's times on Windows), one
implementation the tests exercise wherever they run.

psutil gives a start time in seconds since the epoch. On Linux it adds the boot time, which
the kernel gives in whole seconds and moves when the system clock is set; so two readings of
the same process may differ by a second or so, and start times are compared within
:data:`SAME_START_WITHIN`. Erring there is safe: a holder that ended within two seconds of its
start, its id reused at once, is taken for still running, and the GM is asked to
``--take-over``.
"""

from __future__ import annotations

import re

import psutil

_MAX_PID = 2**31 - 1
SAME_START_WITHIN = 2.0  # seconds
_START = re.compile(r"[0-9]{1,12}(\.[0-9]{1,6})?")  # as start_text writes it


def process_start(pid: int) -> float | None:
    """When process ``pid`` started, in seconds since the epoch; None if there is no such
    process or the system will not tell."""
    if not 0 < pid <= _MAX_PID:
        return None
    try:
        return psutil.Process(pid).create_time()
    except (psutil.Error, OSError):
        return None


def process_running(pid: int) -> bool:
    """Whether a process with id ``pid`` is running on this computer (a zombie, ended and not
    yet reaped, is not).

    When the system will not say (another user's process it will not describe), the answer is
    True: a lock is never taken over on a guess.
    """
    if not 0 < pid <= _MAX_PID:
        return False
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:  # ZombieProcess is one too: ended
        return False
    except (psutil.Error, OSError):  # AccessDenied: it exists, and is someone else's
        return True


def start_text(start: float | None) -> str | None:
    """A start time as the lock file keeps it: seconds since the epoch, to the millisecond."""
    return None if start is None else f"{start:.3f}"


def read_start(text: str | None) -> float | None:
    """A start time from a lock file, or None: none there, or one this gmscreen did not write
    (an older gmscreen wrote Linux's boot id and clock ticks), which proves nothing."""
    if text is None or not _START.fullmatch(text):
        return None
    return float(text)


def same_start(recorded: float, now: float) -> bool:
    """Whether two start times are one process's, read at two moments (see the module)."""
    return abs(recorded - now) <= SAME_START_WITHIN
