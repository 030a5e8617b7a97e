"""The ``gmscreen`` command.

``gmscreen [CAMPAIGN] [--demo]`` opens the screen; the headless subcommands below never import
Textual, so each lives in its own module and is imported only when asked for.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

# subcommand -> module defining ``configure(parser)`` and ``run(args) -> int``
SUBCOMMANDS: dict[str, str] = {
    "check": "gmscreen.cli.check",
    "roll": "gmscreen.cli.roll",
    "tables": "gmscreen.cli.roll",
    "new": "gmscreen.cli.campaign_cmds",
    "validate": "gmscreen.cli.campaign_cmds",
    "sessions": "gmscreen.cli.campaign_cmds",
    "export": "gmscreen.cli.campaign_cmds",
    "replay": "gmscreen.cli.replay_cmd",  # loads Textual, like the screen itself
}

# what ``gmscreen --help`` says of each (a test keeps the two tables in step)
SUMMARIES: dict[str, str] = {
    "check": "one madness check, step by step (--pow --madness --law ... --d100 53)",
    "roll": "one nested roll on a MERP special-items table (merp-1 ... merp-2f)",
    "tables": "list the MERP special-items tables",
    "new": "create a campaign folder",
    "validate": "check a campaign's files; every problem as file:line: message",
    "sessions": "list a campaign's play sessions",
    "export": "print a recap of a session (--players leaves out every number)",
    "replay": "step through a past session on screen (read-only)",
}


def os_error_text(error: OSError) -> str:
    """``path: reason`` for a file or folder the system refused (no traceback for the GM)."""
    return f"{error.filename}: {error.strerror}" if error.filename else str(error.strerror or error)


class CliParser(argparse.ArgumentParser):
    """argparse that reports a bad flag or value in one line and exits 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _run_subcommand(name: str, argv: Sequence[str]) -> int:
    module = importlib.import_module(SUBCOMMANDS[name])
    parser = CliParser(prog=f"gmscreen {name}", description=module.__doc__)
    module.configure(parser)
    args = parser.parse_args(argv)
    try:
        result: int = module.run(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # `gmscreen tables | head` closed the pipe: not an error worth a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return result


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in SUBCOMMANDS:
        return _run_subcommand(args[0], args[1:])
    from gmscreen.cli.app_command import run as run_app

    return run_app(args)
