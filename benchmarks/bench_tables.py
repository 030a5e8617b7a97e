"""Full nested rolls per second on the MERP special item tables (prints figures, never asserts).

A "full nested roll" is everything one roll on Table 1 or 2 leads to: the top d100, every inline
die, every sub-table and inner roll, with the alternatives settled at random as they come up.
The baseline is a bare ``randint(1, 100)`` plus a list lookup, for scale.
"""

from __future__ import annotations

import random
import time

from gmscreen.rules.tables import PendingChoice, Resolution, load_tables

SECONDS = 1.0


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
