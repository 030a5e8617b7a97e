"""`gmscreen tables import FILE...` and `gmscreen tables export ID --format foundry`.

Import reads a plain text list, CSV or a Foundry VTT RollTable export, writes each table in the
short form into the campaign's ``tables/`` (or, without ``--campaign``, the user-wide tables
folder), and reads it back through the same checks as every table before it says it is done:
a table that would not load is not written. Export prints a RollTable JSON that Foundry's
"Import Data" takes.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable, Collection
from pathlib import Path

from gmscreen.campaign.errors import CampaignError, CampaignFileError
from gmscreen.campaign.examples import is_example
from gmscreen.campaign.gm_tables import (
    GmTables,
    campaign_tables_folder,
    gm_tables_of,
    read_gm_files,
    write_table_file,
)
from gmscreen.campaign.safe_files import MIB, read_regular
from gmscreen.cli.common import os_error_text, say
from gmscreen.cli.roll import find_table
from gmscreen.cli.tables_load import add_campaign_flag, campaign_folder, fail, load, user_folder
from gmscreen.rules.tables_foundry import foundry_tables, from_foundry, to_foundry
from gmscreen.rules.tables_import import (
    ImportProblem,
    from_csv,
    from_text,
    id_from_name,
    title_from_id,
)
from gmscreen.rules.tables_library import Group, TableFile
from gmscreen.rules.tables_short import BadTable, ShortTable, check_id, short_toml
from gmscreen.text import json_text

MAX_IMPORT = 4 * MIB  # a Foundry export of a thousand results is a few hundred KiB


def configure(parser: argparse.ArgumentParser) -> None:
    command = parser.prog.split()[-1]
    add_campaign_flag(parser)
    if command == "import":
        parser.description = (
            "Read tables from plain text (1-3 text, 4 text, or bare lines), CSV (range,text or "
            "weight,text) or Foundry VTT RollTable exports (.json), and write each in the short "
            "form into the campaign's tables/ folder (without --campaign: your own tables folder)."
        )
        parser.add_argument("files", nargs="+", metavar="FILE", help="a .txt, .csv or .json file")
        parser.add_argument("--id", help="the table's id (default: from its name or file name)")
        parser.add_argument(
            "--replace", action="store_true", help="replace a table file of the same name"
        )
        parser.set_defaults(handler=_import)
    else:
        parser.description = "Print a table for another program: a Foundry VTT RollTable (JSON)."
        parser.add_argument("table", metavar="ID", help="the table's id (see gmscreen tables)")
        parser.add_argument("--format", choices=("foundry",), required=True)
        parser.add_argument(
            "--foundry-version",
            type=int,
            choices=(12, 13),
            default=12,
            help="the field names to write (default 12: text, which v13 also imports)",
        )
        parser.set_defaults(handler=_export)


def run(args: argparse.Namespace) -> int:
    result: int = args.handler(args)
    return result


# --- import ------------------------------------------------------------------------------------


def _read(path: Path) -> str:
    """The file named on the command line (a link the GM typed is followed once, here), bounded."""
    data = read_regular(path.resolve(), MAX_IMPORT)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise ImportProblem(f"{path}:{line}: not UTF-8 text: save the file as UTF-8") from None


def _import(args: argparse.Namespace) -> int:
    if args.id is not None and len(args.files) > 1:
        return fail("tables import", "--id names one table: import one file with it")
    if args.id is not None:
        try:
            check_id(args.id, 0)
        except BadTable as bad:
            return fail("tables import", f"--id: {bad.message}")
    folder = campaign_folder("tables import", args.campaign)
    if isinstance(folder, int):
        return folder
    if folder is not None and is_example(folder):
        return fail(
            "tables import",
            f"{folder} is one of the repository's examples, which gmscreen never changes: "
            "copy it out of the repository to add tables to it",
        )
    target = campaign_tables_folder(folder) if folder is not None else user_folder()
    if target is None:
        return fail("tables import", "no folder to write to: give --campaign")
    loaded = load("tables import", args)
    if isinstance(loaded, int):
        return loaded
    try:
        made = _convert(args, loaded)
    except ImportProblem as problem:
        return fail("tables import", str(problem), 1)
    except (CampaignFileError, CampaignError) as error:
        return fail("tables import", str(error), 1)
    except OSError as error:
        return fail("tables import", os_error_text(error), 1)
    try:
        return _write(args, folder, target, made)
    except CampaignError as error:
        return fail("tables import", str(error), 1)
    except OSError as error:
        return fail("tables import", os_error_text(error), 1)


def _convert(args: argparse.Namespace, loaded: GmTables) -> list[tuple[str, ShortTable, list[str]]]:
    """Each file's tables in the short form, with the notes of what did not carry over."""
    made: list[tuple[str, ShortTable, list[str]]] = []
    foundry: list[tuple[str, object]] = []
    plain: list[tuple[str, str, Callable[[str, str, str, Collection[str]], ShortTable]]] = []
    for name in args.files:
        path = Path(name)
        text = _read(path)
        kind = path.suffix.lower()
        if kind == ".json" or (
            kind not in (".csv", ".txt") and text.lstrip().startswith(("{", "["))
        ):
            try:
                data = json.loads(text)
            except (ValueError, RecursionError) as exc:
                raise ImportProblem(f"{name}: not JSON: {exc}") from None
            foundry.append((name, data))
            continue
        plain.append((name, text, from_csv if kind == ".csv" else from_text))
    # Foundry tables last: a draw on another table becomes @id when that one is imported too
    batch = [(name, table) for name, data in foundry for table in foundry_tables(data)]
    foundry_ids = [args.id or id_from_name(t.name or Path(n).stem) for n, t in batch]
    ids = {t.foundry_id: i for (_, t), i in zip(batch, foundry_ids, strict=True) if t.foundry_id}
    plain_ids = [args.id or id_from_name(Path(name).stem) for name, _, _ in plain]
    known = set(loaded.library.tables.tables) | set(foundry_ids) | set(plain_ids)
    for (name, text, read), table_id in zip(plain, plain_ids, strict=True):
        try:
            made.append((name, read(text, table_id, title_from_id(table_id), known), []))
        except ImportProblem as problem:
            raise ImportProblem(f"{name}: {problem}") from None
    for (name, table), table_id in zip(batch, foundry_ids, strict=True):
        try:
            short, notes = from_foundry(table, table_id, ids, known)
        except ImportProblem as problem:
            raise ImportProblem(f"{name}: {problem}") from None
        made.append((name, short, notes))
    return made


def _write(
    args: argparse.Namespace,
    campaign: Path | None,
    target: Path,
    made: list[tuple[str, ShortTable, list[str]]],
) -> int:
    """Check the new tables among every other (as they will be read), then write them all; or
    nothing, if one would not load or a file is in the way."""
    comment = "imported from {} by gmscreen tables import"
    texts = {short.id: short_toml(short, comment.format(Path(n).name)) for n, short, _ in made}
    if len(texts) != len(made):
        return fail(
            "tables import", "two tables would have one id: import them one by one with --id", 1
        )
    paths = {table_id: target / f"{table_id}.toml" for table_id in texts}
    if not args.replace:
        for path in paths.values():
            if os.path.lexists(path):
                return fail(
                    "tables import",
                    f"{path} exists already: nothing was written (--replace replaces it, or "
                    "choose another id with --id)",
                    1,
                )
    files, problems, folders = read_gm_files(campaign, user_folder())
    group: Group = "user" if campaign is None else "campaign"
    new = {str(path): TableFile(str(path), texts[i], group) for i, path in paths.items()}
    loaded = gm_tables_of(
        [f for f in files if f.source not in new] + list(new.values()), problems, folders
    )
    broken = [p for p in loaded.library.problems if p.source in new]
    if broken:
        for problem in broken:
            say(problem, error=True, one_line=True)
        return fail("tables import", "nothing was written: the tables above would not load", 1)
    for name, short, notes in made:
        path = write_table_file(target, paths[short.id].name, texts[short.id], replace=args.replace)
        table = loaded.library.tables.tables[short.id]
        say(f"wrote {path}: {short.id}  {table.die}  {len(table.rows)} rows  {short.title_en}")
        for note in notes:
            say(f"note: {Path(name).name}: {note}", one_line=True)
    return 0


# --- export ------------------------------------------------------------------------------------


def _export(args: argparse.Namespace) -> int:
    loaded = load("tables export", args)
    if isinstance(loaded, int):
        return loaded
    entry = loaded.library.entries.get(args.table)
    if entry is None:
        found = find_table("tables export", loaded, args.table, args.campaign)
        return found if isinstance(found, int) else 2
    if entry.short is None:
        return fail(
            "tables export",
            f"{args.table} is written in the bundled form (alternatives, sub-rolls with "
            "modifiers), which a Foundry RollTable cannot hold: only short-form tables export",
        )
    say(json_text(to_foundry(entry.short, args.foundry_version), indent=2))
    return 0
