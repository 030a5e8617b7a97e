"""An item's name, read off its resolved tree: the alternative taken and every sub-roll's result.

The name is the entry's words for the alternative picked (its ``name`` in the table file where
the text will not do: "Quality shield (+10) at 70% of the usual weight", not "Quality armor
(+10), or a quality shield (+10)"), then each sub-roll's result in the order rolled, joined by
"; ": "Magic item (+5); Size: Lock picks". Values are written in, the dice are not ("13 gold
pieces", not "13 gold pieces (1d20: 13)"), and no pointer to a table is left ("(size on 2e)"):
the GM reads the dice in the tree, and players may be shown the name as it is. Never cut: a
screen wraps it. :func:`summary` says the same in fewer words, each sub-roll by its ``brief``
("+15, 70% weight, +3 initiative; glows near a chosen race, creature or alignment").

A tree read back from a journal is named from today's tables when its rolls still fit them
(same table, row, alternative and dice), so a fix to the wording reaches old campaigns; a tree
that no longer fits is named from the texts it was written with.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Protocol

from gmscreen.rules.dice import DiceExpr
from gmscreen.rules.tables_model import Lang, Option, Row, Template
from gmscreen.rules.tables_nodes import Node

# For texts written with the tree (a tree that no longer fits the tables, or a title with no
# tree): a die written out, "(1d6: 4)", "(3d6: 3+2+4 = 9)", "(1d10: 7 (typed))" (the value is
# always next to it), and a pointer to the tables below, "(realm on 2d, size on 2e)", "(below)".
# Compiled when first used (re's own cache of patterns): an item whose tree fits today's
# tables never needs them, and they took ~1 ms of each launch that names an item.
_DIE_WRITTEN_OUT = r" ?\(\d*d(?:\d+|%)[^()]*(?:\([^()]*\)[^()]*)*\)"
_TABLE_POINTER = r" ?\([^()]*(?:\b\d[a-z]\b|\bbelow\b|\babajo\b)[^()]*\)"

SEPARATOR = "; "


class Rows(Protocol):
    """Where a name finds today's rows: the whole :class:`~gmscreen.rules.tables_model.TableSet`
    or, to name journaled items, :class:`~gmscreen.rules.tables_sections.TableSections`."""

    def row(self, table_id: str, index: int) -> Row | None: ...


def plain(text: str) -> str:
    """A text written with a roll, without its dice written out or its pointers to tables."""
    written = re.sub(_TABLE_POINTER, "", re.sub(_DIE_WRITTEN_OUT, "", text))
    return written.strip().rstrip(".").strip()


def entry(node: Node, tables: Rows) -> tuple[Row, Option | None] | None:
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


def words(node: Node, tables: Rows, lang: Lang) -> str:
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


def full_name(node: Node, tables: Rows, lang: Lang) -> str:
    """The item's whole name: the entry's words, then every sub-roll's, in the order rolled."""
    parts = (words(n, tables, lang) for n in node.walk())
    return SEPARATOR.join(p for p in parts if p)


def brief_words(node: Node, tables: Rows, lang: Lang) -> str:
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


def summary(node: Node, tables: Rows, lang: Lang) -> str:
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


def stored_name(item: Mapping[str, Any], lang: str, tables: Rows) -> str:
    """A journaled item's name in ``lang``, from its tree (``tree.tree``); an item with no
    readable tree keeps its stored title, without dice or pointers. A name the GM gave it
    (``name``) comes first, in every language."""
    given = str(item.get("name") or "")  # the GM's words, as typed
    if given:
        return given
    node = _stored_tree(item)
    # The tables carry English and Spanish; another language reads the English
    name = full_name(node, tables, "es" if lang == "es" else "en") if node is not None else ""
    return name or plain(str(item.get("title", "")))


def stored_summary(item: Mapping[str, Any], lang: str, tables: Rows) -> str:
    """A journaled item's :func:`summary` in ``lang``; its stored title when its tree will
    not read (as :func:`stored_name`). A renamed item: its name, then the summary."""
    given = str(item.get("name") or "")  # the GM's words, as typed
    node = _stored_tree(item)
    if node is None:
        return given or plain(str(item.get("title", "")))
    short = summary(node, tables, "es" if lang == "es" else "en")
    short = short or plain(str(item.get("title", "")))
    return f"{given}: {short}" if given else short
