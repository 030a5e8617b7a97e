"""Roll on the MERP special item tables (``gmscreen roll``) or list them (``gmscreen tables``).

One module serves both subcommands: the dispatcher names the parser ``gmscreen roll`` or
``gmscreen tables`` and ``configure`` sets up the one asked for.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from gmscreen.cli import SEED, number_flag, say
from gmscreen.rules.dice import DiceError
from gmscreen.rules.tables import PendingChoice, load_tables, roll_table
from gmscreen.rules.tables_model import Lang, Table, TableSet
from gmscreen.rules.tables_render import render_tree
from gmscreen.text import counted, json_text


def configure(parser: argparse.ArgumentParser) -> None:
    tables = load_tables()
    if parser.prog.split()[-1] == "tables":
        _configure_tables(parser, tables)
    else:
        _configure_roll(parser, tables)


def run(args: argparse.Namespace) -> int:
    result: int = args.handler(args)
    return result


# --- gmscreen roll ---------------------------------------------------------------------------


def _configure_roll(parser: argparse.ArgumentParser, tables: TableSet) -> None:
    parser.description = "Roll on a special item table, with every nested roll."
    parser.add_argument(
        "table", choices=[t.id for t in tables.main()], metavar="TABLE", help=_ids(tables)
    )
    top = parser.add_mutually_exclusive_group()
    top.add_argument(
        "--d100",
        type=number_flag("--d100"),
        metavar="N",
        help="force the top roll (the die's face: on d10 tables, the d10 from 1 to 10)",
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


def _ids(tables: TableSet) -> str:
    main = tables.main()
    return f"one of {main[0].id} ... {main[-1].id} (see gmscreen tables)"


def _error(command: str, message: str) -> int:
    say(f"gmscreen {command}: error: {message}", error=True, one_line=True)
    return 2


def _run_roll(args: argparse.Namespace) -> int:
    tables = load_tables()
    table = tables[args.table]
    if args.d100 is not None and not 1 <= args.d100 <= table.die.sides:
        return _error(
            "roll",
            f"--d100 {args.d100} is not on the {table.die} of {table.id}: use 1 to {table.die.sides}",
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


def _configure_tables(parser: argparse.ArgumentParser, tables: TableSet) -> None:
    parser.description = "List the special item tables, or the rows of one."
    parser.add_argument(
        "table",
        nargs="?",
        choices=list(tables.tables),
        metavar="TABLE",
        help="show this table's rows (inner tables too)",
    )
    parser.add_argument("--all", action="store_true", help="list inner rolls too")
    parser.add_argument("--lang", choices=["en", "es"], default="en", help="text language")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=_run_tables)


def _table_dict(table: Table, rows: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": table.id,
        "title": table.title_en,
        "title_es": table.title_es,
        "die": table.die.text,
        "kind": table.kind,
        "range": [table.low, table.high],
        "rows": len(table.rows),
    }
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
    tables = load_tables()
    lang: Lang = args.lang
    if args.table is not None:
        table = tables[args.table]
        if args.json:
            say(json_text(_table_dict(table, rows=True)))
            return 0
        say(f"{table.id}  {table.die}  {table.title(lang)}")
        for r in table.rows:
            markers = (" " + " ".join(r.markers)) if r.markers else ""
            say(f"{r.index + 1:>3}. {r.range_text:>6}{markers}  {r.short(lang)}")
        if table.notes(lang):
            say(table.notes(lang))
        return 0
    chosen = list(tables.tables.values()) if args.all else tables.main()
    if args.json:
        say(json_text([_table_dict(t, rows=False) for t in chosen]))
        return 0
    for t in chosen:
        say(f"{t.id:<24} {t.die.text:<6} {len(t.rows):>3} rows  {t.title(lang)}")
    return 0
