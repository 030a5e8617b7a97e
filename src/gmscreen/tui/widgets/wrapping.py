"""Lines that wrap under their own text: a log line under what happened (past its time and
name), a card line under its first word, so that a narrow terminal shows every word of a line
instead of cutting its end off."""

from __future__ import annotations

from textual.content import Content

MIN_TEXT = 16  # cells a hanging indent always leaves for the text beside it
FALLBACK_INDENT = 2  # when the head is too wide to hang under (a long name in a narrow log)


def hanging(line: Content, width: int, start: int, indent: int | None = None) -> list[Content]:
    """``line`` in rows of at most ``width`` cells (when its words allow it).

    The first ``start`` characters are the line's head (a log line's time and name); the text
    after them wraps, and the rows that carry it on are indented by ``indent`` cells (by default
    as wide as the head, so they line up under the text's start). A head too wide to leave the
    text ``MIN_TEXT`` cells goes in the first row with the rest, the others indented a little.
    """
    if width <= 0 or line.cell_length <= width:
        return [line]
    head, body = line.divide([start]) if start else (Content(""), line)
    hang = head.cell_length if indent is None else indent
    if hang > width - MIN_TEXT:
        hang = FALLBACK_INDENT
        head, body = Content(""), line
    rows = body.wrap(max(1, width - max(hang, head.cell_length)))
    pad = Content(" " * hang)
    return [head + rows[0], *(pad + row for row in rows[1:])]
