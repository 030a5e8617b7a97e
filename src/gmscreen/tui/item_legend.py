"""The line under a table's rows that says what its markers mean (docs/RULES.md "Resolution"):
``*`` rolls 1a and 1b, ``@`` rolls 1f, ``#`` rolls 2a, and ``(+1)`` adds 1 to the d10 of the
sub-tables the other marker on the same row sends to.

Only the markers the table's rows carry are explained, so the GM reads it where it applies.
"""

from __future__ import annotations

from collections.abc import Iterable

from gmscreen.tui.i18n import Translate

MARKERS = ("*", "@", "#")  # in the order the legend names them
KEYS = {"*": "star", "@": "at", "#": "hash"}


def legend(markers: Iterable[tuple[str, ...]], t: Translate) -> str:
    """The legend of rows carrying ``markers`` (one tuple a row), or "" if none carries one."""
    present: set[str] = set()
    plus: set[str] = set()  # the markers a (+1) is next to
    for row in markers:
        present.update(m for m in row if m in KEYS)
        if "(+1)" in row:
            plus.update(m for m in row if m in KEYS)
    parts: list[str] = []
    for marker in MARKERS:
        if marker in present:
            parts.append(t(f"items.legend_{KEYS[marker]}"))
        if marker in plus:
            parts.append(t(f"items.legend_plus_{KEYS[marker]}"))
    return t("items.legend", marks=" · ".join(parts)) if parts else ""
