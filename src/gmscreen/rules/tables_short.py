"""The short form of a roll table: what a GM writes by hand, read into the one table engine.

```toml
[[tables]]
id = "rumours"
title = "Tavern rumours"            # or {en = ..., es = ...}
die = "1d6"                         # any dice expression: d6, 2d6, d100, 1d20+1
players = true                      # the players may read its results (default false)
rows = [
  [1, 2, "The duke is ill; a healer is sought."],
  [3, "A caravan is {1d4+1} days late."],          # dice in the text, rolled and shown
  [4, 6, "A stranger asks after you. Roll on @strangers."],   # @id: roll that table too
]
```

``weights = true`` (and no ``die``) reads each row as ``[weight, text]``, the die being
1d(total). ``{X}`` is a die when X is a dice expression (else it stays as written); ``@id``
rolls table ``id`` (punctuation ends the id: ``@merp-1.``), ``@@`` is a plain ``@``. A table
file comes from anyone: every value is checked, every problem is a :class:`BadTable` naming the
line to fix, and nothing here raises anything else.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

import msgspec

from gmscreen.rules.dice import MAX_SIDES, DiceError, DiceExpr, parse
from gmscreen.rules.tables_lines import TableSpots
from gmscreen.rules.tables_model import Row, SubRoll, Table
from gmscreen.rules.tables_text import Template
from gmscreen.text import clip, inert_line

# Bounds of what one table may hold: far above any table a GM writes, far below slowness.
MAX_ID = 64
MAX_TITLE = 200
MAX_TEXT = 4000  # one row's text (the longest bundled MERP entry is under 700)
MAX_ROWS = 1000
MAX_PIECES = 20  # dice and references in one row
MAX_SPAN = 1000  # different totals a table's die may give (a d1000; 10d100 gives 991)
MAX_FACE = 1_000_000  # any number written in a row

ID = re.compile(r"[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?", re.ASCII)
# ``@@``, an ``@id`` that does not follow a letter (an e-mail address is no reference), a ``{...}``
_PIECE = re.compile(
    r"@@|(?<![A-Za-z0-9_@])@([A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9])?)|\{([^{}\n]{1,60})\}",
    re.ASCII,
)
SHORT_KEYS = ("id", "title", "die", "weights", "players", "notes", "rows")


class BadTable(Exception):
    """A table that cannot be used: ``line`` (1-based) is where to fix it."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


class ShortRow(msgspec.Struct, frozen=True, gc=False):
    """One row as written: its faces (from its weight in a weighted table), its text."""

    lo: int
    hi: int
    text_en: str
    text_es: str
    weight: int = 0  # a weighted table's; 0 in a table of ranges
    line: int = 0


class ShortTable(msgspec.Struct, frozen=True, gc=False):
    """A short-form table as written (what import writes and export reads)."""

    id: str
    title_en: str
    title_es: str
    die: str  # a weighted table's is 1d(total)
    rows: tuple[ShortRow, ...]
    weights: bool = False
    players: bool = False
    notes_en: str = ""
    notes_es: str = ""
    line: int = 0


class TextPieces(msgspec.Struct, frozen=True, gc=False):
    """A row's text read: the template, its dice by slot name, the tables it rolls."""

    template: Template
    dice: Mapping[str, DiceExpr]
    refs: tuple[str, ...]


def is_short(raw: Mapping[str, Any]) -> bool:
    """True for the short form: rows written as arrays (``[1, 2, "text"]``), or no rows at all
    but the short form's own keys; the bundled form's rows are tables (``[[tables.rows]]``)."""
    rows = raw.get("rows")
    if isinstance(rows, list) and rows:
        return all(not isinstance(row, dict) for row in rows)
    return "weights" in raw or isinstance(raw.get("title"), str)


def unknown_key(raw: Mapping[str, Any], known: tuple[str, ...], spots: TableSpots) -> None:
    """A key the form does not know is a typo to name (``weight = true`` would be ignored)."""
    for key in raw:
        if key not in known:
            near = difflib.get_close_matches(str(key), known, n=1)
            hint = f" (did you mean {near[0]}?)" if near else f" (known: {', '.join(known)})"
            raise BadTable(spots.key(str(key)), f"unknown key {clip(str(key))!r}{hint}")


def check_id(value: object, line: int) -> str:
    if not isinstance(value, str) or not value:
        raise BadTable(line, 'a table needs an id = "..." (lowercase letters, digits, - and _)')
    if len(value) > MAX_ID or ID.fullmatch(value) is None:
        raise BadTable(
            line,
            f"id {clip(value)!r}: use lowercase letters, digits, - and _ (starting and ending "
            f"with a letter or digit, at most {MAX_ID} characters)",
        )
    return value


def _pair(value: object, what: str, limit: int, line: int) -> tuple[str, str]:
    """A text written as a string (both languages) or as ``{en = ..., es = ...}``."""
    if isinstance(value, str):
        en = es = value
    elif isinstance(value, dict) and set(value) <= {"en", "es"} and value:
        first = value.get("en", value.get("es"))
        second = value.get("es", first)
        if not isinstance(first, str) or not isinstance(second, str):
            raise BadTable(line, f"{what}: each language's text must be a string")
        en, es = first, second
    else:
        raise BadTable(line, f'{what} must be a string or {{en = "...", es = "..."}}')
    for text in (en, es):
        if not text.strip():
            raise BadTable(line, f"{what} is empty")
        if len(text) > limit:
            raise BadTable(line, f"{what} is longer than {limit:,} characters")
    return en, es


def _flag(raw: Mapping[str, Any], key: str, spots: TableSpots) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        raise BadTable(spots.key(key), f"{key} must be true or false")
    return value


def _number(value: object, what: str, line: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadTable(line, f"{what} must be a whole number, not {clip(repr(value))}")
    if abs(value) > MAX_FACE:
        raise BadTable(line, f"{what} {clip(str(value))} is too large (at most {MAX_FACE:,})")
    return value


def table_die(text: object, line: int) -> DiceExpr:
    """A GM table's die: any dice expression whose totals are few enough to list."""
    if not isinstance(text, str):
        raise BadTable(line, 'die must be a dice expression in quotes, such as "1d6" or "2d6"')
    try:
        die = parse(text)
    except DiceError as exc:
        raise BadTable(line, f"die: {exc}") from None
    span = die.highest - die.lowest + 1
    if span > MAX_SPAN:
        raise BadTable(
            line,
            f"die {die}: gives {span:,} different totals; a table's die gives at most {MAX_SPAN:,}",
        )
    return die


def read_short(raw: Mapping[str, Any], spots: TableSpots) -> ShortTable:
    """One short-form ``[[tables]]`` entry as written, every value checked."""
    table_id = check_id(raw.get("id"), spots.key("id"))
    unknown_key(raw, SHORT_KEYS, spots)
    title = _pair(raw.get("title"), "title", MAX_TITLE, spots.key("title"))
    notes = (
        _pair(raw["notes"], "notes", MAX_TEXT, spots.key("notes")) if "notes" in raw else ("", "")
    )
    weights = _flag(raw, "weights", spots)
    players = _flag(raw, "players", spots)
    raw_rows = raw.get("rows")
    if not isinstance(raw_rows, list) or not raw_rows:
        raise BadTable(spots.key("rows"), "a table needs rows = [[lo, hi, text], ...]")
    if len(raw_rows) > MAX_ROWS:
        raise BadTable(spots.key("rows"), f"more than {MAX_ROWS:,} rows")
    if weights:
        if "die" in raw:
            raise BadTable(
                spots.key("die"), "a weighted table has no die: it rolls 1d(the weights' total)"
            )
        return _weighted(table_id, title, notes, players, raw_rows, spots)
    die = table_die(raw.get("die"), spots.key("die")) if "die" in raw else None
    if die is None:
        raise BadTable(spots.line, 'a table needs a die = "1d6" (or weights = true)')
    rows: list[ShortRow] = []
    for index, item in enumerate(raw_rows):
        line = spots.row(index)
        where = f"row {index + 1}"
        if not isinstance(item, list) or len(item) not in (2, 3):
            raise BadTable(line, f"{where}: write [lo, hi, text] or [face, text]")
        lo = _number(item[0], f"{where}: the first face", line)
        hi = _number(item[1], f"{where}: the last face", line) if len(item) == 3 else lo
        if hi < lo:
            raise BadTable(line, f"{where}: [{lo}, {hi}] runs backwards")
        en, es = _pair(item[-1], f"{where}: the text", MAX_TEXT, line)
        rows.append(ShortRow(lo, hi, en, es, 0, line))
    return ShortTable(table_id, *title, die.text, tuple(rows), False, players, *notes, spots.line)


def _weighted(
    table_id: str,
    title: tuple[str, str],
    notes: tuple[str, str],
    players: bool,
    raw_rows: list[Any],
    spots: TableSpots,
) -> ShortTable:
    rows: list[ShortRow] = []
    total = 0
    for index, item in enumerate(raw_rows):
        line = spots.row(index)
        where = f"row {index + 1}"
        if not isinstance(item, list) or len(item) != 2:
            raise BadTable(line, f"{where}: a weighted table's rows are [weight, text]")
        weight = _number(item[0], f"{where}: the weight", line)
        if weight < 1:
            raise BadTable(line, f"{where}: a weight is 1 or more, not {weight}")
        en, es = _pair(item[1], f"{where}: the text", MAX_TEXT, line)
        if total + weight > MAX_SIDES:
            raise BadTable(line, f"{where}: the weights add up to more than {MAX_SIDES:,}")
        rows.append(ShortRow(total + 1, total + weight, en, es, weight, line))
        total += weight
    if total < 2:
        raise BadTable(
            spots.key("rows"), "the weights add up to 1: a table needs two faces or more"
        )
    return ShortTable(
        table_id, *title, f"1d{total}", tuple(rows), True, players, *notes, spots.line
    )


def read_text(text: str) -> TextPieces:
    """A row's text: ``{1d4+1}`` slots (named by their dice: ``1d4+1``, then ``1d4+1 #2``),
    ``@id`` references (kept in the text as written) and ``@@`` as ``@``. A ValueError says
    what is wrong (dice out of bounds, an id in capitals, too many pieces)."""
    parts: list[tuple[str, str | None]] = []
    literal: list[str] = []
    dice: dict[str, DiceExpr] = {}
    refs: list[str] = []
    pos = 0
    for match in _PIECE.finditer(text):
        literal.append(text[pos : match.start()])
        pos = match.end()
        whole, ref, inside = match.group(0), match.group(1), match.group(2)
        if whole == "@@":
            literal.append("@")
            continue
        if ref is not None:
            if ref != ref.lower():
                raise ValueError(
                    f"@{clip(ref)}: table ids are lowercase: write @{clip(ref.lower())}"
                )
            refs.append(ref)
            literal.append(whole)
        else:
            try:
                expr = parse(inside)
            except DiceError as exc:
                if exc.code != "dice_expression":  # dice, but out of bounds: say so
                    raise ValueError(f"{{{clip(inside)}}}: {exc}") from None
                literal.append(whole)  # not dice: the text as written
                continue
            name, count = expr.text, 1
            while name in dice:
                count += 1
                name = f"{expr.text} #{count}"
            dice[name] = expr
            parts.append(("".join(literal), name))
            literal = []
        if len(dice) + len(refs) > MAX_PIECES:
            raise ValueError(f"more than {MAX_PIECES} dice and @tables in one row")
    literal.append(text[pos:])
    parts.append(("".join(literal), None))
    source = parts[0][0] if len(parts) == 1 else text
    return TextPieces(Template.of_parts(parts, source), dice, tuple(refs))


def short_rows(short: ShortTable) -> tuple[tuple[Row, ...], tuple[int, ...]]:
    """The engine's rows of a short-form table, in order of their faces, and each one's line.
    A row's dice and references are the same in both languages (the rolls are one)."""
    ordered = sorted(short.rows, key=lambda r: (r.lo, r.hi))
    rows: list[Row] = []
    for index, written in enumerate(ordered):
        where = f"row {written.lo if written.lo == written.hi else f'{written.lo}-{written.hi}'}"
        try:
            en = read_text(written.text_en)
            es = en if written.text_es == written.text_en else read_text(written.text_es)
        except ValueError as exc:
            raise BadTable(written.line, f"{where}: {exc}") from None
        if Counter(en.dice.values()) != Counter(es.dice.values()) or Counter(en.refs) != Counter(
            es.refs
        ):
            raise BadTable(
                written.line, f"{where}: the en and es texts must roll the same dice and tables"
            )
        rolls = tuple(SubRoll(ref) for ref in en.refs)
        rows.append(
            Row(index, written.lo, written.hi, (), en.template, es.template, en.dice, rolls, ())
        )
    return tuple(rows), tuple(r.line for r in ordered)


def short_table(short: ShortTable) -> tuple[Table, tuple[int, ...]]:
    """The engine's table (its lookup still empty: the library checks it covers its die)."""
    rows, lines = short_rows(short)
    die = parse(short.die)
    table = Table(
        short.id, short.title_en, short.title_es, die, "main", rows,
        notes_en=short.notes_en, notes_es=short.notes_es, players=short.players,
    )  # fmt: skip
    return table, lines


# --- the short form written out (what `gmscreen tables import` saves) -------------------------

_TOML_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}
_TOML_UNSAFE = re.compile('["\\\\\x00-\x1f\x7f\ud800-\udfff]')


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string: quotes, backslashes and every control character
    escaped (a lone surrogate, which no UTF-8 file can hold, as U+FFFD)."""

    def escape(match: re.Match[str]) -> str:
        ch = match.group()
        if ch in _TOML_ESCAPES:
            return _TOML_ESCAPES[ch]
        return "\\uFFFD" if "\ud800" <= ch <= "\udfff" else f"\\u{ord(ch):04X}"

    return f'"{_TOML_UNSAFE.sub(escape, text)}"'


def _toml_pair(en: str, es: str) -> str:
    if en == es:
        return toml_string(en)
    return f"{{en = {toml_string(en)}, es = {toml_string(es)}}}"


def short_toml(short: ShortTable, comment: str = "") -> str:
    """The table as a GM would write it: one row a line (``comment``: a first line to say where
    it came from, made one line)."""
    lines = [f"# {inert_line(' '.join(comment.split()))}"] if comment else []
    lines += ["[[tables]]", f"id = {toml_string(short.id)}"]
    lines.append(f"title = {_toml_pair(short.title_en, short.title_es)}")
    if short.weights:
        lines.append("weights = true  # each row is [weight, text]; the die is 1d(the total)")
    else:
        lines.append(f"die = {toml_string(short.die)}")
    lines.append(
        f"players = {'true' if short.players else 'false'}  # may players read its results?"
    )
    if short.notes_en or short.notes_es:
        lines.append(f"notes = {_toml_pair(short.notes_en, short.notes_es)}")
    lines.append("rows = [")
    for row in short.rows:
        text = _toml_pair(row.text_en, row.text_es)
        if short.weights:
            head = f"{row.weight}"
        else:
            head = f"{row.lo}" if row.lo == row.hi else f"{row.lo}, {row.hi}"
        lines.append(f"  [{head}, {text}],")
    lines.append("]")
    return "\n".join(lines) + "\n"
