"""Tests that need one family of systems, and the few POSIX calls tests make, in one place.

A test that needs what Windows lacks (fork, FIFOs, signals, pseudo-terminals, links as POSIX
makes them) carries ``@pytest.mark.posix("why")``; one that needs Linux itself (``/proc``,
``pidfd_open``, ``waitid``'s ``WNOWAIT``) ``@pytest.mark.linux("why")``. The conftest skips it
elsewhere, saying the reason (``pytest -ra`` lists them). Both marks are registered in
pyproject.toml, and ``--strict-markers`` refuses any other.

A mark is for pytest; mypy reads only ``sys.platform`` checks (``make typecheck`` checks the
tests as Windows and macOS see them), so the calls themselves sit behind one, here or in the
test, even where the mark already keeps the test from running.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

# mark -> how its skip begins
LABELS = {"posix": "POSIX only", "linux": "Linux only"}


def runs_on(mark: str, platform: str) -> bool:
    """Whether a test marked ``mark`` (posix or linux) runs on ``platform`` (sys.platform)."""
    return platform != "win32" if mark == "posix" else platform == "linux"


def skip_reason(marks: Iterable[pytest.Mark], platform: str = sys.platform) -> str | None:
    """Why a test with ``marks`` is skipped on ``platform`` (None: it runs there). A mark
    without its reason is a usage error: the reason is what the skip says."""
    for mark in marks:
        if mark.name not in LABELS:
            continue
        reason = mark.args[0] if mark.args else mark.kwargs.get("reason")
        if not isinstance(reason, str) or not reason:
            raise pytest.UsageError(f'@pytest.mark.{mark.name} needs its reason: ("why")')
        if not runs_on(mark.name, platform):
            return f"{LABELS[mark.name]}: {reason}"
    return None


def make_fifo(path: Path) -> None:
    """``os.mkfifo`` (tests that call it are marked posix: Windows has no FIFOs)."""
    if sys.platform == "win32":
        raise NotImplementedError("no FIFOs on Windows: mark the test @pytest.mark.posix")
    os.mkfifo(path)


def running_as_root() -> bool:
    """Whether the tests run as root (which chmod does not stop, and which may mount)."""
    return sys.platform != "win32" and os.geteuid() == 0


def end_group(process: subprocess.Popen[bytes] | subprocess.Popen[str]) -> None:
    """End ``process`` and the processes it started (it was started with
    ``start_new_session=True``: its own process group); on Windows, the process itself."""
    if sys.platform == "win32":
        process.terminate()
        return
    with contextlib.suppress(ProcessLookupError):  # ended already
        os.killpg(process.pid, signal.SIGTERM)


# The exit status of a process ended outright (Popen.kill): SIGKILL on POSIX, TerminateProcess
# with exit code 1 on Windows.
if sys.platform == "win32":
    KILLED = 1
else:
    KILLED = -signal.SIGKILL
