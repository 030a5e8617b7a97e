"""Faults are messages, and the app stays up (#14.3): the screen played on a disk that fills up,
a sessions folder made read-only, a journal deleted or cut short mid-play, and a
campaign folder that cannot be written at quit. Each time: no traceback (Pilot re-raises any),
a message on screen, the action not shown as done, no acknowledged event lost, and the campaign
opens afterwards.

The mounts need root (CI runs the tests as root); elsewhere those tests are skipped, saying why.
"""

from __future__ import annotations

import random
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.systems import running_as_root
from tests.tui.conftest import fixed_clock, play
from textual.pilot import Pilot

from gmscreen.campaign import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.store import load
from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.main import MainScreen

ROUND = 12


def texts(app: GMScreenApp) -> list[str]:
    return [str(n.message) for n in app.pop_ups_shown()]


def header(app: GMScreenApp) -> str:
    assert app.main is not None
    return str(app.main.query_one("#header").render())


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, check=False)


@pytest.fixture
def mount_point(tmp_path: Path) -> Iterator[Path]:
    """An empty 256 KiB tmpfs (unmounted after the test)."""
    point = tmp_path / "mnt"
    point.mkdir()
    if not running_as_root():
        pytest.skip("mounting a tmpfs needs root (CI runs the tests as root)")
    mounted = _run("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(point))
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield point
    finally:
        _run("chattr", "-R", "-i", str(point))
        if _run("umount", str(point)).returncode != 0:
            _run("umount", "-l", str(point))


def _campaign(root: Path) -> Path:
    folder = create_campaign(root, "Faults")
    with open_campaign(folder, rng=random.Random(1), clock=fixed_clock) as live:
        live.add_character("Ana", 12, madness=5)
        live.add_character("Bo", 12, madness=8)
    return folder


def _reopened_clock(folder: Path, take_over: bool = False) -> int:
    """The clock of the campaign opened again (``take_over``: its lock file could not be
    removed, and names this very process, which is still running)."""
    with open_campaign(
        folder, rng=random.Random(1), clock=fixed_clock, take_over=take_over
    ) as live:
        assert live.state == load(folder).state
        return live.state.clock


def _fill(root: Path) -> Path:
    """Fill the file system under ``root`` to the last byte; returns the filler file."""
    filler = root / "filler"
    with open(filler, "wb", buffering=0) as out:
        chunk = b"x" * 4096
        try:
            while True:
                out.write(chunk)
        except OSError:
            pass
        try:
            while True:
                out.write(b"x")
        except OSError:
            pass
    return filler


def test_a_disk_that_fills_up_during_play(mount_point: Path) -> None:
    folder = _campaign(mount_point)
    acknowledged: list[int] = []

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("full_stop")
        acknowledged.append(app.live.state.clock)
        filler = _fill(mount_point)
        for _ in range(100):  # the journal's last page has room for a few lines more
            await pilot.press("full_stop")
            if app.live.fault is not None:
                break
            acknowledged.append(app.live.state.clock)
        assert app.live.fault is not None, "the disk never filled"
        assert app.live.state.clock == acknowledged[-1]  # the round is not shown as done
        await pilot.press("D")  # several events: refused whole
        assert app.live.state.clock == acknowledged[-1]
        said = "\n".join(texts(app))
        assert "No space left on device" in said and "free some space" in said, said
        assert app.live.session_path is not None and app.live.session_path.name in said
        assert isinstance(app.screen, MainScreen)
        assert "READ-ONLY" in header(app)
        filler.unlink()
        await pilot.press("full_stop")  # writes again: the action goes through
        assert app.live.fault is None
        assert "READ-ONLY" not in header(app)
        acknowledged.append(app.live.state.clock)
        assert any("Writing works again" in text for text in texts(app))

    play(folder, scenario)
    assert acknowledged[-1] == acknowledged[0] + ROUND * (len(acknowledged) - 1)
    assert _reopened_clock(folder) == acknowledged[-1]


@pytest.fixture
def sessions_mount(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """A campaign whose sessions folder is its own tmpfs (so it can be remounted read-only
    while the campaign's lock stays open for writing outside it)."""
    folder = _campaign(tmp_path)
    sessions = folder / "sessions"
    kept = {p.name: p.read_bytes() for p in sessions.iterdir()}
    if not running_as_root():
        pytest.skip("mounting a tmpfs needs root (CI runs the tests as root)")
    mounted = _run("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(sessions))
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    for name, data in kept.items():
        (sessions / name).write_bytes(data)
    try:
        yield folder, sessions
    finally:
        _run("chattr", "-R", "-i", str(sessions))
        _run("mount", "-o", "remount,rw", str(sessions))
        for name in list(kept):
            kept[name] = (sessions / name).read_bytes()
        if _run("umount", str(sessions)).returncode != 0:
            _run("umount", "-l", str(sessions))


def test_a_sessions_folder_made_read_only(
    sessions_mount: tuple[Path, Path],
) -> None:
    folder, sessions = sessions_mount

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        assert _run("mount", "-o", "remount,ro", str(sessions)).returncode == 0
        await pilot.press("full_stop")
        assert app.live.state.clock == 0 and app.live.fault is not None
        said = "\n".join(texts(app))
        assert "Read-only file system" in said and "remount" in said, said
        assert _run("mount", "-o", "remount,rw", str(sessions)).returncode == 0
        await pilot.press("full_stop")
        assert app.live.state.clock == ROUND and app.live.fault is None
        # (Once the journal is open for appends, the kernel refuses to remount the folder
        # read-only, and an immutable flag set now would not stop the open file either.)
        await pilot.press("full_stop")
        assert app.live.state.clock == 2 * ROUND

    play(folder, scenario)
    assert _reopened_clock(folder) == 2 * ROUND


def test_quitting_with_an_unwritable_folder_says_what_was_kept(mount_point: Path) -> None:
    folder = _campaign(mount_point)

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("full_stop", "full_stop")
        assert _run("chattr", "+i", str(folder)).returncode == 0
        await pilot.press("ctrl+q")

    app = play(folder, scenario)
    assert app.quit_problem is not None  # the command prints it and exits 1
    problem = app.live.close_problem or ""
    assert "campaign.toml was not updated" in problem and "journal" in problem, problem
    assert "lock" in problem  # it could not be removed either: the folder is immutable
    assert _run("chattr", "-i", str(folder)).returncode == 0
    assert _reopened_clock(folder, take_over=True) == 2 * ROUND


@pytest.mark.parametrize("damage", ["deleted", "cut short"])
def test_a_journal_deleted_or_cut_short_mid_play_is_written_anew(
    tmp_path: Path, damage: str
) -> None:
    folder = _campaign(tmp_path)

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("full_stop", "D", "full_stop")
        journal = app.live.session_path
        assert journal is not None
        if damage == "deleted":
            journal.unlink()
        else:
            data = journal.read_bytes()
            journal.write_bytes(data[: len(data) - 30])  # inside the last line
        await pilot.press("full_stop")
        said = "\n".join(texts(app))
        assert f"was {damage}" in said and "Nothing is lost" in said, said
        fresh = app.live.session_path
        assert fresh is not None and fresh.is_file()  # a new file (a deleted one's name is free)

    app = play(folder, scenario)
    clock = app.live.state.clock
    assert clock == 86400 + 2 * ROUND
    assert _reopened_clock(folder) == clock
    assert len(load(folder).logs[-1].events) == len(app.live.events)
