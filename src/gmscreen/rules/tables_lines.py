"""Where each table of a TOML file is written: the lines a problem's ``file:line`` points at.

``tomllib`` gives values, not positions. A GM's table file is checked table by table, and each
problem must name the line to fix, so this scans the text (already parsed by ``tomllib``, so its
syntax is valid) just enough to find, for each ``[[tables]]`` entry in order: its header's line,
the line of each of its keys, and the line where each of its rows begins (an element of a
``rows = [...]`` array, or a ``[[tables.rows]]`` header). Strings and comments are skipped, so
brackets inside a text never count. Tables written inline (``tables = [{...}]``) all point at
the ``tables`` key's line.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class TableSpots:
    """The lines of one ``[[tables]]`` entry (1-based)."""

    line: int
    keys: dict[str, int] = field(default_factory=dict)
    rows: list[int] = field(default_factory=list)

    def key(self, name: str) -> int:
        """The line of key ``name``, or the table's own line if it is not written there."""
        return self.keys.get(name, self.line)

    def row(self, index: int) -> int:
        """The line where row ``index`` (0-based, in file order) begins, or the table's line."""
        return self.rows[index] if 0 <= index < len(self.rows) else self.line


def _skip_string(text: str, i: int) -> int:
    """The index just past the string that starts at ``i`` (any of TOML's four kinds)."""
    quote = text[i]
    if text.startswith(quote * 3, i):
        end = text.find(quote * 3, i + 3)
        if end < 0:
            return len(text)
        end += 3
        while end < len(text) and text[end] == quote:  # """a"""" ends with the last three
            end += 1
        return end
    j = i + 1
    while j < len(text):
        c = text[j]
        if c == "\\" and quote == '"':
            j += 2
            continue
        if c == quote or c == "\n":
            return j + 1
        j += 1
    return j


def _plain_name(raw: str) -> str:
    """``[[ "tables" . rows ]]`` and ``"title".en`` as ``tables.rows`` and ``title.en``."""
    return ".".join(part.strip().strip("\"'") for part in raw.split("."))


def locate_tables(text: str) -> list[TableSpots]:
    """The spots of every ``[[tables]]`` entry of ``text``, in file order."""
    spots: list[TableSpots] = []
    current: TableSpots | None = None
    section = ""  # the header we are under: "" (top), "tables", "tables.rows", ...
    inline_line = 0  # the line of a top-level ``tables = [...]``
    value_key = ""  # the key whose value (an array or inline table) is being read
    depth = 0
    line = 1
    line_start = True
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            line_start = True
            i += 1
            continue
        if c in " \t\r":
            i += 1
            continue
        if c == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if c in "\"'":
            end = _skip_string(text, i)
            line += text.count("\n", i, end)
            i = end
            line_start = False
            continue
        if depth == 0 and line_start:
            line_start = False
            if c == "[":
                double = text.startswith("[[", i)
                end = text.find("]", i)
                end = n if end < 0 else end
                section = _plain_name(text[i + (2 if double else 1) : end])
                if double and section == "tables":
                    current = TableSpots(line)
                    spots.append(current)
                elif double and section == "tables.rows" and current is not None:
                    current.rows.append(line)
                i = end + 1
                continue
            j = i
            while j < n and text[j] not in "=\n":
                j = _skip_string(text, j) if text[j] in "\"'" else j + 1
            if j < n and text[j] == "=":
                key = _plain_name(text[i:j])
                first = key.split(".")[0]
                if section == "tables" and current is not None:
                    current.keys.setdefault(first, line)
                elif section == "" and first == "tables":
                    inline_line = line
                value_key = first if section == "tables" else ""
                i = j + 1
            else:
                i = j
            continue
        if c in "[{":
            depth += 1
            if depth == 2 and value_key == "rows" and current is not None:
                current.rows.append(line)
        elif c in "]}":
            depth = max(0, depth - 1)
        i += 1
    if not spots and inline_line:
        return [TableSpots(inline_line)]
    return spots
