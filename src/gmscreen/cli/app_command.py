"""``gmscreen [CAMPAIGN] [--demo]``: open the GM's screen (the only subcommand that loads Textual)."""

from __future__ import annotations

import argparse
import io
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from gmscreen.campaign.errors import CampaignError, CampaignFileError
from gmscreen.campaign.paths import campaign_to_open, new_campaigns_dir, opening, search_dirs
from gmscreen.cli.common import SUMMARIES, CliParser, VersionAction, os_error_text, say
from gmscreen.cli.crash import last_line, report_crash
from gmscreen.cli.pick_campaign import pick
from gmscreen.i18n import LANGUAGES, system_language

if TYPE_CHECKING:
    from gmscreen.tui.app_base import BaseApp


OPTIONS_ANYWHERE = (
    "--dir, --lang and --take-over go before or after a command's name: gmscreen --dir C new "
    "NAME is gmscreen new NAME --dir C"
)
WHERE = (
    "campaigns are looked for in --dir, else $GMSCREEN_CAMPAIGNS, else ./campaigns (when it "
    "exists) and the user data folder; gmscreen new makes them in --dir, $GMSCREEN_CAMPAIGNS or "
    "the user data folder"
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("campaign", nargs="?", help="campaign folder or name to open")
    parser.add_argument(
        "--demo", action="store_true", help="open a fresh copy of the demo campaign"
    )
    parser.add_argument("--dir", help="campaigns folder to find CAMPAIGN in (see gmscreen new)")
    parser.add_argument(
        "--take-over",
        action="store_true",
        help="open CAMPAIGN although its lock names another gmscreen that may still be running "
        "(another computer, or a file system without working locks): only if you know it is not",
    )
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        help="language of the screen (default: the campaign's, your config's, the system's)",
    )
    parser.add_argument("--version", action=VersionAction)


def run(argv: Sequence[str], invoked: str = "gmscreen") -> int:
    """The screen's command; ``invoked``: how the GM ran gmscreen (see ``cli.invoked_as``)."""
    return launch(lambda: app_for(argv, invoked))


def launch(open_app: Callable[[], BaseApp | int], command: str = "gmscreen") -> int:
    """Open an app with ``open_app`` (or get the exit status of a command that ends there) and
    run it: the screen's command and ``gmscreen replay`` start up the same way. An unexpected
    error, while opening or inside the app, is one line and a crash log, never status 0
    (:mod:`gmscreen.cli.crash`)."""
    opened: BaseApp | int | None = None
    try:
        opened = open_app()
        if isinstance(opened, int):
            return opened
        return run_app(opened, command=command)
    except BrokenPipeError:
        raise  # the reader went away (`gmscreen --help | head`): cli.main ends quietly
    except Exception as error:  # a bug outside the app's loop: reported, not a traceback
        journal = (
            opened.journal_path() if opened is not None and not isinstance(opened, int) else None
        )
        summary = f"{type(error).__name__}: {error}"
        return report_crash(command, summary, traceback.format_exc(), journal)


def app_for(argv: Sequence[str], invoked: str = "gmscreen") -> BaseApp | int:
    """The app to run, or the exit status of a command that ends here."""
    commands = "\n".join(f"  {name:<13} {text}" for name, text in SUMMARIES.items())
    parser = CliParser(
        prog="gmscreen",
        description="The Game Master's screen: open a campaign, or the demo with --demo. "
        "With no CAMPAIGN, lists the campaigns found (name, last played, sessions) and opens "
        "the one whose number you type (Enter alone or q quits).",
        epilog=f"other commands (each has --help):\n{commands}\n\n{OPTIONS_ANYWHERE}\n\n{WHERE}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    configure(parser)
    args = parser.parse_args(argv)
    try:
        choice = campaign_to_open(args.campaign, args.demo, args.dir)
        if choice.path is None:  # none named: list the campaigns found and ask which
            picked = pick(search_dirs(args.dir), new_campaigns_dir(args.dir), invoked=invoked)
            if isinstance(picked, int):
                return picked
            # resolved once, as a campaign named on the command line is (a linked folder too)
            choice = opening(picked.folder.resolve())
    except CampaignError as error:  # a campaign.toml gone bad since it was listed, too
        say(f"gmscreen: error: {error}", error=True, one_line=True)
        return 2
    folder, title = choice.path, choice.title
    assert folder is not None  # the demo, a campaign named, or one picked
    # Textual (100+ ms) loads here: `gmscreen replay` and `show` import this module for launch,
    # and say what is wrong with their arguments before they load it.
    from gmscreen.tui.app import make_app
    from gmscreen.tui.config import default_config_path

    try:
        app = make_app(
            folder,
            config_path=default_config_path(),
            lang=args.lang,
            system_lang=system_language(),
            title=title,
            take_over=args.take_over,
            throwaway=choice.demo or choice.example,
        )
    except CampaignFileError as error:  # one line per problem, as validate prints them
        for problem in error.problems:
            say(problem, error=True, one_line=True)
        return 2
    except CampaignError as error:
        say(f"gmscreen: error: {error}", error=True, one_line=True)
        return 2
    except OSError as error:  # the lock or a checkpoint the system refused to write
        say(f"gmscreen: error: {os_error_text(error)}", error=True, one_line=True)
        return 2
    return app


def run_app(app: BaseApp, command: str = "gmscreen", **options: Any) -> int:
    """Run ``app`` as the command does; the exit status.

    Textual ends the app on an exception no handler caught: it restores the terminal, sets
    ``app.return_code`` to 1 and prints the traceback to ``app.error_console``. That console is
    pointed at a buffer here, so the GM gets one line and the traceback goes to the crash log.
    """
    from rich.console import Console  # here, as Textual is in app_for: rich comes with it

    captured = io.StringIO()
    app.error_console = Console(file=captured, width=120, color_system=None, markup=False)
    app.run(**options)
    problem = getattr(app, "quit_problem", None)
    if problem is not None:  # a clean quit that could not write campaign.toml: said, status 1
        print(f"{command}: {problem}", file=sys.stderr)
        return 1
    if not app.return_code:
        return 0
    details = captured.getvalue()
    summary = last_line(details) or f"the screen stopped with status {app.return_code}"
    return report_crash(command, summary, details, app.journal_path())
