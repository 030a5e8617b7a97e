"""``gmscreen [CAMPAIGN] [--demo]``: open the GM's screen (the only subcommand that loads Textual)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("campaign", nargs="?", help="campaign folder or name to open")
    parser.add_argument(
        "--demo", action="store_true", help="open a fresh copy of the demo campaign"
    )


def run(argv: Sequence[str]) -> int:
    from gmscreen.cli import CliParser

    parser = CliParser(prog="gmscreen", description=__doc__)
    configure(parser)
    parser.parse_args(argv)
    from gmscreen.tui.app import make_app

    make_app().run()
    return 0
