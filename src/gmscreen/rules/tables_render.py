"""Plain-text rendering of roll results: an indented tree, one line per roll."""

from __future__ import annotations

from gmscreen.rules.tables_model import Lang
from gmscreen.rules.tables_nodes import Node

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
