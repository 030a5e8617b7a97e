"""MERP special items: who pays how many background points for a roll on which table.

The costs and roll limits come from docs/RULES.md "Who pays what"; the limits count per
table, and the character's background points are a budget (spent, left).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal, get_args

import msgspec

from gmscreen.i18n import catalog_for, plural

if TYPE_CHECKING:
    # Types only: the campaign model imports the categories, and start-up should not load
    # the tables engine for that.
    from gmscreen.rules.tables_model import Lang, TableSet

Category = Literal[
    "non_spell_user",
    "semi_spell_user",
    "dwarf_spell_user",
    "pure_spell_user",
    "hybrid_spell_user",
    "elf_non_spell_user",
]
CATEGORIES: tuple[Category, ...] = get_args(Category)

TABLE_1 = "merp-1"
TABLE_2 = "merp-2"
TOP_TABLES: tuple[str, str] = (TABLE_1, TABLE_2)
_TABLE_ID = re.compile(r"merp-([0-9]+[a-z]?)")
_TABLE_WORD: Mapping[str, str] = {"en": "Table", "es": "Tabla"}


def table_name(table_id: str, lang: str) -> str:
    """How a GM reads a table's id: ``merp-2a`` is ``Table 2a`` (``Tabla 2a``); an inner
    table's id (``merp-1-100-armor``) or one we do not know is shown as it is."""
    match = _TABLE_ID.fullmatch(table_id)
    if match is None:
        return table_id
    return f"{_TABLE_WORD.get(lang, _TABLE_WORD['en'])} {match.group(1)}"


class Cost(msgspec.Struct, frozen=True, gc=False):
    """What a category of character pays for one roll on a table, and how many rolls it gets."""

    points: int  # background points a roll costs
    max_rolls: int  # rolls allowed on that table


_CHEAP_ON_1 = {TABLE_1: Cost(1, 2), TABLE_2: Cost(2, 1)}
_CHEAP_ON_2 = {TABLE_1: Cost(2, 1), TABLE_2: Cost(1, 2)}

# An elf semi spell user counts as a semi spell user (docs/RULES.md "Who pays what").
COSTS: Mapping[Category, Mapping[str, Cost]] = {
    "non_spell_user": _CHEAP_ON_1,
    "semi_spell_user": _CHEAP_ON_1,
    "dwarf_spell_user": _CHEAP_ON_1,
    "pure_spell_user": _CHEAP_ON_2,
    "hybrid_spell_user": _CHEAP_ON_2,
    "elf_non_spell_user": _CHEAP_ON_2,
}

CATEGORY_LABELS: Mapping[Category, Mapping[Lang, str]] = {
    "non_spell_user": {"en": "Non spell user", "es": "No hechicero"},
    "semi_spell_user": {"en": "Semi spell user (elves too)", "es": "Semihechicero (también elfo)"},
    "dwarf_spell_user": {"en": "Dwarf spell user", "es": "Hechicero enano"},
    "pure_spell_user": {"en": "Pure spell user", "es": "Hechicero puro"},
    "hybrid_spell_user": {"en": "Hybrid spell user", "es": "Hechicero híbrido"},
    "elf_non_spell_user": {"en": "Elf non spell user", "es": "No hechicero elfo"},
}

MESSAGES: Mapping[str, Mapping[Lang, str]] = {
    "unknown_category": {
        "en": "unknown character category {category!r}: expected one of {known}",
        "es": "categoría de personaje desconocida {category!r}: se esperaba una de {known}",
    },
    "unknown_table": {
        "en": "special items are bought on {known}, not on {table!r}",
        "es": "los objetos especiales se compran en {known}, no en {table!r}",
    },
    "roll_limit": {
        "en": "a {category} may make at most {limit} on {table}, and has already made {made}",
        "es": "un {category} puede hacer como mucho {limit} en {table} y ya lleva {made}",
    },
    "no_points": {
        "en": "a roll on {table} costs {cost}, but only {left} are left",
        "es": "una tirada en {table} cuesta {cost}, pero solo quedan {left}",
    },
}


# The values of the messages above that count something, and the catalog's word for it
COUNTED: Mapping[str, str] = {"limit": "rolls", "cost": "background_points"}

_AND: Mapping[str, str] = {"en": "and", "es": "y"}


class RollRefused(ValueError):
    """A roll the character may not buy; ``message(lang)`` explains why in English or Spanish."""

    def __init__(self, key: str, **values: object) -> None:
        self.key = key
        self.values = values
        super().__init__(self.message("en"))

    def message(self, lang: Lang) -> str:
        values = dict(self.values)
        category = values.get("category")
        if isinstance(category, str) and category in CATEGORY_LABELS:
            values["category"] = CATEGORY_LABELS[category][lang].lower()  # type: ignore[index]
        table = values.get("table")
        if isinstance(table, str):
            values["table"] = table_name(table, lang)
        if "known" in values and self.key == "unknown_table":
            names = [table_name(t, lang) for t in TOP_TABLES]
            values["known"] = f" {_AND[lang]} ".join(names)
        for name, word in COUNTED.items():  # "1 roll", "2 rolls": counted words from the catalog
            count = values.get(name)
            if isinstance(count, int):
                values[name] = plural(catalog_for(lang).t, word, count)
        return MESSAGES[self.key][lang].format(**values)


class TableBudget(msgspec.Struct, frozen=True, gc=False):
    """Where a character stands on one table: the cost of a roll and the rolls made and left."""

    table: str
    cost: int
    max_rolls: int
    rolls_made: int
    rolls_left: int
    allowed: bool  # one more roll fits both the roll limit and the points left


class Budget(msgspec.Struct, frozen=True, gc=False):
    """A character's background points (total, spent, left) and a :class:`TableBudget` per table."""

    category: Category
    points_total: int
    points_spent: int
    points_left: int
    tables: Mapping[str, TableBudget]


def _costs(category: str) -> Mapping[str, Cost]:
    try:
        return COSTS[category]  # type: ignore[index]
    except KeyError:
        raise RollRefused("unknown_category", category=category, known=", ".join(COSTS)) from None


def budget(category: Category, points_total: int, rolls_made: Mapping[str, int]) -> Budget:
    """Where a character stands: per table the cost, the rolls left and whether one more fits."""
    costs = _costs(category)
    for table in rolls_made:
        if table not in costs:
            raise RollRefused("unknown_table", table=table, known=" and ".join(TOP_TABLES))
    spent = sum(costs[t].points * n for t, n in rolls_made.items())
    left = points_total - spent
    tables = {}
    for table, cost in costs.items():
        made = rolls_made.get(table, 0)
        rolls_left = max(cost.max_rolls - made, 0)
        tables[table] = TableBudget(
            table,
            cost.points,
            cost.max_rolls,
            made,
            rolls_left,
            rolls_left > 0 and cost.points <= left,
        )
    return Budget(category, points_total, spent, left, tables)


def check_roll_allowed(
    category: Category, points_total: int, rolls_made: Mapping[str, int], table: str
) -> TableBudget:
    """The table's budget if one more roll on ``table`` is allowed; :class:`RollRefused` if not."""
    costs = _costs(category)
    if table not in costs:
        raise RollRefused("unknown_table", table=table, known=" and ".join(TOP_TABLES))
    state = budget(category, points_total, rolls_made)
    row = state.tables[table]
    if row.rolls_left <= 0:
        raise RollRefused(
            "roll_limit", category=category, limit=row.max_rolls, table=table, made=row.rolls_made
        )
    if row.cost > state.points_left:
        raise RollRefused("no_points", table=table, cost=row.cost, left=state.points_left)
    return row


def merp_tables() -> TableSet:
    """The MERP special item tables (cached and validated once)."""
    from gmscreen.rules.tables import load_tables

    return load_tables()
