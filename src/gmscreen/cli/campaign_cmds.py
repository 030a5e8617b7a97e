"""Campaign files without the screen: ``new``, ``validate``, ``sessions`` and ``export``."""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gmscreen.campaign.errors import CampaignError, CampaignFileError, Problem
from gmscreen.campaign.evenings import Evening, EveningLog, Evenings, evenings, joined
from gmscreen.campaign.gm_tables import load_gm_tables, user_tables_folder
from gmscreen.campaign.journal import list_sessions, read_session
from gmscreen.campaign.journal_stream import Progress, check_campaign, check_journals
from gmscreen.campaign.model import MODULES, Campaign, Settings
from gmscreen.campaign.paths import (
    create_campaign,
    new_campaigns_dir,
    resolve_campaign,
    search_dirs,
)
from gmscreen.campaign.player_safe import player_safe
from gmscreen.campaign.recap_markdown import recap_markdown, standing
from gmscreen.campaign.session_index import list_entries, write_index_if_free
from gmscreen.campaign.store import read_checkpoint, sessions_dir
from gmscreen.campaign.telling import recap_lines
from gmscreen.campaign.wording import game_time
from gmscreen.cli.common import os_error_text, say
from gmscreen.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    catalog_for,
    plural,
    resolve_language,
    system_language,
)
from gmscreen.text import counted, inert, json_text
from gmscreen.user_config import default_config_path, user_language

HELP = {
    "new": "create an empty campaign folder named after NAME",
    "validate": "check a campaign's files; list every problem as file:line: message",
    "sessions": "list a campaign's play sessions",
    "export": "print a recap of a session (markdown or JSON)",
}


def configure(parser: argparse.ArgumentParser) -> None:
    command = parser.prog.split()[-1]
    parser.description = HELP[command]
    parser.add_argument(
        "--dir",
        help="the campaigns folder to create it in (default: $GMSCREEN_CAMPAIGNS, else the user "
        "data folder; never ./campaigns unless named here)"
        if command == "new"
        else "the campaigns folder (default: $GMSCREEN_CAMPAIGNS, else ./campaigns when it "
        "exists, then the user data folder)",
    )
    if command == "new":
        parser.add_argument("name", help="the campaign's name")
        parser.add_argument(
            "--modules",
            default="madness",
            help=f"comma list of rule modules: {', '.join(MODULES)} (default: madness)",
        )
        parser.add_argument(
            "--lang",
            choices=LANGUAGES,
            help="the campaign's language (default: none, so each GM's config or locale decides)",
        )
    else:
        parser.add_argument(
            "path", help="campaign folder, or a campaign name in the campaigns folder"
        )
    if command == "export":
        parser.add_argument(
            "--session",
            help="session id (default: the last one); all: every session, oldest first, "
            "read one at a time",
        )
        parser.add_argument("--format", choices=("md", "json"), default="md")
        parser.add_argument(
            "--players", action="store_true", help="leave out every number players must not see"
        )
        parser.add_argument(
            "--lang",
            choices=LANGUAGES,
            help="language of the recap (default: the campaign's, your config's, the system's)",
        )
    parser.set_defaults(command=command)


def _fail(command: str, message: str, code: int = 2) -> int:
    say(f"gmscreen {command}: error: {message}", error=True, one_line=True)
    return code


def run(args: argparse.Namespace) -> int:
    command: str = args.command
    try:
        if command == "new":
            return _new(args)
        folder = resolve_campaign(args.path, search_dirs(args.dir))
        if command == "validate":
            return _validate(folder)
        checkpoint, _ = read_checkpoint(folder)
        if command == "sessions":
            listing = list_entries(sessions_dir(folder))
            code = _sessions(
                checkpoint, evenings(listing.entries, checkpoint.settings.evening_hours)
            )
            write_index_if_free(listing)  # after the list: the next listing reads no journal
            return code
        return _export(args, checkpoint, folder)
    except CampaignFileError as error:
        for problem in error.problems:
            say(problem, error=True, one_line=True)
        return 1
    except CampaignError as error:
        return _fail(command, str(error))
    except BrokenPipeError:
        raise  # not a campaign file: the reader went away (`| head`), cli.main ends quietly
    except OSError as error:  # a folder that cannot be made or read: say which, no traceback
        return _fail(command, os_error_text(error))


def _new(args: argparse.Namespace) -> int:
    modules = tuple(m.strip() for m in args.modules.split(",") if m.strip())
    unknown = [m for m in modules if m not in MODULES]
    if unknown or not modules:
        return _fail(
            "new", f"unknown module {unknown[0] if unknown else ''!r}: use {', '.join(MODULES)}"
        )
    if any("\ud800" <= ch <= "\udfff" for ch in args.name):  # bytes the shell's locale
        return _fail("new", "the name holds bytes that are not UTF-8 text: type it again")
    settings = Settings(modules=modules, language=args.lang or "")
    notices: list[str] = []
    folder = create_campaign(new_campaigns_dir(args.dir), args.name, settings, notices)
    for notice in notices:
        say(f"note: {notice}")
    say(f"created {folder}")
    # The folder's name is a slug (letters, digits and dashes only): safe unquoted in a shell.
    # Started as the GM started this command (.venv/bin/gmscreen after `make run`)
    say(f"open it with: {args.invoked} {folder.name}" + _dir_flag(args.dir))
    return 0


def _dir_flag(directory: str | None) -> str:
    return f" --dir {shlex.quote(directory)}" if directory else ""


def _validate(folder: Path, on_line: Callable[[Progress], None] | None = None) -> int:
    """Every file of the campaign checked, the journals a line at a time (bounded memory);
    interrupted (Ctrl+C), it says how far it got. ``on_line``: called after each line read."""
    problems: list[Problem] = []
    checkpoint = None
    paths: list[Path] = []
    try:
        checkpoint, _ = read_checkpoint(folder)
    except CampaignFileError as error:
        problems.extend(error.problems)
    try:
        paths = list_sessions(sessions_dir(folder))
    except CampaignFileError as error:
        problems.extend(error.problems)
    progress = Progress()
    checked = None
    try:
        if checkpoint is None or problems:
            check_journals(paths, progress, on_line)
        else:
            checked = check_campaign(checkpoint, paths, progress, on_line)
    except CampaignFileError as error:
        problems.extend(error.problems)
    except KeyboardInterrupt:
        say(f"gmscreen validate: interrupted: {progress.said()}", error=True, one_line=True)
        return 130
    for notice in checked.notices if checked is not None else ():
        say(f"note: {notice}")
    tables = _gm_tables(folder, problems)
    for problem in problems:
        say(problem, one_line=True)
    if problems or checked is None or checkpoint is None:
        return 1
    t = catalog_for(DEFAULT_LANGUAGE).t  # the commands speak English, counted as the catalog says
    counts = [
        plural(t, "characters", len(checkpoint.characters)),
        plural(t, "sessions", checked.sessions),
        plural(t, "events", checked.events),
    ]
    if checkpoint.horrors:  # the campaign's own (the bestiary), as campaign.toml lists them
        counts.append(plural(t, "horrors", len(checkpoint.horrors)))
    if tables:  # the GM's own, user-wide and the campaign's
        counts.append(plural(t, "tables", tables))
    say(f"{folder}: valid ({', '.join(counts)})")
    return 0


def _gm_tables(folder: Path, problems: list[Problem]) -> int:
    """The campaign's tables and the user-wide ones checked as `roll` reads them: each that
    loads listed by group, each problem added to ``problems``; how many loaded."""
    loaded = load_gm_tables(folder, user_tables_folder(default_config_path()))
    problems.extend(loaded.problems)
    for note in loaded.notes:
        say(f"note: {note}", one_line=True)
    count = 0
    for group, where in loaded.folders:
        ids = [t.id for t in loaded.library.group(group)]
        count += len(ids)
        if ids:
            say(f"{where}: {counted(len(ids), 'table')} load: {', '.join(ids)}", one_line=True)
    return count


def _sessions(checkpoint: Campaign, sessions: list[Evening]) -> int:
    """The sessions as played (journals of one evening together: gmscreen.campaign.evenings),
    from the index (journals read only where it is out of date)."""
    if not sessions:
        say(f"{checkpoint.name}: no sessions yet")
        return 0
    say(f"{'session':<16} {'started':<20} {'events':>6} {'undone':>6}  game time")
    for session in sessions:
        started = session.started_at[:16].replace("T", " ")
        opened = len(session.journals)
        say(
            f"{session.id:<16} {started:<20} {session.events:>6} {session.undone:>6}  "
            f"{game_time(session.game_start)} → {game_time(session.game_end)}"
            + (f"  (opened {opened} times)" if opened > 1 else "")
        )
    return 0


def _export(args: argparse.Namespace, checkpoint: Campaign, folder: Path) -> int:
    """One session's recap (its journals read alone: the index finds them), or every
    session's, streamed: each session's journals read, its recap written, and dropped before
    the next."""
    players: bool = args.players
    lang = resolve_language(
        args.lang,
        checkpoint.settings.language,
        user_language(default_config_path()),
        system_language(),
    )
    listing = list_entries(sessions_dir(folder))
    played = Evenings.of(listing, checkpoint.settings.evening_hours)
    if args.session != "all":
        log = played.log(played.pick(args.session))
        sys.stdout.write(_recap(args.format, checkpoint, log, players, lang))
        sys.stdout.flush()
        write_index_if_free(listing)
        return 0
    if not played.sessions:
        raise CampaignError("this campaign has no sessions yet")
    json_format = args.format == "json"
    sys.stdout.write("[\n" if json_format else "")
    for n, session in enumerate(played.sessions):
        if n:
            sys.stdout.write(",\n" if json_format else "\n")
        journals = [read_session(journal.path) for journal in session.journals]
        sys.stdout.write(_recap(args.format, checkpoint, joined(journals), players, lang))
        sys.stdout.flush()
    sys.stdout.write("]\n" if json_format else "")
    return 0


def _recap(form: str, checkpoint: Campaign, played: EveningLog, players: bool, lang: str) -> str:
    """One session's recap as ``export`` prints it (Markdown, or a JSON object), inert."""
    log, final = played.log, played.final()
    if form == "json":
        out: dict[str, Any]
        if players:
            view = player_safe(final, lang, log.events, start=log.header.state, story=True)
            out = {"campaign": checkpoint.name, "session": log.header.id, "players": True}
            out |= view.to_dict()
        else:
            lines = recap_lines(log.header.state, log.events, lang)
            out = {
                "campaign": checkpoint.name,
                "session": log.header.id,
                "players": False,
                "lines": [line.to_dict(lang) for line in lines],
                "standing": [{"name": n, "state": s} for n, s in standing(final, lang)],
                "started_at": log.header.started_at,
            }
        return inert(json_text(out, indent=2)) + "\n"  # as say() prints
    return recap_markdown(checkpoint.name, log, players, lang, final)  # inert already
