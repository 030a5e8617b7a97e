"""A headless Chromium driven through its DevTools protocol, for the browser tests of serve.

textual-serve's page draws the app with xterm.js on a canvas (WebGL, else 2D): the page's DOM
holds no text of the app, so ``--dump-dom`` cannot see it. What the terminal in the page is
given is what it draws: a script installed before the page's own wraps the page's WebSocket
and keeps, decoded, every byte the server sends the terminal (``window.__terminal``). The
test reads that back (escape sequences taken out), and the page's screenshots besides.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
from tests.systems import end_group

# Installed before any script of the page runs: every binary message of every WebSocket the
# page opens is decoded (UTF-8, across message boundaries) and appended to window.__terminal.
RECORD_TERMINAL = """
(() => {
  window.__terminal = "";
  const Original = window.WebSocket;
  window.WebSocket = function (...args) {
    const socket = new Original(...args);
    const decoder = new TextDecoder("utf-8");
    socket.addEventListener("message", (event) => {
      if (event.data instanceof ArrayBuffer) {
        window.__terminal += decoder.decode(new Uint8Array(event.data), { stream: true });
      } else if (event.data instanceof Blob) {
        event.data.arrayBuffer().then((b) => {
          window.__terminal += decoder.decode(new Uint8Array(b), { stream: true });
        });
      }
    });
    return socket;
  };
  window.WebSocket.prototype = Original.prototype;
  Object.assign(window.WebSocket, Original);
})();
"""

# CSI, OSC and two-character escapes: what is left is the text the terminal draws.
ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]")


def chromium() -> str | None:
    """Debian's ``chromium`` (or another on PATH), or None."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


class Page:
    """One page of a headless Chromium, spoken to over the DevTools protocol."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self._ids = itertools.count(1)

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        number = next(self._ids)
        await self.socket.send_str(json.dumps({"id": number, "method": method, "params": params}))
        while True:  # events arrive in between: only the answer to this call is wanted
            message = json.loads((await self.socket.receive()).data)
            if message.get("id") == number:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                result: dict[str, Any] = message.get("result", {})
                return result

    async def terminal_text(self) -> str:
        """All the page's terminal was given so far, escape sequences left out."""
        result = await self.call("Runtime.evaluate", expression="window.__terminal || ''")
        return ESCAPES.sub("", str(result["result"].get("value", "")))

    async def wait_for_text(self, text: str, within: float) -> bool:
        deadline = time.monotonic() + within
        while text not in await self.terminal_text():
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.1)
        return True

    async def screenshot(self) -> bytes:
        return base64.b64decode((await self.call("Page.captureScreenshot", format="png"))["data"])

    async def press(self, key: str) -> None:
        """Type one printable key into the page (the terminal's hidden text area has focus)."""
        for kind in ("keyDown", "keyUp"):
            await self.call("Input.dispatchKeyEvent", type=kind, key=key, text=key)


@contextlib.asynccontextmanager
async def open_page(
    binary: str, url: str, size: tuple[int, int] = (1280, 800)
) -> AsyncIterator[Page]:
    """A fresh headless Chromium (its own profile folder, gone after) showing ``url``."""
    with tempfile.TemporaryDirectory(prefix="players-chromium-") as profile:
        process = subprocess.Popen(
            [
                binary,
                "--headless=new",
                "--no-sandbox",  # as root (CI) Chromium refuses to start with its sandbox
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                f"--user-data-dir={profile}",
                f"--window-size={size[0]},{size[1]}",
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            endpoint = await _devtools_port(Path(profile), process)
            async with aiohttp.ClientSession() as http:
                async with http.get(f"http://127.0.0.1:{endpoint}/json/list") as answer:
                    targets = await answer.json(content_type=None)
                target = next(t for t in targets if t.get("type") == "page")
                async with http.ws_connect(
                    target["webSocketDebuggerUrl"], max_msg_size=0
                ) as socket:
                    page = Page(socket)
                    await page.call("Page.enable")
                    await page.call("Page.addScriptToEvaluateOnNewDocument", source=RECORD_TERMINAL)
                    await page.call("Page.navigate", url=url)
                    yield page
        finally:
            end_group(process)
            process.wait(timeout=30)


async def _devtools_port(profile: Path, process: subprocess.Popen[bytes]) -> int:
    """The port Chromium chose: the first line of DevToolsActivePort in its profile."""
    deadline = time.monotonic() + 60
    marker = profile / "DevToolsActivePort"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"chromium stopped at start (status {process.returncode})")
        with contextlib.suppress(OSError, ValueError, IndexError):
            return int(marker.read_text().splitlines()[0])
        await asyncio.sleep(0.1)
    raise RuntimeError("chromium did not open its DevTools port within 60 s")
