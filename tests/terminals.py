"""gmscreen as the players' surfaces get it, byte for byte: a command in a pseudo-terminal (the
GM's screen, ``show``), and ``serve`` with a browser's websocket (what textual-serve sends the
page's terminal). For the tests that read what reaches a terminal, not what a widget holds.

Waits are bounds, not measures: each ends as soon as what it waits for is there.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import select
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import aiohttp
from tests.systems import end_group

LIMIT = 60.0  # seconds before giving up on a screen (a bound on a loaded machine)

# What a terminal is given that is the terminal's own: CSI (colours, moves, modes), OSC (Textual
# sets the mouse pointer's shape), DCS, and the two-character escapes. Left out, what remains is
# the text the terminal draws.
TERMINAL_SEQUENCES = re.compile(
    rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1bP[^\x1b]*\x1b\\|\x1b[ -/]*[0-~]"
)


def drawn_text(raw: bytes) -> str:
    """The text in ``raw`` (UTF-8, sequences left out): what the terminal draws, in the order
    it was written (a row drawn again appears again)."""
    return TERMINAL_SEQUENCES.sub(b"", raw).decode("utf-8", "replace")


def terminal_environment(home: Path) -> dict[str, str]:
    """A terminal's environment of its own: no user config, state, locale or size of the
    machine's."""
    env = dict(
        os.environ,
        TERM="xterm-256color",
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_STATE_HOME=str(home / "state"),
        LANG="C.UTF-8",
        LC_ALL="C.UTF-8",
    )
    # The terminal's size is the pty's: Textual takes COLUMNS and LINES first (pytest-xdist's
    # workers have 80 and 24 set), and the TEXTUAL switches (devtools) are the developer's.
    for name in ("TEXTUAL", "COLUMNS", "LINES"):
        env.pop(name, None)
    return env


def pseudo_terminal(rows: int, columns: int) -> tuple[int, int]:
    """A pseudo-terminal of ``rows`` x ``columns``: its leader's and its follower's descriptors
    (tests that open one are marked posix)."""
    if sys.platform == "win32":
        raise NotImplementedError("no pseudo-terminals on Windows: mark the test posix")
    import fcntl
    import pty
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    return leader, follower


class Terminal:
    """``gmscreen ARGS`` in a pseudo-terminal of ``rows`` x ``columns``; every byte it writes is
    kept in ``written``."""

    def __init__(self, args: list[str], home: Path, rows: int = 40, columns: int = 160) -> None:
        self.leader, follower = pseudo_terminal(rows, columns)
        self.child = subprocess.Popen(
            [sys.executable, "-m", "gmscreen", *args],
            stdin=follower,
            stdout=follower,
            stderr=follower,
            env=terminal_environment(home),
            start_new_session=True,
        )
        os.close(follower)
        self.written = bytearray()

    def read_until(self, done: Callable[[bytes], bool]) -> bool:
        """Read what the program writes until ``done(all written so far)``; False if that did
        not come within LIMIT seconds, or the program ended first."""
        deadline = time.monotonic() + LIMIT
        while not done(bytes(self.written)):
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            ready, _, _ = select.select([self.leader], [], [], left)
            if not ready:
                return False
            try:
                chunk = os.read(self.leader, 65536)
            except OSError:  # the program closed the terminal
                return False
            if not chunk:
                return False
            self.written += chunk
        return True

    def type(self, keys: bytes) -> None:
        os.write(self.leader, keys)

    def close(self) -> int:
        """Read to the end (the program quits, within LIMIT), then its exit status."""
        self.read_until(lambda _: False)
        try:
            return self.child.wait(timeout=LIMIT)
        finally:
            if self.child.poll() is None:
                self.child.kill()
                self.child.wait()
            os.close(self.leader)

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *_: object) -> None:
        if self.child.poll() is None:
            self.child.kill()
            self.child.wait()
        with contextlib.suppress(OSError):
            os.close(self.leader)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def listening(port: int) -> None:
    """Return once 127.0.0.1:``port`` takes connections (serve says its address as it starts,
    a moment before it listens), within LIMIT."""
    deadline = time.monotonic() + LIMIT
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=LIMIT).close()
            return
        except ConnectionRefusedError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)  # a bounded wait for the port, not for a race of ours


@contextlib.contextmanager
def serving(folder: Path, port: int, campaign: str = "Imrryr") -> Iterator[str]:
    """``gmscreen serve`` on ``port``; the URL it printed (its line names ``campaign``)."""
    server = subprocess.Popen(
        [sys.executable, "-m", "gmscreen", "serve", str(folder), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its group holds the show processes it starts: ended together
        env={**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"},
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()  # the server says it once it listens
        said = line.startswith("The players' screen of ") and campaign in line
        assert said, (line, server.stderr)
        listening(port)
        yield next(word for word in line.split() if word.startswith("http://"))
    finally:
        end_group(server)
        server.communicate(timeout=30)


async def browser_terminal(
    url: str, done: Callable[[bytes], bool], rows: int = 40, columns: int = 160
) -> bytes:
    """What ``serve`` at ``url`` sends a browser's terminal (its websocket's binary messages,
    as the page's xterm.js gets them) until ``done(all so far)``, or for LIMIT seconds."""
    received = bytearray()
    origin = url.rstrip("/")
    deadline = time.monotonic() + LIMIT
    address = f"{origin}/ws?width={columns}&height={rows}"
    async with (
        aiohttp.ClientSession() as http,
        http.ws_connect(address, headers={"Origin": origin}) as ws,
    ):
        while not done(bytes(received)) and time.monotonic() < deadline:
            try:  # not receive(timeout=…): each of the server's pings starts that one again
                message = await asyncio.wait_for(ws.receive(), deadline - time.monotonic())
            except TimeoutError:
                break
            if message.type == aiohttp.WSMsgType.BINARY:
                received += message.data
            elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                break
    return bytes(received)


async def served_page(url: str) -> str:
    """The page ``serve`` gives a browser first (the players' names for the campaign in it)."""
    async with aiohttp.ClientSession() as http, http.get(url) as answer:
        return await answer.text()
