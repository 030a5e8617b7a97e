"""Serving the players' screen from the GM's screen: the palette starts and stops
``gmscreen serve`` for the open campaign and says the address to give the players.

The server is its own process (``python -m gmscreen serve``), in a process group of its own so
that stopping it ends the players' ``show`` processes it started too; it only reads the
campaign, so it runs beside the GM's table, which keeps the lock. It ends with the GM's screen
even if that one crashes or is killed: its standard input is a pipe from the GM's process,
which closes as that process ends. It listens on 127.0.0.1
(the GM's ``gmscreen serve --host`` from a terminal opens it to the network).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from textual.app import App, SystemCommand

from gmscreen.tui.i18n import Catalog


class PlayersServing:
    """The ``gmscreen serve`` process the GM started from the palette, if any."""

    def __init__(self, folder: Path, catalog: Catalog, port: int | None = None) -> None:
        self.folder = folder
        self.catalog = catalog
        self.port = port
        self.process: subprocess.Popen[str] | None = None
        self.url: str | None = None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def commands(self, app: App[None]) -> Iterator[SystemCommand]:
        """The palette's entry: start serving, or stop it (with the address, while it runs)."""
        t = self.catalog.t
        if self.running:
            url = self.url or "…"
            yield SystemCommand(
                t("serve.stop.name", url=url), t("serve.stop.help"), lambda: self.stop(app)
            )
        else:
            yield SystemCommand(
                t("serve.start.name"), t("serve.start.help"), lambda: self.start(app)
            )

    def start(self, app: App[None]) -> None:
        """Start the server; its address is said once it listens (read in a thread)."""
        if self.running:
            return
        argv = [sys.executable, "-m", "gmscreen", "serve", str(self.folder), "--lang"]
        argv += [self.catalog.lang, "--until-stdin-closes"]
        if self.port is not None:
            argv += ["--port", str(self.port)]
        self.url = None
        try:
            self.process = subprocess.Popen(
                argv,
                # Never written to: it closes as this process ends, however it ends, and the
                # server then ends too (serve_cmd.end_with_stdin).
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                start_new_session=True,  # its group: stopping it ends the players' screens too
            )
        except OSError as error:
            app.notify(self.catalog.t("serve.failed", problem=str(error)), severity="error")
            return
        app.run_worker(lambda: self._wait_for_address(app), thread=True, exclusive=True)

    def _wait_for_address(self, app: App[None]) -> None:
        process = self.process
        if process is None or process.stdout is None:
            return
        line = process.stdout.readline()  # serve prints its address once it listens
        url = next((w for w in line.split() if w.startswith("http://")), None)
        if url is None:  # it stopped: a port taken, the extra missing; it said why on stderr
            said = process.stderr.read() if process.stderr is not None else ""
            problem = (said.strip().splitlines() or [line.strip()])[-1]
            app.call_from_thread(
                app.notify, self.catalog.t("serve.failed", problem=problem), severity="error"
            )
            return
        self.url = url
        app.call_from_thread(app.notify, self.catalog.t("serve.started", url=url), timeout=30)

    def stop(self, app: App[None] | None = None) -> None:
        """End the server and the players' screens it started (its process group)."""
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            _signal_group(process, signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                _signal_group(process, getattr(signal, "SIGKILL", signal.SIGTERM))
                process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                stream.close()
        if app is not None:
            app.notify(self.catalog.t("serve.stopped"))


def _signal_group(process: subprocess.Popen[str], number: int) -> None:
    """Signal the server's process group (POSIX); elsewhere the server alone."""
    with contextlib.suppress(ProcessLookupError):
        if hasattr(os, "killpg"):
            os.killpg(process.pid, number)
        else:
            process.terminate()
