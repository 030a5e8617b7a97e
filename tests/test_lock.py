"""Honest locks: a lock is taken over only when its holder is provably gone, and a file system
whose locks always succeed cannot let two writers in.

The OS lock is swapped through ``acquire``'s ``os_lock`` parameter (a broken file system as a
stand-in object), never by patching ``fcntl``.
"""

from __future__ import annotations

import errno
import json
import os
import random
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gmscreen.campaign import CampaignError, CampaignLocked, open_campaign
from gmscreen.campaign.lock import LOCK_NAME, SystemLock, acquire, read_holder
from gmscreen.campaign.model import Campaign, Character
from gmscreen.campaign.process import (
    SAME_START_WITHIN,
    process_running,
    process_start,
    start_text,
)
from gmscreen.campaign.store import write_checkpoint
from gmscreen.cli import main
from gmscreen.rules.madness import MadnessState
from gmscreen.tui.app import GMScreenApp


class AlwaysGranted:
    """The OS lock of a file system that grants every lock (NFS mounted with ``nolock``)."""

    def try_lock(self, fd: int) -> bool:
        return True


class NoLocks:
    """The OS lock of a file system that has none at all."""

    def try_lock(self, fd: int) -> bool:
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    folder = tmp_path / "camp"
    folder.mkdir()
    chars = (Character("elric", "Elric", MadnessState(pow=18, chaos=70, balance=10, law=5)),)
    write_checkpoint(folder, Campaign(name="Locks", characters=chars))
    return folder


def _plant(campaign: Path, **holder: object) -> bytes:
    fields = {"host": socket.gethostname(), "user": "someone", "since": "2024-05-01T20:00:00+00:00"}
    data = json.dumps({**fields, **holder}).encode()
    (campaign / LOCK_NAME).write_bytes(data)
    return data


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.fixture
def child() -> Iterator[subprocess.Popen[bytes]]:
    """A real process of ours, running until the test ends (it waits on its stdin)."""
    process = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE
    )
    try:
        yield process
    finally:
        process.communicate(timeout=20)


def _dead_pid() -> int:
    code = "import os; print(os.getpid())"
    child = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    pid = int(child.stdout)
    assert not process_running(pid)  # ended and reaped: run() waited for it
    return pid


def test_a_stale_lock_of_a_dead_process_is_taken_over_with_an_honest_notice(
    campaign: Path,
) -> None:
    pid = _dead_pid()
    _plant(campaign, pid=pid)  # the old format: no start time, no token
    with open_campaign(campaign, rng=random.Random(1)) as live:
        assert live.notices[0] == (
            f"took over a stale lock left by process {pid} of someone on "
            f"{socket.gethostname()}, since 2024-05-01T20:00:00+00:00: "
            f"process {pid} is no longer running"
        )
        holder = read_holder(campaign / LOCK_NAME)
        assert holder is not None and holder.pid == os.getpid() and holder.token
    assert not (campaign / LOCK_NAME).exists()


@pytest.mark.parametrize("who", ["child", "parent"])
def test_a_lock_naming_a_live_process_on_this_host_is_refused(
    campaign: Path, child: subprocess.Popen[bytes], who: str
) -> None:
    pid = child.pid if who == "child" else os.getppid()
    assert process_running(pid)
    start = start_text(process_start(pid))
    assert start is not None  # psutil tells every process's start time, on every system
    planted = _plant(campaign, pid=pid, start=start, token="theirs")
    before = _files(campaign)
    with pytest.raises(CampaignLocked) as info:
        open_campaign(campaign, rng=random.Random(1))
    message = str(info.value)
    assert f"names process {pid} of someone on {socket.gethostname()}" in message
    # the very process that took it: the file system's locks are broken
    assert "still running" in message and "file locking does not work here" in message
    assert "--take-over" in message
    assert _files(campaign) == before and (campaign / LOCK_NAME).read_bytes() == planted


def test_a_live_pid_without_a_start_time_is_refused_saying_what_is_unknown(
    campaign: Path,
) -> None:
    _plant(campaign, pid=os.getppid())  # an older gmscreen's lock file: no start time
    with pytest.raises(CampaignLocked) as info:
        open_campaign(campaign, rng=random.Random(1))
    message = str(info.value)
    assert f"a process {os.getppid()} is running here" in message
    assert "either file locking does not work here, or that is another program" in message
    assert "--take-over" in message


def test_a_lock_from_another_host_is_refused(campaign: Path) -> None:
    planted = _plant(campaign, pid=_dead_pid(), host="gm-laptop.example", token="theirs")
    with pytest.raises(CampaignLocked) as info:
        open_campaign(campaign, rng=random.Random(1))
    message = str(info.value)
    assert "on another computer" in message and "on gm-laptop.example" in message
    assert "--take-over" in message
    assert (campaign / LOCK_NAME).read_bytes() == planted


@pytest.mark.parametrize("host", ["gm-laptop.example", None])
def test_take_over_is_the_gms_explicit_word(campaign: Path, host: str | None) -> None:
    _plant(campaign, pid=os.getppid(), host=host or socket.gethostname(), token="theirs")
    with open_campaign(campaign, rng=random.Random(1), take_over=True) as live:
        assert live.notices[0].startswith(f"took over the lock of process {os.getppid()}")
        assert live.notices[0].endswith("as asked (--take-over)")
        assert "stale" not in live.notices[0]


@pytest.mark.parametrize("off_by", [-3600.0, SAME_START_WITHIN + 0.5, 86400.0 * 365])
def test_a_reused_pid_is_not_the_holder(
    campaign: Path, child: subprocess.Popen[bytes], off_by: float
) -> None:
    # The lock names a running process, which started at another time: not the holder (its id
    # was reused), so the lock is stale.
    start = process_start(child.pid)
    assert start is not None
    _plant(campaign, pid=child.pid, start=start_text(start - off_by), token="theirs")
    with open_campaign(campaign, rng=random.Random(1)) as live:
        assert f"process {child.pid} is now another program (it started at " in live.notices[0]


@pytest.mark.parametrize("off_by", [0.0, 0.004, -SAME_START_WITHIN + 0.5])
def test_the_holders_start_time_read_again_is_the_holder(
    campaign: Path, child: subprocess.Popen[bytes], off_by: float
) -> None:
    # Linux's start times move with the boot time, which the kernel keeps in whole seconds:
    # within two seconds, the same process.
    start = process_start(child.pid)
    assert start is not None
    _plant(campaign, pid=child.pid, start=start_text(start + off_by), token="theirs")
    with pytest.raises(CampaignLocked, match="still running"):
        open_campaign(campaign, rng=random.Random(1))


@pytest.mark.parametrize("start", ["5b7a2e0c-5c5d-4d7e-9b0e-2f7f3e1c9a4d/12345", "1e9", "nan"])
def test_a_start_time_this_gmscreen_did_not_write_proves_nothing(
    campaign: Path, child: subprocess.Popen[bytes], start: str
) -> None:
    # an older gmscreen's (Linux's boot id and clock ticks), or not a time at all
    _plant(campaign, pid=child.pid, start=start, token="theirs")
    with pytest.raises(CampaignLocked, match="gmscreen cannot tell which"):
        open_campaign(campaign, rng=random.Random(1))


def test_a_holder_killed_outright_leaves_a_lock_the_next_open_takes_over(campaign: Path) -> None:
    holder = _holding(campaign)
    holder.kill()  # SIGKILL, TerminateProcess on Windows: no clean-up of its own
    holder.communicate(timeout=20)
    left = read_holder(campaign / LOCK_NAME)
    assert left is not None and left.pid == holder.pid and left.start is not None
    with open_campaign(campaign, rng=random.Random(1)) as live:
        assert live.notices[0].endswith(f"process {holder.pid} is no longer running")


def test_an_unreadable_lock_file_is_not_taken_over_on_a_guess(campaign: Path) -> None:
    (campaign / LOCK_NAME).write_bytes(b"\x00garbage")
    with pytest.raises(CampaignLocked, match="not a lock file gmscreen can read"):
        open_campaign(campaign, rng=random.Random(1))
    with open_campaign(campaign, rng=random.Random(1), take_over=True) as live:
        assert "as asked (--take-over)" in live.notices[0]


HOLDER = r"""
import random, sys
from gmscreen.campaign import open_campaign
live = open_campaign(sys.argv[1], rng=random.Random(1))
print("locked", flush=True)
sys.stdin.readline()
live.close()
"""


def _holding(campaign: Path) -> subprocess.Popen[str]:
    """Another process holding ``campaign`` open (until a line on its stdin closes it)."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(campaign)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
    return holder


def test_where_locks_always_succeed_a_second_writer_is_refused(campaign: Path) -> None:
    holder = _holding(campaign)
    try:
        before = _files(campaign)
        with pytest.raises(CampaignLocked) as info:
            acquire(campaign, os_lock=AlwaysGranted())
        assert f"names process {holder.pid}" in str(info.value)
        assert "file locking does not work here" in str(info.value)
        assert _files(campaign) == before  # the holder's details are still there, unchanged
    finally:
        holder.communicate("\n", timeout=20)
    assert holder.returncode == 0


def test_where_locks_always_succeed_the_same_process_cannot_open_twice(campaign: Path) -> None:
    first = acquire(campaign, os_lock=AlwaysGranted())
    try:
        with pytest.raises(CampaignLocked, match="file locking does not work here"):
            acquire(campaign, os_lock=AlwaysGranted())
        assert read_holder(campaign / LOCK_NAME) == first.holder
    finally:
        first.release()


def test_a_file_system_without_locks_names_the_lock_file(campaign: Path) -> None:
    with pytest.raises(CampaignError) as info:
        acquire(campaign, os_lock=NoLocks())
    assert str(info.value) == (
        f"{campaign / LOCK_NAME}: cannot take the lock: {os.strerror(errno.ENOLCK)} "
        "(this file system does not support file locks)"
    )


def test_the_command_refuses_and_offers_take_over(
    campaign: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[list[str]] = []

    def run_app(app: GMScreenApp, **_: object) -> int:  # instead of the screen: what it opened
        opened.append(app.live.notices)
        app.live.close()
        return 0  # run_app's status for an app that ended well

    monkeypatch.setattr("gmscreen.cli.app_command.run_app", run_app)
    _plant(campaign, pid=os.getppid(), start=start_text(process_start(os.getppid())), token="x")
    assert main([str(campaign)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gmscreen: error: ") and "--take-over" in err
    assert len(err.strip().splitlines()) == 1
    assert not opened
    assert main([str(campaign), "--take-over"]) == 0
    assert opened and "as asked (--take-over)" in opened[0][0]


class ReleasedMeanwhile:
    """The holder closes the campaign between our open of the lock file and our lock: it
    deletes the file we opened (as :meth:`CampaignLock.release` does), then the lock is free."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.calls = 0

    def try_lock(self, fd: int) -> bool:
        self.calls += 1
        if self.calls == 1:
            os.unlink(self.path)
        return SystemLock().try_lock(fd)


def test_a_lock_file_deleted_under_us_is_opened_again_and_taken(campaign: Path) -> None:
    (campaign / LOCK_NAME).write_bytes(b"")  # a holder's file, about to be released
    os_lock = ReleasedMeanwhile(campaign / LOCK_NAME)
    lock = acquire(campaign, os_lock=os_lock)
    try:
        assert os_lock.calls == 2  # the deleted file was let go, the new one locked
        holder = read_holder(campaign / LOCK_NAME)
        assert holder is not None and holder.token == lock.holder.token
    finally:
        lock.release()


@pytest.mark.linux("os.waitid with WNOWAIT: a process ended and left unreaped")
def test_a_holder_that_ended_but_is_not_reaped_yet_is_gone(campaign: Path) -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        if sys.platform == "linux":  # for mypy on the other systems: the mark skips them
            os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)  # ended, left a zombie
        assert not process_running(child.pid)
        _plant(campaign, pid=child.pid, token="theirs")
        with open_campaign(campaign, rng=random.Random(1)) as live:
            assert f"process {child.pid} is no longer running" in live.notices[0]
    finally:
        child.wait()


@pytest.mark.parametrize(
    "user",
    # the last: a login name from bytes the locale could not decode
    ["ana", "Ñandú 名前", "bad\udc80bytes"],
)
def test_the_holder_written_is_the_holder_read(campaign: Path, user: str) -> None:
    """The lock file is one line of JSON that reads back as written, a lone surrogate too
    (a user name from bytes the locale could not decode)."""
    from gmscreen.campaign.lock import Holder

    holder = Holder(4321, "host-ñ", user, "2024-05-01T20:00:00+00:00", "9876", "ab" * 16)
    path = campaign / LOCK_NAME
    path.write_text(holder.to_json(), encoding="utf-8")
    assert read_holder(path) == holder
    assert json.loads(path.read_text(encoding="utf-8"))["user"] == user


def test_a_lock_file_nested_too_deep_names_no_holder(campaign: Path) -> None:
    """A hostile lock file of 60,000 ``[`` is no holder (json gives up on its depth), not a
    traceback."""
    path = campaign / LOCK_NAME
    path.write_text("[" * 60_000, encoding="utf-8")
    assert read_holder(path) is None


def test_a_lock_copied_with_its_folder_is_told_as_a_copy_and_taken(
    campaign: Path, tmp_path: Path
) -> None:
    """A campaign copied while open (``cp -r``) brings the original's .lock: the copy is another
    file, so the system grants it, and its holder is alive. It holds the original folder, not
    this one: the copy opens, saying what happened, not blaming the file system (#30 item 6)."""
    holder = _holding(campaign)
    try:
        copy = tmp_path / "copy"
        shutil.copytree(campaign, copy)
        with open_campaign(copy, rng=random.Random(1)) as live:
            notice = live.notices[0]
            assert notice.startswith(f"this folder's .lock was copied from {campaign}, which ")
            assert f"process {holder.pid} of" in notice and "this folder is a copy" in notice
            assert "network" not in notice
        with pytest.raises(CampaignLocked, match="is open in another gmscreen"):
            open_campaign(campaign, rng=random.Random(1))  # the original is still held
    finally:
        holder.communicate("\n", timeout=20)
    assert holder.returncode == 0


@pytest.mark.posix("links as POSIX makes them")
def test_a_live_holder_of_this_very_folder_by_another_path_is_still_refused(
    campaign: Path, tmp_path: Path
) -> None:
    link = tmp_path / "link"
    link.symlink_to(campaign, target_is_directory=True)
    pid = os.getppid()
    start = start_text(process_start(pid))
    _plant(campaign, pid=pid, start=start, token="theirs", folder=str(link))
    with pytest.raises(CampaignLocked) as info:
        acquire(campaign, os_lock=AlwaysGranted())
    assert "names process" in str(info.value) and "copied" not in str(info.value)


def test_a_lock_copied_from_another_computer_says_so(campaign: Path) -> None:
    far = "/home/ana/campaigns/camp"
    _plant(campaign, pid=1, host="gm-laptop.example", token="theirs", folder=far)
    with pytest.raises(CampaignLocked) as info:
        open_campaign(campaign, rng=random.Random(1))
    message = str(info.value)
    assert f"on gm-laptop.example, since 2024-05-01T20:00:00+00:00 in {far}" in message
    assert "a folder copied from another computer brings that computer's .lock along" in message
    assert message.endswith("open it with --take-over")


def test_an_older_lock_of_a_live_holder_says_it_may_be_a_copy(campaign: Path) -> None:
    pid = os.getppid()
    start = start_text(process_start(pid))
    assert start is not None  # psutil tells every process's start time, on every system
    _plant(campaign, pid=pid, start=start, token="theirs")  # no folder: an older gmscreen's
    with pytest.raises(CampaignLocked) as info:
        open_campaign(campaign, rng=random.Random(1))
    assert "Or this .lock was copied along with the folder" in str(info.value)
