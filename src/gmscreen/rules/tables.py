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
from collections.abc import Callable, Generator, Mapping
from typing import Any

import msgspec

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
from gmscreen.rules.tables_nodes import (
    CACHE_LIMIT,
    Choice,
    ChoiceOption,
    Node,
    die_text,
    expr_with,
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


@functools.cache
def load_tables(name: str = MERP_FILE) -> TableSet:
    """The tables shipped in ``gmscreen.data`` (MERP special items by default), validated once."""
    return load_table_file(DATA_PACKAGE, name)


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


class PendingDie(msgspec.Struct):
    """A die the resolution needs: the table's own die (``name`` None) or a die in an entry's text."""

    node: Node
    table: Table
    name: str | None
    expr: DiceExpr
    text: str

    def purpose(self, lang: Lang) -> str:
        title = self.table.title(lang)
        return title if self.name is None else f"{title}: {self.name}"


class PendingChoice(msgspec.Struct):
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
    if len(_OFFERS) > CACHE_LIMIT:
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

    __slots__ = ("_gen", "_rng", "inputs", "pending", "table", "tables", "tree")

    def __init__(self, tables: TableSet, table_id: str, *, context: str | None = None) -> None:
        self.tables = tables
        self.table = tables[table_id]
        self.tree = Node(self.table.id, self.table.die, 0, context)
        # every answer given, in order: enough to replay the resolution (see ``replay``)
        self.inputs: list[Roll | int] = []
        # set only while auto() runs: the walk then rolls its dice in place instead of yielding
        self._rng: random.Random | None = None
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
            Roll(die_text(expr), faces.dice, expr.modifier, faces.total + expr.modifier, "typed")
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
        self.supply(Roll(die_text(expr), (), expr.modifier, total, "picked"))

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
        self._rng = rng
        try:
            while True:
                pending = self.pending
                if isinstance(pending, PendingDie):
                    self._send(_fast_roll(pending.expr, pending.text, rng))
                elif pending is not None and choose is not None:
                    self.choose(choose(pending))
                else:
                    return self
        finally:
            self._rng = None

    # -- the walk -------------------------------------------------------------------------------

    def _resolve(self, node: Node, table: Table) -> Generator[Pending, Roll | int, None]:
        rng = self._rng
        if rng is not None:
            roll: Roll | int = _fast_roll(node.expr, node.die, rng)
            self.inputs.append(roll)
        else:
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
            got = yield from self._die(node, table, name, expr)
            node.dice[name] = got
        context = node.context
        if option is not None:
            for name, expr in option.dice.items():
                got = yield from self._die(node, table, name, expr)
                node.dice[name] = got
            if option.context is not None:
                context = option.context
        refs = row.rolls if option is None else row.rolls + option.rolls
        tables = self.tables.tables
        for ref in refs:
            sub = tables[ref.table]
            child = Node(
                sub.id, expr_with(sub.die, ref.modifier), ref.modifier, ref.context or context
            )
            node.children.append(child)
            yield from self._resolve(child, sub)

    def _die(
        self, node: Node, table: Table, name: str, expr: DiceExpr
    ) -> Generator[Pending, Roll | int, Roll]:
        rng = self._rng
        if rng is not None:
            roll = _fast_roll(expr, die_text(expr), rng)
            self.inputs.append(roll)
            return roll
        got = yield PendingDie(node, table, name, expr, die_text(expr))
        assert isinstance(got, Roll)
        return got

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
        """The journaled roll, replayed from its answers; a finished roll whose answers no
        longer fit the tables (a rules fix since: 92's missile reading rolled 1e once) is
        kept as it was written."""
        inputs = list(data["inputs"])
        try:
            return cls.replay(tables, str(data["table"]), inputs, context=data.get("context"))
        except (DiceError, ValueError):
            if data.get("done") is not True or not isinstance(data.get("tree"), Mapping):
                raise
        resolution = cls(tables, str(data["table"]), context=data.get("context"))
        resolution._gen.close()
        resolution.tree = Node.from_dict(data["tree"])
        resolution.inputs = [
            Roll.from_dict(i["roll"]) if "roll" in i else int(i["choice"]) for i in inputs
        ]
        resolution.pending = None
        return resolution


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
