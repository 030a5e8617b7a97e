"""A crash is never exit status 0 (#13.5): one line, the journal's place, a crash log.

The app runs for real in a child process (headless), and an exception nobody handles is raised
inside its message loop (from ``post_display_hook``, once a frame is drawn) or while it is
being opened. The GM must get a non-zero status, one line on stderr naming the error and the
journal, and the traceback in a log file under the user's state folder.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gmscreen.campaign.model import Settings
from gmscreen.campaign.paths import create_campaign

INSIDE_THE_APP = """
import sys
from pathlib import Path
from gmscreen.cli.app_command import run_app
from gmscreen.tui.app import make_app

app = make_app(Path(sys.argv[1]), config_path=None)
app.post_display_hook = lambda: int("not a number, a bug")
if len(sys.argv) > 2:  # one event first: the journal file exists
    app.live.next_round()
sys.exit(run_app(app, headless=True, size=(100, 30)))
"""

WHILE_OPENING = """
import sys
from gmscreen.cli.app_command import launch

def open_app():
    raise KeyError("a bug while opening")

sys.exit(launch(open_app))
"""


def _run(script: str, state: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, XDG_STATE_HOME=str(state))
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _crash_logs(state: Path) -> list[Path]:
    return sorted((state / "gmscreen").glob("crash-*.log"))


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    return create_campaign(tmp_path / "campaigns", "Crash", Settings(modules=("madness",)))


def test_an_error_inside_the_app_exits_non_zero_with_one_line_and_a_log(
    campaign: Path, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    done = _run(INSIDE_THE_APP, state, str(campaign))
    assert done.returncode != 0
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    line = lines[0]
    assert "unexpected error" in line and "ValueError" in line and "a bug" in line
    assert f"the journal is in {campaign}" in line  # no event yet: no journal file yet
    logs = _crash_logs(state)
    assert len(logs) == 1 and f"details in {logs[0]}" in line
    details = logs[0].read_text(encoding="utf-8")
    assert "Traceback" in details and "a bug" in details


def test_the_line_names_the_journal_file_once_there_is_one(campaign: Path, tmp_path: Path) -> None:
    done = _run(INSIDE_THE_APP, tmp_path / "state", str(campaign), "one event")
    journals = sorted((campaign / "sessions").glob("*.jsonl"))
    assert done.returncode != 0 and journals
    assert f"the journal is {journals[-1]};" in done.stderr


def test_an_error_while_opening_exits_non_zero_with_one_line_and_a_log(tmp_path: Path) -> None:
    state = tmp_path / "state"
    done = _run(WHILE_OPENING, state)
    assert done.returncode != 0
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert "KeyError" in lines[0] and "no journal was open" in lines[0]
    logs = _crash_logs(state)
    assert len(logs) == 1 and "a bug while opening" in logs[0].read_text(encoding="utf-8")
