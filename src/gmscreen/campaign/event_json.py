"""The JSON side of events and records: msgspec's errors in our words, and the bounds of files.

msgspec decodes every journal line into typed records (:mod:`gmscreen.campaign.events`) and
names what is wrong as ``Expected `int`, got `str` - at `$.data.roll.dice[0]```. The GM reads
``data.roll.dice[0]: expected a whole number`` instead: :func:`error_text` translates one into
the other. Values that are plain JSON on purpose (an item's rolled tree, a character's plain
form, ``changes``) are checked against the same bounds by :func:`plain_problem`.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from gmscreen.campaign.bounds import MAX_DEPTH, MAX_INT, MAX_TEXT

Changes = dict[str, list[Any]]  # field -> [before, after], plain values


class EventFormatError(ValueError):
    """An event line that does not have the expected shape; the message names the key."""


# msgspec's names of JSON types, as the GM reads them.
_TYPE_WORDS = {
    "int": "a whole number",
    "str": "text",
    "bool": "true or false",
    "object": "an object",
    "array": "a list",
    "null": "null",
    "float": "a number with a fraction",
}
# msgspec's messages, as its errors word them
_EXPECTED_GOT = re.compile(r"^Expected `([^`]+)`, got `([^`]+)`$")
_BOUND = re.compile(r"^Expected `(int|str|array|object)` (?:of length )?(>=|<=) (-?\d+)$")
_MISSING = re.compile(r"^Object missing required field `([^`]+)`$")
_ENUM = re.compile(r"^Invalid enum value (.+)$")
_AT = re.compile(r"(?s)^(.*) - at `\$(.*)`$")


def _words(types: str) -> str:
    return " or ".join(_TYPE_WORDS.get(t, t) for t in types.split(" | "))


def _message(text: str) -> str:
    """One msgspec message (without its path) in our words."""
    if match := _EXPECTED_GOT.match(text):
        return f"expected {_words(match[1])}"
    if match := _BOUND.match(text):
        kind, op, number = match[1], match[2], int(match[3])
        if kind == "int":
            return f"must be at least {number}" if op == ">=" else f"must be at most {number}"
        what = "characters" if kind == "str" else "entries"
        if op == "<=":
            return f"too long: more than {number:,} {what}"
        return f"too short: fewer than {number:,} {what}"
    if match := _MISSING.match(text):
        return f"missing {match[1]}"
    if match := _ENUM.match(text):
        return f"unexpected value {match[1]}"
    if text in ("Integer value out of range", "Number out of range"):
        return f"number out of range (at most {MAX_INT:,} either side of 0)"
    return text


_UNNAMED = re.compile(r"(?:\[\.\.\.\])+")


def key_of(path: str, root: str = "") -> str:
    """``$.data.roll.dice[0]``'s path part (``.roll.dice[0]``) under ``root``: a dotted key.

    ``[...]`` (a value in a mapping, whose key msgspec does not give) reads ``.…``, once for
    values in values.
    """
    path = _UNNAMED.sub(".…", path)
    return (root + path) if root else path.lstrip(".")


def error_text(error: msgspec.MsgspecError, root: str = "") -> str:
    """``key: what was expected`` for a msgspec error; ``root`` is prefixed to its path.

    An error our own records raise while decoding (their ``__post_init__``) reads
    ``field: message`` already, and gets the record's path in front.
    """
    text = str(error)
    match = _AT.match(text)
    body, path = (match[1], match[2]) if match else (text, "")
    key = key_of(path, root)
    if not isinstance(error, msgspec.ValidationError):  # a DecodeError: the JSON itself
        return f"not valid JSON: {_syntax(body)}"
    message = _message(body)
    if message is body and ": " in body and _MISSING.match(body) is None:
        # ``field: message`` from a record's own check: the field goes after the record's path.
        return f"{key}.{body}" if key else body
    return f"{key}: {message}" if key else message


_BYTE = re.compile(r"\(byte (\d+)\)")


def _syntax(text: str) -> str:
    """msgspec's ``JSON is malformed: invalid character (byte 4)``, as ``... (column 5)``."""
    text = text.removeprefix("JSON is malformed: ")
    if text == "Input data was truncated":
        return "the line ends before the value does"
    return _BYTE.sub(lambda m: f"(column {int(m[1]) + 1})", text)


def plain_problem(value: Any, key: str) -> tuple[str, str] | None:
    """Where and what is wrong with a plain JSON value (numbers, text, lists, objects), or None.

    A value is fine while it nests at most :data:`MAX_DEPTH` deep, its whole numbers stay
    within :data:`MAX_INT` of 0 and its texts (keys too) are at most :data:`MAX_TEXT` long.
    Walked with a stack, not by recursion: a value nested 10,000 deep is a message too.
    """
    stack: list[tuple[Any, str, int]] = [(value, key, 0)]
    while stack:
        item, where, depth = stack.pop()
        kind = type(item)
        if kind is int:
            if not -MAX_INT <= item <= MAX_INT:
                return where, f"number out of range (at most {MAX_INT:,} either side of 0)"
        elif kind is str:
            if len(item) > MAX_TEXT:
                return where, f"too long: more than {MAX_TEXT:,} characters"
        elif kind is list or kind is tuple:
            if depth >= MAX_DEPTH:
                return where, f"nested more than {MAX_DEPTH} deep"
            stack.extend((v, f"{where}[{n}]", depth + 1) for n, v in enumerate(item))
        elif kind is dict:
            if depth >= MAX_DEPTH:
                return where, f"nested more than {MAX_DEPTH} deep"
            for k, v in item.items():
                if type(k) is str and len(k) > MAX_TEXT:
                    return where, f"a key is too long: more than {MAX_TEXT:,} characters"
                stack.append((v, f"{where}.{k}", depth + 1))
    return None


def check_plain(value: Any, key: str) -> None:
    """:func:`plain_problem` as a ``ValueError`` (what a record's ``__post_init__`` raises)."""
    problem = plain_problem(value, key)
    if problem is not None:
        raise ValueError(f"{problem[0]}: {problem[1]}")


def check_changes(changes: Changes) -> None:
    """A record's ``changes``: field -> [before, after], each a bounded plain value."""
    for pair in changes.values():
        if type(pair) is not list or len(pair) != 2:
            raise ValueError("changes: expected field -> [before, after]")
    check_plain(changes, "changes")
