"""What `roll`, `tables` and `tables import/export` share: ``--campaign`` and loading the tables."""

from __future__ import annotations

import argparse
from pathlib import Path

from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.gm_tables import GmTables, load_gm_tables, user_tables_folder
from gmscreen.campaign.paths import resolve_campaign, search_dirs
from gmscreen.cli.common import os_error_text, say
from gmscreen.user_config import default_config_path


def add_campaign_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--campaign",
        metavar="C",
        help="a campaign folder or name: its tables (C/tables/*.toml) too",
    )


def fail(command: str, message: str, code: int = 2) -> int:
    say(f"gmscreen {command}: error: {message}", error=True, one_line=True)
    return code


def campaign_folder(command: str, name: str | None) -> Path | int | None:
    """The ``--campaign`` folder (None if not given), or the exit status of a bad one."""
    if name is None:
        return None
    try:
        return resolve_campaign(name, search_dirs(None))
    except CampaignError as error:
        return fail(command, str(error))


def user_folder() -> Path | None:
    return user_tables_folder(default_config_path())


def load(command: str, args: argparse.Namespace) -> GmTables | int:
    """Every table the command may use: bundled, user-wide and ``--campaign``'s."""
    folder = campaign_folder(command, args.campaign)
    if isinstance(folder, int):
        return folder
    try:
        return load_gm_tables(folder, user_folder())
    except OSError as error:  # a folder that vanished between the check and the read
        return fail(command, os_error_text(error))


def say_problems(tables: GmTables) -> None:
    """Each problem of the GM's table files, ``file:line: message``, on standard error."""
    for problem in tables.problems:
        say(problem, error=True, one_line=True)
    for note in tables.notes:
        say(f"note: {note}", error=True, one_line=True)
