"""The web server of ``gmscreen serve``: textual-serve's, with the limits a table needs.

textual-serve (1.1.3) gives each browser that opens its websocket a process of its own running
the served command (here the read-only ``gmscreen show``, ~39 MiB each). As it comes it has no
limit, answers any ``Host`` and ``Origin``, lists its ``/static/`` folder, and ends a
connection with a logged traceback for any message it cannot read. :class:`PlayersServer`
keeps its page, its scripts and :class:`~textual_serve.app_service.AppService` (its public API)
and builds the web application itself:

- at most ``max_clients`` players' screens at once; the next browser gets a page saying so,
  which tries again by itself (``/`` and ``/ws`` answer 503 while it is full);
- only requests whose ``Host`` and ``Origin`` it serves (:mod:`gmscreen.cli.serve_hosts`);
  others get a page of refusal (403);
- ``/static/`` serves its files, never a folder's listing;
- a message from a browser it cannot read is left aside with one line in the log, and the
  screen goes on; a screen size asked for is kept between 10 and 500 cells;
- the log: ``serve-<port>.log`` in the user's state folder (where crash logs go), one line an
  event (a browser come or gone, a refusal, a problem), never a traceback; at 256 KiB it is
  rotated, one earlier file kept. Nothing goes to a pipe: started from the GM's palette, serve's
  standard output is a pipe the GM's screen reads (:mod:`gmscreen.tui.serving`).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import signal
import sys
from logging.handlers import RotatingFileHandler
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from gmscreen.cli.common import say
from gmscreen.cli.serve_hosts import Served, shown
from gmscreen.i18n import Translate
from gmscreen.text import inert_line

log = logging.getLogger("gmscreen.serve")

LOG_LIMIT = 256 * 1024  # bytes of log before it is rotated (one earlier file kept)
# A key, a paste or a resize is a few bytes to a few KiB; textual-serve took up to 4 MiB.
MAX_MESSAGE = 64 * 1024
CELLS = (10, 500)  # the columns and rows a browser may ask for
RETRY_SECONDS = 10  # the full page asks again after this

PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">{refresh}
<title>{title}</title>
<style>body {{ background: #0c181f; color: #e8eef2; font: 18px/1.5 sans-serif;
max-width: 36em; margin: 15vh auto; padding: 0 1em; }}</style></head>
<body><h1>{title}</h1><p>{text}</p></body></html>
"""


class PlayersServer(Server):
    """textual-serve's server for the players' screen (see the module's docstring)."""

    def __init__(
        self,
        command: str,
        *,
        served: Served,
        name: str,
        max_clients: int,
        words: Translate,
        lang: str,
        log_path: Path | None,
    ) -> None:
        super().__init__(
            command, host=served.listen, port=served.port, title=name, public_url=served.url
        )
        self.served = served
        self.name = name
        self.max_clients = max_clients
        self.words = words
        self.lang = lang
        self.log_path = log_path
        self.watching = 0  # players' screens open now: each a `show` process

    # --- running -------------------------------------------------------------------------------

    def serve(self, debug: bool = False) -> None:
        """Serve until SIGINT (Ctrl+C), SIGTERM or SIGHUP (the terminal closed)."""
        self.debug = debug
        self.initialize_logging()
        loop = asyncio.new_event_loop()
        for number in _ending_signals():
            with contextlib.suppress(NotImplementedError):  # Windows: Ctrl+C still ends it
                loop.add_signal_handler(number, self.request_exit)
        web.run_app(
            self.web_app(),
            host=self.host,
            port=self.port,
            handle_signals=False,
            loop=loop,
            print=self.say_listening,  # called once every socket is bound
            access_log=None,
        )

    def web_app(self) -> web.Application:
        """The routes textual-serve's page needs (their names are the ones it asks for), behind
        the check of who is asking."""
        app = web.Application(middlewares=[self.guard])
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                # its files only: a folder is refused (403), never listed
                web.static("/static", self.statics_path, name="static"),
            ]
        )
        return app

    def say_listening(self, *_: object) -> None:
        say(f"The players' screen of {self.name}: {self.public_url}  (Ctrl+C stops serving)")
        if self.log_path is not None:
            say(f"Browsers refused and problems are logged in {self.log_path}")
        sys.stdout.flush()
        log.info(
            "serving %s at %s, at most %d browsers", self.name, self.public_url, self.max_clients
        )

    def initialize_logging(self) -> None:
        """One line an event, to the log file (stderr if the state folder cannot be written)."""
        handler: logging.Handler
        try:
            if self.log_path is None:
                raise OSError("no log file")
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            handler = RotatingFileHandler(
                self.log_path, maxBytes=LOG_LIMIT, backupCount=1, encoding="utf-8"
            )
        except OSError:
            self.log_path = None
            handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(OneLine())
        logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)

    # --- who may ask ---------------------------------------------------------------------------

    @web.middleware
    async def guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
        refusal = self.served.refusal(request.headers.get("Host"), request.headers.get("Origin"))
        if refusal is not None:
            log.warning("refused %s from %s: %s", shown(request.path), request.remote, refusal)
            return self.page("refused", 403)
        response: web.StreamResponse = await handler(request)
        return response

    @property
    def full(self) -> bool:
        return self.watching >= self.max_clients

    def page(self, kind: str, status: int) -> web.Response:
        """A page of ours instead of the players' screen: ``full`` or ``refused``."""
        t = self.words
        title = html.escape(t(f"serve.page.{kind}_title"))
        text = html.escape(t(f"serve.page.{kind}", watching=self.watching, name=self.name))
        refresh = (
            f'\n<meta http-equiv="refresh" content="{RETRY_SECONDS}">' if kind == "full" else ""
        )
        body = PAGE.format(lang=self.lang, refresh=refresh, title=title, text=text)
        response = web.Response(status=status, text=body, content_type="text/html")
        if kind == "full":
            response.headers["Retry-After"] = str(RETRY_SECONDS)
        return response

    # --- the players' screens ------------------------------------------------------------------

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        if self.full:
            log.info(
                "a page refused to %s: %d browsers watch already", request.remote, self.watching
            )
            return self.page("full", 503)
        page: web.StreamResponse = await super().handle_index(request)
        return page

    # textual-serve's returns the websocket only; a full server answers with a page instead
    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
        """A players' screen for this browser, unless ``max_clients`` are open already."""
        if self.full:
            log.info(
                "a screen refused to %s: %d browsers watch already", request.remote, self.watching
            )
            return self.page("full", 503)
        self.watching += 1  # before anything is awaited: no two browsers take the last place
        log.info(
            "%s opened a players' screen (%d of %d)",
            request.remote,
            self.watching,
            self.max_clients,
        )
        try:
            return await self.watch(request)
        finally:
            self.watching -= 1
            log.info("%s closed a players' screen (%d left)", request.remote, self.watching)

    async def watch(self, request: web.Request) -> web.WebSocketResponse:
        """Run the served command for this browser until either side ends."""
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
        await websocket.prepare(request)

        async def close() -> None:  # the served screen ended: so does the page's connection
            await websocket.close()

        service = AppService(
            self.command,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=close,
            download_manager=self.download_manager,
            debug=self.debug,
        )
        try:
            await service.start(
                cells(request.query.get("width"), 80), cells(request.query.get("height"), 24)
            )
            async for message in websocket:
                if message.type == WSMsgType.TEXT:
                    await self.obey(websocket, service, message.data, request.remote)
        except asyncio.CancelledError:  # the server stops
            await websocket.close()
        except Exception as error:  # a broken pipe, a process that would not start: one line
            log.warning(
                "the screen of %s ended: %s: %s", request.remote, type(error).__name__, error
            )
        finally:
            await service.stop()
        return websocket

    async def obey(
        self, websocket: web.WebSocketResponse, service: AppService, data: str, peer: str | None
    ) -> None:
        """Do what one message of textual-serve's page asks; anything else is logged and left."""
        try:
            envelope = json.loads(data)
        except (ValueError, RecursionError):
            envelope = None
        match envelope:
            case ["stdin", str(keys)]:
                await service.send_bytes(keys.encode("utf-8", "replace"))
            case ["resize", {"width": int(width), "height": int(height)}]:
                await service.set_terminal_size(cells(width, 80), cells(height, 24))
            case ["ping", str(stamp)] if len(stamp) <= 32:
                await websocket.send_json(["pong", stamp])
            case ["focus"]:
                await service.focus()
            case ["blur"]:
                await service.blur()
            case _:
                log.warning("a message from %s left aside: %s", peer, shown(data))


def cells(value: object, default: int) -> int:
    """A screen's columns or rows as a browser asks (a query's text or a message's number),
    kept within :data:`CELLS`."""
    if isinstance(value, str):
        value = int(value) if value.isascii() and value.isdigit() and len(value) <= 4 else default
    if not isinstance(value, int) or isinstance(value, bool):
        value = default
    low, high = CELLS
    return min(max(value, low), high)


class OneLine(logging.Formatter):
    """Each record one line: time, level, message and, for an error, the exception's type and
    text; never a traceback (anyone on the network could otherwise fill the log with them).
    Inert: what a browser sent may hold control characters."""

    def format(self, record: logging.LogRecord) -> str:
        text = f"{self.formatTime(record, '%Y-%m-%d %H:%M:%S')} {record.levelname.lower()}: "
        text += record.getMessage()
        if record.exc_info is not None and record.exc_info[1] is not None:
            error = record.exc_info[1]
            text += f" ({type(error).__name__}: {error})"
        return inert_line(text)


def _ending_signals() -> list[signal.Signals]:
    if sys.platform == "win32":  # no SIGHUP there
        return [signal.SIGINT, signal.SIGTERM]
    return [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
