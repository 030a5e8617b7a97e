"""A closed terminal (SIGHUP) ends ``gmscreen show``, ``serve`` with the screens it serves, and
the GM's screen, as terminal programs end (#25.6); the GM's screen writes its checkpoint and
lets go of the lock first. ``show`` and ``serve`` end even when their parent left SIGHUP ignored
(as nohup does): they kept running with no terminal.

Real processes on a pseudo-terminal of their own: the terminal is closed, then the signal is
sent, as the kernel does when a terminal window goes.
"""

from __future__ import annotations

import asyncio
import os
import random
import select
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import aiohttp
import pytest
from tests.rich_session import fixed_clock

from gmscreen.campaign.lock import LOCK_NAME
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.store import read_checkpoint, sessions_dir

if sys.platform == "win32":
    pytest.skip("POSIX only: Windows has no SIGHUP", allow_module_level=True)

import fcntl
import signal
import struct
import termios

START_WITHIN = 60.0  # a Python loading Textual on a shared, loaded machine: only waited on
END_WITHIN = 30.0

# Runs the command with SIGHUP ignored, as a parent that ignores it (nohup) leaves it.
IGNORING_HANG_UP = (
    "import os, signal, sys; signal.signal(signal.SIGHUP, signal.SIG_IGN); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)


class Terminal:
    """A process on a pseudo-terminal of 120x40, its output read as it comes (so that it never
    blocks writing) until the terminal is closed."""

    def __init__(self, argv: list[str]) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        self.process = subprocess.Popen(
            argv,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            start_new_session=True,
            env={**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"},
        )
        os.close(slave)
        self.output = bytearray()
        self.seen = threading.Condition()
        self.closing = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while not self.closing.is_set():
            readable, _, _ = select.select([self.master], [], [], 0.1)
            if not readable:
                continue
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # the process closed its side: nothing more to read
                return
            with self.seen:
                self.output += chunk
                self.seen.notify_all()

    def shows(self, text: str, within: float) -> bool:
        with self.seen:
            return self.seen.wait_for(lambda: text.encode() in self.output, within)

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def close(self) -> None:
        """The terminal window goes: its side of the terminal closes."""
        if not self.closing.is_set():
            self.closing.set()
            self.reader.join()
            os.close(self.master)


def group_ended(group: int) -> bool:
    try:
        os.killpg(group, 0)  # no signal: only whether a process of the group is left
    except ProcessLookupError:
        return True
    return False


@contextmanager
def on_a_terminal(argv: list[str]) -> Iterator[Terminal]:
    terminal = Terminal(argv)
    try:
        yield terminal
    finally:
        terminal.close()
        if terminal.process.poll() is None or not group_ended(terminal.process.pid):
            # it (or a process it started) outlived the test: ended here, by its group's id
            with suppress(ProcessLookupError):
                os.killpg(terminal.process.pid, signal.SIGKILL)
        terminal.process.wait(timeout=END_WITHIN)


def hang_up(terminal: Terminal) -> int | None:
    """Close the terminal and send SIGHUP; the exit status (None: still running)."""
    terminal.close()
    terminal.process.send_signal(signal.SIGHUP)
    try:
        return terminal.process.wait(timeout=END_WITHIN)
    except subprocess.TimeoutExpired:
        return None


def played(tmp_path: Path) -> Path:
    folder = create_campaign(tmp_path, "Imrryr")
    with open_campaign(folder, rng=random.Random(3), clock=fixed_clock) as live:
        live.add_character("Artinar", 13, chaos=43, balance=32, law=47)
    return folder


def test_show_ends_on_hang_up_even_if_its_parent_ignores_it(tmp_path: Path) -> None:
    folder = played(tmp_path)
    show = [sys.executable, "-m", "gmscreen", "show", str(folder)]
    with on_a_terminal([sys.executable, "-c", IGNORING_HANG_UP, *show]) as terminal:
        assert terminal.shows("Artinar", START_WITHIN), bytes(terminal.output[-500:])
        assert hang_up(terminal) == 0


def events_journaled(folder: Path) -> int:
    lines = [len(p.read_bytes().splitlines()) for p in sessions_dir(folder).glob("*.jsonl")]
    return sum(n - 1 for n in lines)  # each journal's header line aside


def test_the_gm_screen_checkpoints_and_ends_on_hang_up(tmp_path: Path) -> None:
    folder = played(tmp_path)
    before = events_journaled(folder)
    with on_a_terminal([sys.executable, "-m", "gmscreen", str(folder)]) as terminal:
        assert terminal.shows("Artinar", START_WITHIN), bytes(terminal.output[-500:])
        assert (folder / LOCK_NAME).exists()
        terminal.type(".")  # one round: journaled at once, in the checkpoint only at quit
        deadline = time.monotonic() + START_WITHIN
        while events_journaled(folder) == before and time.monotonic() < deadline:
            time.sleep(0.05)  # waiting on the journal's line, with a bound
        assert events_journaled(folder) == before + 1
        assert read_checkpoint(folder)[0].last_event == before
        assert hang_up(terminal) == 0
    assert read_checkpoint(folder)[0].last_event == before + 1
    assert not (folder / LOCK_NAME).exists()


def test_serve_and_its_screens_end_on_hang_up(tmp_path: Path) -> None:
    folder = played(tmp_path)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    url = f"http://127.0.0.1:{port}"
    serve = [sys.executable, "-m", "gmscreen", "serve", str(folder), "--port", str(port)]

    async def watch_until_it_ends(terminal: Terminal) -> int | None:
        async with aiohttp.ClientSession() as http:
            screen = await http.ws_connect(f"{url}/ws", headers={"Origin": url})
            first = await screen.receive(timeout=START_WITHIN)  # a show runs: its first frame
            assert first.type == aiohttp.WSMsgType.BINARY, first
            # The terminal goes: the kernel signals its foreground group, serve and its screens.
            terminal.close()
            os.killpg(terminal.process.pid, signal.SIGHUP)
            status = await asyncio.to_thread(terminal.process.wait, END_WITHIN)
            while (await screen.receive(timeout=END_WITHIN)).type not in (
                aiohttp.WSMsgType.CLOSE,
                aiohttp.WSMsgType.CLOSED,
            ):
                pass
            return status

    with on_a_terminal([sys.executable, "-c", IGNORING_HANG_UP, *serve]) as terminal:
        assert terminal.shows("The players' screen of Imrryr", START_WITHIN)
        assert asyncio.run(watch_until_it_ends(terminal)) == 0
        deadline = time.monotonic() + END_WITHIN
        while not group_ended(terminal.process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)  # the screens it served end after it: waited on, with a bound
        assert group_ended(terminal.process.pid)
