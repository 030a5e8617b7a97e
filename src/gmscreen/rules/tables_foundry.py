"""Foundry VTT RollTables: read from their JSON export, written as JSON Foundry imports.

A RollTable (v12 and v13 field names alike) has a ``name``, a ``formula`` and ``results``, each
with a ``range`` ``[lo, hi]``, a ``weight`` and its text: v12's ``text``; v13's ``description``
(and ``name`` for a result that draws a document). A result that draws another RollTable (v12:
``type`` ``document`` or ``pack`` with ``documentCollection`` ``RollTable`` and a
``documentId``; v13: a ``documentUuid`` naming a RollTable) becomes an ``@id`` reference when
that table is imported too (in the same run, or already a table of the GM's). Texts are HTML
in Foundry: tags are dropped, entities read, inline rolls (``[[/r 1d6]]``) become ``{1d6}``.

Exported tables are written as v12 writes them (``text``), which v12 imports as it is and v13
migrates (``text`` to ``description``) on import; ``version=13`` writes v13's own fields.
"""

from __future__ import annotations

import hashlib
import html
import re
from collections.abc import Collection, Mapping
from typing import Any

import msgspec

from gmscreen.rules.dice import DiceError, parse
from gmscreen.rules.tables_import import ImportProblem, die_for, escape_at, id_from_name
from gmscreen.rules.tables_short import MAX_ROWS, MAX_TEXT, ShortRow, ShortTable
from gmscreen.text import clip

TABLE_ICON = "icons/svg/d20-grey.svg"  # RollTable's default icon in v12 and v13
RESULT_ICON = "icons/svg/d20-black.svg"
_INLINE_ROLL = re.compile(
    r"\[\[\s*(?:/(?:r|roll|gmr|gmroll|br|broll|sr|selfroll)\s+)?([^\[\]]{1,60}?)\s*\]\]"
)
_ENRICHER = re.compile(r"@(?:UUID|Compendium|[A-Z][A-Za-z]*)\[[^\]]{0,300}\](?:\{([^}]{0,300})\})?")
_TAG = re.compile(r"<[^<>]{0,2000}>")
_BLOCK_END = re.compile(r"</(?:p|div|li|h[1-6])\s*>|<br\s*/?>", re.IGNORECASE)
_SHORT_DICE = re.compile(r"\{([^{}\n]{1,60})\}")


class FoundryTable(msgspec.Struct, frozen=True, gc=False):
    """One RollTable of an export: its Foundry id (to resolve other tables' draws) and data."""

    foundry_id: str
    name: str
    data: Mapping[str, Any]


def foundry_tables(data: object) -> list[FoundryTable]:
    """The RollTables of a parsed export: one object, or a list of them."""
    items = data if isinstance(data, list) else [data]
    found: list[FoundryTable] = []
    for n, item in enumerate(items, 1):
        if not isinstance(item, dict) or not isinstance(item.get("results"), list):
            where = "the file" if not isinstance(data, list) else f"item {n}"
            raise ImportProblem(f"{where} is no Foundry RollTable (no results)")
        name = item.get("name")
        ident = item.get("_id")
        found.append(
            FoundryTable(
                ident if isinstance(ident, str) else "",
                name.strip() if isinstance(name, str) else "",
                item,
            )
        )
    return found


def plain_text(markup: str) -> str:
    """Foundry's HTML as a line of text, with its inline rolls as ``{dice}``."""
    text = _BLOCK_END.sub(" ", markup)
    text = _TAG.sub("", text)
    text = _ENRICHER.sub(lambda m: m.group(1) or "", text)
    text = html.unescape(text)

    def roll(match: re.Match[str]) -> str:
        formula = match.group(1)
        try:
            return "{" + parse(formula).text + "}"
        except DiceError:
            return formula

    text = _INLINE_ROLL.sub(roll, text)
    return " ".join(text.split())


def _draws_table(result: Mapping[str, Any]) -> str | None:
    """The Foundry id of the RollTable a result draws, or None."""
    kind = result.get("type")
    uuid = result.get("documentUuid")
    if isinstance(uuid, str):  # v13: "RollTable.<id>" or "Compendium.<pack>.RollTable.<id>"
        parts = uuid.split(".")
        return parts[-1] if len(parts) >= 2 and parts[-2] == "RollTable" else None
    if kind in ("document", "pack", "compendium", 1, 2) and result.get("documentCollection") in (
        "RollTable",
        "RollTables",
    ):
        ident = result.get("documentId")
        return ident if isinstance(ident, str) else None
    return None


def _result_text(result: Mapping[str, Any]) -> str:
    for key in ("description", "text", "name"):
        value = result.get(key)
        if isinstance(value, str) and value.strip():
            return plain_text(value)
    return ""


def _number(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return value if isinstance(value, int) and abs(value) <= 1_000_000 else None


def from_foundry(
    table: FoundryTable, table_id: str, ids: Mapping[str, str], known: Collection[str]
) -> tuple[ShortTable, list[str]]:
    """The short form of a RollTable, and notes on what did not carry over. ``ids``: Foundry
    ids of the tables imported with it, to ours; ``known``: the ids a reference may name."""
    results = table.data["results"]
    if not results:
        raise ImportProblem(f"{table.name or table_id}: no results")
    if len(results) > MAX_ROWS:
        raise ImportProblem(f"{table.name or table_id}: more than {MAX_ROWS:,} results")
    notes: list[str] = []
    rows: list[tuple[int | None, int | None, int, str]] = []
    for n, result in enumerate(results, 1):
        if not isinstance(result, dict):
            raise ImportProblem(f"result {n} is no TableResult")
        text = escape_at(_result_text(result), known)
        drawn = _draws_table(result)
        if drawn is not None:
            target = ids.get(drawn) or _known_by_name(_result_text(result), known)
            if target is not None:
                text = f"@{target}"
            else:
                notes.append(
                    f"result {n} draws another RollTable ({clip(text or drawn)}), not imported: "
                    "kept as text (import that table too, then this one again, to roll it)"
                )
        text = text or "—"  # Foundry allows an empty result; a row needs words
        if len(text) > MAX_TEXT:
            raise ImportProblem(f"result {n}: longer than {MAX_TEXT:,} characters")
        span = result.get("range")
        lo, hi = (None, None)
        if isinstance(span, list) and len(span) == 2:
            lo, hi = _number(span[0]), _number(span[1])
        rows.append((lo, hi, max(_number(result.get("weight")) or 1, 1), text))
    title = table.name or table_id
    ranges = [(lo, hi) for lo, hi, _, _ in rows if lo is not None and hi is not None and lo <= hi]
    if len(ranges) == len(rows):
        ordered = sorted(rows, key=lambda r: (r[0] or 0, r[1] or 0))
        die = _die(table.data.get("formula"), ranges, title)
        short_rows = tuple(ShortRow(lo or 0, hi or 0, text, text) for lo, hi, _, text in ordered)
        return ShortTable(table_id, title, title, die, short_rows), notes
    # no usable ranges: Foundry would draw by weight
    total = 0
    weighted: list[ShortRow] = []
    for _, _, weight, text in rows:
        weighted.append(ShortRow(total + 1, total + weight, text, text, weight))
        total += weight
    return ShortTable(table_id, title, title, f"1d{total}", tuple(weighted), weights=True), notes


def _die(formula: object, ranges: list[tuple[int, int]], title: str) -> str:
    if isinstance(formula, str) and formula.strip():
        try:
            return parse(formula).text
        except DiceError:
            raise ImportProblem(
                f"{title}: formula {clip(formula)!r} is no dice expression gmscreen rolls "
                "(NdM+K): change it in Foundry, or import a CSV"
            ) from None
    return die_for(ranges)


def _known_by_name(name: str, known: Collection[str]) -> str | None:
    try:
        table_id = id_from_name(name)
    except ImportProblem:
        return None
    return table_id if table_id in known else None


# --- export ------------------------------------------------------------------------------------


def _foundry_text(text: str) -> str:
    """A short-form text as Foundry's HTML: ``<`` and ``&`` escaped, ``{1d6}`` as an inline
    roll, ``@@`` as ``@``."""

    def roll(match: re.Match[str]) -> str:
        try:
            return f"[[/r {parse(match.group(1)).text}]]"
        except DiceError:
            return match.group(0)

    parts = text.split("@@")
    return "@".join(_SHORT_DICE.sub(roll, html.escape(part, quote=False)) for part in parts)


def _result_id(table_id: str, index: int) -> str:
    """A Foundry document id (16 letters or digits), the same at every export of the table."""
    return hashlib.sha256(f"{table_id}\n{index}".encode()).hexdigest()[:16]


def to_foundry(short: ShortTable, version: int = 12) -> dict[str, Any]:
    """The RollTable as Foundry's "Export Data" writes one, for its "Import Data"."""
    results: list[dict[str, Any]] = []
    for index, row in enumerate(short.rows):
        text = _foundry_text(row.text_en)
        weight = row.weight or row.hi - row.lo + 1
        result: dict[str, Any] = {"_id": _result_id(short.id, index), "type": "text"}
        if version >= 13:
            result |= {"name": "", "img": RESULT_ICON, "description": text}
        else:
            result |= {
                "text": text,
                "img": RESULT_ICON,
                "documentCollection": "",
                "documentId": None,
            }
        result |= {"weight": weight, "range": [row.lo, row.hi], "drawn": False, "flags": {}}
        results.append(result)
    return {
        "name": short.title_en,
        "img": TABLE_ICON,
        "description": "",
        "results": results,
        "formula": short.die,
        "replacement": True,
        "displayRoll": True,
        "folder": None,
        "sort": 0,
        "flags": {},
    }
