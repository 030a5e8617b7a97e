"""Is a process still running, and is it still the same program? What the lock needs to know.

A process id alone is not an identity: ids are reused. On Linux the start time of a process
(``/proc/<pid>/stat`` field 22, in clock ticks since boot) together with the boot's id tells
one process from a later one with the same id. Elsewhere the start time is not read (None):
on macOS and the BSDs it would take a ``sysctl`` or ``ps`` per check, on Windows a handle per
check; there only "is that id running" is answered, so a reused id is taken for the holder and
the GM is asked to ``--take-over`` (safe, merely less convenient). Linux is what the tests
exercise; the macOS and Windows branches are written to their documented APIs, untested here.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

_MAX_PID = 2**31 - 1


def _linux_stat(pid: int) -> tuple[str, str] | None:
    """(state, start time in ticks) from ``/proc/<pid>/stat``, or None if it cannot be read."""
    try:
        data = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    # "pid (comm) state ...": comm may hold spaces and parentheses, so split after the last ")"
    fields = data[data.rfind(b")") + 2 :].split()
    if len(fields) < 20:
        return None
    return fields[0].decode("ascii", "replace"), fields[19].decode("ascii", "replace")


def _boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text(encoding="ascii").strip()
    except OSError:
        return "?"


def process_start(pid: int) -> str | None:
    """An identity of process ``pid`` that a later process with the same id will not share
    (Linux: boot id and start time); None if the system does not tell or there is no such pid."""
    if not sys.platform.startswith("linux") or not 0 < pid <= _MAX_PID:
        return None
    stat = _linux_stat(pid)
    return None if stat is None else f"{_boot_id()}/{stat[1]}"


def process_running(pid: int) -> bool:
    """Whether a process with id ``pid`` is running on this computer (a zombie is not).

    When the system will not say, the answer is True: a lock is never taken over on a guess.
    """
    if not 0 < pid <= _MAX_PID:
        return False
    if sys.platform == "win32":
        return _windows_running(pid)
    try:
        os.kill(pid, 0)  # signal 0: no signal, only the check that the process exists
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: it exists, and belongs to someone else
        return True
    stat = _linux_stat(pid) if sys.platform.startswith("linux") else None
    return stat is None or stat[0] not in ("Z", "X")  # a zombie has ended; only unreaped


if sys.platform == "win32":
    import ctypes

    _QUERY_LIMITED_INFORMATION = 0x1000
    _STILL_ACTIVE = 259
    _INVALID_PARAMETER = 87  # OpenProcess's answer for an id no process has

    def _windows_running(pid: int) -> bool:
        # os.kill(pid, 0) on Windows sends CTRL_C_EVENT: never used here.
        kernel32 = ctypes.windll.kernel32
        handle = kernel32.OpenProcess(_QUERY_LIMITED_INFORMATION, False, pid)
        if not handle:
            return bool(kernel32.GetLastError() != _INVALID_PARAMETER)
        try:
            code = ctypes.c_ulong()
            if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
                return True
            return code.value == _STILL_ACTIVE
        finally:
            kernel32.CloseHandle(handle)
