"""Plain-text rendering of roll results: an indented tree, one line per roll."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # Only for types: the recap and the roll log import this module to name items, and a
    # madness-only campaign should not load the tables engine at start-up for that.
    from gmscreen.rules.tables_model import Lang
    from gmscreen.rules.tables_nodes import Node

_FIRST_SENTENCE = re.compile(r"[.;] ")
TITLE_MAX = 60

_WORDS: dict[str, dict[Lang, str]] = {
    "picked": {"en": "picked", "es": "elegido"},
    "context": {"en": "by the kind of item", "es": "por el tipo de objeto"},
    "choose": {"en": "choose", "es": "elige"},
    "pending": {"en": "not rolled yet", "es": "sin tirar"},
}


def _word(key: str, lang: Lang) -> str:
    return _WORDS[key][lang]


def node_line(node: Node, lang: Lang = "en") -> str:
    """``merp-1a 1d10+1: 7+1 = 8 [5-8]: +15 bonus, ...`` for one node."""
    if node.roll is None:
        return f"{node.table} {node.die}: {_word('pending', lang)}"
    head = f"{node.table} {node.roll.describe()}"
    if node.range is not None:
        lo, hi = node.range
        head += f" [{lo}]" if lo == hi else f" [{lo}-{hi}]"
    if node.markers:
        head += " " + " ".join(node.markers)
    return f"{head}: {node.text(lang)}"


def render_tree(node: Node, lang: Lang = "en", indent: str = "  ") -> str:
    """The whole result, children indented under the roll that asked for them."""
    lines: list[str] = []
    _render(node, lang, indent, 0, lines)
    return "\n".join(lines)


def _render(node: Node, lang: Lang, indent: str, depth: int, lines: list[str]) -> None:
    pad = indent * depth
    lines.append(pad + node_line(node, lang))
    if node.choice is not None:
        label = node.choice.label_en if lang == "en" else node.choice.label_es
        lines.append(f"{pad}{indent}-> {label} ({_word(node.choice.source, lang)})")
    elif node.offered:
        lines.append(f"{pad}{indent}? {_word('choose', lang)}:")
        for option in node.offered:
            lines.append(f"{pad}{indent}{indent}{option.index + 1}) {option.label(lang)}")
    for child in node.children:
        _render(child, lang, indent, depth + 1, lines)


def title_of(text: str, fallback: str, limit: int | None = TITLE_MAX) -> str:
    """The item's name: the first sentence of its entry, cut at a word near ``limit`` letters
    (None: the whole sentence)."""
    first = _FIRST_SENTENCE.split(text.strip(), maxsplit=1)[0].strip().rstrip(".")
    if limit is not None and len(first) > limit:
        first = first[:limit].rsplit(" ", 1)[0].rstrip(",;:") + "…"
    return first or fallback


def item_title(item: Mapping[str, Any], lang: str, limit: int | None = TITLE_MAX) -> str:
    """A journaled item's name in ``lang``.

    The journal keeps the English title (``title``, cut at ``TITLE_MAX``) and the rolled tree
    (keys and numbers); another language, or another ``limit``, reads the name off the tree
    again, so a campaign reads well in either.
    """
    title = str(item.get("title", ""))
    tree = item.get("tree")
    raw = tree.get("tree") if isinstance(tree, Mapping) else None
    # The tables carry English and Spanish; any other language keeps the English title.
    if lang not in ("en", "es") or not isinstance(raw, Mapping) or "table" not in raw:
        return title
    if lang == "en" and limit == TITLE_MAX:
        return title
    from gmscreen.rules.tables_nodes import Node

    try:
        node = Node.from_dict(raw)
    except (KeyError, TypeError, ValueError):
        return title
    return title_of(node.text("es" if lang == "es" else "en"), title, limit)
