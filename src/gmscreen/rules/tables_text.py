"""The texts of table rows: ``{name}`` slots that show a rolled value, ``{name:roll}`` slots that
write the roll out, and the few words that change with a count of 1 ("once a day").
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from gmscreen.rules.dice import DiceExpr, Roll

_SLOT = re.compile(r"\{([a-z_][a-z0-9_]*)(:roll)?\}")
# A roll written out in brackets after its value: "13 gold pieces ({gold:roll})"
_ROLL_WRITTEN = re.compile(r" ?\(\{[a-z_][a-z0-9_]*:roll\}\)")


# A rolled count of 1 before these words is said as a person says it: "usable once a day",
# not "usable 1 times a day" (the tables' texts say "{uses} times a day" for any count).
ONCE: tuple[tuple[str, str], ...] = (
    (" times a day", "once a day"),
    (" veces al día", "una vez al día"),
)


class Template:
    """A text with ``{name}`` (a rolled value) and ``{name:roll}`` (the roll written out) slots."""

    __slots__ = ("_values", "names", "parts", "source")

    def __init__(self, source: str) -> None:
        self.source = source
        self._values: Template | None = None
        parts: list[tuple[str, str | None, bool]] = []
        pos = 0
        for match in _SLOT.finditer(source):
            parts.append((source[pos : match.start()], match.group(1), match.group(2) is not None))
            pos = match.end()
        parts.append((source[pos:], None, False))
        self.parts: tuple[tuple[str, str | None, bool], ...] = tuple(parts)
        self.names = frozenset(name for _, name, _ in parts if name is not None)

    def render(self, rolls: Mapping[str, Roll], exprs: Mapping[str, DiceExpr]) -> str:
        """Fill the slots; a die not rolled yet shows its expression in both kinds of slot."""
        if len(self.parts) == 1:
            return self.source
        out: list[str] = []
        skip = 0  # of the next literal: said already ("once a day" for "1 times a day")
        for n, (literal, name, as_roll) in enumerate(self.parts):
            out.append(literal[skip:])
            skip = 0
            if name is None:
                continue
            got = rolls.get(name)
            if got is None:
                expr = exprs[name].text
                out.append(expr)
            elif not as_roll and got.total == 1:
                after = self.parts[n + 1][0]
                once = next((o for o in ONCE if after.startswith(o[0])), None)
                out.append(once[1] if once else "1")
                skip = len(once[0]) if once else 0
            else:
                out.append(got.describe() if as_roll else str(got.total))
        return "".join(out)

    @classmethod
    def of_parts(cls, parts: list[tuple[str, str | None]], source: str) -> Template:
        """A template built from its pieces: literal text and slot names that need not be
        ``{name}`` words (a GM table's ``{1d4+1}`` is a slot named ``1d4+1``); ``source`` is the
        text with no slot (what :meth:`render` gives as it is) or the text as written."""
        template = cls.__new__(cls)
        template.source = source
        template._values = template  # no ``{x:roll}`` slot to leave out
        template.parts = tuple((literal, name, False) for literal, name in parts)
        template.names = frozenset(name for _, name in parts if name is not None)
        return template

    def values(self) -> Template:
        """This text with the values only, the rolls not written out: "13 gold pieces"."""
        if self._values is None:
            stripped = _ROLL_WRITTEN.sub("", self.source)
            self._values = self if stripped == self.source else Template(stripped)
        return self._values

    def __repr__(self) -> str:
        return f"Template({self.source!r})"
