"""Characters from a CSV file (``gmscreen import-characters``): every row checked, every
problem ``file:line``, and nothing taken unless every row is good.

The first line names the columns, in any order, any case, with spaces where one likes::

    name,player,POW,APP,Chaos,Balance,Law,madness

``madness`` may be left out (0); the Spanish sheet's words (``nombre``, ``jugador``, ``POD``,
``APA``, ``Caos``, ``Balanza``, ``Ley``, ``PL``) are read too. Commas, semicolons or tabs
separate the values (a spreadsheet in a language that writes ``3,5`` saves with ``;``); UTF-8,
with or without the byte-order mark spreadsheets write. Numbers are ASCII digits: POW from 1 to
1,000, the others from 0 to 10,000 (what a character may hold).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import msgspec

from gmscreen.campaign.bounds import MAX_NAME
from gmscreen.campaign.errors import CampaignFileError, Problem
from gmscreen.campaign.safe_files import read_regular
from gmscreen.rules.madness import MAX_STAT
from gmscreen.rules.numbers import NumberError, parse_whole

HEADER_LINE = "name,player,POW,APP,Chaos,Balance,Law,madness"
REQUIRED = ("name", "player", "pow", "app", "chaos", "balance", "law")
OPTIONAL = ("madness",)
# Each column by the words a header may use for it (lowercase, spaces and dashes removed).
_COLUMNS = {
    **{field: field for field in (*REQUIRED, *OPTIONAL)},
    "nombre": "name",
    "jugador": "player",
    "jugadora": "player",
    "pod": "pow",
    "apa": "app",
    "caos": "chaos",
    "balanza": "balance",
    "ley": "law",
    "pl": "madness",
    "locura": "madness",
}
_LABELS = {"pow": "POW", "app": "APP", "chaos": "Chaos", "balance": "Balance", "law": "Law"}
_LABELS["madness"] = "madness"
_HIGH = {"pow": MAX_STAT, **{field: MAX_STAT * 10 for field in ("app", "chaos", "balance", "law")}}
_HIGH["madness"] = MAX_STAT * 10
ROSTER_LIMIT = 4 * 1024 * 1024  # a party's sheet is a few KB; 4 MiB is tens of thousands of rows
MAX_ROWS = 10_000


class RosterRow(msgspec.Struct, frozen=True):
    """One character of the file: the line it starts on and its plain values (``name``,
    ``player``, ``pow``, ...) as :meth:`LiveCampaign.add_characters` takes them."""

    line: int
    values: dict[str, Any]

    @property
    def name(self) -> str:
        return str(self.values["name"])


def _key(word: str) -> str:
    return "".join(word.split()).replace("-", "").replace("_", "").casefold()


def _header(cells: list[str], path: Path) -> tuple[list[str], list[Problem]]:
    """The field of each column, and what is wrong with the header line."""
    fields = [_COLUMNS.get(_key(cell), "") for cell in cells]
    problems = [
        Problem(path, 1, f"unknown column {cell.strip()!r}: the header is {HEADER_LINE}")
        for cell, field in zip(cells, fields, strict=True)
        if not field
    ]
    for field in dict.fromkeys(f for f in fields if f):
        if fields.count(field) > 1:
            problems.append(Problem(path, 1, f"the column {_LABELS.get(field, field)} is twice"))
    missing = [_LABELS.get(f, f) for f in REQUIRED if f not in fields]
    if missing:
        problems.append(
            Problem(
                path, 1, f"missing the column {', '.join(missing)}: the header is {HEADER_LINE}"
            )
        )
    return fields, problems


def _text(cell: str, label: str, *, empty_ok: bool) -> str:
    value = cell.strip()
    if not value and not empty_ok:
        raise ValueError(f"{label} is empty")
    if "\n" in value or "\r" in value:
        raise ValueError(f"{label} holds a line break: a name is one line")
    if len(value) > MAX_NAME:
        raise ValueError(f"{label} is longer than {MAX_NAME} characters")
    return value


def _row(cells: list[str], fields: list[str]) -> dict[str, Any]:
    """One row's values, or ``ValueError`` saying what is wrong with it."""
    if len(cells) < len(fields) or any(c.strip() for c in cells[len(fields) :]):
        raise ValueError(
            f"expected {len(fields)} values ({', '.join(_LABELS.get(f, f) for f in fields)}), "
            f"found {len(cells)}"
        )
    values: dict[str, Any] = {}
    for field, cell in zip(fields, cells, strict=False):
        if field in ("name", "player"):
            values[field] = _text(cell, field, empty_ok=field == "player")
        elif field == "madness" and not cell.strip():
            values[field] = 0
        else:
            label = _LABELS[field]
            if not cell.strip():
                raise ValueError(f"{label} is empty: type a number")
            try:
                low = 1 if field == "pow" else 0
                values[field] = parse_whole(cell, label, low=low, high=_HIGH[field])
            except NumberError as error:
                raise ValueError(str(error)) from None
    return values


def _delimiter(header: str) -> str:
    """What separates the values: the one of comma, semicolon and tab the header line uses
    most (a comma if none)."""
    return max(",;\t", key=header.count)


def parse_roster(text: str, path: Path, taken: Iterable[str] = ()) -> list[RosterRow]:
    """The characters of a roster's ``text`` (read from ``path``); raises
    :class:`CampaignFileError` with every problem, each at its line. ``taken``: the names the
    campaign has already; a row with one of them, or with a name another row has, is refused
    (a sheet imported twice would make everyone twice)."""
    text = text.removeprefix("\ufeff")
    first = text.split("\n", 1)[0]
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(first))
    problems: list[Problem] = []
    try:
        header = next(reader, None)
    except csv.Error as error:
        raise CampaignFileError([Problem(path, 1, f"not CSV: {error}")]) from None
    if header is None or not any(cell.strip() for cell in header):
        raise CampaignFileError([Problem(path, 1, f"no header line: expected {HEADER_LINE}")])
    fields, problems = _header(header, path)
    if problems:
        raise CampaignFileError(problems)
    seen = {name.strip().casefold(): "the campaign" for name in taken}
    rows: list[RosterRow] = []
    line = reader.line_num + 1
    while True:
        try:
            cells = next(reader, None)
        except csv.Error as error:
            problems.append(Problem(path, line, f"not CSV: {error}"))
            break
        if cells is None:
            break
        start, line = line, reader.line_num + 1
        if not any(cell.strip() for cell in cells):
            continue  # a blank line
        if len(rows) >= MAX_ROWS:
            problems.append(Problem(path, start, f"more than {MAX_ROWS:,} characters in one file"))
            break
        try:
            values = _row(cells, fields)
        except ValueError as error:
            problems.append(Problem(path, start, str(error)))
            continue
        name = values["name"].casefold()
        if name in seen:
            problems.append(Problem(path, start, f"{values['name']!r} is already in {seen[name]}"))
            continue
        seen[name] = f"line {start}"
        rows.append(RosterRow(start, values))
    if problems:
        raise CampaignFileError(problems)
    if not rows:
        raise CampaignFileError([Problem(path, 2, "no characters after the header line")])
    return rows


def read_roster(path: Path, taken: Iterable[str] = ()) -> list[RosterRow]:
    """The characters of the CSV file at ``path`` (a regular file, read bounded); raises
    :class:`CampaignFileError` (every problem at its line) or ``OSError`` (missing, unreadable)."""
    data = read_regular(path, ROSTER_LIMIT)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise CampaignFileError(
            [Problem(path, line, "not UTF-8 text: save the sheet as CSV UTF-8")]
        ) from None
    return parse_roster(text, path, taken)
