"""Full nested rolls per second on the MERP special item tables and on a GM's own nested table
(prints figures, never asserts).

A "full nested roll" is everything one roll on Table 1 or 2 leads to: the top d100, every inline
die, every sub-table and inner roll, with the alternatives settled at random as they come up.
The baseline is a bare ``randint(1, 100)`` plus a list lookup, for scale.

The GM's table (#28) nests three levels in the short form: a 2d6 table of rumours whose rows
roll dice in their text and an ``@id`` table, which rolls a weighted table of its own; 10,000
rolls of it through the engine are timed beside 10,000 rolls of merp-1 (target: <= 1 s).
"""

from __future__ import annotations

import random
import time

from gmscreen.rules.tables import PendingChoice, Resolution, load_tables
from gmscreen.rules.tables_library import TableFile, build_library

SECONDS = 1.0
ROLLS = 10_000

# Three levels: rumours (2d6) -> strangers (1d20, dice in the text) -> omens (weighted)
GM_TABLES = """
[[tables]]
id = "rumours"
title = "Tavern rumours"
die = "2d6"
rows = [
  [2, 4, "The duke is ill; {1d4} healers have come and gone."],
  [5, 9, "A stranger asks after you: @strangers"],
  [10, 12, "A caravan is {1d4+1} days late; its guards talk of @strangers"],
]

[[tables]]
id = "strangers"
title = "Strangers"
die = "1d20"
rows = [
  [1, 10, "A pilgrim of {1d20+10} winters, who saw @omens"],
  [11, 19, "A tinker with {2d6} pots"],
  [20, "A knight, and @omens twice over: @omens"],
]

[[tables]]
id = "omens"
title = "Omens"
weights = true
rows = [[3, "Crows circle the inn."], [2, "The well runs red for {1d3} days."], [1, "Silence."]]
"""


def _rate(step: object, label: str) -> float:
    assert callable(step)
    count = 0
    start = time.perf_counter()
    deadline = start + SECONDS
    while True:
        for _ in range(1000):
            step()
        count += 1000
        now = time.perf_counter()
        if now >= deadline:
            break
    rate = count / (now - start)
    print(f"{label:<48} {rate:>12,.0f} /s")
    return rate


def _ten_thousand(step: object, label: str) -> float:
    """The time of ROLLS calls of ``step`` (one run; run the script a few times for a range)."""
    assert callable(step)
    for _ in range(ROLLS // 10):  # warm: the caches of texts and offers, as a session has them
        step()
    start = time.perf_counter()
    for _ in range(ROLLS):
        step()
    elapsed = time.perf_counter() - start
    print(f"{label:<48} {elapsed:>10.3f} s")
    return elapsed


def main() -> None:
    start = time.perf_counter()
    tables = load_tables.__wrapped__()  # uncached: time a real load + validation
    print(
        f"{'load + validate merp_special_items.toml':<48} {1000 * (time.perf_counter() - start):>10.1f} ms"
    )
    tables = load_tables()
    rng = random.Random(1)

    def settle(pending: PendingChoice) -> int:
        return rng.randrange(len(pending.options))

    library = build_library(tables, [TableFile("bench.toml", GM_TABLES, "campaign")])
    assert not library.problems, library.problems
    gm = library.tables
    _ten_thousand(
        lambda: Resolution(tables, "merp-1").auto(rng, settle), "baseline: 10,000 merp-1 rolls"
    )
    _ten_thousand(
        lambda: Resolution(gm, "rumours").auto(rng, settle),
        "10,000 rolls of a 3-level GM table (target 1 s)",
    )
    _ten_thousand(
        lambda: Resolution(gm, "rumours").auto(rng, settle).tree.to_dict(),
        "  the same + to_dict (texts)",
    )
    start = time.perf_counter()
    build_library(tables, [TableFile("bench.toml", GM_TABLES, "campaign")])
    print(f"{'read + check the 3 GM tables':<48} {1000 * (time.perf_counter() - start):>10.1f} ms")

    lookup = [i // 10 for i in range(101)]
    _rate(lambda: lookup[rng.randint(1, 100)], "baseline: randint(1, 100) + list lookup")
    for table_id in ("merp-1", "merp-2"):
        _rate(
            lambda t=table_id: Resolution(tables, t).auto(rng, settle),
            f"{table_id}: full nested rolls",
        )
        _rate(
            lambda t=table_id: Resolution(tables, t).auto(rng, settle).tree.to_dict(),
            f"{table_id}: full nested rolls + to_dict (texts)",
        )


if __name__ == "__main__":
    main()
