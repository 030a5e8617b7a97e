"""Roll on a table (``gmscreen roll``) or list the tables (``gmscreen tables``): the bundled
MERP special-item tables, the GM's user-wide tables and, with ``--campaign``, the campaign's.

One module serves both subcommands: the dispatcher names the parser ``gmscreen roll`` or
``gmscreen tables`` and ``configure`` sets up the one asked for. Neither reads a table file to
set up its parser: ``--help`` and a bad flag cost no parsing.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from gmscreen.campaign.gm_tables import GmTables
from gmscreen.cli.common import SEED, number_flag, say
from gmscreen.cli.tables_load import add_campaign_flag, load, say_problems
from gmscreen.rules.dice import DiceError
from gmscreen.rules.tables import PendingChoice, roll_table
from gmscreen.rules.tables_library import GROUPS, Group
from gmscreen.rules.tables_model import Lang, Table
from gmscreen.rules.tables_render import render_tree
from gmscreen.text import counted, json_text


def configure(parser: argparse.ArgumentParser) -> None:
    if parser.prog.split()[-1] == "tables":
        _configure_tables(parser)
    else:
        _configure_roll(parser)


def run(args: argparse.Namespace) -> int:
    result: int = args.handler(args)
    return result


# --- gmscreen roll ---------------------------------------------------------------------------


def _configure_roll(parser: argparse.ArgumentParser) -> None:
    parser.description = "Roll on a table, with every nested roll."
    parser.add_argument(
        "table",
        metavar="TABLE",
        help="a table's id: merp-1 ... merp-2f, or yours (gmscreen tables)",
    )
    add_campaign_flag(parser)
    top = parser.add_mutually_exclusive_group()
    top.add_argument(
        "--d100",
        type=number_flag("--d100"),
        metavar="N",
        help="force the top roll (the die's face: on d10 tables, the d10 from 1 to 10; "
        "on a 2d6 table, the total)",
    )
    top.add_argument(
        "--pick", type=number_flag("--pick"), metavar="N", help="pick row N (1 = first row) instead"
    )
    parser.add_argument(
        "--choose",
        type=number_flag("--choose"),
        nargs="+",
        action="extend",
        default=[],
        metavar="K",
        help="settle the choices in order (1 = first alternative)",
    )
    parser.add_argument("--seed", type=SEED, default=None, help="seed for the dice not forced")
    parser.add_argument("--lang", choices=["en", "es"], default="en", help="text language")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=_run_roll)


def _error(command: str, message: str) -> int:
    say(f"gmscreen {command}: error: {message}", error=True, one_line=True)
    return 2


def find_table(command: str, loaded: GmTables, table_id: str, campaign: str | None) -> Table | int:
    """The table ``table_id`` of the loaded ones, or the exit status after saying why not: the
    problems that left it out (1), or that no table has that id (2)."""
    table = loaded.library.tables.tables.get(table_id)
    if table is not None:
        return table
    failed = loaded.library.failed(table_id)
    if failed:
        for problem in failed:
            say(problem, error=True, one_line=True)
        return 1
    hint = "gmscreen tables" + ("" if campaign is None else " --campaign C")
    if loaded.problems:
        hint += f"; {counted(len(loaded.problems), 'problem')} in the table files, listed there"
    return _error(command, f"no table {table_id!r} (see {hint})")


def _top_faces(table: Table) -> tuple[int, int]:
    """What --d100 may say: the die's face on one die (its modifier added after), else the total."""
    die = table.die
    return (
        (1, die.sides)
        if die.count == 1
        else (die.lowest - die.modifier, die.highest - die.modifier)
    )


def _run_roll(args: argparse.Namespace) -> int:
    loaded = load("roll", args)
    if isinstance(loaded, int):
        return loaded
    tables = loaded.library.tables
    table = find_table("roll", loaded, args.table, args.campaign)
    if isinstance(table, int):
        return table
    low, high = _top_faces(table)
    if args.d100 is not None and not low <= args.d100 <= high:
        return _error(
            "roll",
            f"--d100 {args.d100} is not on the {table.die} of {table.id}: use {low} to {high}",
        )
    if args.pick is not None and not 1 <= args.pick <= len(table.rows):
        return _error("roll", f"--pick {args.pick}: {table.id} has rows 1 to {len(table.rows)}")
    rng = random.Random(args.seed)
    try:
        resolution = roll_table(
            tables,
            table.id,
            rng,
            force=args.d100,
            pick=None if args.pick is None else args.pick - 1,
        )
        for number, k in enumerate(args.choose, 1):
            pending = resolution.pending
            if not isinstance(pending, PendingChoice):
                return _error(
                    "roll",
                    f"--choose: {counted(len(args.choose), 'value')} given, "
                    f"but the roll asked for {counted(number - 1, 'choice')}",
                )
            if not 1 <= k <= len(pending.options):
                return _error(
                    "roll",
                    f"--choose value {number} is {k}: pick 1 to {len(pending.options)} ({_labels(pending, args.lang)})",
                )
            resolution.choose(k - 1)
            resolution.auto(rng)
    except DiceError as exc:
        return _error("roll", str(exc))
    if args.json:
        out: dict[str, Any] = resolution.tree.to_dict()
        out["done"] = resolution.done
        say(json_text(out))
        return 0
    say(render_tree(resolution.tree, args.lang))
    if isinstance(resolution.pending, PendingChoice):
        hint = "pass --choose K to pick" if args.lang == "en" else "usa --choose K para elegir"
        say(f"({hint})")
    return 0


def _labels(pending: PendingChoice, lang: Lang) -> str:
    return ", ".join(f"{o.index + 1} {o.label(lang)}" for o in pending.options)


# --- gmscreen tables -------------------------------------------------------------------------

GROUP_TITLES: dict[Group, str] = {
    "bundled": "MERP special items (bundled)",
    "user": "Your tables, shared by every campaign",
    "campaign": "The campaign's tables",
}


def _configure_tables(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "List the tables (bundled, yours, the campaign's), or the rows of one. "
        "`gmscreen tables import FILE` and `gmscreen tables export ID` read and write others' formats."
    )
    parser.add_argument("table", nargs="?", metavar="TABLE", help="show this table's rows")
    add_campaign_flag(parser)
    parser.add_argument("--all", action="store_true", help="list inner rolls too")
    parser.add_argument("--lang", choices=["en", "es"], default="en", help="text language")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=_run_tables)


def _table_dict(loaded: GmTables, table: Table, rows: bool) -> dict[str, Any]:
    entry = loaded.library.entries[table.id]
    out: dict[str, Any] = {
        "id": table.id,
        "title": table.title_en,
        "title_es": table.title_es,
        "die": table.die.text,
        "kind": table.kind,
        "range": [table.low, table.high],
        "rows": len(table.rows),
        "group": entry.group,
        "players": table.players,
    }
    if entry.group != "bundled":
        out["file"], out["line"] = entry.source, entry.line
    if rows:
        out["rows"] = [
            {
                "number": r.index + 1,
                "range": [r.lo, r.hi],
                "text": r.short("en"),
                "text_es": r.short("es"),
                "markers": list(r.markers),
                "options": [o.key for o in r.options],
                "rolls": [ref.table for ref in r.rolls],
            }
            for r in table.rows
        ]
    return out


def _run_tables(args: argparse.Namespace) -> int:
    loaded = load("tables", args)
    if isinstance(loaded, int):
        return loaded
    lang: Lang = args.lang
    if args.table is not None:
        table = find_table("tables", loaded, args.table, args.campaign)
        if isinstance(table, int):
            return table
        if args.json:
            say(json_text(_table_dict(loaded, table, rows=True)))
            return 0
        say(f"{table.id}  {table.die}  {table.title(lang)}")
        for r in table.rows:
            markers = (" " + " ".join(r.markers)) if r.markers else ""
            say(f"{r.index + 1:>3}. {r.range_text:>6}{markers}  {r.short(lang)}")
        if table.notes(lang):
            say(table.notes(lang))
        return 0
    library = loaded.library
    chosen = [t for t in library.tables.tables.values() if args.all or t.kind == "main"]
    if args.json:
        say(json_text([_table_dict(loaded, t, rows=False) for t in chosen]))
    else:
        _list_grouped(loaded, chosen, lang)
    say_problems(loaded)
    return 1 if loaded.problems else 0


def _list_grouped(loaded: GmTables, chosen: list[Table], lang: Lang) -> None:
    """The tables under a heading per group; a folder read but empty says where tables go."""
    folders = dict(loaded.folders)
    for group in GROUPS:
        tables = [t for t in chosen if loaded.library.entries[t.id].group == group]
        if group != "bundled" and group not in folders:
            continue
        where = "" if group == "bundled" else f" ({folders[group]})"
        say(
            f"{GROUP_TITLES[group]}{where}:"
            if tables
            else f"{GROUP_TITLES[group]}{where}: none yet"
        )
        for t in tables:
            say(f"  {t.id:<24} {t.die.text:<6} {len(t.rows):>3} rows  {t.title(lang)}")
