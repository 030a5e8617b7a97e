"""The GM's palette starts and stops serving the players' screen (#19.3): the entry starts
``gmscreen serve`` for the open campaign beside the GM's table (which keeps its lock), says the
address, which serves the page; the entry then offers to stop, with the address, and stopping
ends the server."""

from __future__ import annotations

import asyncio
import os
import select
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import aiohttp
import pytest
from tests.systems import KILLED
from tests.tui.conftest import SIZE, build
from textual.app import SystemCommand

from gmscreen.campaign.paths import create_campaign
from gmscreen.cli.crash import crash_folder
from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.serving import PlayersServing

START_WITHIN = 60.0  # a Python starting textual-serve on a loaded machine: only waited on


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def entries(app: GMScreenApp) -> list[SystemCommand]:
    return [c for c in app.get_system_commands(app.screen) if "Players' screen" in c.title]


def test_the_palette_starts_and_stops_serving(tmp_path: Path) -> None:
    folder = create_campaign(tmp_path, "Imrryr")
    port = free_port()
    page: list[str] = []

    async def run() -> None:
        app = build(folder)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            app.serving = PlayersServing(folder, app.catalog, port=port)
            (start,) = entries(app)
            assert start.title == app.catalog.t("serve.start.name")
            start.callback()
            deadline = time.monotonic() + START_WITHIN
            while app.serving.url is None and time.monotonic() < deadline:
                await pilot.pause(0.1)
            assert app.serving.url == f"http://127.0.0.1:{port}"
            with urllib.request.urlopen(app.serving.url, timeout=30) as answer:
                page.append(answer.read().decode())
            (stop,) = entries(app)
            assert stop.title == app.catalog.t("serve.stop.name", url=app.serving.url)
            process = app.serving.process
            assert process is not None
            stop.callback()
            assert process.poll() is not None and not app.serving.running
            (again,) = entries(app)
            assert again.title == app.catalog.t("serve.start.name")
            await pilot.press("q")

    asyncio.run(run())
    assert "textual-terminal" in page[0]


# A GM's screen (headless) that starts serving from its palette's code, says the server's
# address, then dies at once as a crash would (SIGKILL: no quit, no clean-up of its own).
CRASHING_GM = """
import asyncio, os, signal, sys, time
from pathlib import Path
from gmscreen.tui.app import make_app
from gmscreen.tui.serving import PlayersServing

folder, port = Path(sys.argv[1]), int(sys.argv[2])

async def main():
    app = make_app(folder, config_path=None)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.serving = PlayersServing(folder, app.catalog, port=port)
        app.serving.start(app)
        deadline = time.monotonic() + float(sys.argv[3])
        while app.serving.url is None and time.monotonic() < deadline:
            await pilot.pause(0.1)
        assert app.serving.process is not None
        print(app.serving.process.pid, app.serving.url, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)

asyncio.run(main())
"""


def serving(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5):
            return True
    except OSError:
        return False


@pytest.mark.linux("os.pidfd_open: waits for the end of a process that is not our child")
def test_the_server_ends_with_a_gm_screen_that_crashed(tmp_path: Path) -> None:
    """A server started from the palette must not outlive the GM's screen, however it ends:
    here killed outright, so nothing of the GM's own code stops the server."""
    folder = create_campaign(tmp_path, "Imrryr")
    port = free_port()
    argv = [sys.executable, "-c", CRASHING_GM, str(folder), str(port), str(START_WITHIN)]
    gm = subprocess.run(argv, capture_output=True, text=True, timeout=START_WITHIN + 60)
    assert gm.returncode == KILLED, gm.stderr
    pid, url = gm.stdout.split()
    assert url == f"http://127.0.0.1:{port}", gm.stderr
    if sys.platform != "linux":  # the test is marked linux
        raise NotImplementedError("os.pidfd_open")
    try:
        ended = os.pidfd_open(int(pid))  # readable once the server's process has ended
    except ProcessLookupError:  # ended already
        pass
    else:
        try:
            readable, _, _ = select.select([ended], [], [], START_WITHIN)
        finally:
            os.close(ended)
        assert readable, "the server outlived the GM's screen"
    assert not serving(url)


MALFORMED = ("not json", "[[[[", '{"stdin": 1}', '["stdin", 7]', '["resize", {"width": "x"}]', "[]")


def test_a_palette_server_answers_after_500_malformed_messages(tmp_path: Path) -> None:
    """Each message a page cannot have sent is one line of the server's log file, and the
    connection goes on. (The server's output was a pipe nobody read: ~50 tracebacks filled it
    and the server stopped answering.)"""
    folder = create_campaign(tmp_path, "Imrryr")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = crash_folder() / f"serve-{port}.log"

    async def pong(socket: aiohttp.ClientWebSocketResponse) -> object:
        """The server's next text message (its pong), or None if it closed the connection."""
        while (message := await socket.receive(timeout=START_WITHIN)).type in (
            aiohttp.WSMsgType.BINARY,  # the screen's frames
            aiohttp.WSMsgType.TEXT,
        ):
            if message.type == aiohttp.WSMsgType.TEXT:
                return message.json()
        return None

    async def send_malformed(count: int) -> int:
        """Send ``count`` malformed messages, each followed by a ping; the pongs answered."""
        answered = 0
        async with aiohttp.ClientSession() as http:
            socket = None
            for n in range(count):
                if socket is None or socket.closed:  # the old server closed it on each one
                    socket = await http.ws_connect(f"{url}/ws", headers={"Origin": url})
                await socket.send_str(MALFORMED[n % len(MALFORMED)])
                await socket.send_str(f'["ping", "{n}"]')
                answered += await pong(socket) == ["pong", str(n)]
            if socket is not None:
                await socket.close()
        return answered

    async def run() -> None:
        app = build(folder)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            app.serving = PlayersServing(folder, app.catalog, port=port)
            app.serving.start(app)
            deadline = time.monotonic() + START_WITHIN
            while app.serving.url is None and time.monotonic() < deadline:
                await pilot.pause(0.1)
            assert app.serving.url == url
            assert await asyncio.wait_for(send_malformed(500), START_WITHIN) == 500
            answer = await asyncio.to_thread(urllib.request.urlopen, url, timeout=30)
            with answer:
                assert answer.status == 200
            app.serving.stop()
            await pilot.press("q")

    asyncio.run(run())
    lines = log.read_text(encoding="utf-8").splitlines()
    left_aside = [line for line in lines if "a message from 127.0.0.1 left aside:" in line]
    assert len(left_aside) == 500
    assert not any("Traceback" in line or line.startswith(" ") for line in lines)


# A server as chatty as can be: its address, then a megabyte of output, then it ends.
CHATTY = (
    "import sys; print('The players'' screen of Imrryr: http://127.0.0.1:9  (Ctrl+C)', "
    "flush=True); sys.stdout.write('x' * 2**20); sys.stderr.write('y' * 2**20)"
)


class ChattyServing(PlayersServing):
    def argv(self) -> list[str]:
        return [sys.executable, "-c", CHATTY]


def test_all_the_server_says_is_read(tmp_path: Path) -> None:
    """Its output is read for as long as it runs: a pipe nobody reads fills at 64 KiB, and the
    server then stops at its next write (the page no longer loads)."""
    folder = create_campaign(tmp_path, "Imrryr")

    async def run() -> None:
        app = build(folder)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            app.serving = ChattyServing(folder, app.catalog)
            app.serving.start(app)
            process = app.serving.process
            assert process is not None
            status = await asyncio.to_thread(process.wait, START_WITHIN)
            assert status == 0 and app.serving.url == "http://127.0.0.1:9"
            app.serving.stop()
            await pilot.press("q")

    asyncio.run(run())
