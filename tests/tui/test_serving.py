"""The GM's palette starts and stops serving the players' screen (#19.3): the entry starts
``gmscreen serve`` for the open campaign beside the GM's table (which keeps its lock), says the
address, which serves the page; the entry then offers to stop, with the address, and stopping
ends the server."""

from __future__ import annotations

import asyncio
import os
import select
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.tui.conftest import SIZE, build
from textual.app import SystemCommand

from gmscreen.campaign.paths import create_campaign
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


def test_the_server_ends_with_a_gm_screen_that_crashed(tmp_path: Path) -> None:
    """A server started from the palette must not outlive the GM's screen, however it ends:
    here killed outright, so nothing of the GM's own code stops the server."""
    folder = create_campaign(tmp_path, "Imrryr")
    port = free_port()
    argv = [sys.executable, "-c", CRASHING_GM, str(folder), str(port), str(START_WITHIN)]
    gm = subprocess.run(argv, capture_output=True, text=True, timeout=START_WITHIN + 60)
    assert gm.returncode == -signal.SIGKILL, gm.stderr
    pid, url = gm.stdout.split()
    assert url == f"http://127.0.0.1:{port}", gm.stderr
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
