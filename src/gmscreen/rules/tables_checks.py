"""What a GM's tables say of each other, checked once every file is read.

Ids used once, every ``@id`` a table that loads, no table that rolls itself through others,
rows that cover their die (and the modifiers of the sub-rolls on it) once each, and a nesting a
roll can finish. A table that fails is said at its own line and left out, and so is every table
that rolls it, each at the line of its ``@id``; the checks run again until nothing changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

import msgspec

from gmscreen.rules.dice import DiceExpr
from gmscreen.rules.tables_model import Row, SubRoll, Table, TableSet
from gmscreen.rules.tables_short import MAX_SPAN, BadTable, ShortTable

Group = Literal["bundled", "user", "campaign"]
GROUPS: tuple[Group, ...] = ("bundled", "user", "campaign")
MAX_NESTING = 12  # tables inside tables, the roll itself counted
MAX_ROLLS = 1000  # tables one roll may land on at most (a row that rolls @a twice, ...)
MAX_MODIFIER = 1000  # a bundled-form sub-roll's modifier


class TableProblem(msgspec.Struct, frozen=True, gc=False):
    """One thing wrong with a GM's table file: ``file:line: message`` (line 0: the file)."""

    source: str
    line: int
    message: str
    table: str = ""  # the id of the table left out, when one is known

    def __str__(self) -> str:
        return (
            f"{self.source}:{self.line}: {self.message}"
            if self.line
            else f"{self.source}: {self.message}"
        )


class TableEntry(msgspec.Struct, frozen=True, gc=False):
    """Where a table of the library comes from."""

    group: Group
    source: str
    line: int
    short: ShortTable | None = None  # the short form as written (what export reads)


@dataclass
class Draft:
    """A GM table parsed alone, before what it says of other tables is checked."""

    table: Table
    entry: TableEntry
    row_lines: tuple[int, ...]

    def line_of(self, row: Row) -> int:
        return self.row_lines[row.index] if row.index < len(self.row_lines) else self.entry.line

    def refs(self) -> Iterable[tuple[SubRoll, int]]:
        for row in self.table.rows:
            for ref in row.rolls:
                yield ref, self.line_of(row)
            for option in row.options:
                for ref in option.rolls:
                    yield ref, self.line_of(row)


def problem_at(draft: Draft, line: int, message: str) -> TableProblem:
    return TableProblem(
        draft.entry.source, line, f"table {draft.table.id}: {message}", draft.table.id
    )


def check_together(
    bundled: TableSet, drafts: dict[str, Draft], problems: list[TableProblem]
) -> list[Table]:
    """The drafts that load once checked against each other, each with its lookup, in the
    order given. Each check is one pass; a table left out takes every table that rolls it
    along at once (each said at the line of its ``@id``)."""
    checks = _Checks(bundled, drafts, problems)
    checks.unknown_references()
    checks.cycles()
    checks.modifiers()
    required = checks.required_ranges()
    built: dict[str, Table] = {}
    for table_id, draft in drafts.items():
        if table_id not in checks.alive:
            continue
        low, high = required[table_id]
        try:
            lookup = cover(draft, low, high)
        except BadTable as bad:
            checks.drop(table_id, problem_at(draft, bad.line, bad.message))
            continue
        built[table_id] = msgspec.structs.replace(draft.table, low=low, lookup=lookup)
    checks.too_deep()
    return [built[t] for t in drafts if t in built and t in checks.alive]


class _Checks:
    """The tables still in, and who rolls whom (to leave out, with a table, its rollers)."""

    def __init__(
        self, bundled: TableSet, drafts: dict[str, Draft], problems: list[TableProblem]
    ) -> None:
        self.bundled = bundled
        self.drafts = drafts
        self.problems = problems
        self.alive = set(drafts)
        self.rollers: dict[str, list[tuple[str, int]]] = {}  # table -> (who rolls it, line)
        for draft in drafts.values():
            for ref, line in draft.refs():
                self.rollers.setdefault(ref.table, []).append((draft.table.id, line))

    def drop(self, table_id: str, problem: TableProblem) -> None:
        self.drop_all([(table_id, problem)])

    def drop_all(self, said: list[tuple[str, TableProblem]]) -> None:
        """Leave each table out for its problem, then every table that rolls one of them,
        directly or through others (a worklist: a chain of a thousand tables is no recursion)."""
        work = []
        for table_id, problem in said:
            if table_id in self.alive:
                self.alive.discard(table_id)
                self.problems.append(problem)
                work.append(table_id)
        while work:
            gone = work.pop()
            for roller, line in self.rollers.get(gone, ()):
                if roller in self.alive:
                    self.alive.discard(roller)
                    message = f"rolls @{gone}, which did not load (see its problem)"
                    self.problems.append(problem_at(self.drafts[roller], line, message))
                    work.append(roller)

    def unknown_references(self) -> None:
        known = self.bundled.tables
        for table_id, draft in self.drafts.items():
            for ref, line in draft.refs():
                if ref.table in known or ref.table in self.drafts:
                    continue
                if any(p.table == ref.table for p in self.problems):
                    message = f"rolls @{ref.table}, which did not load (see its problem)"
                else:
                    message = f"rolls @{ref.table}: no table has that id (see gmscreen tables)"
                self.drop(table_id, problem_at(draft, line, message))
                break

    def cycles(self) -> None:
        """Tables that roll themselves, directly or through others: a roll would never end.
        Depth first, without recursion; each back edge found is a cycle said at each of its
        tables, and what else reaches them is left out with them (see :meth:`drop`)."""
        state: dict[str, int] = {}  # 1: on the path being walked, 2: done
        found: list[tuple[str, ...]] = []
        for start in self.drafts:
            if start in state or start not in self.alive:
                continue
            path: list[str] = [start]
            stack: list[Iterator[str]] = [iter(self._targets(start))]
            state[start] = 1
            while stack:
                target = next(stack[-1], None)
                if target is None:
                    state[path.pop()] = 2
                    stack.pop()
                elif target not in self.drafts or target not in self.alive:
                    continue  # a bundled table never rolls a GM table
                elif state.get(target) == 1:
                    found.append((*path[path.index(target) :], target))
                elif target not in state:
                    state[target] = 1
                    path.append(target)
                    stack.append(iter(self._targets(target)))
        said: list[tuple[str, TableProblem]] = []
        for cycle in found:
            for at, table_id in enumerate(cycle[:-1]):
                draft = self.drafts[table_id]
                turn = (*cycle[at:-1], *cycle[:at], table_id)
                line = next(
                    (n for ref, n in draft.refs() if ref.table == turn[1]), draft.entry.line
                )
                chain = " → ".join(f"@{t}" for t in turn)
                message = f"{chain}: tables that roll each other never end"
                said.append((table_id, problem_at(draft, line, message)))
        self.drop_all(said)

    def _targets(self, table_id: str) -> list[str]:
        return [ref.table for ref, _ in self.drafts[table_id].refs()]

    def modifiers(self) -> None:
        """A bundled-form sub-roll's modifier: bounded, and within the rows of a bundled table."""
        for table_id, draft in self.drafts.items():
            for ref, line in draft.refs():
                if not ref.modifier:
                    continue
                if abs(ref.modifier) > MAX_MODIFIER:
                    self.drop(
                        table_id, problem_at(draft, line, f"a modifier is at most {MAX_MODIFIER}")
                    )
                    break
                target = self.bundled.tables.get(ref.table)
                if target is None:
                    continue
                if (
                    not target.low
                    <= target.die.lowest + ref.modifier
                    <= target.die.highest + ref.modifier
                    <= target.high
                ):
                    message = f"rolls @{ref.table} {ref.modifier:+d}, past its rows ({target.low}-{target.high})"
                    self.drop(table_id, problem_at(draft, line, message))
                    break

    def required_ranges(self) -> dict[str, tuple[int, int]]:
        """The totals each table's rows must cover: its die's, widened by the modifiers of every
        sub-roll on it (those of a table left out too: once fixed, it rolls them again)."""
        low_mod = dict.fromkeys(self.drafts, 0)
        high_mod = dict.fromkeys(self.drafts, 0)
        for draft in self.drafts.values():
            for ref, _ in draft.refs():
                if ref.table in self.drafts and abs(ref.modifier) <= MAX_MODIFIER:
                    low_mod[ref.table] = min(low_mod[ref.table], ref.modifier)
                    high_mod[ref.table] = max(high_mod[ref.table], ref.modifier)
        return {
            t: (d.table.die.lowest + low_mod[t], d.table.die.highest + high_mod[t])
            for t, d in self.drafts.items()
        }

    def too_deep(self) -> None:
        """Tables whose rolls nest too deep, or land on too many tables at once, to finish: a
        hostile file must not make one roll take minutes or exhaust the stack."""
        sizes = _sizes(self.bundled, {t: self.drafts[t] for t in self.drafts if t in self.alive})
        for table_id, draft in self.drafts.items():
            if table_id not in self.alive:
                continue
            depth, count = sizes[table_id]
            if depth > MAX_NESTING:
                self.drop(
                    table_id,
                    problem_at(
                        draft, draft.entry.line, f"nests tables more than {MAX_NESTING} deep"
                    ),
                )
            elif count > MAX_ROLLS:
                message = f"one roll would land on more than {MAX_ROLLS} tables"
                self.drop(table_id, problem_at(draft, draft.entry.line, message))


def _faces(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo}-{hi}"


def cover(draft: Draft, low: int, high: int) -> tuple[Row, ...]:
    """The lookup of ``draft``'s rows over ``low..high``, or a :class:`BadTable` at the line
    of the first row that leaves a gap, overlaps another or has faces the die cannot roll."""
    die: DiceExpr = draft.table.die
    reach = f"{die} gives {_faces(low, high)}"
    if (low, high) != (die.lowest, die.highest):
        reach += " with the modifiers of the tables that roll it"
    if high - low + 1 > MAX_SPAN:
        raise BadTable(draft.entry.line, f"{reach}: at most {MAX_SPAN:,} different totals")
    expected = low
    previous: Row | None = None
    for row in draft.table.rows:
        line = draft.line_of(row)
        if row.lo < low or row.hi > high:
            below, above = (row.lo, min(row.hi, low - 1)), (max(row.lo, high + 1), row.hi)
            outside = " or ".join(_faces(a, b) for a, b in (below, above) if a <= b)
            raise BadTable(line, f"row {row.range_text}: {die} never rolls {outside} ({reach})")
        if previous is not None and row.lo < expected:
            overlap = _faces(row.lo, min(row.hi, previous.hi))
            raise BadTable(
                line, f"row {row.range_text} overlaps row {previous.range_text} on {overlap}"
            )
        if row.lo > expected:
            raise BadTable(line, f"gap: no row covers {_faces(expected, row.lo - 1)} ({reach})")
        expected = row.hi + 1
        previous = row
    if expected <= high:
        last = draft.line_of(previous) if previous is not None else draft.entry.line
        raise BadTable(last, f"gap: no row covers {_faces(expected, high)} ({reach})")
    lookup: list[Row] = []
    for row in draft.table.rows:
        lookup.extend([row] * (row.hi - row.lo + 1))
    return tuple(lookup)


def _sizes(bundled: TableSet, alive: dict[str, Draft]) -> dict[str, tuple[int, int]]:
    """Each table's deepest nesting and the most tables one roll on it lands on (both capped
    just past their bound), over the tables that roll no table in a cycle by now."""
    sizes: dict[str, tuple[int, int]] = {}

    def rows_of(table_id: str) -> tuple[Row, ...]:
        draft = alive.get(table_id)
        return draft.table.rows if draft is not None else bundled.tables[table_id].rows

    def rolls_of(row: Row) -> tuple[SubRoll, ...]:
        return row.rolls + tuple(r for o in row.options for r in o.rolls)

    for start in list(alive) + list(bundled.tables):
        stack = [start]
        while stack:  # post-order without recursion
            table_id = stack[-1]
            if table_id in sizes:
                stack.pop()
                continue
            waiting = [
                ref.table
                for row in rows_of(table_id)
                for ref in rolls_of(row)
                if ref.table not in sizes
            ]
            if waiting:
                stack.extend(dict.fromkeys(waiting))
                continue
            stack.pop()
            depth, count = 1, 1
            for row in rows_of(table_id):
                own = sum(sizes[r.table][1] for r in row.rolls)
                extra = max(
                    (sum(sizes[r.table][1] for r in o.rolls) for o in row.options), default=0
                )
                count = max(count, 1 + own + extra)
                depth = max([depth, *(1 + sizes[r.table][0] for r in rolls_of(row))])
            sizes[table_id] = (min(depth, MAX_NESTING + 1), min(count, MAX_ROLLS + 1))
    return sizes
