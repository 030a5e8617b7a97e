"""``gmscreen import-characters CAMPAIGN FILE.csv``: a party from a spreadsheet, as one action.

The file's header line names the columns (``name,player,POW,APP,Chaos,Balance,Law`` and
optionally ``madness``; see :mod:`gmscreen.campaign.roster_csv`). Every row is checked before
anything is written: a bad row is ``file:line: message`` and nothing is added (exit 1). A good
file adds every character in one journaled action, so one ``u`` in the screen takes them all
back. The campaign is opened as the screen opens it: a campaign open in another gmscreen is
refused, with who has it.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from gmscreen.campaign.errors import CampaignError, CampaignFileError
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import resolve_campaign, search_dirs
from gmscreen.campaign.roster_csv import HEADER_LINE, read_roster
from gmscreen.cli.common import campaign_fault, say
from gmscreen.text import counted

COMMAND = "gmscreen import-characters"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        f"add the characters of a CSV file to a campaign, as one action; header: {HEADER_LINE} "
        "(madness optional)"
    )
    parser.add_argument("path", help="campaign folder, or a campaign name in the campaigns folder")
    parser.add_argument("file", help=f"the CSV file; its first line: {HEADER_LINE}")
    parser.add_argument(
        "--dir",
        help="the campaigns folder (default: $GMSCREEN_CAMPAIGNS, else ./campaigns when it "
        "exists, then the user data folder)",
    )
    parser.add_argument(
        "--take-over",
        action="store_true",
        help="take the campaign's lock even if its holder cannot be proved gone (your word "
        "that no gmscreen has it open)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        folder = resolve_campaign(args.path, search_dirs(args.dir))
        with open_campaign(folder, rng=random.Random(), take_over=args.take_over) as live:
            for notice in live.notices:
                say(f"note: {notice}", one_line=True)
            rows = read_roster(Path(args.file), [c.name for c in live.state.characters])
            live.add_characters([row.values for row in rows])
    except CampaignFileError as error:  # the sheet's rows, or the campaign's own files
        for problem in error.problems:
            say(problem, error=True, one_line=True)
        say(f"{COMMAND}: nothing was added", error=True)
        return 1
    except (CampaignError, OSError) as error:  # locked, not found, a file the system refused
        return campaign_fault(COMMAND, error)
    if live.close_problem:  # journaled: opening the campaign again recovers them
        say(f"{COMMAND}: {live.close_problem}", error=True, one_line=True)
        return 1
    said = "it" if len(rows) == 1 else "them all"
    say(
        f"added {counted(len(rows), 'character')} to {live.state.name}: one action "
        f"(in gmscreen, u takes {said} back)",
        one_line=True,
    )
    return 0
