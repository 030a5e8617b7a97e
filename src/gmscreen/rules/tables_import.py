"""Tables a GM keeps elsewhere, read into the short form: a plain text list and CSV.

A text list is one row a line: ``1-3 The road is flooded``, ``4 Fog`` (a range or one face), or
bare lines, each as likely as the others. CSV is ``range,text`` or ``weight,text`` (a header
row saying ``weight`` makes it weights). Foundry VTT's RollTable exports are read by
:mod:`gmscreen.rules.tables_foundry`. Each gives a :class:`~gmscreen.rules.tables_short.ShortTable`
that the campaign layer writes as TOML and reads back through the same checks as any table.
"""

from __future__ import annotations

import csv
import re
import unicodedata
from collections.abc import Collection

from gmscreen.rules.tables_short import MAX_ID, MAX_ROWS, MAX_TEXT, ShortRow, ShortTable
from gmscreen.text import clip

# A row's faces: "1-3", "4", "96-00" (a d100's 100), with -, – or — between; then an optional
# ".", ":" or ")" and the text. ASCII digits only, at most 7 of them.
_RANGE = r"([0-9]{1,7})(?:\s*[-–—]\s*([0-9]{1,7}))?"
_TEXT_ROW = re.compile(rf"{_RANGE}\s*[.:)]?\s+(\S.*)")
_CELL_RANGE = re.compile(rf"\s*{_RANGE}\s*")
_WEIGHT_HEADERS = ("weight", "weights", "peso", "pesos")
_AT = re.compile(r"(?<![A-Za-z0-9_@])@([A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9])?)?", re.ASCII)


class ImportProblem(ValueError):
    """A file that cannot become a table; the message says where and why."""


def id_from_name(name: str) -> str:
    """A table id from a name: lowercased, accents dropped, spaces as ``-``, anything else
    that an id cannot hold left out (``"Omens & Portents"`` → ``omens-portents``)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    words = re.sub(r"[^a-z0-9_ -]+", " ", plain)
    slug = re.sub(r"-{2,}", "-", "-".join(words.split())).strip("-_")[:MAX_ID].strip("-_")
    if not slug:
        raise ImportProblem(f"{clip(name)!r} has no letters or digits to make an id of: give --id")
    return slug


def escape_at(text: str, known: Collection[str]) -> str:
    """An imported ``@word`` stays a reference only when ``word`` is a table's id; any other
    ``@`` is written ``@@`` (a plain ``@`` in the short form): text from elsewhere says
    ``@home`` or ``@Ryan`` and means no table."""
    return _AT.sub(lambda m: m.group(0) if m.group(1) in known else "@@" + (m.group(1) or ""), text)


def title_from_id(table_id: str) -> str:
    words = table_id.replace("-", " ").replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def _faces(first: str, last: str | None) -> tuple[int, int]:
    """A written range as numbers: ``00`` is a d100's 100."""
    lo = 100 if first == "00" else int(first)
    hi = lo if last is None else 100 if last == "00" else int(last)
    return lo, hi


def die_for(rows: list[tuple[int, int]]) -> str:
    """The die a list of ranges was written for: 1dN from 1, else NdM when the lowest face is
    a count of dice (2-12: 2d6, 3-18: 3d6), else 1dN (and the check says what is missing)."""
    low = min(lo for lo, _ in rows)
    high = max(hi for _, hi in rows)
    if low > 1 and high % low == 0 and high // low >= 2:
        return f"{low}d{high // low}"
    return f"1d{max(high, 2)}"


def _text(text: str, where: str, known: Collection[str]) -> str:
    text = escape_at(text.strip(), known)
    if not text:
        raise ImportProblem(f"{where}: no text")
    if len(text) > MAX_TEXT:
        raise ImportProblem(f"{where}: longer than {MAX_TEXT:,} characters")
    return text


def _table(
    table_id: str, title: str, rows: list[tuple[int, int, str]], weights: list[int] | None
) -> ShortTable:
    if len(rows) < 1:
        raise ImportProblem("no rows: nothing to import")
    if len(rows) > MAX_ROWS:
        raise ImportProblem(f"more than {MAX_ROWS:,} rows")
    if weights is not None:
        short_rows: list[ShortRow] = []
        total = 0
        for (_, _, text), weight in zip(rows, weights, strict=True):
            short_rows.append(ShortRow(total + 1, total + weight, text, text, weight))
            total += weight
        return ShortTable(table_id, title, title, f"1d{total}", tuple(short_rows), weights=True)
    ordered = sorted(rows, key=lambda r: (r[0], r[1]))
    die = die_for([(lo, hi) for lo, hi, _ in ordered])
    short_rows = [ShortRow(lo, hi, text, text) for lo, hi, text in ordered]
    return ShortTable(table_id, title, title, die, tuple(short_rows))


def from_text(text: str, table_id: str, title: str, known: Collection[str] = ()) -> ShortTable:
    """A plain text list: every line with a range (``1-3 text``, ``4 text``), or none (each
    line one row, all as likely). Blank lines and ``#`` comments are skipped. ``known``: the
    table ids an ``@id`` may name (see :func:`escape_at`)."""
    ranged: list[tuple[int, int, str]] = []
    bare: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        match = _TEXT_ROW.fullmatch(line)
        if match is None:
            bare.append((number, _text(line, f"line {number}", known)))
        else:
            lo, hi = _faces(match.group(1), match.group(2))
            ranged.append((lo, hi, _text(match.group(3), f"line {number}", known)))
        if len(ranged) + len(bare) > MAX_ROWS:
            raise ImportProblem(f"more than {MAX_ROWS:,} rows")
    if ranged and bare:
        raise ImportProblem(
            f"line {bare[0][0]} has no range but other lines do: give every line a range "
            "(1-3 text) or none (each line as likely)"
        )
    if bare:
        return _table(table_id, title, [(0, 0, t) for _, t in bare], [1] * len(bare))
    return _table(table_id, title, ranged, None)


def from_csv(text: str, table_id: str, title: str, known: Collection[str] = ()) -> ShortTable:
    """CSV of ``range,text`` or ``weight,text`` rows (``,``, ``;`` or a tab between). A first
    row that is no number is a header: ``weight`` there means weights. Without one, a range
    with a dash, or first cells 1, 2, 3 … in order, mean ranges; other numbers are weights."""
    sample = text[:4096]
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    cells: list[tuple[int, str, str]] = []  # line, first cell, the text
    header: str | None = None
    try:
        for number, row in enumerate(csv.reader(text.splitlines(), dialect), 1):
            if not any(cell.strip() for cell in row):
                continue
            first = row[0].strip()
            rest = dialect.delimiter.join(row[1:]).strip()
            if header is None and not cells and _CELL_RANGE.fullmatch(first) is None:
                header = first.lower()
                continue
            if len(row) < 2:
                raise ImportProblem(f"line {number}: write range,text or weight,text")
            cells.append((number, first, _text(rest, f"line {number}", known)))
            if len(cells) > MAX_ROWS:
                raise ImportProblem(f"more than {MAX_ROWS:,} rows")
    except csv.Error as exc:
        raise ImportProblem(f"not CSV: {exc}") from None
    parsed: list[tuple[int, int, str]] = []
    for number, first, rest in cells:
        match = _CELL_RANGE.fullmatch(first)
        if match is None:
            raise ImportProblem(f"line {number}: {clip(first)!r} is no range or weight")
        parsed.append((*_faces(match.group(1), match.group(2)), rest))
    dashed = any("-" in first or "–" in first or "—" in first for _, first, _ in cells)
    in_order = [lo for lo, hi, _ in parsed] == list(range(1, len(parsed) + 1))
    weighted = header in _WEIGHT_HEADERS if header is not None else not dashed and not in_order
    if weighted:
        if dashed:
            raise ImportProblem("a weight is one number, not a range")
        weights = [lo for lo, _, _ in parsed]
        if any(w < 1 for w in weights):
            raise ImportProblem("a weight is 1 or more")
        return _table(table_id, title, parsed, weights)
    return _table(table_id, title, parsed, None)
