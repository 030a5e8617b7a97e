"""The bytes a real terminal gets (#13.2's acceptance): ``gmscreen`` runs in a pseudo-terminal on
a campaign whose character is named ``Bad\\u001b]0;PWNED\\u0007`` in its TOML. No OSC sequence
carrying PWNED may be written (it would retitle the terminal), and the name must be on the
screen with its escape shown (``Bad␛]0;PWNED␇``).
"""

from __future__ import annotations

import os
import re
import select
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from msgspec.structs import replace

from gmscreen.campaign.model import Character, Settings
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.store import read_checkpoint, write_checkpoint
from gmscreen.rules.madness import MadnessState

NAME = "Bad\x1b]0;PWNED\x07"
SHOWN = "Bad␛]0;PWNED␇".encode()
OSC_WITH_PWNED = re.compile(rb"\x1b\][^\x07\x1b]*PWNED|\x9d[^\x07]*PWNED")
LIMIT = 60.0  # seconds of silence before giving up on the screen (a bound, not a measure)


def _read_until(fd: int, marker: bytes, seen: bytearray) -> bool:
    while marker not in seen:
        ready, _, _ = select.select([fd], [], [], LIMIT)
        if not ready:
            return False
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the child closed the terminal
            return False
        if not chunk:
            return False
        seen += chunk
    return True


def _read_to_end(fd: int, seen: bytearray) -> None:
    _read_until(fd, b"\x00never\x00", seen)


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    folder = create_campaign(tmp_path / "campaigns", "Pwned", Settings(modules=("madness",)))
    checkpoint, _ = read_checkpoint(folder)
    character = Character("bad", NAME, MadnessState(pow=13, chaos=43, law=47, balance=32))
    write_checkpoint(folder, replace(checkpoint, characters=(character,)))
    assert NAME.encode() not in (folder / "campaign.toml").read_bytes()  # TOML's \u001b escape
    return folder


def _terminal() -> tuple[int, int]:
    """A pseudo-terminal of 100x30 cells: its leader's and its follower's descriptors."""
    if sys.platform == "win32":  # the test is marked posix
        raise NotImplementedError("no pseudo-terminals on Windows")
    import fcntl
    import pty
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    return leader, follower


@pytest.mark.posix("a pseudo-terminal")
def test_an_escape_in_a_name_never_reaches_the_terminal(campaign: Path, tmp_path: Path) -> None:
    leader, follower = _terminal()
    env = dict(
        os.environ,
        TERM="xterm-256color",
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_STATE_HOME=str(tmp_path / "state"),
        LANG="C.UTF-8",
    )
    env.pop("TEXTUAL", None)
    child = subprocess.Popen(
        [sys.executable, "-m", "gmscreen", str(campaign)],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
        start_new_session=True,
    )
    os.close(follower)
    written = bytearray()
    try:
        on_screen = _read_until(leader, SHOWN, written)
        os.write(leader, b"q")
        _read_to_end(leader, written)
        status = child.wait(timeout=LIMIT)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        os.close(leader)
    assert OSC_WITH_PWNED.search(bytes(written)) is None  # the title is left alone
    assert NAME.encode() not in written
    assert on_screen, bytes(written[-2000:])  # the name, its escape shown
    assert status == 0
