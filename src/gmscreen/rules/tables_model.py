"""Roll tables as data: the shapes, the TOML loader and its validator.

Generic: nothing here knows about MERP. A table file holds ``[[tables]]`` with a die and rows;
a row (or one of its alternatives) may carry inline dice, written into its text, and sub-rolls
on other tables. Everything is checked once at load, and a problem names the file, the table and
the row, so a typo in a range fails a test instead of a game night.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from importlib import resources
from typing import Any, Literal

import msgspec

from gmscreen.rules.dice import DiceError, DiceExpr, parse

# re-exported: the readers of the model (tables_names, tests) import Template from here
from gmscreen.rules.tables_text import Template as Template

Lang = Literal["en", "es"]
LANGS: tuple[Lang, ...] = ("en", "es")
TableKind = Literal["main", "inner"]


class TableDataError(ValueError):
    """A table file that cannot be used; the message names the file, table and row."""


class SubRoll(msgspec.Struct, frozen=True, gc=False):
    """A roll on another table that an entry asks for."""

    table: str
    modifier: int = 0
    context: str | None = None


class Option(msgspec.Struct, frozen=True, gc=False):
    """One alternative of an entry; the GM picks it, or the roll's context does (``when``)."""

    index: int
    key: str
    label_en: str
    label_es: str
    text_en: Template
    text_es: Template
    dice: Mapping[str, DiceExpr]
    rolls: tuple[SubRoll, ...]
    context: str | None
    when: frozenset[str]
    # the whole item's name for this alternative, when the entry's text plus this one's is not
    # a name ("Quality armor (+5), or a quality shield (+5). Shield +5 ..."); see tables_names
    name: tuple[Template, Template] | None = None
    brief: tuple[Template, Template] | None = None  # the result in a summary: "+15, 70% weight"

    def label(self, lang: Lang) -> str:
        return self.label_en if lang == "en" else self.label_es


class Row(msgspec.Struct, frozen=True, gc=False):
    """One range of a table."""

    index: int
    lo: int
    hi: int
    markers: tuple[str, ...]
    text_en: Template
    text_es: Template
    dice: Mapping[str, DiceExpr]
    rolls: tuple[SubRoll, ...]
    options: tuple[Option, ...]
    # the words the entry gives an item's name, when its text points at the tables below
    name: tuple[Template, Template] | None = None
    brief: tuple[Template, Template] | None = None  # the result in a summary: "1 spell"

    @property
    def range_text(self) -> str:
        return str(self.lo) if self.lo == self.hi else f"{self.lo}-{self.hi}"

    def text(self, lang: Lang) -> str:
        """The entry's text with its dice shown as expressions."""
        template = self.text_en if lang == "en" else self.text_es
        return template.render({}, self.dice)

    def short(self, lang: Lang) -> str:
        """One line for a browse list: the text, and the alternatives' labels if any."""
        text = self.text(lang)
        if self.options and all(o.when for o in self.options):
            # the columns of a table: show each column's reading
            readings = (
                (o.text_en if lang == "en" else o.text_es).render({}, {**self.dice, **o.dice})
                for o in self.options
            )
            text += " " + " | ".join(r for r in readings if r)
        elif self.options:
            text += " [" + " | ".join(o.label(lang) for o in self.options) + "]"
        return text


class Column(msgspec.Struct, frozen=True, gc=False):
    key: str
    en: str
    es: str


class Table(msgspec.Struct, frozen=True, gc=False):
    id: str
    title_en: str
    title_es: str
    die: DiceExpr
    kind: TableKind
    rows: tuple[Row, ...]
    columns: tuple[Column, ...] = ()
    notes_en: str = ""
    notes_es: str = ""
    low: int = 1
    # lookup[value - low] is the row a total lands on; built once so a roll is one index.
    lookup: tuple[Row, ...] = ()
    # may the players read its results (a GM's table says; docs/RULES.md "What players may see")
    players: bool = False

    @property
    def high(self) -> int:
        return self.low + len(self.lookup) - 1

    def title(self, lang: Lang) -> str:
        return self.title_en if lang == "en" else self.title_es

    def notes(self, lang: Lang) -> str:
        return self.notes_en if lang == "en" else self.notes_es

    def row_for(self, total: int) -> Row:
        """The row a total lands on; a :class:`DiceError` if no row covers it."""
        if not self.low <= total <= self.high:
            raise DiceError(
                f"{total} is off table {self.id}: its rows cover {self.low}-{self.high}"
            )
        return self.lookup[total - self.low]


class TableSet(msgspec.Struct, frozen=True, gc=False):
    """Every table of one file, by id, in file order."""

    source: str
    tables: Mapping[str, Table]
    typos: tuple[Mapping[str, str], ...] = ()
    decisions: tuple[Mapping[str, str], ...] = ()

    def __getitem__(self, table_id: str) -> Table:
        try:
            return self.tables[table_id]
        except KeyError:
            known = ", ".join(t.id for t in self.main())
            raise KeyError(f"unknown table {table_id!r}: expected one of {known}") from None

    def __contains__(self, table_id: object) -> bool:
        return table_id in self.tables

    def row(self, table_id: str, index: int) -> Row | None:
        """Row ``index`` of ``table_id``; None if there is no such table or row."""
        table = self.tables.get(table_id)
        return table.rows[index] if table is not None and 0 <= index < len(table.rows) else None

    def main(self) -> list[Table]:
        """The tables a GM rolls on directly (inner rolls left out)."""
        return [t for t in self.tables.values() if t.kind == "main"]


# --- loading ---------------------------------------------------------------------------------


class _Where:
    """Builds error messages that say where the problem is."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, message: str) -> TableDataError:
        return TableDataError(f"{self.source}: {where}: {message}")


def _text_pair(value: Any, where: str, what: str, loc: _Where) -> tuple[str, str]:
    if not isinstance(value, dict):
        raise loc.fail(where, f"{what} must be a table {{en = ..., es = ...}}")
    pair: list[str] = []
    for lang in LANGS:
        text = value.get(lang)
        if not isinstance(text, str) or not text.strip():
            raise loc.fail(where, f"{what} has no {lang} text")
        pair.append(text)
    return pair[0], pair[1]


def _dice(value: Any, where: str, loc: _Where) -> dict[str, DiceExpr]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise loc.fail(where, 'dice must be a table {name = "expr"}')
    out: dict[str, DiceExpr] = {}
    for name, text in value.items():
        try:
            out[name] = parse(str(text))
        except DiceError as exc:
            raise loc.fail(where, f"dice {name}: {exc}") from None
    return out


def _rolls(value: Any, where: str, loc: _Where) -> tuple[SubRoll, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise loc.fail(where, "rolls must be a list of {table = ..., modifier = ...}")
    out: list[SubRoll] = []
    for item in value:
        if not isinstance(item, dict) or not isinstance(item.get("table"), str):
            raise loc.fail(where, f"a sub-roll needs a table id, got {item!r}")
        modifier = item.get("modifier", 0)
        context = item.get("context")
        if not isinstance(modifier, int) or (context is not None and not isinstance(context, str)):
            raise loc.fail(where, f"bad sub-roll {item!r}")
        out.append(SubRoll(item["table"], modifier, context))
    return tuple(out)


def _templates(
    text: Any, dice: Mapping[str, DiceExpr], where: str, loc: _Where
) -> tuple[Template, Template]:
    en, es = _text_pair(text, where, "text", loc)
    pair = Template(en), Template(es)
    for lang, template in zip(LANGS, pair, strict=True):
        unknown = template.names - dice.keys()
        if unknown:
            raise loc.fail(where, f"{lang} text uses undeclared dice {sorted(unknown)}")
        unused = dice.keys() - template.names
        if unused:
            raise loc.fail(where, f"{lang} text never shows dice {sorted(unused)}")
    return pair


def _option(
    index: int, raw: Any, row_dice: Mapping[str, DiceExpr], where: str, loc: _Where
) -> Option:
    if not isinstance(raw, dict) or not isinstance(raw.get("key"), str):
        raise loc.fail(where, "an option needs a key")
    where = f"{where} option {raw['key']}"
    label = _text_pair(raw.get("label"), where, "label", loc)
    dice = _dice(raw.get("dice"), where, loc)
    clash = dice.keys() & row_dice.keys()
    if clash:
        raise loc.fail(where, f"dice {sorted(clash)} already named by the row")
    when = raw.get("when", [])
    context = raw.get("context")
    if not isinstance(when, list) or not all(isinstance(w, str) for w in when):
        raise loc.fail(where, "when must be a list of context names")
    if "text" not in raw and when and not dice:
        # a column reading that adds nothing: 1a's initiative for a missile weapon
        text = (Template(""), Template(""))
    else:
        text = _templates(raw.get("text"), dice, where, loc)
    if context is not None and not isinstance(context, str):
        raise loc.fail(where, "context must be a name")
    return Option(
        index,
        raw["key"],
        *label,
        *text,
        dice,
        _rolls(raw.get("rolls"), where, loc),
        context,
        frozenset(when),
        _name(raw, "name", {**row_dice, **dice}, where, loc),
        _name(raw, "brief", {**row_dice, **dice}, where, loc),
    )


def _name(
    raw: Mapping[str, Any], key: str, dice: Mapping[str, DiceExpr], where: str, loc: _Where
) -> tuple[Template, Template] | None:
    """An entry's ``name`` or ``brief``: the same dice as its text, so it carries every number."""
    if key not in raw:
        return None
    return _templates(raw[key], dice, f"{where} {key}", loc)


def _row(index: int, raw: Any, table_id: str, loc: _Where) -> Row:
    rng = raw.get("range") if isinstance(raw, dict) else None
    if not (isinstance(rng, list) and len(rng) == 2 and all(isinstance(v, int) for v in rng)):
        raise loc.fail(f"table {table_id} row {index + 1}", "range must be [lo, hi]")
    lo, hi = rng
    where = f"table {table_id} row {lo if lo == hi else f'{lo}-{hi}'}"
    if lo > hi:
        raise loc.fail(where, "range runs backwards")
    markers = raw.get("markers", [])
    if not isinstance(markers, list) or not all(isinstance(m, str) for m in markers):
        raise loc.fail(where, "markers must be a list of strings")
    dice = _dice(raw.get("dice"), where, loc)
    text = _templates(raw.get("text"), dice, where, loc)
    raw_options = raw.get("options", [])
    if not isinstance(raw_options, list):
        raise loc.fail(where, "options must be a list of [[tables.rows.options]]")
    options = tuple(_option(i, o, dice, where, loc) for i, o in enumerate(raw_options))
    if len({o.key for o in options}) != len(options):
        raise loc.fail(where, "two options share a key")
    if len(options) == 1:
        raise loc.fail(where, "a single option is no alternative")
    rolls = _rolls(raw.get("rolls"), where, loc)
    names = _name(raw, "name", dice, where, loc), _name(raw, "brief", dice, where, loc)
    return Row(index, lo, hi, tuple(markers), *text, dice, rolls, options, *names)


def parse_row(index: int, raw: Any, table_id: str, source: str) -> Row:
    """Row ``index`` of table ``table_id`` from parsed TOML, checked as :func:`parse_tables`
    checks each row (what a row says of other tables is checked with the whole file)."""
    return _row(index, raw, table_id, _Where(source))


def _all_rolls(table: Table) -> list[tuple[Row, SubRoll]]:
    found: list[tuple[Row, SubRoll]] = []
    for row in table.rows:
        found.extend((row, ref) for ref in row.rolls)
        for option in row.options:
            found.extend((row, ref) for ref in option.rolls)
    return found


def draft_table(raw: Any, loc: _Where, *, any_die: bool = False) -> Table:
    """One ``[[tables]]`` entry checked alone (what it says of other tables is checked with the
    whole set): its lookup is left empty. The bundled tables roll a single die; ``any_die`` lets
    a GM's table roll 2d6 or 1d20+1."""
    table_id = raw.get("id") if isinstance(raw, dict) else None
    if not isinstance(table_id, str) or not table_id:
        raise loc.fail("file", "a table has no id")
    where = f"table {table_id}"
    title = _text_pair(raw.get("title"), where, "title", loc)
    try:
        die = parse(str(raw.get("die", "")))
    except DiceError as exc:
        raise loc.fail(where, f"die: {exc}") from None
    if not any_die and (die.count != 1 or die.modifier):
        raise loc.fail(where, "a table's die must be a single die such as 1d100")
    kind = raw.get("kind", "main")
    if kind not in ("main", "inner"):
        raise loc.fail(where, f"kind must be main or inner, not {kind!r}")
    notes = _text_pair(raw["notes"], where, "notes", loc) if "notes" in raw else ("", "")
    raw_columns = raw.get("columns", [])
    if not isinstance(raw_columns, list) or not all(isinstance(c, dict) for c in raw_columns):
        raise loc.fail(where, "columns must be a list of {key, en, es}")
    columns = tuple(
        Column(str(c.get("key")), *_text_pair(c, where, "column", loc)) for c in raw_columns
    )
    raw_rows = raw.get("rows", [])
    if not isinstance(raw_rows, list):
        raise loc.fail(where, "rows must be a list")
    rows = tuple(_row(i, r, table_id, loc) for i, r in enumerate(raw_rows))
    if not rows:
        raise loc.fail(where, "no rows")
    return Table(table_id, *title, die, kind, rows, columns, *notes)


def parse_tables(data: Mapping[str, Any], source: str) -> TableSet:
    """Build and validate a :class:`TableSet` from parsed TOML."""
    loc = _Where(source)
    raw_tables = data.get("tables")
    if not isinstance(raw_tables, list) or not raw_tables:
        raise loc.fail("file", "no [[tables]]")
    drafts: dict[str, Table] = {}
    for raw in raw_tables:
        draft = draft_table(raw, loc)
        if draft.id in drafts:
            raise loc.fail(f"table {draft.id}", "id used twice")
        drafts[draft.id] = draft

    # Every referenced table must exist; a modifier widens the range the rows must cover.
    low_mod: dict[str, int] = dict.fromkeys(drafts, 0)
    high_mod: dict[str, int] = dict.fromkeys(drafts, 0)
    for table in drafts.values():
        for row, ref in _all_rolls(table):
            if ref.table not in drafts:
                raise loc.fail(
                    f"table {table.id} row {row.range_text}", f"rolls unknown table {ref.table!r}"
                )
            low_mod[ref.table] = min(low_mod[ref.table], ref.modifier)
            high_mod[ref.table] = max(high_mod[ref.table], ref.modifier)

    tables: dict[str, Table] = {}
    for table in drafts.values():
        low = table.die.lowest + low_mod[table.id]
        high = table.die.highest + high_mod[table.id]
        lookup = _cover(table, low, high, loc)
        tables[table.id] = Table(
            table.id, table.title_en, table.title_es, table.die, table.kind, table.rows,
            table.columns, table.notes_en, table.notes_es, low, lookup,
        )  # fmt: skip
    return TableSet(
        source,
        tables,
        tuple(_str_map(t) for t in data.get("typos", [])),
        tuple(_str_map(d) for d in data.get("decisions", [])),
    )


def _cover(table: Table, low: int, high: int, loc: _Where) -> tuple[Row, ...]:
    """Check the rows cover ``low..high`` exactly, in order, and return the lookup list."""
    expected = low
    lookup: list[Row] = []
    for row in table.rows:
        where = f"table {table.id} row {row.range_text}"
        if row.lo > expected:
            raise loc.fail(where, f"gap: nothing covers {expected}-{row.lo - 1}")
        if row.lo < expected:
            raise loc.fail(where, f"overlaps the rows before (next free value is {expected})")
        lookup.extend([row] * (row.hi - row.lo + 1))
        expected = row.hi + 1
    if expected - 1 != high:
        raise loc.fail(
            f"table {table.id}",
            f"rows end at {expected - 1} but the die reaches {high} ({table.die}{'' if high == table.die.highest else ' with modifiers'})",
        )
    return tuple(lookup)


def _str_map(raw: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in raw.items()} if isinstance(raw, dict) else {}


def load_table_file(package: str, name: str) -> TableSet:
    """Read and validate a table file shipped inside ``package`` (e.g. ``gmscreen.data``)."""
    resource = resources.files(package).joinpath(name)
    try:
        data = tomllib.loads(resource.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise TableDataError(f"{name}: not valid TOML: {exc}") from None
    return parse_tables(data, name)


def load_table_text(text: str, source: str = "<text>") -> TableSet:
    """Parse and validate table TOML given as a string (tests, user-supplied tables)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TableDataError(f"{source}: not valid TOML: {exc}") from None
    return parse_tables(data, source)
