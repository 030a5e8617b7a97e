"""Every table a GM can roll: the bundled MERP tables first, then the GM's own, as one set.

The campaign layer reads the GM's table files (the user-wide folder's, then the campaign's) and
hands their text here; this module parses each table (the short form,
:mod:`gmscreen.rules.tables_short`, or the bundled form, :mod:`gmscreen.rules.tables_model`),
then checks what tables say of each other across files: ids used once, every ``@id`` a table
that loads, no table that rolls itself through others, a nesting a roll can finish, rows that
cover their die. Each problem is a :class:`TableProblem` (``file:line: message``) and leaves
that table out (and any table that rolls it); the rest load. The result is one
:class:`~gmscreen.rules.tables_model.TableSet` the engine rolls on, whatever a table's origin.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from gmscreen.rules.tables_checks import (
    GROUPS,
    Draft,
    Group,
    TableEntry,
    TableProblem,
    check_together,
    problem_at,
)
from gmscreen.rules.tables_lines import TableSpots, locate_tables
from gmscreen.rules.tables_model import Table, TableDataError, TableSet, _Where, draft_table
from gmscreen.rules.tables_short import (
    ID,
    BadTable,
    check_id,
    is_short,
    read_short,
    short_table,
    unknown_key,
)

__all__ = ["GROUPS", "Group", "Library", "TableEntry", "TableFile", "TableProblem", "build_library"]

BUNDLED_KEYS = ("id", "title", "die", "kind", "notes", "columns", "rows", "players")
MAX_TABLES_PER_FILE = 200
MAX_GM_TABLES = 1000  # in all files together: each table's lookup is up to MAX_SPAN entries


class TableFile(msgspec.Struct, frozen=True, gc=False):
    """A GM's table file, read by the campaign layer: ``source`` is the path to show."""

    source: str
    text: str
    group: Group


class Library(msgspec.Struct, frozen=True, gc=False):
    """The tables that loaded (bundled first), where each comes from, and what did not load."""

    tables: TableSet
    entries: Mapping[str, TableEntry]
    problems: tuple[TableProblem, ...] = ()
    notes: tuple[str, ...] = ()

    def group(self, group: Group) -> list[Table]:
        return [t for t in self.tables.tables.values() if self.entries[t.id].group == group]

    def failed(self, table_id: str) -> list[TableProblem]:
        """The problems that left table ``table_id`` out (empty if it loaded or never was)."""
        return [p for p in self.problems if p.table == table_id]


def bundled_library(bundled: TableSet) -> Library:
    entries = {t: TableEntry("bundled", bundled.source, 0) for t in bundled.tables}
    return Library(bundled, entries)


def build_library(bundled: TableSet, files: Sequence[TableFile]) -> Library:
    """The bundled tables and every table of ``files`` that loads, with the problems of the rest.

    ``files`` come in order of precedence: a campaign's table replaces a user-wide one of the
    same id (said in ``notes``); two tables of one group with one id, or a GM table with a
    bundled table's id, are problems."""
    problems: list[TableProblem] = []
    notes: list[str] = []
    drafts: dict[str, Draft] = {}
    for file in files:
        for draft in _read_file(file, problems):
            table_id = draft.table.id
            if table_id in bundled.tables:
                problems.append(
                    problem_at(draft, draft.entry.line, f"id {table_id} is a bundled table's")
                )
                continue
            earlier = drafts.get(table_id)
            if earlier is not None and earlier.entry.group == draft.entry.group:
                problems.append(
                    problem_at(
                        draft,
                        draft.entry.line,
                        f"id {table_id} is used already ({earlier.entry.source}:{earlier.entry.line})",
                    )
                )
                continue
            if earlier is not None:
                notes.append(
                    f"{draft.entry.source}:{draft.entry.line}: table {table_id} replaces the "
                    f"user-wide one ({earlier.entry.source}:{earlier.entry.line})"
                )
            drafts[table_id] = draft
            if len(drafts) > MAX_GM_TABLES:
                problems.append(
                    problem_at(draft, draft.entry.line, f"more than {MAX_GM_TABLES} tables")
                )
                del drafts[table_id]
    tables = check_together(bundled, drafts, problems)
    entries: dict[str, TableEntry] = {
        t: TableEntry("bundled", bundled.source, 0) for t in bundled.tables
    }
    merged = dict(bundled.tables)
    for table in tables:
        merged[table.id] = table
        entries[table.id] = drafts[table.id].entry
    table_set = TableSet(
        f"{bundled.source} and the GM's tables", merged, bundled.typos, bundled.decisions
    )
    order = {file.source: n for n, file in enumerate(files)}
    problems.sort(key=lambda p: (order.get(p.source, len(order)), p.line))
    return Library(table_set, entries, tuple(problems), tuple(notes))


# --- one file --------------------------------------------------------------------------------


def parse_toml(text: str) -> tuple[dict[str, Any] | None, int, str]:
    """``(data, 0, "")``, or ``(None, line, message)`` for a text that is not TOML."""
    try:
        return tomllib.loads(text), 0, ""
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        line = 0
        marker = message.rfind("(at line ")
        if marker >= 0:
            digits = message[marker + 9 :].split(",")[0].rstrip(")")
            line = int(digits) if digits.isascii() and digits.isdigit() and len(digits) < 10 else 0
            message = message[:marker].strip()
        return None, line, f"not valid TOML: {message}"
    except (ValueError, RecursionError):  # a number of thousands of digits, arrays nested deep
        return None, 0, "not valid TOML: a number too long or arrays nested too deep"


def _read_file(file: TableFile, problems: list[TableProblem]) -> list[Draft]:
    data, line, message = parse_toml(file.text)
    if data is None:
        problems.append(TableProblem(file.source, line, message))
        return []
    raw_tables = data.get("tables")
    if not isinstance(raw_tables, list) or not raw_tables:
        problems.append(TableProblem(file.source, 1, "no [[tables]] in this file"))
        return []
    if len(raw_tables) > MAX_TABLES_PER_FILE:
        problems.append(
            TableProblem(file.source, 1, f"more than {MAX_TABLES_PER_FILE} tables in one file")
        )
        return []
    spots = locate_tables(file.text)
    if len(spots) != len(raw_tables):  # written inline: every table points at `tables =`
        spots = [TableSpots(spots[0].line if spots else 1) for _ in raw_tables]
    drafts: list[Draft] = []
    for raw, spot in zip(raw_tables, spots, strict=True):
        try:
            drafts.append(_draft(raw, spot, file))
        except BadTable as bad:
            table_id = raw.get("id") if isinstance(raw, dict) else None
            named = isinstance(table_id, str) and ID.fullmatch(table_id) is not None
            prefix = f"table {table_id}: " if named else ""
            problems.append(
                TableProblem(
                    file.source, bad.line, prefix + bad.message, str(table_id) if named else ""
                )
            )
    return drafts


def _draft(raw: object, spots: TableSpots, file: TableFile) -> Draft:
    if not isinstance(raw, dict):
        raise BadTable(spots.line, "a [[tables]] entry must be a table of keys")
    if is_short(raw):
        short = read_short(raw, spots)
        table, lines = short_table(short)
        return Draft(table, TableEntry(file.group, file.source, spots.line, short), lines)
    # the bundled form: checked as the bundled file is, table by table
    check_id(raw.get("id"), spots.key("id"))
    unknown_key(raw, BUNDLED_KEYS, spots)
    players = raw.pop("players", False)
    if not isinstance(players, bool):
        raise BadTable(spots.key("players"), "players must be true or false")
    loc = _Where(file.source)
    try:
        table = draft_table(raw, loc, any_die=True)
    except TableDataError as exc:
        raise BadTable(spots.line, str(exc).removeprefix(f"{file.source}: ")) from None
    table = msgspec.structs.replace(table, players=players)
    return Draft(table, TableEntry(file.group, file.source, spots.line), tuple(spots.rows))
