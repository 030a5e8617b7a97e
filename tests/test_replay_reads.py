"""``gmscreen replay`` reads the checkpoint and each journal once: the command parses them, the
app and its session picker use what it parsed. Counted where the campaign layer opens its
files to read them (``safe_files.open_regular``), while the real app runs headless. The
sessions are listed from the session index (``sessions/index.json``, looked at once): the
example has none, so its one journal is read to list it, and that read is what replay uses."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.app import App

from gmscreen.campaign import safe_files
from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.journal import read_session
from gmscreen.cli import main

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "campaigns" / "example"
SESSION = "2024-05-03-1"
JOURNAL = f"{SESSION}.jsonl"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    target = tmp_path / "example"
    shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns(".lock", "exports"))
    return target


@pytest.fixture
def reads(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """How many times each file of the campaign was opened for reading, by name."""
    counts: Counter[str] = Counter()
    real = safe_files.open_regular

    def spy(path: Path, flags: int, mode: int = 0o644) -> int:
        writes = flags & (os.O_WRONLY | os.O_RDWR)
        if not writes and path.resolve().is_relative_to(folder.resolve()):
            counts[path.name] += 1
        return real(path, flags, mode)

    monkeypatch.setattr(safe_files, "open_regular", spy)
    yield counts


@pytest.fixture
def screens(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Runs the app as the command would, headless; records the screen it settles on."""
    seen: list[str] = []

    def run_headless(app: App[None], **_: object) -> int:
        async def run() -> None:
            async with app.run_test(size=(120, 40)) as pilot:
                await pilot.pause()
                seen.append(type(app.screen).__name__)

        asyncio.run(run())
        return 0  # run_app's status for an app that ended well

    monkeypatch.setattr("gmscreen.cli.app_command.run_app", run_headless)
    return seen


@pytest.mark.parametrize(
    ("session", "screen"), [([], "SessionPicker"), ([SESSION], "ReplayScreen")]
)
def test_replay_reads_each_file_once(
    folder: Path,
    reads: Counter[str],
    screens: list[str],
    session: list[str],
    screen: str,
) -> None:
    assert main(["replay", str(folder), *session]) == 0
    assert screens == [screen]
    assert reads == Counter({"campaign.toml": 1, "index.json": 1, JOURNAL: 1})


def test_the_picker_lists_the_sessions_the_command_read(
    folder: Path, reads: Counter[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Picking the session from the picker's table opens it, with no second read."""
    rows: list[int] = []

    def run_headless(app: App[None], **_: object) -> int:
        async def run() -> None:
            from gmscreen.tui.widgets.session_table import SessionTable

            async with app.run_test(size=(120, 40)) as pilot:
                await pilot.pause()
                rows.append(app.screen.query_one(SessionTable).row_count)
                await pilot.press("enter")
                await pilot.pause()
                assert type(app.screen).__name__ == "ReplayScreen"

        asyncio.run(run())
        return 0  # run_app's status for an app that ended well

    monkeypatch.setattr("gmscreen.cli.app_command.run_app", run_headless)
    assert main(["replay", str(folder)]) == 0
    assert rows == [1]
    assert reads[JOURNAL] == 1


@pytest.mark.parametrize("command", [["sessions"], ["export"]])
def test_sessions_and_export_read_each_file_once(
    folder: Path, reads: Counter[str], command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, str(folder)]) == 0
    assert capsys.readouterr().out
    # export too finds its session through the index, then reads that journal alone
    assert reads == Counter({"campaign.toml": 1, "index.json": 1, JOURNAL: 1})


def test_pick_session() -> None:
    from gmscreen.campaign.replay import pick_session  # here: the read tests run on older code too

    log = read_session(EXAMPLE / "sessions" / JOURNAL)
    assert pick_session([log], None) is log
    assert pick_session([log], SESSION) is log
    assert pick_session([log], JOURNAL) is log  # the file's name names it too
    with pytest.raises(CampaignError) as unknown:
        pick_session([log], "1999-01-01-1")
    assert str(unknown.value) == f"no session '1999-01-01-1': choose one of {SESSION}"
    with pytest.raises(CampaignError) as none:
        pick_session([], None)
    assert str(none.value) == "this campaign has no sessions yet"
