"""Results of a roll on a table: the :class:`Node` tree, the choices, and their plain-dict form.

Split from :mod:`gmscreen.rules.tables` (the engine) so each stays readable.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Literal

import msgspec

from gmscreen.rules.dice import SOURCES, DiceExpr, Roll, parse
from gmscreen.rules.tables_model import Lang, Option, Row

ChoiceSource = Literal["picked", "context"]

# Caches keyed by object identity (the entry keeps the object alive, so its id stays its own):
# hashing a DiceExpr runs Python code, and these are hit for every die of every roll.
_TEXTS: dict[int, tuple[DiceExpr, str]] = {}
_WITH: dict[tuple[int, int], tuple[DiceExpr, DiceExpr]] = {}
CACHE_LIMIT = 4096


def die_text(expr: DiceExpr) -> str:
    hit = _TEXTS.get(id(expr))
    if hit is not None and hit[0] is expr:
        return hit[1]
    if len(_TEXTS) > CACHE_LIMIT:
        _TEXTS.clear()
    text = expr.text
    _TEXTS[id(expr)] = (expr, text)
    return text


def expr_with(die: DiceExpr, modifier: int) -> DiceExpr:
    if not modifier:
        return die
    key = (id(die), modifier)
    hit = _WITH.get(key)
    if hit is not None and hit[0] is die:
        return hit[1]
    if len(_WITH) > CACHE_LIMIT:
        _WITH.clear()
    expr = die.with_modifier(modifier)
    _WITH[key] = (die, expr)
    return expr


class ChoiceOption(msgspec.Struct, frozen=True, gc=False):
    """One alternative offered to the GM; ``index`` is what :meth:`Resolution.choose` takes."""

    index: int
    key: str
    label_en: str
    label_es: str
    text_en: str
    text_es: str

    def label(self, lang: Lang) -> str:
        return self.label_en if lang == "en" else self.label_es

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "key": self.key,
            "label": self.label_en,
            "label_es": self.label_es,
            "text": self.text_en,
            "text_es": self.text_es,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ChoiceOption:
        return cls(
            int(data["index"]),
            str(data["key"]),
            str(data["label"]),
            str(data["label_es"]),
            str(data["text"]),
            str(data["text_es"]),
        )


class Choice(msgspec.Struct, frozen=True, gc=False):
    """The alternative taken: ``picked`` by the GM, or by the ``context`` the roll came with."""

    key: str
    label_en: str
    label_es: str
    source: ChoiceSource

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label_en,
            "label_es": self.label_es,
            "source": self.source,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Choice:
        source = data["source"]
        if source not in ("picked", "context"):
            raise ValueError(f"unknown choice source {source!r}")
        return cls(str(data["key"]), str(data["label"]), str(data["label_es"]), source)


class Node:
    """One roll on one table and everything it led to."""

    __slots__ = (
        "_option",
        "_row",
        "_text",
        "children",
        "choice",
        "context",
        "dice",
        "die",
        "expr",
        "markers",
        "modifier",
        "offered",
        "range",
        "roll",
        "row_index",
        "table",
    )

    def __init__(self, table: str, expr: DiceExpr, modifier: int, context: str | None) -> None:
        self.table = table
        self.expr = expr
        self.die = die_text(expr)
        self.modifier = modifier
        self.context = context
        self.roll: Roll | None = None
        self.range: tuple[int, int] | None = None
        self.row_index: int | None = None
        self.markers: tuple[str, ...] = ()
        self.dice: dict[str, Roll] = {}
        self.choice: Choice | None = None
        self.offered: tuple[ChoiceOption, ...] = ()
        self.children: list[Node] = []
        self._row: Row | None = None
        self._option: Option | None = None
        self._text: tuple[str, str] | None = None

    @property
    def row(self) -> Row | None:
        """The table's row this roll landed on (None for a tree read back from a file)."""
        return self._row

    @property
    def option(self) -> Option | None:
        """The alternative taken, for a roll made here (None when read back from a file)."""
        return self._option

    # -- text ---------------------------------------------------------------------------------

    def text(self, lang: Lang) -> str:
        """The entry's text with every die rolled so far written in (the chosen alternative too)."""
        if self._text is not None:
            return self._text[0] if lang == "en" else self._text[1]
        row = self._row
        if row is None:
            return ""
        exprs: Mapping[str, DiceExpr] = row.dice
        option = self._option
        if option is not None and option.dice:
            exprs = {**row.dice, **option.dice}
        template = row.text_en if lang == "en" else row.text_es
        out = template.render(self.dice, exprs)
        if option is not None:
            extra = (option.text_en if lang == "en" else option.text_es).render(self.dice, exprs)
            if extra:  # a column reading may add nothing (1a for a missile weapon)
                out = f"{out} {extra}"
        return out

    @property
    def text_en(self) -> str:
        return self.text("en")

    @property
    def text_es(self) -> str:
        return self.text("es")

    # -- walking --------------------------------------------------------------------------------

    def walk(self) -> Iterator[Node]:
        """This node and every node below it, depth first, in the order they were rolled."""
        yield self
        for child in self.children:
            yield from child.walk()

    def find(self, table_id: str) -> list[Node]:
        return [n for n in self.walk() if n.table == table_id]

    @property
    def raw(self) -> int | None:
        """The face of the die (before the modifier), or None for a picked row."""
        if self.roll is None or len(self.roll.dice) != 1:
            return None
        return self.roll.dice[0]

    # -- serialization ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        roll = self.roll
        out: dict[str, Any] = {
            "table": self.table,
            "die": self.die,
            "roll": self.raw,
            "modifier": self.modifier,
            "total": None if roll is None else roll.total,
            "source": None if roll is None else roll.source,
            "range": None if self.range is None else list(self.range),
            "row": self.row_index,
            "text": self.text("en"),
            "text_es": self.text("es"),
            "markers": list(self.markers),
            "context": self.context,
            "dice": {name: r.to_dict() for name, r in self.dice.items()},
            "choice": None if self.choice is None else self.choice.to_dict(),
        }
        if roll is not None and len(roll.dice) > 1:  # a GM table's 2d6: each die, as rolled
            out["faces"] = list(roll.dice)
        if self.offered and self.choice is None:
            out["choices"] = [o.to_dict() for o in self.offered]
        out["subrolls"] = [c.to_dict() for c in self.children]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Node:
        """A finished (or partial) tree as stored; its texts are kept as they were written."""
        # A tree comes from a file: each value its readers compare or look up is checked here,
        # as a ValueError (KeyError, TypeError), which every reader of a stored tree catches.
        modifier = int(data["modifier"])
        context = data.get("context")
        if context is not None and not isinstance(context, str):
            raise ValueError("context: expected text")
        node = cls(str(data["table"]), parse(str(data["die"])), modifier, context)
        if data.get("total") is not None:
            raw = data.get("roll")
            source = data["source"]
            if source not in SOURCES:
                raise ValueError(f"source: expected one of {', '.join(SOURCES)}")
            faces = data.get("faces")
            if faces is not None and not isinstance(faces, list):
                raise ValueError("faces: expected a list of dice")
            node.roll = Roll(
                node.die,
                tuple(int(f) for f in faces) if faces else () if raw is None else (int(raw),),
                modifier,
                int(data["total"]),
                source,
            )
        if data.get("range") is not None:
            lo, hi = data["range"]
            node.range = (int(lo), int(hi))
        row = data.get("row")
        if row is not None and (isinstance(row, bool) or not isinstance(row, int)):
            raise ValueError("row: expected a whole number")
        node.row_index = row
        node.markers = tuple(data.get("markers", ()))
        dice = data.get("dice", {})
        if not isinstance(dice, Mapping):
            raise ValueError("dice: expected an object of named rolls")
        node.dice = {name: Roll.from_dict(r) for name, r in dice.items()}
        if data.get("choice") is not None:
            node.choice = Choice.from_dict(data["choice"])
        node.offered = tuple(ChoiceOption.from_dict(o) for o in data.get("choices", ()))
        node.children = [cls.from_dict(c) for c in data.get("subrolls", ())]
        node._text = (str(data.get("text", "")), str(data.get("text_es", "")))
        return node

    def __repr__(self) -> str:
        return f"Node({self.table} {self.die} -> {self.roll and self.roll.total}, {len(self.children)} sub)"
