"""``gmscreen serve CAMPAIGN [--host H] [--port P]``: the players' screen in the players' browsers.

Through textual-serve (the optional ``serve`` extra, see :data:`EXTRA`). Each browser that
opens the page gets its own ``gmscreen show`` process, so whatever a browser sends reaches only a
read-only screen: ``show`` takes no lock and writes nothing. It binds to 127.0.0.1 unless
``--host`` says otherwise (``--host 0.0.0.0`` for the players' phones on the same network), and
prints the address to give the players. The server and its limits (``--max-clients``, the
addresses it answers, its log) are :mod:`gmscreen.cli.players_server`.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.paths import resolve_campaign, search_dirs
from gmscreen.campaign.store import read_checkpoint
from gmscreen.cli.common import campaign_fault, number_flag, os_error_text, say
from gmscreen.cli.crash import crash_folder
from gmscreen.cli.serve_hosts import WILDCARDS, Served
from gmscreen.cli.show_cmd import THEMES
from gmscreen.i18n import LANGUAGES, catalog_for, resolve_language, system_language
from gmscreen.text import inert_line
from gmscreen.user_config import default_config_path, user_language

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8019
DEFAULT_MAX_CLIENTS = 12
# gmscreen is on no public package index: the extra comes with gmscreen from the folder or
# wheel it was installed from, as README's "Install" says
EXTRA = (
    "pipx install --force '/path/to/gmscreen[serve]' (or uv tool install "
    "'/path/to/gmscreen[serve]'), /path/to/gmscreen being the folder or wheel gmscreen was "
    "installed from (README: Install)"
)


DESCRIPTION = (
    "The players' screen in the players' browsers: each browser that opens the address gets "
    "its own read-only gmscreen show. It listens on 127.0.0.1 (this computer only) unless "
    "--host says otherwise, answers only at the addresses it serves (localhost, the address it "
    "listens on, the --url host), and shows at most --max-clients browsers at once. "
    "Refused browsers and problems go to serve-PORT.log in the user state folder."
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = DESCRIPTION
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
        "--port",
        type=number_flag("--port", low=1, high=65535),
        default=DEFAULT_PORT,
        help=f"port to listen on (default {DEFAULT_PORT})",
    )
    parser.add_argument(
        "--max-clients",
        type=number_flag("--max-clients", low=1, high=1000),
        default=DEFAULT_MAX_CLIENTS,
        metavar="N",
        help=f"browsers shown at once (default {DEFAULT_MAX_CLIENTS}: a table's worth; each is "
        "a process of ~40 MiB); the next one is told the screen is full",
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
    if sys.platform == "win32":  # cmd.exe runs it
        return subprocess.list2cmdline(argv)
    # textual-serve runs it through the shell: exec, so that each browser costs one process
    return "exec " + shlex.join(argv)


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
        if sys.platform != "win32":
            os.killpg(os.getpgrp(), signal.SIGTERM)
        else:  # pragma: no cover - Windows: no process groups to signal
            os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=wait, name="gmscreen-serve-parent", daemon=True).start()


def run(args: argparse.Namespace) -> int:
    try:
        from gmscreen.cli.players_server import PlayersServer
    except ImportError:
        say(f"gmscreen serve needs the serve extra: {EXTRA}", error=True, one_line=True)
        return 2
    try:
        folder = resolve_campaign(args.campaign, search_dirs(args.dir))
        campaign = read_checkpoint(folder)[0]
    except (CampaignError, OSError) as error:  # a damaged file: each problem; else one line
        return campaign_fault("gmscreen serve", error)
    lang = resolve_language(
        args.lang,
        campaign.settings.language,
        user_language(default_config_path()),
        system_language(),
    )
    served = Served(args.host, args.port, args.url or public_url(args.host, args.port))
    if args.until_stdin_closes:
        end_with_stdin()
    server = PlayersServer(
        show_command(folder, args.lang, args.theme),
        served=served,
        name=inert_line(campaign.name),  # the page's title, the players' browsers show it
        max_clients=args.max_clients,
        words=catalog_for(lang).t,
        lang=lang,
        log_path=crash_folder() / f"serve-{args.port}.log",
    )
    try:
        server.serve()
    except OSError as error:  # the port taken, an address not of this computer
        say(f"gmscreen serve: error: {os_error_text(error)}", error=True, one_line=True)
        return 2
    return 0
