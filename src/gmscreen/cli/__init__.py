"""The ``gmscreen`` command.

``gmscreen [CAMPAIGN] [--demo]`` opens the screen; the headless subcommands below never import
Textual, so each lives in its own module and is imported only when asked for.
"""

from __future__ import annotations

import importlib
import os
import sys
import traceback
from collections.abc import Sequence

from gmscreen.cli.common import CliParser
from gmscreen.cli.crash import report_crash

# subcommand -> module defining ``configure(parser)`` and ``run(args) -> int``
SUBCOMMANDS: dict[str, str] = {
    "check": "gmscreen.cli.check",
    "roll": "gmscreen.cli.roll",
    "tables": "gmscreen.cli.roll",
    "tables import": "gmscreen.cli.tables_io",
    "tables export": "gmscreen.cli.tables_io",
    "new": "gmscreen.cli.campaign_cmds",
    "validate": "gmscreen.cli.campaign_cmds",
    "sessions": "gmscreen.cli.campaign_cmds",
    "export": "gmscreen.cli.campaign_cmds",
    "import-characters": "gmscreen.cli.import_cmd",
    "replay": "gmscreen.cli.replay_cmd",  # loads Textual, like the screen itself
    "show": "gmscreen.cli.show_cmd",  # Textual too
    "serve": "gmscreen.cli.serve_cmd",  # textual-serve, the optional extra
}


def _run_subcommand(name: str, argv: Sequence[str]) -> int:
    module = importlib.import_module(SUBCOMMANDS[name])
    parser = CliParser(prog=f"gmscreen {name}", description=module.__doc__)
    module.configure(parser)
    args = parser.parse_args(argv)
    try:
        result: int = module.run(args)
    except BrokenPipeError:
        raise  # the reader went away (`gmscreen tables | head`): main() ends quietly
    except Exception as error:  # a bug: one line and a crash log, never a traceback (#13.5)
        summary = f"{type(error).__name__}: {error}"
        return report_crash(f"gmscreen {name}", summary, traceback.format_exc(), None)
    return result


# 128 + SIGPIPE (13): the status a shell reports for a Unix tool whose reader went away
# (`seq 100000 | head`, under `set -o pipefail`), the signal having ended it
READER_GONE = 141


def reader_gone() -> int:
    """End quietly, as Unix tools do, when whoever read our output stopped early
    (``gmscreen sessions | head``): no message, no traceback, status :data:`READER_GONE`.

    Python ignores SIGPIPE, so a write to a pipe with no reader raises BrokenPipeError
    instead of ending the process (and the commands' cleanup still runs). What is left in
    the buffer of stdout or stderr would fail again as the interpreter exits, which then
    prints "Exception ignored" and exits 120: a stream that cannot be flushed now is pointed
    at the null device first."""
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except OSError:
                os.dup2(null, stream.fileno())
    finally:
        os.close(null)
    return READER_GONE


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        try:
            if len(args) > 1 and f"{args[0]} {args[1]}" in SUBCOMMANDS:  # gmscreen tables import
                return _run_subcommand(f"{args[0]} {args[1]}", args[2:])
            if args and args[0] in SUBCOMMANDS:
                return _run_subcommand(args[0], args[1:])
            from gmscreen.cli.app_command import run as run_app

            return run_app(args)
        finally:
            # Written out here, where a reader gone is caught, not by the interpreter at exit.
            # Also after --help or a bad flag: argparse exits (SystemExit) having written,
            # and hides a failed write of its own.
            sys.stdout.flush()
            sys.stderr.flush()
    except BrokenPipeError:
        return reader_gone()
