"""When the screen ends on an error nobody expected: one line for the GM, the details in a file.

A crash must never look like a clean exit (status 0), and must never bury the GM's terminal
under a traceback either. So the GM reads one line: what went wrong, where the journal is (every
event was on disk before the screen showed it), and the path of a log file in the user's state
folder (:func:`gmscreen.user_folders.state_folder`) that holds the traceback for a bug report. The command
then exits with :data:`CRASH_STATUS`.
"""

from __future__ import annotations

import os
import sys
from datetime import UTC, datetime
from pathlib import Path

from gmscreen.text import clip, inert, inert_line
from gmscreen.user_folders import state_folder

CRASH_STATUS = 70  # EX_SOFTWARE (sysexits.h): an internal error, not a bad argument (2)


def crash_folder() -> Path:
    return state_folder()


def write_crash_log(details: str, folder: Path | None = None) -> Path:
    """Write ``details`` to a new ``crash-<UTC time>-<pid>.log`` in ``folder`` (the user's state
    folder by default) and return its path; a file of that name is never overwritten."""
    folder = crash_folder() if folder is None else folder
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    path = folder / f"crash-{stamp}-{os.getpid()}.log"
    with path.open("x", encoding="utf-8", errors="backslashreplace") as out:
        out.write(details if details.endswith("\n") else details + "\n")
    return path


def report_crash(command: str, error: str, details: str, journal: Path | None) -> int:
    """Say in one line (stderr) that ``command`` ended on ``error``, where the journal is and
    where ``details`` (the traceback) went; return the exit status."""
    if journal is None:
        where = "no journal was open"
    else:
        where = f"the journal is {'in ' if journal.is_dir() else ''}{journal}"
    try:
        log = f"details in {write_crash_log(details)}"
    except OSError as problem:  # no state folder: the details go to the terminal after all
        print(inert(details), file=sys.stderr)
        log = f"details above (the crash log could not be written: {problem})"
    line = f"{command}: unexpected error: {clip(error, 200)}; {where}; {log}"
    print(inert_line(line), file=sys.stderr)
    return CRASH_STATUS


def last_line(text: str) -> str:
    """The last line of a printed traceback (``ValueError: …``), box-drawing borders aside."""
    for line in reversed(text.splitlines()):
        line = line.strip(" │╭╮╰╯─")
        if line:
            return line
    return ""
