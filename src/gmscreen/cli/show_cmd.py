"""``gmscreen show CAMPAIGN``: the players' screen, following the GM's table as it plays.

Read-only: it takes no lock and writes nothing (no checkpoint, no journal, no session index), so
it runs beside the GM's gmscreen, on a second terminal or display. It shows only what the
players may see (:mod:`gmscreen.campaign.player_safe`). Like the screen itself it loads Textual,
but only once the campaign is known to exist.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from textual.theme import BUILTIN_THEMES

from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.paths import resolve_campaign, search_dirs
from gmscreen.cli.app_command import launch
from gmscreen.cli.common import campaign_fault
from gmscreen.i18n import LANGUAGES, system_language

# Textual's own themes, named as Textual names them (show loads Textual anyway)
THEMES = sorted(BUILTIN_THEMES)

if TYPE_CHECKING:
    from gmscreen.tui.app_base import BaseApp


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "campaign", help="campaign folder, or a campaign name in the campaigns folder"
    )
    parser.add_argument(
        "--lang", choices=LANGUAGES, help="language (default: the campaign's, config's, system's)"
    )
    parser.add_argument(
        "--theme",
        choices=THEMES,
        metavar="THEME",
        help="colours, e.g. solarized-light for a bright room (Textual's themes: "
        + ", ".join(THEMES)
        + ")",
    )
    parser.add_argument(
        "--dir",
        help="the campaigns folder (default: $GMSCREEN_CAMPAIGNS, ./campaigns or the user data folder)",
    )


def run(args: argparse.Namespace) -> int:
    return launch(lambda: open_show(args, "gmscreen show"), command="gmscreen show")


def open_show(args: argparse.Namespace, command: str) -> BaseApp | int:
    """The players' screen, or the exit status if the campaign cannot be opened."""
    try:
        folder = resolve_campaign(args.campaign, search_dirs(args.dir))
        from gmscreen.tui.config import default_config_path
        from gmscreen.tui.show_app import make_show_app

        return make_show_app(
            folder,
            config_path=default_config_path(),
            lang=args.lang,
            system_lang=system_language(),
            theme=args.theme,
        )
    except (CampaignError, OSError) as error:  # a damaged file: each problem; else one line
        return campaign_fault(command, error)
