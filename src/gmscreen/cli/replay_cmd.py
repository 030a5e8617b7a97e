"""``gmscreen replay CAMPAIGN [SESSION]``: step through a past session on the screen.

Opens the session picker (or SESSION straight away). Read-only: it takes no lock, so it works
while the campaign is open in another gmscreen; it writes nothing but the recaps asked for
(into the campaign's ``exports/``). Like the app itself it loads Textual, but only once the
campaign and session are known to exist.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.evenings import Evenings
from gmscreen.campaign.paths import resolve_campaign, search_dirs
from gmscreen.campaign.session_index import list_entries
from gmscreen.campaign.store import read_checkpoint, sessions_dir
from gmscreen.cli.app_command import launch
from gmscreen.cli.common import campaign_fault
from gmscreen.i18n import LANGUAGES, system_language

if TYPE_CHECKING:
    from gmscreen.tui.app_base import BaseApp


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "campaign", help="campaign folder, or a campaign name in the campaigns folder"
    )
    parser.add_argument("session", nargs="?", help="session id (default: choose from a list)")
    parser.add_argument(
        "--lang", choices=LANGUAGES, help="language (default: the campaign's, config's, system's)"
    )
    parser.add_argument(
        "--dir",
        help="the campaigns folder (default: $GMSCREEN_CAMPAIGNS, ./campaigns or the user data folder)",
    )


def run(args: argparse.Namespace) -> int:
    return launch(lambda: _open(args), command="gmscreen replay")


def _open(args: argparse.Namespace) -> BaseApp | int:
    """The replay app, or the exit status if the campaign or session cannot be opened."""
    try:
        folder = resolve_campaign(args.campaign, search_dirs(args.dir))
        # Read once here, and handed to the app: it and its picker do not read them again.
        checkpoint, _ = read_checkpoint(folder)
        listing = list_entries(sessions_dir(folder))
        session = None
        if args.session or not listing.entries:
            played = Evenings.of(listing, checkpoint.settings.evening_hours)
            entry = played.pick(args.session)
            played.log(entry)  # read now: a damaged journal is a message before the screen
            session = entry.id
        # Textual and the replay screen (100+ ms) load once the campaign and session read well
        from gmscreen.tui.config import default_config_path
        from gmscreen.tui.replay_app import make_replay_app

        app = make_replay_app(
            folder,
            session,
            config_path=default_config_path(),
            lang=args.lang,
            system_lang=system_language(),
            checkpoint=checkpoint,
            listing=listing,
        )
    except (CampaignError, OSError) as error:  # a damaged file: each problem; else one line
        return campaign_fault("gmscreen replay", error)
    return app
