"""Numbers a person types: ASCII digits, an optional sign where one is allowed, a bounded length.

Python's own readers are wider than a keyboard's digits: ``str.isdigit()`` is true for ``²``
(a key on AZERTY keyboards), ``int()`` takes Arabic-Indic and other scripts' digits and ``1_000``,
and a 5,000-digit string makes ``int()`` raise (past ``sys.get_int_max_str_digits``). Every field,
dialog, dice text and CLI flag reads its number here instead, so each one accepts the same thing
and refuses the rest with a message that names the field.
"""

from __future__ import annotations

import re

from gmscreen.rules.errors import CodedError
from gmscreen.text import clip

MAX_DIGITS = 9  # far above any figure of the rules; far below int()'s limit and any slowness

_NUMBER = re.compile(r"[ \t]*([+-]?)([0-9]+)[ \t]*")


class NumberError(CodedError, ValueError):
    """A typed number that is not one: ``field`` names where it was typed."""


def whole_or_none(text: str, *, signed: bool = False, max_digits: int = MAX_DIGITS) -> int | None:
    """The number ``text`` spells in ASCII digits (spaces around it ignored; a leading ``+`` or
    ``-`` only if ``signed``), or None: empty, another script's digits, ``1_000``, ``+-5``, or
    more than ``max_digits`` digits."""
    match = _NUMBER.fullmatch(text)
    if match is None:
        return None
    sign, digits = match.groups()
    if (sign and not signed) or len(digits) > max_digits:
        return None
    value = int(digits)
    return -value if sign == "-" else value


def all_digits(text: str) -> bool:
    """``text`` is ASCII digits (spaces around them aside), however many: a number, maybe too
    long for :func:`whole_or_none`, rather than a dice expression or a word."""
    match = _NUMBER.fullmatch(text)
    return match is not None and not match.group(1)


def parse_whole(
    text: str,
    field: str,
    *,
    low: int | None = 0,
    high: int | None = None,
    signed: bool = False,
    max_digits: int = MAX_DIGITS,
) -> int:
    """``text`` as a number from ``low`` to ``high`` (None: no bound), or a :class:`NumberError`
    naming ``field`` and what is allowed."""
    value = whole_or_none(text, signed=signed, max_digits=max_digits)
    if value is None:
        if signed:
            raise NumberError(code="number_signed", field=field, text=clip(text), digits=max_digits)
        raise NumberError(code="number_whole", field=field, text=clip(text), digits=max_digits)
    if (low is not None and value < low) or (high is not None and value > high):
        if high is None:
            raise NumberError(code="number_at_least", field=field, text=clip(text), low=low)
        if low is None:
            raise NumberError(code="number_at_most", field=field, text=clip(text), high=high)
        raise NumberError(code="number_range", field=field, text=clip(text), low=low, high=high)
    return value
