"""``gmscreen serve``'s limits against a real server (#25.3): twenty browsers at
``--max-clients 12`` get twelve screens and eight pages saying it is full, never more than twelve
``show`` processes; a page of another site (``Origin``) and a name pointed at this computer
(``Host``, DNS rebinding) are refused; ``/static/`` lists no folder; each refusal is one line of
the log. The server runs as the command does, in its own process group, on a free port.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import aiohttp
import pytest
from tests.rich_session import fixed_clock

from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign

if sys.platform != "linux":
    pytest.skip("counts processes through /proc (Linux)", allow_module_level=True)

START_WITHIN = 60.0  # Pythons starting on a shared, loaded machine: only waited on
CAP = 12


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Serving:
    """A ``gmscreen serve`` process, its address and its log."""

    def __init__(self, process: subprocess.Popen[str], url: str, log: Path) -> None:
        self.process = process
        self.url = url
        self.log = log

    def screens(self) -> int:
        """The ``show`` processes serve runs now (its descendants, read from /proc)."""
        parents: dict[int, int] = {}
        commands: dict[int, bytes] = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            with contextlib.suppress(OSError):
                stat = (entry / "stat").read_text()
                parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
                commands[int(entry.name)] = (entry / "cmdline").read_bytes()
        below, found = {self.process.pid}, True
        while found:
            found = False
            for pid, parent in parents.items():
                if parent in below and pid not in below:
                    below.add(pid)
                    found = True
        return sum(1 for pid in below if b"\0show\0" in commands.get(pid, b""))

    def log_lines(self) -> list[str]:
        return self.log.read_text(encoding="utf-8").splitlines() if self.log.exists() else []


@pytest.fixture(scope="module")
def serving(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serving]:
    root = tmp_path_factory.mktemp("serve-limits")
    folder = create_campaign(root, "Imrryr")
    with open_campaign(folder, rng=random.Random(3), clock=fixed_clock) as live:
        live.add_character("Artinar", 13, chaos=43, balance=32, law=47)
    port = free_port()
    state = root / "state"
    env = {
        **os.environ,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "XDG_STATE_HOME": str(state),
        "XDG_CONFIG_HOME": str(root / "config"),
    }
    argv = [sys.executable, "-m", "gmscreen", "serve", str(folder), "--port", str(port)]
    server = subprocess.Popen(
        [*argv, "--max-clients", str(CAP)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its group holds the show processes it starts: ended together
        env=env,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()  # said once it listens
        assert line.startswith("The players' screen of Imrryr: "), line
        yield Serving(server, f"http://127.0.0.1:{port}", state / "gmscreen" / f"serve-{port}.log")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGTERM)
        server.communicate(timeout=30)


async def until(condition: Callable[[], bool], within: float = START_WITHIN) -> bool:
    """Whether ``condition`` holds within ``within`` seconds (asked every 20 ms)."""
    deadline = time.monotonic() + within
    while not condition():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.02)
    return True


async def first_bytes(screen: aiohttp.ClientWebSocketResponse) -> bool:
    """Whether the screen behind ``screen`` sends its first frame."""
    while True:
        message = await screen.receive(timeout=START_WITHIN)
        if message.type == aiohttp.WSMsgType.BINARY:
            return True
        if message.type != aiohttp.WSMsgType.TEXT:
            return False


def run(test: Callable[[aiohttp.ClientSession], Awaitable[None]]) -> None:
    async def main() -> None:
        async with aiohttp.ClientSession() as http:
            await test(http)

    asyncio.run(main())


def test_twenty_browsers_get_twelve_screens_and_a_full_page(serving: Serving) -> None:
    own = {"Origin": serving.url}  # what a browser showing the served page sends
    most = 0

    async def count() -> None:  # how many screens run, all along
        nonlocal most
        while True:
            most = max(most, serving.screens())
            await asyncio.sleep(0.01)

    async def connect(http: aiohttp.ClientSession) -> aiohttp.ClientWebSocketResponse | int:
        try:
            return await http.ws_connect(f"{serving.url}/ws?width=100&height=30", headers=own)
        except aiohttp.WSServerHandshakeError as refused:
            return refused.status

    async def test(http: aiohttp.ClientSession) -> None:
        counting = asyncio.create_task(count())
        answers = await asyncio.gather(*(connect(http) for _ in range(20)))
        sockets = [a for a in answers if not isinstance(a, int)]
        assert sorted(a for a in answers if isinstance(a, int)) == [503] * 8
        assert len(sockets) == CAP
        assert all(await asyncio.gather(*(first_bytes(s) for s in sockets)))
        assert serving.screens() == CAP
        for path in ("/", "/ws"):  # a browser more: told, in a page
            async with http.get(serving.url + path) as answer:
                page = await answer.text()
                assert answer.status == 503 and "The players&#x27; screen is full" in page
                assert "12 browsers already show the players&#x27; screen of Imrryr" in page
        assert most <= CAP
        for screen in sockets:
            await screen.close()
        assert await until(lambda: serving.screens() == 0)
        counting.cancel()
        assert most == CAP
        async with http.get(serving.url + "/") as answer:  # a place again
            assert answer.status == 200 and "textual-terminal" in await answer.text()

    run(test)


def test_other_sites_and_names_are_refused(serving: Serving) -> None:
    async def refused(http: aiohttp.ClientSession, path: str, headers: dict[str, str]) -> None:
        async with http.get(serving.url + path, headers=headers) as answer:
            assert answer.status == 403, (path, headers)
            assert "This address does not serve the players&#x27; screen" in await answer.text()

    async def test(http: aiohttp.ClientSession) -> None:
        port = serving.url.rsplit(":", 1)[1]
        for headers in (
            {"Origin": "http://evil.example"},
            {"Host": f"evil.example:{port}"},
            {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"},
            {"Origin": f"http://localhost:{int(port) + 1}"},  # another server on this computer
            {"Origin": "null"},
        ):
            for path in ("/", "/ws", "/static/js/textual.js"):
                await refused(http, path, headers)
            with pytest.raises(aiohttp.WSServerHandshakeError) as error:
                await http.ws_connect(f"{serving.url}/ws", headers=headers)
            assert error.value.status == 403
        assert serving.screens() == 0
        for host in (f"localhost:{port}", f"127.0.0.1:{port}"):
            headers = {"Host": host, "Origin": f"http://{host}"}
            async with http.get(serving.url + "/", headers=headers) as answer:
                assert answer.status == 200

    run(test)
    lines = serving.log_lines()
    assert sum("Origin 'http://evil.example' is a page of another site" in n for n in lines) == 4
    assert sum("Host 'evil.example:" in line for line in lines) == 8
    assert not any("Traceback" in line for line in lines)


def test_static_serves_files_and_lists_no_folder(serving: Serving) -> None:
    async def test(http: aiohttp.ClientSession) -> None:
        for folder in ("/static/", "/static/js", "/static/js/", "/static/css/"):
            async with http.get(serving.url + folder) as answer:
                assert answer.status in (403, 404), folder
                assert "textual.js" not in await answer.text()
        async with http.get(serving.url + "/static/js/textual.js") as answer:
            assert answer.status == 200

    run(test)
