"""Who writes the session index: a lock holder only. ``gmscreen sessions`` and ``export`` bring a
stale one up to date while no gmscreen has the campaign open (taking its lock for the write);
``replay`` writes nothing. A write killed half way leaves a temporary file, which the next write
removes."""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from tests.played_sessions import clock_on, index_of, journals, play_sessions, truth

from gmscreen.campaign.lock import LOCK_NAME
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.session_index import list_entries
from gmscreen.campaign.store import sessions_dir
from gmscreen.cli import main
from gmscreen.tui.replay_app import make_replay_app
from gmscreen.tui.screens.replay import ReplayScreen

posix_only = pytest.mark.posix("links as POSIX makes them")
LEFT = ".index.json.0123456789abcdef.tmp"  # what a killed write of the index leaves


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_sessions(tmp_path_factory.mktemp("played"))


@pytest.fixture
def folder(played: Path, tmp_path: Path) -> Path:
    """A copy of the played campaign without its index."""
    target = tmp_path / "imrryr"
    shutil.copytree(played, target)
    index_of(target).unlink()
    return target


def files(folder: Path) -> dict[str, tuple[int, int, bytes]]:
    """Every file and link in ``folder``: inode, modification time and bytes."""
    return {
        str(p.relative_to(folder)): (p.lstat().st_ino, p.lstat().st_mtime_ns, p.read_bytes())
        for p in folder.rglob("*")
        if p.is_file() or p.is_symlink()
    }


def listed_without_parsing(folder: Path) -> bool:
    listing = list_entries(sessions_dir(folder))
    return listing.read == {} and not listing.stale and listing.entries == truth(folder)


@pytest.mark.parametrize(
    "argv", [["sessions"], ["export", "--session", "2025-03-08-1"]], ids=["sessions", "export"]
)
def test_a_command_that_reads_writes_a_stale_index_when_the_campaign_is_free(
    folder: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([argv[0], str(folder), *argv[1:]]) == 0
    assert "2025-03-08" in capsys.readouterr().out
    assert listed_without_parsing(folder)
    assert not (folder / LOCK_NAME).exists()  # taken for the write, and given back
    before = files(folder)
    assert main([argv[0], str(folder), *argv[1:]]) == 0
    assert files(folder) == before  # up to date: nothing written, no lock taken


def test_nothing_is_written_while_a_gmscreen_has_the_campaign_open(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with open_campaign(folder, rng=random.Random(1), clock=clock_on(20)) as live:
        index_of(folder).unlink(missing_ok=True)  # as if its worker had not written it yet
        before = files(folder)
        assert main(["sessions", str(folder)]) == 0
        assert len(capsys.readouterr().out.splitlines()) == 4
        assert files(folder) == before
        live.refresh_index()  # the lock holder writes it
    assert listed_without_parsing(folder)


def test_nothing_is_written_beside_a_lock_left_by_a_gmscreen_that_crashed(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its lock tells the GM, as the campaign next opens, that it was not closed: left alone
    (its holder, gone, on this computer: a lock the GM's screen would take over)."""
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    holder = {"pid": int(gone), "host": socket.gethostname(), "user": "u", "since": "s"}
    (folder / LOCK_NAME).write_text(json.dumps(holder) + "\n")
    before = files(folder)
    assert main(["sessions", str(folder)]) == 0
    assert files(folder) == before
    capsys.readouterr()


def test_replay_writes_nothing(folder: Path) -> None:
    before = files(folder)

    async def run() -> None:
        app = make_replay_app(folder, "2025-03-08-1", config_path=None, animations=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, ReplayScreen)

    asyncio.run(run())
    assert files(folder) == before


@posix_only
def test_the_next_write_removes_what_a_killed_write_left(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sessions = sessions_dir(folder)
    (sessions / LEFT).write_bytes(b'{"type": "gmscreen-session-ind')  # killed as it wrote
    outside = tmp_path / "outside.json"
    outside.write_text("not ours")
    linked = sessions / ".index.json.fedcba9876543210.tmp"
    linked.symlink_to(outside)
    kept = [sessions / ".index.json.0123.tmp", sessions / "notes.index.json.0123456789abcdef.tmp"]
    for path in kept:
        path.write_text("not a temporary file of the index")
    (sessions / ".index.json.aaaaaaaaaaaaaaaa.tmp").mkdir()  # not a file: left alone
    assert main(["sessions", str(folder)]) == 0
    capsys.readouterr()
    assert not (sessions / LEFT).exists() and not linked.is_symlink()
    assert outside.read_text() == "not ours"  # the link went, not what it pointed to
    assert all(path.exists() for path in kept)
    assert (sessions / ".index.json.aaaaaaaaaaaaaaaa.tmp").is_dir()
    assert listed_without_parsing(folder)


def test_the_live_campaign_removes_them_too(folder: Path) -> None:
    (sessions_dir(folder) / LEFT).write_bytes(b"{")
    with open_campaign(folder, rng=random.Random(1), clock=clock_on(20)) as live:
        live.note("one more evening")
    assert not (sessions_dir(folder) / LEFT).exists()
    assert listed_without_parsing(folder)
    assert len(journals(folder)) == 4
