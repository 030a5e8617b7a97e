"""The generic nested roll-table engine.

A roll on a table resolves step by step: the table's die, the alternatives of the entry it lands
on (when the entry offers any), the dice written into its text, then each sub-roll it asks for,
depth first, each one in the same way. :class:`Resolution` walks that sequence and stops at every
step that needs an answer, so the same object serves the app rolling everything
(:meth:`Resolution.auto`) and the GM typing each physical die and settling each choice one at a time.
The result is a tree of :class:`Node` that serializes to plain dicts for the journal.

Nothing here knows about MERP; the tables come from a :class:`~gmscreen.rules.tables_model.TableSet`.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from gmscreen.rules.dice import DiceError, DiceExpr, Roll, typed
from gmscreen.rules.tables_model import (
    Lang,
    Option,
    Row,
    Table,
    TableDataError,
    TableSet,
    load_table_file,
)

__all__ = [
    "Choice",
    "ChoiceOption",
    "Node",
    "PendingChoice",
    "PendingDie",
    "Resolution",
    "TableDataError",
    "TableSet",
    "load_tables",
    "roll_table",
]

DATA_PACKAGE = "gmscreen.data"
MERP_FILE = "merp_special_items.toml"

ChoiceSource = Literal["picked", "context"]


@functools.cache
def load_tables(name: str = MERP_FILE) -> TableSet:
    """The tables shipped in ``gmscreen.data`` (MERP special items by default), validated once."""
    return load_table_file(DATA_PACKAGE, name)


# Caches keyed by object identity (the entry keeps the object alive, so its id stays its own):
# hashing a DiceExpr runs Python code, and these are hit for every die of every roll.
_TEXTS: dict[int, tuple[DiceExpr, str]] = {}
_WITH: dict[tuple[int, int], tuple[DiceExpr, DiceExpr]] = {}
_CACHE_LIMIT = 4096


def _text_of(expr: DiceExpr) -> str:
    hit = _TEXTS.get(id(expr))
    if hit is not None and hit[0] is expr:
        return hit[1]
    if len(_TEXTS) > _CACHE_LIMIT:
        _TEXTS.clear()
    text = expr.text
    _TEXTS[id(expr)] = (expr, text)
    return text


def _expr_with(die: DiceExpr, modifier: int) -> DiceExpr:
    if not modifier:
        return die
    key = (id(die), modifier)
    hit = _WITH.get(key)
    if hit is not None and hit[0] is die:
        return hit[1]
    if len(_WITH) > _CACHE_LIMIT:
        _WITH.clear()
    expr = die.with_modifier(modifier)
    _WITH[key] = (die, expr)
    return expr


def _fast_roll(expr: DiceExpr, text: str, rng: random.Random) -> Roll:
    """Like :func:`gmscreen.rules.dice.roll`, minus the per-call overhead (this runs for every die).

    ``int(random() * sides)`` is one C call instead of randint's three Python frames; its bias is
    below 2**-40 for the dice we use, far under anything a chi-square test or a table can see.
    """
    sides = expr.sides
    if expr.count == 1:
        value = int(rng.random() * sides) + 1
        return Roll(text, (value,), expr.modifier, value + expr.modifier, "rolled")
    faces = tuple(int(rng.random() * sides) + 1 for _ in range(expr.count))
    return Roll(text, faces, expr.modifier, sum(faces) + expr.modifier, "rolled")


@dataclass(frozen=True, slots=True)
class ChoiceOption:
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


@dataclass(frozen=True, slots=True)
class Choice:
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
        self.die = _text_of(expr)
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
            extra = option.text_en if lang == "en" else option.text_es
            out = f"{out} {extra.render(self.dice, exprs)}"
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
        if self.offered and self.choice is None:
            out["choices"] = [o.to_dict() for o in self.offered]
        out["subrolls"] = [c.to_dict() for c in self.children]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Node:
        """A finished (or partial) tree as stored; its texts are kept as they were written."""
        from gmscreen.rules.dice import parse

        modifier = int(data["modifier"])
        node = cls(str(data["table"]), parse(str(data["die"])), modifier, data.get("context"))
        if data.get("total") is not None:
            raw = data.get("roll")
            node.roll = Roll(
                node.die,
                () if raw is None else (int(raw),),
                modifier,
                int(data["total"]),
                data["source"],
            )
        if data.get("range") is not None:
            lo, hi = data["range"]
            node.range = (int(lo), int(hi))
        node.row_index = data.get("row")
        node.markers = tuple(data.get("markers", ()))
        node.dice = {name: Roll.from_dict(r) for name, r in data.get("dice", {}).items()}
        if data.get("choice") is not None:
            node.choice = Choice.from_dict(data["choice"])
        node.offered = tuple(ChoiceOption.from_dict(o) for o in data.get("choices", ()))
        node.children = [cls.from_dict(c) for c in data.get("subrolls", ())]
        node._text = (str(data.get("text", "")), str(data.get("text_es", "")))
        return node

    def __repr__(self) -> str:
        return f"Node({self.table} {self.die} -> {self.roll and self.roll.total}, {len(self.children)} sub)"


@dataclass(slots=True)
class PendingDie:
    """A die the resolution needs: the table's own die (``name`` None) or a die in an entry's text."""

    node: Node
    table: Table
    name: str | None
    expr: DiceExpr
    text: str

    @property
    def is_table_die(self) -> bool:
        return self.name is None

    def purpose(self, lang: Lang) -> str:
        title = self.table.title(lang)
        return title if self.name is None else f"{title}: {self.name}"


@dataclass(slots=True)
class PendingChoice:
    """Alternatives the GM must pick from before the resolution can go on."""

    node: Node
    options: tuple[ChoiceOption, ...]


Pending = PendingDie | PendingChoice

_OFFERS: dict[tuple[int, ...], tuple[tuple[Option, ...], tuple[ChoiceOption, ...]]] = {}


def _offers(row: Row, candidates: tuple[Option, ...]) -> tuple[ChoiceOption, ...]:
    """The alternatives as offered to the GM (texts with dice as expressions), built once."""
    key = tuple(id(o) for o in candidates)
    hit = _OFFERS.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], candidates, strict=True)):
        return hit[1]
    offered = tuple(
        ChoiceOption(
            i,
            o.key,
            o.label_en,
            o.label_es,
            o.text_en.render({}, {**row.dice, **o.dice}),
            o.text_es.render({}, {**row.dice, **o.dice}),
        )
        for i, o in enumerate(candidates)
    )
    if len(_OFFERS) > _CACHE_LIMIT:
        _OFFERS.clear()
    _OFFERS[key] = (candidates, offered)
    return offered


ChoosePolicy = Callable[[PendingChoice], int]


class Resolution:
    """A roll on a table, resolved one step at a time.

    ``pending`` says what is needed next (a :class:`PendingDie`, a :class:`PendingChoice`, or
    None when done); answer with :meth:`supply` / :meth:`supply_typed` / :meth:`pick_row`,
    :meth:`choose`, or let :meth:`auto` roll every die up to the next choice.
    """

    __slots__ = ("_gen", "inputs", "pending", "table", "tables", "tree")

    def __init__(self, tables: TableSet, table_id: str, *, context: str | None = None) -> None:
        self.tables = tables
        self.table = tables[table_id]
        self.tree = Node(self.table.id, self.table.die, 0, context)
        # every answer given, in order: enough to replay the resolution (see ``replay``)
        self.inputs: list[Roll | int] = []
        self._gen = self._resolve(self.tree, self.table)
        self.pending: Pending | None = next(self._gen)

    @property
    def done(self) -> bool:
        return self.pending is None

    # -- answers --------------------------------------------------------------------------------

    def _send(self, answer: Roll | int) -> None:
        self.inputs.append(answer)
        try:
            self.pending = self._gen.send(answer)
        except StopIteration:
            self.pending = None

    def _pending_die(self) -> PendingDie:
        if not isinstance(self.pending, PendingDie):
            what = "nothing (the roll is finished)" if self.pending is None else "a choice"
            raise DiceError(f"no die is awaited: the roll needs {what}")
        return self.pending

    def supply(self, roll: Roll) -> None:
        """Answer the pending die with a roll (rolled, typed or picked) of its expression."""
        pending = self._pending_die()
        expected = pending.text
        if roll.expr != expected:
            raise DiceError(
                f"expected a roll of {expected} for {pending.purpose('en')}, got {roll.expr}"
            )
        table = pending.table
        if roll.source == "picked" and pending.name is None:
            if not table.low <= roll.total <= table.high:
                raise DiceError(
                    f"{roll.total} is off table {table.id}: pick from {table.low} to {table.high}"
                )
        elif not pending.expr.lowest <= roll.total <= pending.expr.highest:
            raise DiceError(
                f"{roll.total} cannot come from {expected}: "
                f"from {pending.expr.lowest} to {pending.expr.highest}"
            )
        self._send(roll)

    def supply_typed(self, value: int | str) -> None:
        """Answer the pending die with what the physical dice show; the modifier is added here."""
        pending = self._pending_die()
        expr = pending.expr
        faces = typed(DiceExpr(expr.count, expr.sides), value)
        self.supply(
            Roll(_text_of(expr), faces.dice, expr.modifier, faces.total + expr.modifier, "typed")
        )

    def pick_row(self, index: int) -> None:
        """The GM picks row ``index`` (0-based) of the pending table instead of rolling."""
        pending = self._pending_die()
        if pending.name is not None:
            raise DiceError(f"the pending die ({pending.purpose('en')}) is not a table roll")
        rows = pending.table.rows
        if not 0 <= index < len(rows):
            raise DiceError(f"{pending.table.id} has rows 1 to {len(rows)}, not {index + 1}")
        row = rows[index]
        expr = pending.expr
        total = min(max(row.lo, expr.lowest), row.hi)
        self.supply(Roll(_text_of(expr), (), expr.modifier, total, "picked"))

    def choose(self, index: int) -> None:
        """Settle the pending choice with option ``index`` (0-based, as in ``pending.options``)."""
        pending = self.pending
        if not isinstance(pending, PendingChoice):
            what = "nothing (the roll is finished)" if pending is None else "a die"
            raise ValueError(f"no choice is awaited: the roll needs {what}")
        if not 0 <= index < len(pending.options):
            raise ValueError(
                f"choice {index + 1} is out of range: pick 1 to {len(pending.options)}"
            )
        self._send(index)

    def auto(self, rng: random.Random, choose: ChoosePolicy | None = None) -> Resolution:
        """Roll every pending die with ``rng``; stop at a choice unless ``choose`` settles it."""
        while True:
            pending = self.pending
            if isinstance(pending, PendingDie):
                roll = _fast_roll(pending.expr, pending.text, rng)
                self.inputs.append(roll)
                try:
                    self.pending = self._gen.send(roll)
                except StopIteration:
                    self.pending = None
            elif pending is not None and choose is not None:
                self.choose(choose(pending))
            else:
                return self

    # -- the walk -------------------------------------------------------------------------------

    def _resolve(self, node: Node, table: Table) -> Generator[Pending, Roll | int, None]:
        roll = yield PendingDie(node, table, None, node.expr, node.die)
        assert isinstance(roll, Roll)
        node.roll = roll
        row = table.lookup[roll.total - table.low]
        node._row = row
        node.row_index = row.index
        node.range = (row.lo, row.hi)
        node.markers = row.markers
        option: Option | None = None
        if row.options:
            option = yield from self._settle(node, row)
        for name, expr in row.dice.items():
            got = yield PendingDie(node, table, name, expr, _text_of(expr))
            assert isinstance(got, Roll)
            node.dice[name] = got
        context = node.context
        if option is not None:
            for name, expr in option.dice.items():
                got = yield PendingDie(node, table, name, expr, _text_of(expr))
                assert isinstance(got, Roll)
                node.dice[name] = got
            if option.context is not None:
                context = option.context
        refs = row.rolls if option is None else row.rolls + option.rolls
        tables = self.tables.tables
        for ref in refs:
            sub = tables[ref.table]
            child = Node(
                sub.id, _expr_with(sub.die, ref.modifier), ref.modifier, ref.context or context
            )
            node.children.append(child)
            yield from self._resolve(child, sub)

    def _settle(self, node: Node, row: Row) -> Generator[Pending, Roll | int, Option]:
        context = node.context
        candidates = row.options
        if context is not None:
            matching = tuple(o for o in row.options if context in o.when)
            if len(matching) == 1:
                option = matching[0]
                node._option = option
                node.choice = Choice(option.key, option.label_en, option.label_es, "context")
                return option
            if matching:
                candidates = matching
        node.offered = _offers(row, candidates)
        index = yield PendingChoice(node, node.offered)
        assert isinstance(index, int)
        option = candidates[index]
        node._option = option
        node.choice = Choice(option.key, option.label_en, option.label_es, "picked")
        return option

    # -- journal ---------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table.id,
            "context": self.tree.context,
            "done": self.done,
            "inputs": [
                {"roll": a.to_dict()} if isinstance(a, Roll) else {"choice": a} for a in self.inputs
            ],
            "tree": self.tree.to_dict(),
        }

    @classmethod
    def replay(
        cls,
        tables: TableSet,
        table_id: str,
        inputs: list[Mapping[str, Any]],
        *,
        context: str | None = None,
    ) -> Resolution:
        """Rebuild a resolution (finished or not) from the ``inputs`` of :meth:`to_dict`."""
        resolution = cls(tables, table_id, context=context)
        for item in inputs:
            if "roll" in item:
                resolution.supply(Roll.from_dict(item["roll"]))
            else:
                resolution.choose(int(item["choice"]))
        return resolution

    @classmethod
    def from_dict(cls, tables: TableSet, data: Mapping[str, Any]) -> Resolution:
        return cls.replay(
            tables, str(data["table"]), list(data["inputs"]), context=data.get("context")
        )


def roll_table(
    tables: TableSet,
    table_id: str,
    rng: random.Random,
    *,
    force: int | str | None = None,
    pick: int | None = None,
    choices: list[int] | tuple[int, ...] = (),
    context: str | None = None,
) -> Resolution:
    """One roll done the CLI's way: the top die forced (as typed), or a row picked (0-based), or
    rolled; then every die rolled and ``choices`` (0-based) applied in order while choices come up.
    The result may still have a choice pending when ``choices`` run out."""
    resolution = Resolution(tables, table_id, context=context)
    if force is not None:
        resolution.supply_typed(force)
    elif pick is not None:
        resolution.pick_row(pick)
    resolution.auto(rng)
    for index in choices:
        if resolution.pending is None:
            raise ValueError("more choices given than the roll asked for")
        resolution.choose(index)
        resolution.auto(rng)
    return resolution
