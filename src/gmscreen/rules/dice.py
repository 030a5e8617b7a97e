"""Dice expressions and rolls.

Every die that gmscreen uses passes through here, so that every roll records the expression,
each die, the modifier, the total and where the numbers came from: ``rolled`` by the app from an
injected ``random.Random``, ``typed`` by the GM from a player's physical dice, or ``picked`` by
the GM's fiat (a row of a table, a kind of madness).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any, Literal

import msgspec

from gmscreen.rules.errors import CodedError
from gmscreen.rules.numbers import whole_or_none
from gmscreen.text import clip

RollSource = Literal["rolled", "typed", "picked"]
SOURCES: tuple[RollSource, ...] = ("rolled", "typed", "picked")

MAX_DICE = 100
MAX_SIDES = 1000
MAX_MODIFIER = 10_000

# ASCII digits only ([0-9], not \d: that is any script's digits), each number of a bounded
# length (whole_or_none), so that ``1d6+`` and 4,400 digits is a message, not int()'s error.
_EXPR = re.compile(r"^\s*([0-9]*)\s*[dD]\s*([0-9]+|%)\s*(?:([+-])\s*([0-9]+))?\s*$")


class DiceError(CodedError, ValueError):
    """A dice expression or a typed value that cannot be used. The message is for the GM."""


class DiceExpr(msgspec.Struct, frozen=True, gc=False):
    """A parsed ``NdM+K`` expression."""

    count: int
    sides: int
    modifier: int = 0

    @property
    def text(self) -> str:
        base = f"{self.count}d{self.sides}"
        if self.modifier > 0:
            return f"{base}+{self.modifier}"
        if self.modifier < 0:
            return f"{base}{self.modifier}"
        return base

    @property
    def lowest(self) -> int:
        return self.count + self.modifier

    @property
    def highest(self) -> int:
        return self.count * self.sides + self.modifier

    def with_modifier(self, extra: int) -> DiceExpr:
        return DiceExpr(self.count, self.sides, self.modifier + extra)

    def __str__(self) -> str:
        return self.text


def parse(expression: str | DiceExpr) -> DiceExpr:
    """Parse ``expression`` or raise a :class:`DiceError` that quotes it and says what is allowed."""
    if isinstance(expression, DiceExpr):
        return expression
    match = _EXPR.match(expression)
    if match is None:
        raise DiceError(
            code="dice_expression", expr=clip(expression), max_dice=MAX_DICE, max_sides=MAX_SIDES
        )
    count_text, sides_text, sign, mod_text = match.groups()
    expression = clip(expression)
    count = whole_or_none(count_text) if count_text else 1
    sides = 100 if sides_text == "%" else whole_or_none(sides_text)
    if count is None or not 1 <= count <= MAX_DICE:
        raise DiceError(
            code="dice_count",
            expr=expression,
            count=clip(count_text),
            max_dice=MAX_DICE,
            max_sides=MAX_SIDES,
        )
    if sides is None or not 2 <= sides <= MAX_SIDES:
        raise DiceError(
            code="dice_sides",
            expr=expression,
            sides=clip(sides_text),
            max_dice=MAX_DICE,
            max_sides=MAX_SIDES,
        )
    modifier = whole_or_none(mod_text) if mod_text else 0
    if modifier is None or modifier > MAX_MODIFIER:
        raise DiceError(code="dice_modifier", expr=expression, high=MAX_MODIFIER)
    if sign == "-":
        modifier = -modifier
    return DiceExpr(count, sides, modifier)


# A d100 that shows 100 is written 00 (docs/RULES.md "The madness check")
PERCENTILE = ("d100", "1d100")


class Roll(msgspec.Struct, frozen=True, gc=False):
    """One roll of one expression, with every die and where it came from."""

    expr: str
    dice: tuple[int, ...]
    modifier: int
    total: int
    source: RollSource

    def describe(self, sources: Mapping[str, str] | None = None) -> str:
        """``"1d6: 4"``, ``"2d6+1: 3+4+1 = 8"``; typed and picked rolls say so.

        ``sources`` gives the words for ``typed`` and ``picked`` in the reader's language.
        """
        if len(self.dice) > 1 or (self.dice and self.modifier):
            parts = "+".join(str(d) for d in self.dice)
            if self.modifier:
                parts += f"{self.modifier:+d}"
            body = f"{parts} = {self.total}"
        elif self.expr in PERCENTILE and self.total == 100:
            body = "00"  # as the dice show it, and as the GM types it in a check
        else:
            body = str(self.total)
        word = (sources or {}).get(self.source, self.source)
        suffix = "" if self.source == "rolled" else f" ({word})"
        return f"{self.expr}: {body}{suffix}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "expr": self.expr,
            "dice": list(self.dice),
            "modifier": self.modifier,
            "total": self.total,
            "source": self.source,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Roll:
        source = data["source"]
        if source not in SOURCES:
            raise DiceError(f"unknown roll source {source!r}: expected one of {', '.join(SOURCES)}")
        return cls(
            expr=str(data["expr"]),
            dice=tuple(int(d) for d in data["dice"]),
            modifier=int(data["modifier"]),
            total=int(data["total"]),
            source=source,
        )


def roll(expression: str | DiceExpr, rng: random.Random) -> Roll:
    """Roll ``expression`` with ``rng`` (seed it for repeatable rolls)."""
    expr = parse(expression)
    dice = tuple(rng.randint(1, expr.sides) for _ in range(expr.count))
    return Roll(expr.text, dice, expr.modifier, sum(dice) + expr.modifier, "rolled")


def _read_die(text: str, sides: int, expression: str) -> int:
    text = text.strip()
    value = whole_or_none(text)
    if value is None:
        raise DiceError(code="typed_not_number", text=clip(text), expr=expression)
    # Physical dice: a d100 shows 00 for 100 and a d10 shows 0 for 10.
    if sides == 100 and text == "00":
        value = 100
    elif sides == 10 and value == 0:
        value = 10
    if not 1 <= value <= sides:
        raise DiceError(code="typed_off_die", text=text, sides=sides)
    return value


def typed(expression: str | DiceExpr, value: int | str) -> Roll:
    """A roll the GM typed from physical dice.

    ``value`` is either the total (``"8"``, or ``"00"`` on a d100) or each die separated by commas
    or spaces (``"3,5"``); both are checked against what the expression can give.
    """
    expr = parse(expression)
    if isinstance(value, int):
        value = str(value)
    pieces = [p for p in re.split(r"[,\s]+", value.strip()) if p]
    if len(pieces) > MAX_DICE:  # more dice than any expression has: said without reading them
        raise DiceError(code="typed_count", expr=expr.text, count=expr.count, typed=len(pieces))
    if not pieces:
        raise DiceError(code="typed_nothing", expr=expr.text)
    if len(pieces) > 1:
        if len(pieces) != expr.count:
            raise DiceError(code="typed_count", expr=expr.text, count=expr.count, typed=len(pieces))
        dice = tuple(_read_die(p, expr.sides, expr.text) for p in pieces)
        return Roll(expr.text, dice, expr.modifier, sum(dice) + expr.modifier, "typed")
    if expr.count == 1 and expr.modifier == 0:
        die = _read_die(pieces[0], expr.sides, expr.text)
        return Roll(expr.text, (die,), 0, die, "typed")
    text = pieces[0]
    total = whole_or_none(text, signed=True)
    if total is None:
        raise DiceError(code="typed_not_number", text=clip(text), expr=expr.text)
    if not expr.lowest <= total <= expr.highest:
        raise DiceError(
            code="typed_total", total=total, expr=expr.text, low=expr.lowest, high=expr.highest
        )
    dice = (total - expr.modifier,) if expr.count == 1 else ()
    return Roll(expr.text, dice, expr.modifier, total, "typed")


def picked(expression: str | DiceExpr, total: int) -> Roll:
    """A value the GM chose instead of rolling (a table row, a kind of madness)."""
    expr = parse(expression)
    if not expr.lowest <= total <= expr.highest:
        raise DiceError(
            code="picked_range", total=total, expr=expr.text, low=expr.lowest, high=expr.highest
        )
    dice = (total - expr.modifier,) if expr.count == 1 else ()
    return Roll(expr.text, dice, expr.modifier, total, "picked")
