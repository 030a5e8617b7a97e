"""The bundled tables file read by section: the rows that journaled items' names need.

An item is named from today's rows (:mod:`gmscreen.rules.tables_names`), so the GM's screen
names the items in its log and detail pane on its first frame. Parsing and checking the whole
file (76 KB of TOML, :func:`gmscreen.rules.tables.load_tables`) took ~30 ms of every launch
for the one or two rows each item landed on. :class:`TableSections` reads the file's text once
and finds where each ``[[tables]]`` and each of its ``[[tables.rows]]`` begins; a row asked
for is parsed with its table's head in front of it (the same TOML, through the same check of a
row as the whole file), once. Rolling still loads the whole file: only it knows every range.

The file keeps every header at the start of a line and has no multi-line strings, so a header
line is always a header; a test reads every row both ways and compares them. A section that
will not parse or names another table, or a table whose id is not written as ``id = "..."``,
falls back to the whole file, which fails as it always did.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Callable

from gmscreen.data import data_path
from gmscreen.rules.tables_model import Row, TableSet, parse_row

_HEADER = re.compile(r"^\[\[\s*([A-Za-z0-9_.]+)\s*\]\]", re.MULTILINE)
_TABLE_ID = re.compile(r'^id\s*=\s*"([^"\\]*)"', re.MULTILINE)

MERP_FILE = "merp_special_items.toml"


class TableSections:
    """The rows of one table file, each parsed when first asked for (see the module)."""

    def __init__(self, text: str, source: str, whole: Callable[[], TableSet]) -> None:
        self.source = source
        self._whole = whole  # the whole file, parsed and checked: for a section that will not do
        self._heads: dict[str, str] = {}  # table id -> its [[tables]] section
        self._rows: dict[str, list[str]] = {}  # table id -> its rows' sections, in order
        self._parsed: dict[tuple[str, int], Row | None] = {}
        self._indexed = True  # False: a table's id is not where it is looked for (whole file)
        table: list[str] | None = None  # the rows of the table being read
        starts = list(_HEADER.finditer(text))
        for match, after in zip(starts, [*starts[1:], None], strict=True):
            section = text[match.start() : after.start() if after is not None else len(text)]
            name = match.group(1)
            if name == "tables":
                found = _TABLE_ID.search(section)
                table_id = found.group(1) if found is not None else ""
                self._indexed = self._indexed and bool(table_id) and table_id not in self._heads
                self._heads[table_id] = section
                table = self._rows[table_id] = []
            elif name == "tables.rows" and table is not None:
                table.append(section)
            elif name == "tables.rows.options" and table:
                table[-1] += section  # an alternative belongs to the row above it
            elif not name.startswith("tables."):
                table = None  # [[typos]], [[decisions]]: no table's rows

    def row(self, table_id: str, index: int) -> Row | None:
        """Row ``index`` of ``table_id`` as the whole file has it; None if it has no such row."""
        key = (table_id, index)
        if key not in self._parsed:
            self._parsed[key] = self._read(table_id, index)
        return self._parsed[key]

    def _read(self, table_id: str, index: int) -> Row | None:
        if not self._indexed:
            return self._whole().row(table_id, index)
        rows = self._rows.get(table_id)
        if rows is None or not 0 <= index < len(rows):
            return None
        try:
            (table,) = tomllib.loads(self._heads[table_id] + rows[index])["tables"]
            (raw,) = table["rows"]
            if table["id"] == table_id:
                return parse_row(index, raw, table_id, self.source)
        except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError):
            pass  # not a section as the file is laid out: the whole file says what it holds
        return self._whole().row(table_id, index)


@functools.cache
def item_rows() -> TableSections:
    """The bundled MERP tables by section, to name journaled items (one per process)."""

    def whole() -> TableSet:
        from gmscreen.rules.tables import load_tables  # the whole file, and the rolling engine

        return load_tables(MERP_FILE)

    path = data_path(MERP_FILE)
    return TableSections(path.read_text(encoding="utf-8"), MERP_FILE, whole)
