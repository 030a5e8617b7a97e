"""TOML text read with bounds: whatever a file holds, one :class:`Problem` with its line, never a
traceback.

``tomllib`` refuses three things in ways of its own: bad syntax (``TOMLDecodeError``, with a
line and column), an integer of more digits than Python converts (``ValueError``: over 4,300)
and nesting deeper than the interpreter's stack (``RecursionError``). A campaign file and the
GM's own config file (:mod:`gmscreen.user_config`) are read through :func:`load_toml`, so each
of them is one message naming the file and the line. The size of the text is bounded where the
file is read, before any of it is decoded.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from gmscreen.campaign.bounds import MAX_DEPTH, MAX_INT
from gmscreen.campaign.errors import CampaignFileError, Problem

_TOML_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)")


_TOML_HINTS = (
    ("illegal character '\\n'", "expected a closing quote before the end of the line"),
    ("invalid value", 'expected a value: a number, "text" in quotes, true, false or [a, list]'),
    ("invalid statement", "expected key = value or a [table] header"),
    ("expected newline or end of document", "expected one key = value a line"),
)

_DIGITS = re.compile(r"\d{4000,}")


def load_toml(text_: str, path: Path) -> dict[str, Any]:
    """The tables of ``text_`` (read from ``path``); raises :class:`CampaignFileError` with the
    one problem that stopped the reading."""
    try:
        return tomllib.loads(text_)
    except tomllib.TOMLDecodeError as error:
        raise CampaignFileError([toml_syntax_problem(error, path, text_)]) from None
    except ValueError as error:  # a value Python refuses: an integer of over 4,300 digits, a date
        if "integer string conversion" not in str(error):
            raise CampaignFileError([Problem(path, 0, f"a value out of range: {error}")]) from None
        message = f"number out of range (at most {MAX_INT:,} either side of 0)"
        raise CampaignFileError([Problem(path, _huge_number_line(text_), message)]) from None
    except RecursionError:
        raise CampaignFileError(
            [Problem(path, _deepest_line(text_), f"nested more than {MAX_DEPTH} deep")]
        ) from None


def toml_syntax_problem(error: tomllib.TOMLDecodeError, path: Path, text_: str) -> Problem:
    message = str(error)
    match = _TOML_POSITION.search(message)
    line, column = (int(match[1]), int(match[2])) if match else (text_.count("\n") + 1, 0)
    reason = _TOML_POSITION.sub("", message).replace("(at end of document)", "").strip().lower()
    hint = next((h for start, h in _TOML_HINTS if reason.startswith(start)), "")
    if hint and "expected" not in reason:
        reason += f" ({hint})"
    return Problem(path, line, f"not valid TOML: {reason}", column)


def _huge_number_line(text_: str) -> int:
    """The line of the first run of thousands of digits (what ``int()`` refuses), or 0."""
    match = _DIGITS.search(text_)
    return text_.count("\n", 0, match.start()) + 1 if match else 0


def _deepest_line(text_: str) -> int:
    """The line with the most opening brackets: where a value nests too deep."""
    lines = text_.splitlines() or [""]
    deepest = max(range(len(lines)), key=lambda n: lines[n].count("[") + lines[n].count("{"))
    return deepest + 1
