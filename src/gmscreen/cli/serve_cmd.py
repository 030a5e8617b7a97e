"""``gmscreen serve CAMPAIGN [--host H] [--port P]``: the players' screen in the players' browsers.

Through textual-serve (the optional ``serve`` extra, see :data:`EXTRA`). Each browser that
opens the page gets its own ``gmscreen show`` process, so whatever a browser sends reaches only a
read-only screen: ``show`` takes no lock and writes nothing. It binds to 127.0.0.1 unless
``--host`` says otherwise (``--host 0.0.0.0`` for the players' phones on the same network), and
prints the address to give the players.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import signal
import socket
import sys
import threading
from pathlib import Path

from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.paths import resolve_campaign, search_dirs
from gmscreen.campaign.store import read_checkpoint
from gmscreen.cli import campaign_fault, number_flag, os_error_text, say
from gmscreen.cli.show_cmd import THEMES
from gmscreen.i18n import LANGUAGES

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8019
# gmscreen is on no public package index: the extra comes with gmscreen from the folder or
# wheel it was installed from, as README's "Install" says
EXTRA = (
    "pipx install --force '/path/to/gmscreen[serve]' (or uv tool install "
    "'/path/to/gmscreen[serve]'), /path/to/gmscreen being the folder or wheel gmscreen was "
    "installed from (README: Install)"
)
WILDCARDS = ("0.0.0.0", "::", "")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "campaign", help="campaign folder, or a campaign name in the campaigns folder"
    )
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"address to listen on (default {DEFAULT_HOST}: this computer only; "
        "0.0.0.0 for every network it is on)",
    )
    parser.add_argument(
        "--port", type=number_flag("--port", low=1, high=65535), default=DEFAULT_PORT
    )
    parser.add_argument(
        "--url", help="the address players type, if not http://HOST:PORT (a proxy, a name)"
    )
    parser.add_argument(
        "--lang", choices=LANGUAGES, help="language (default: the campaign's, config's, system's)"
    )
    parser.add_argument(
        "--theme", choices=THEMES, metavar="THEME", help="the players' screen's colours (see show)"
    )
    parser.add_argument(
        "--dir",
        help="the campaigns folder (default: $GMSCREEN_CAMPAIGNS, ./campaigns or the user data folder)",
    )
    # Started from the GM's palette: serve until its standard input closes (see end_with_stdin).
    parser.add_argument("--until-stdin-closes", action="store_true", help=argparse.SUPPRESS)


def show_command(folder: Path, lang: str | None, theme: str | None = None) -> str:
    """The shell command each browser's screen runs: ``show`` on the same campaign, by this very
    Python (the served process needs no ``gmscreen`` on PATH)."""
    argv = [sys.executable, "-m", "gmscreen", "show", str(folder)]
    if lang:
        argv += ["--lang", lang]
    if theme:
        argv += ["--theme", theme]
    return shlex.join(argv)


def public_url(host: str, port: int) -> str:
    """``http://HOST:PORT``; for a wildcard host, this computer's address on its network (a
    wildcard address is nothing a browser can open)."""
    if host in WILDCARDS:
        host = _network_address()
    if ":" in host:  # IPv6
        host = f"[{host}]"
    return f"http://{host}:{port}"


def _network_address() -> str:
    # A UDP socket "connected" to a private address sends nothing; it only picks the interface
    # (and so the address) this computer would use to reach the network.
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
    except OSError:
        return socket.gethostname()


def end_with_stdin() -> None:
    """End this server, and the players' screens it started, once standard input closes.

    The GM's screen starts the server with a pipe as its standard input and never writes to
    it: the pipe closes when the GM's process ends, however it ends (quit, a crash, killed),
    and the server must not outlive the table it serves. A thread waits for that end of file.
    The server was started in a process group of its own (POSIX): the whole group ends, the
    ``show`` processes with it; elsewhere the server alone."""

    def wait() -> None:
        with contextlib.suppress(OSError, ValueError):
            while sys.stdin.buffer.read(4096):
                pass
        if hasattr(os, "killpg"):
            os.killpg(os.getpgrp(), signal.SIGTERM)
        else:  # pragma: no cover - Windows: no process groups to signal
            os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=wait, name="gmscreen-serve-parent", daemon=True).start()


def run(args: argparse.Namespace) -> int:
    try:
        from textual_serve.server import Server
    except ImportError:
        say(f"gmscreen serve needs the serve extra: {EXTRA}", error=True, one_line=True)
        return 2
    try:
        folder = resolve_campaign(args.campaign, search_dirs(args.dir))
        name = read_checkpoint(folder)[0].name
    except (CampaignError, OSError) as error:  # a damaged file: each problem; else one line
        return campaign_fault("gmscreen serve", error)
    url = args.url or public_url(args.host, args.port)

    class PlayersServer(Server):
        """textual-serve's server, saying our one line instead of its banner."""

        async def on_startup(self, app: object) -> None:
            say(f"The players' screen of {name}: {url}  (Ctrl+C stops serving)")
            sys.stdout.flush()

        def initialize_logging(self) -> None:
            """No log of each request on the GM's terminal."""

    if args.until_stdin_closes:
        end_with_stdin()
    server = PlayersServer(
        show_command(folder, args.lang, args.theme),
        host=args.host,
        port=args.port,
        title=name,
        public_url=url,
    )
    try:
        server.serve()
    except OSError as error:  # the port taken, an address not of this computer
        say(f"gmscreen serve: error: {os_error_text(error)}", error=True, one_line=True)
        return 2
    return 0
