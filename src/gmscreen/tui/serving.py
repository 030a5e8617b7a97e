"""Serving the players' screen from the GM's screen: the palette starts and stops
``gmscreen serve`` for the open campaign and says the address to give the players.

The server is its own process (``python -m gmscreen serve``), in a process group of its own so
that stopping it ends the players' ``show`` processes it started too; it only reads the
campaign, so it runs beside the GM's table, which keeps the lock. It ends with the GM's screen
even if that one crashes or is killed: its standard input is a pipe from the GM's process,
which closes as that process ends. It listens on 127.0.0.1
(the GM's ``gmscreen serve --host`` from a terminal opens it to the network).

Its output (standard output and error, one pipe) is read for as long as it runs: its first
line is the address; what follows is dropped, the last few lines kept to say why it stopped
if it stops at start. A pipe nobody reads fills (64 KiB) and the server then blocks on its next
write: the players' page stopped loading after ~50 tracebacks. Its log is a file of its own
(:mod:`gmscreen.cli.players_server`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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

    def argv(self) -> list[str]:
        """The server's command: ``gmscreen serve`` for the campaign, by this very Python."""
        argv = [sys.executable, "-m", "gmscreen", "serve", str(self.folder), "--lang"]
        argv += [self.catalog.lang, "--until-stdin-closes"]
        if self.port is not None:
            argv += ["--port", str(self.port)]
        return argv

    def start(self, app: App[None]) -> None:
        """Start the server; its address is said once it listens (read in a thread)."""
        if self.running:
            return
        self.url = None
        try:
            process = subprocess.Popen(
                self.argv(),
                # Never written to: it closes as this process ends, however it ends, and the
                # server then ends too (serve_cmd.end_with_stdin).
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                errors="replace",
                start_new_session=True,  # its group: stopping it ends the players' screens too
            )
        except OSError as error:
            app.notify(self.catalog.t("serve.failed", problem=str(error)), severity="error")
            return
        self.process = process
        # A thread of its own, not a worker: it reads for as long as the server runs, and a
        # thread worker is waited for as the app's loop closes (the server ends only after).
        reader = threading.Thread(
            target=self._read_output, args=(app, process), name="gmscreen-serve-output", daemon=True
        )
        reader.start()

    def _read_output(self, app: App[None], process: subprocess.Popen[str]) -> None:
        """Say the address once the server prints it (or why it stopped), then read what it
        writes until it ends, so that it never blocks on a full pipe."""
        assert process.stdout is not None
        line = process.stdout.readline()  # serve prints its address once it listens
        url = next((w for w in line.split() if w.startswith("http://")), None)
        if url is not None:
            self.url = url
            self._tell(app, self.catalog.t("serve.started", url=url), timeout=30)
        said = deque([line], maxlen=5)
        with process.stdout, contextlib.suppress(OSError, ValueError):
            for line in process.stdout:  # until the server ends (stop() leaves this pipe to us)
                said.append(line)
        if url is None:  # it stopped: a port taken, the extra missing; its last line says why
            problem = next((s.strip() for s in reversed(said) if s.strip()), "")
            self._tell(app, self.catalog.t("serve.failed", problem=problem), severity="error")

    @staticmethod
    def _tell(app: App[None], message: str, **options: Any) -> None:
        with contextlib.suppress(RuntimeError):  # the app ended meanwhile: nobody to tell
            app.call_from_thread(app.notify, message, **options)

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
        if process.stdin is not None:
            process.stdin.close()
        if app is not None:
            app.notify(self.catalog.t("serve.stopped"))


def _signal_group(process: subprocess.Popen[str], number: int) -> None:
    """Signal the server's process group (POSIX); elsewhere the server alone."""
    with contextlib.suppress(ProcessLookupError):
        if sys.platform != "win32":
            os.killpg(process.pid, number)
        else:
            process.terminate()
