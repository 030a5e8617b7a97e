"""An item's name, read off its resolved tree: the alternative taken and every sub-roll's result.

The name is the entry's words for the alternative picked (its ``name`` in the table file where
the text will not do: "Quality shield (+10) at 70% of the usual weight", not "Quality armor
(+10), or a quality shield (+10)"), then each sub-roll's result in the order rolled, joined by
"; ": "Magic item (+5); Size: Lock picks". Values are written in, the dice are not ("13 gold
pieces", not "13 gold pieces (1d20: 13)"), and no pointer to a table is left ("(size on 2e)"):
the GM reads the dice in the tree, and players may be shown the name as it is. Never cut: a
screen wraps it. :func:`summary` says the same in fewer words, each sub-roll by its ``brief``
("+15, 70% weight, +3 initiative; glows near a chosen race, creature or alignment").

An item keeps the names its roll gave it (:func:`rolled_names`, stored with the item: see
:mod:`gmscreen.campaign.item_names`). An item written before names were stored is named from its
tree read back (:func:`stored_name`): from today's tables where its rolls still fit them (same
table, row, alternative and dice), from the texts it was written with where they do not.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from gmscreen.rules.dice import DiceExpr
from gmscreen.rules.tables_model import Lang, Option, Row, TableSet, Template
from gmscreen.rules.tables_nodes import Node

# For texts written with the tree (a tree that no longer fits the tables, or a title with no
# tree): a die written out, "(1d6: 4)", "(3d6: 3+2+4 = 9)", "(1d10: 7 (typed))" (the value is
# always next to it), and a pointer to the tables below, "(realm on 2d, size on 2e)", "(roll to
# see how)", or "(below)" as older tables said.
_DIE_WRITTEN_OUT = re.compile(r" ?\(\d*d(?:\d+|%)[^()]*(?:\([^()]*\)[^()]*)*\)")
_POINTS_ON = r"\b\d[a-z]\b|\bbelow\b|\babajo\b|\broll (?:to see|for)\b|\btira para ver"
_TABLE_POINTER = re.compile(rf" ?\([^()]*(?:{_POINTS_ON})[^()]*\)")

SEPARATOR = "; "
LANGS: tuple[Lang, ...] = ("en", "es")  # the languages of the tables, so of items' names


def plain(text: str) -> str:
    """A text written with a roll, without its dice written out or its pointers to tables."""
    written = _TABLE_POINTER.sub("", _DIE_WRITTEN_OUT.sub("", text))
    return written.strip().rstrip(".").strip()


def entry(node: Node, tables: TableSet) -> tuple[Row, Option | None] | None:
    """The row and alternative ``node`` was rolled on, if today's tables still hold them as
    rolled (a tree read back from a file is matched by table, row, range, choice and dice)."""
    row = node.row
    if row is not None:
        return row, node.option
    index = node.row_index
    row = tables.row(node.table, index) if index is not None else None
    if row is None or node.range != (row.lo, row.hi):
        return None
    option: Option | None = None
    if node.choice is not None:
        option = next((o for o in row.options if o.key == node.choice.key), None)
        if option is None:
            return None
    elif row.options:
        return None  # no alternative taken (yet, or the tables had none then)
    declared = row.dice.keys() | (option.dice.keys() if option is not None else set())
    if node.dice.keys() != declared:
        return None
    return row, option


def _render(
    pair: tuple[Template, Template], node: Node, exprs: Mapping[str, DiceExpr], lang: Lang
) -> str:
    template = pair[0] if lang == "en" else pair[1]
    return template.values().render(node.dice, exprs)


def words(node: Node, tables: TableSet, lang: Lang) -> str:
    """What one roll adds to the name: its entry, for the alternative taken, values written in."""
    bound = entry(node, tables)
    if bound is None:
        return plain(node.text(lang))
    row, option = bound
    exprs = row.dice if option is None else {**row.dice, **option.dice}
    if option is not None and option.name is not None:
        out = _render(option.name, node, exprs, lang)
    else:
        out = _render(row.name or (row.text_en, row.text_es), node, exprs, lang)
        if option is not None:
            extra = _render((option.text_en, option.text_es), node, exprs, lang)
            if extra:
                out = f"{out} {extra}"
    return out.strip().rstrip(".")


def full_name(node: Node, tables: TableSet, lang: Lang) -> str:
    """The item's whole name: the entry's words, then every sub-roll's, in the order rolled."""
    parts = (words(n, tables, lang) for n in node.walk())
    return SEPARATOR.join(p for p in parts if p)


def brief_words(node: Node, tables: TableSet, lang: Lang) -> str:
    """One sub-roll's result as a summary says it ("+15, 70% weight, +3 initiative"): the
    ``brief`` of the alternative taken or of the row, else its words in the name."""
    bound = entry(node, tables)
    if bound is not None:
        row, option = bound
        brief = row.brief if option is None else option.brief or row.brief
        if brief is not None:
            exprs = row.dice if option is None else {**row.dice, **option.dice}
            return _render(brief, node, exprs, lang).strip()
    return words(node, tables, lang)


def summary(node: Node, tables: TableSet, lang: Lang) -> str:
    """The name made short: the entry's words, then each sub-roll's result in few words, with
    every number still in it: "Magic item (+5); lock picks"."""
    parts = [words(node, tables, lang)]
    parts.extend(brief_words(n, tables, lang) for n in node.walk() if n is not node)
    return SEPARATOR.join(p for p in parts if p)


def _stored_tree(item: Mapping[str, Any]) -> Node | None:
    tree = item.get("tree")
    raw = tree.get("tree") if isinstance(tree, Mapping) else None
    if not isinstance(raw, Mapping) or "table" not in raw:
        return None
    try:
        return Node.from_dict(raw)
    except (KeyError, TypeError, ValueError):
        return None


def rolled_names(node: Node, tables: TableSet) -> tuple[dict[str, str], dict[str, str]]:
    """What a roll names its item, to store with it: the :func:`full_name` and the
    :func:`summary` in each language of the tables."""
    full: dict[str, str] = {lang: full_name(node, tables, lang) for lang in LANGS}
    return full, {lang: summary(node, tables, lang) for lang in LANGS}


def stored_name(item: Mapping[str, Any], lang: Lang, tables: TableSet) -> str:
    """The name of an item stored without its names (see the module), from its tree
    (``tree.tree``); an item with no readable tree: its stored title, without dice or pointers."""
    node = _stored_tree(item)
    name = full_name(node, tables, lang) if node is not None else ""
    return name or plain(str(item.get("title", "")))


def stored_summary(item: Mapping[str, Any], lang: Lang, tables: TableSet) -> str:
    """:func:`summary` of an item stored without its names, as :func:`stored_name` reads it."""
    node = _stored_tree(item)
    short = summary(node, tables, lang) if node is not None else ""
    return short or plain(str(item.get("title", "")))
