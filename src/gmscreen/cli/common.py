"""What every subcommand shares: its parser, its flags' numbers, its output and its errors.

Apart from :mod:`gmscreen.cli` (which runs the subcommands) so that a subcommand's module never
imports the package that imports it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from gmscreen import __version__
from gmscreen.rules.numbers import MAX_DIGITS, NumberError, parse_whole
from gmscreen.text import inert, inert_line

# what ``gmscreen --help`` says of each (a test keeps it in step with
# gmscreen.cli.SUBCOMMANDS)
SUMMARIES: dict[str, str] = {
    "check": "one madness check, step by step (--pow --madness --law ... --d100 53)",
    "roll": "one nested roll on a table: MERP's (merp-1 ... merp-2f) or yours (--campaign C)",
    "tables": "list the tables: the bundled MERP ones, yours, a campaign's (--campaign C)",
    "tables import": "read tables from text, CSV or Foundry VTT exports into a campaign",
    "tables export": "print a table as a Foundry VTT RollTable (--format foundry)",
    "new": "create a campaign folder",
    "validate": "check a campaign's files; every problem as file:line: message",
    "sessions": "list a campaign's play sessions",
    "export": "print a recap of a session (--players leaves out every number)",
    "import-characters": "add the characters of a CSV file to a campaign, as one action",
    "replay": "step through a past session on screen (read-only)",
    "show": "the players' screen: follows the GM's table live, no numbers (read-only)",
    "serve": "the players' screen in browsers (the serve extra; 127.0.0.1 unless --host)",
}


def os_error_text(error: OSError) -> str:
    """``path: reason`` for a file or folder the system refused (no traceback for the GM)."""
    return f"{error.filename}: {error.strerror}" if error.filename else str(error.strerror or error)


def campaign_fault(command: str, error: Exception) -> int:
    """Say why ``command`` could not open or read a campaign, and its exit code: a damaged file
    is one ``file:line: message`` per problem (exit 1, as validate prints them); any other
    campaign problem or a refused file is one line (exit 2). ``error`` is a CampaignError or
    an OSError."""
    # Imported here: the campaign package costs 70-100 ms, and `gmscreen check` and `roll`,
    # which import this module, open no campaign (the commands that do have loaded it already).
    from gmscreen.campaign.errors import CampaignFileError

    if isinstance(error, CampaignFileError):
        for problem in error.problems:
            say(problem, error=True, one_line=True)
        return 1
    text = os_error_text(error) if isinstance(error, OSError) else str(error)
    say(f"{command}: error: {text}", error=True, one_line=True)
    return 2


def say(text: object, *, error: bool = False, one_line: bool = False) -> None:
    """Print the command's output (stderr if ``error``): names, notes, paths and values typed
    on the command line are a person's or a file's text, so it is printed inert (no escape
    sequence reaches the terminal; see :mod:`gmscreen.text`); ``one_line`` shows a line feed
    in it as ``␊`` too, so that an error message stays one line."""
    shown = inert_line(str(text)) if one_line else inert(str(text))
    print(shown, file=sys.stderr if error else sys.stdout)


def number_flag(
    flag: str,
    *,
    low: int | None = 0,
    high: int | None = None,
    signed: bool = False,
    max_digits: int | None = None,
) -> Callable[[str], int]:
    """The argparse ``type`` of a number flag: ASCII digits (``²``, ``٣`` and ``1_000`` are not),
    a sign only if ``signed``, at most ``max_digits`` (None: the parser's bound), from ``low``
    to ``high``."""

    def read(text: str) -> int:
        digits = MAX_DIGITS if max_digits is None else max_digits
        try:
            return parse_whole(text, flag, low=low, high=high, signed=signed, max_digits=digits)
        except NumberError as error:
            # argparse says "argument --pow: " before it: the flag is named once
            raise argparse.ArgumentTypeError(str(error).removeprefix(f"{flag}: ")) from None

    read.__name__ = "number"  # argparse's word for the type, should it need one
    return read


SEED = number_flag("--seed", low=None, signed=True, max_digits=20)  # any seed random takes


class VersionAction(argparse.Action):
    """``--version``: print ``gmscreen 0.1.0`` and exit 0. argparse's own ``version`` action
    swallows a failed write (``gmscreen --version | true``); ``print`` lets the broken pipe reach
    ``cli.main``, which ends quietly as every command does."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        kwargs.setdefault("help", "print gmscreen's version and exit")
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> NoReturn:
        print(f"gmscreen {__version__}")
        parser.exit()


class CliParser(argparse.ArgumentParser):
    """argparse that reports a bad flag or value in one line and exits 2."""

    def error(self, message: str) -> NoReturn:
        # The message quotes what was typed: inert, on one line
        line = inert(message).replace("\n", " ")
        self.exit(2, f"{self.prog}: error: {line} (see {self.prog} --help)\n")
