"""The ``gmscreen`` command.

``gmscreen [CAMPAIGN] [--demo]`` opens the screen; the headless subcommands below never import
Textual, so each lives in its own module and is imported only when asked for.
"""

from __future__ import annotations

import argparse
import importlib
import os
import shlex
import sys
import traceback
from collections.abc import Callable, Sequence

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


# Options a GM may give before a subcommand's name as well as after it (``gmscreen --dir C new
# NAME``): each is the subcommand's own option, handed to it after its name. True: takes a value.
LEADING_OPTIONS: dict[str, bool] = {
    "--dir": True,
    "--lang": True,
    "--take-over": False,
    "--demo": False,
    "-h": False,
    "--help": False,
}


def split_leading(args: Sequence[str]) -> tuple[list[str], list[str]]:
    """``args`` as the leading :data:`LEADING_OPTIONS` (with their values) and what follows."""
    n = 0
    while n < len(args):
        name, has_value, _ = args[n].partition("=")
        if name not in LEADING_OPTIONS:
            break
        n += 2 if LEADING_OPTIONS[name] and not has_value else 1
    n = min(n, len(args))
    return list(args[:n]), list(args[n:])


def _after(args: list[str], leading: list[str]) -> list[str]:
    """A subcommand's ``args`` with the options typed before its name put after them, as if
    typed there (before a ``--``, after which everything is a value): an option the subcommand
    does not take is then refused by name, its value with it."""
    end = args.index("--") if "--" in args else len(args)
    return args[:end] + leading + args[end:]


def invoked_as(
    argv0: str, orig_argv: Sequence[str], which: Callable[[str], str | None] | None = None
) -> str:
    """The command the GM typed to run gmscreen, for the commands we tell them to type next:
    ``gmscreen`` when that is what their PATH finds, else the path as typed
    (``.venv/bin/gmscreen`` after ``make run``), or ``python -m gmscreen`` with the interpreter
    as typed. ``argv0`` is ``sys.argv[0]``, ``orig_argv`` the interpreter's own
    (``sys.orig_argv``)."""
    if os.path.basename(argv0) == "__main__.py":  # python -m gmscreen
        for n, word in enumerate(orig_argv):
            if word.startswith("-m"):
                return shlex.join(orig_argv[: n + (2 if word == "-m" else 1)])
        return "python -m gmscreen"
    if not argv0:
        return "gmscreen"
    name = os.path.basename(argv0)
    if which is None:
        import shutil  # here: only the command that runs needs it

        which = shutil.which
    found = which(name)
    try:
        if found is not None and os.path.samefile(found, argv0):
            return name
    except OSError:
        pass
    return shlex.quote(argv0)


def _run_subcommand(name: str, argv: Sequence[str], invoked: str) -> int:
    module = importlib.import_module(SUBCOMMANDS[name])
    parser = CliParser(prog=f"gmscreen {name}", description=module.__doc__)
    module.configure(parser)
    # invoked: how the GM ran gmscreen, for the commands a subcommand tells them to type
    args = parser.parse_args(argv, namespace=argparse.Namespace(invoked=invoked))
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
    """The ``gmscreen`` command with ``argv`` (default: the process's arguments, and then the
    commands it prints to type next start as the GM's did: see :func:`invoked_as`)."""
    args = list(sys.argv[1:] if argv is None else argv)
    invoked = "gmscreen" if argv is not None else invoked_as(sys.argv[0], sys.orig_argv)
    leading, rest = split_leading(args)
    try:
        try:
            if len(rest) > 1 and f"{rest[0]} {rest[1]}" in SUBCOMMANDS:  # gmscreen tables import
                return _run_subcommand(f"{rest[0]} {rest[1]}", _after(rest[2:], leading), invoked)
            if rest and rest[0] in SUBCOMMANDS:
                return _run_subcommand(rest[0], _after(rest[1:], leading), invoked)
            from gmscreen.cli.app_command import run as run_app

            return run_app(args, invoked)
        finally:
            # Written out here, where a reader gone is caught, not by the interpreter at exit.
            # Also after --help or a bad flag: argparse exits (SystemExit) having written,
            # and hides a failed write of its own.
            sys.stdout.flush()
            sys.stderr.flush()
    except BrokenPipeError:
        return reader_gone()
