"""How a special item's roll is shown: the budget, the tables' tabs and rows, the result tree one
node at a time, and what the screen asks for next.

Every text here is either the catalog's or the table data's (in the campaign's language), and
goes into :class:`Content` as plain text, so a ``[`` in an entry or a note is never markup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from textual.content import Content

from gmscreen.campaign.model import MerpProfile
from gmscreen.campaign.wording import roll_text
from gmscreen.i18n import plural
from gmscreen.rules import merp
from gmscreen.rules.numbers import whole_or_none
from gmscreen.rules.tables import PendingChoice, PendingDie
from gmscreen.rules.tables_model import Lang, Row, TableSet
from gmscreen.rules.tables_nodes import Node
from gmscreen.text import inert_line
from gmscreen.tui.i18n import Translate
from gmscreen.tui.item_roll import ItemRoll, budget_of

INDENT = "    "


def table_label(tables: TableSet, table_id: str, lang: Lang) -> str:
    """``Table 2a`` for a table; an inner roll keeps its whole title (``Entry 93: ...``)."""
    if table_id not in tables:
        return table_id
    table = tables[table_id]
    title = table.title(lang)
    return title.split(":")[0] if table.kind == "main" else title


def table_tabs(
    tables: TableSet, browsable: list[str], current: str, t: Translate, lang: Lang
) -> Content:
    """The tables the GM moves between with ``[`` and ``]``, the current one lit, and its title."""
    tabs: list[str | tuple[str, str]] = [(t("items.tables"), "dim"), (" ", "dim")]
    for table_id in browsable:
        label = table_label(tables, table_id, lang).split()[-1]
        style = "reverse bold" if table_id == current else "bold"
        tabs += [(f" {label} ", style), (" ", "dim")]
    tabs += [("  ", "dim"), (tables[current].title(lang), "bold $accent")]
    return Content.assemble(*tabs)


def matching_rows(rows: Sequence[Row], query: str, lang: Lang) -> list[Row]:
    """The rows whose text holds ``query``, or whose range covers it (a roll typed)."""
    wanted = query.casefold().strip()
    number = whole_or_none(wanted)  # a roll the row covers: ASCII digits only
    return [
        row
        for row in rows
        if not wanted
        or wanted in row.short(lang).casefold()
        or (number is not None and row.lo <= number <= row.hi)
    ]


def prompt_text(roll: ItemRoll | None, top: bool, t: Translate, lang: Lang) -> str:
    """What the item screen asks for now: a row or a roll (``top``: on Table 1 or 2, else
    only browsing), the die awaited, a choice, or to keep or discard what was rolled."""
    if roll is None:
        return t("items.prompt_browse" if top else "items.prompt_browse_sub")
    pending = roll.resolution.pending
    if isinstance(pending, PendingDie):
        return t("items.prompt_die", purpose=pending.purpose(lang), die=pending.text)
    if isinstance(pending, PendingChoice):
        return t("items.prompt_choice", n=len(pending.options))
    if roll.settled is None:
        return t(
            "items.prompt_keep", cost=plural(t, "points", roll.rolled.cost if roll.rolled else 0)
        )
    return ""


def category_label(category: str, lang: Lang) -> str:
    labels = merp.CATEGORY_LABELS.get(category)  # type: ignore[call-overload]
    return str(labels[lang]) if labels else category


def budget_content(profile: MerpProfile, tables: TableSet, t: Translate, lang: Lang) -> Content:
    """The category, the points, and per top table: the cost, the rolls left, whether it fits."""
    budget = budget_of(profile)
    lines = [
        Content.assemble(
            (category_label(profile.category, lang), "bold"),
            ("   ", "dim"),
            t(
                "items.points",
                left=profile.points_left,
                total=profile.points_total,
                spent=profile.points_spent,
            ),
        )
    ]
    for table_id in merp.TOP_TABLES:
        row = budget.tables[table_id]
        fits = row.allowed and row.cost <= profile.points_left
        lines.append(
            Content.assemble(
                (f"{table_label(tables, table_id, lang)}: ", "bold"),
                t(
                    "items.cost",
                    cost=plural(t, "points", row.cost),
                    left=row.rolls_left,
                    limit=plural(t, "rolls", row.max_rolls),
                ),
                ("  ", "dim"),
                (t("items.allowed"), "$success")
                if fits
                else (t("items.not_allowed"), "bold $error"),
            )
        )
    return Content("\n").join(lines)


def _node_head(node: Node, tables: TableSet, t: Translate, lang: Lang) -> Content:
    # A kept item's tree comes from the journal: every text in it is shown inert.
    label = inert_line(table_label(tables, node.table, lang))
    if node.roll is None:
        return Content.assemble(
            (label, "bold"), ("  ", "dim"), (t("items.not_rolled", die=node.die), "bold $warning")
        )
    gap = ("  ", "dim")
    parts: list[str | tuple[str, str]] = [
        (label, "bold"),
        gap,
        (roll_text(node.roll, t), "$accent"),
    ]
    if node.range is not None:
        lo, hi = node.range
        parts += [gap, (f"[{lo}]" if lo == hi else f"[{lo}-{hi}]", "dim")]
    if node.markers:
        parts += [gap, (inert_line(" ".join(node.markers)), "bold $secondary")]
    return Content.assemble(*parts)


def tree_content(
    root: Node,
    tables: TableSet,
    t: Translate,
    lang: Lang,
    pending: PendingDie | PendingChoice | None = None,
) -> Content:
    """The roll so far: each node's die and value, its text, its choice; sub-rolls indented."""
    lines: list[Content] = []
    _lines(root, tables, t, lang, pending, 0, lines)
    return Content("\n").join(lines)


def _lines(
    node: Node,
    tables: TableSet,
    t: Translate,
    lang: Lang,
    pending: PendingDie | PendingChoice | None,
    depth: int,
    out: list[Content],
) -> None:
    pad = (INDENT * depth, "dim")
    out.append(Content.assemble(pad, _node_head(node, tables, t, lang)))
    if node.roll is not None:
        out.append(Content.assemble(pad, (INDENT, "dim"), inert_line(node.text(lang))))
    if node.choice is not None:
        label = inert_line(node.choice.label_en if lang == "en" else node.choice.label_es)
        how = t(f"items.choice_{node.choice.source}")
        out.append(Content.assemble(pad, (INDENT, "dim"), ("→ ", "bold"), label, " ", (how, "dim")))
    elif node.offered:
        waiting = isinstance(pending, PendingChoice) and pending.node is node
        style = "bold $warning" if waiting else "bold"
        out.append(Content.assemble(pad, (INDENT, "dim"), (t("items.choose"), style)))
        for option in node.offered:
            text = inert_line(option.text_en if lang == "en" else option.text_es)
            out.append(
                Content.assemble(
                    pad,
                    (INDENT * 2, "dim"),
                    (f"{option.index + 1}) ", "bold $secondary"),
                    (inert_line(option.label(lang)), "bold"),
                    (f": {text}" if text else "", "dim"),
                )
            )
    if isinstance(pending, PendingDie) and pending.node is node and pending.name is not None:
        out.append(
            Content.assemble(
                pad, (INDENT, "dim"), (t("items.waiting_die", die=pending.text), "bold $warning")
            )
        )
    for child in node.children:
        _lines(child, tables, t, lang, pending, depth + 1, out)


def stored_tree(data: Mapping[str, Any]) -> Node | None:
    """The tree of a journaled item (``Resolution.to_dict()``), or None if it has none."""
    raw = data.get("tree")
    if not isinstance(raw, Mapping) or "table" not in raw:
        return None
    try:
        return Node.from_dict(raw)
    except (KeyError, TypeError, ValueError):
        return None


def sources(data: Mapping[str, Any], t: Translate) -> Content:
    """Every die answered, in order, and where it came from (rolled, typed, picked)."""
    parts: list[str] = []
    for answer in data.get("inputs", ()):
        if not isinstance(answer, Mapping):
            continue
        roll = answer.get("roll")
        if isinstance(roll, Mapping):
            source = str(roll.get("source", "rolled"))
            parts.append(
                t(
                    "items.input_roll",
                    expr=roll.get("expr", ""),
                    total=roll.get("total", ""),
                    source=t(f"items.source_{source}"),
                )
            )
        elif "choice" in answer:
            parts.append(t("items.input_choice", n=int(answer["choice"]) + 1))
    return Content(", ".join(parts))
