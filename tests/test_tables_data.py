"""The MERP special item tables as data: every range of the seed, and the validator."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from gmscreen.rules.dice import parse
from gmscreen.rules.tables import Resolution, load_tables
from gmscreen.rules.tables_model import TableDataError, load_table_text

# The seed's boundaries, typed by hand from seeds/002_fbf0b99163c3dd30.txt (not from our data).
SEED_T1 = [(1, 1), (2, 3), (4, 5), (6, 10), (11, 12), (13, 13), (14, 15), (16, 20), (21, 25),
           (26, 30), (31, 35), (36, 40), (41, 50), (51, 55), (56, 60), (61, 65), (66, 66),
           (67, 70), (71, 75), (76, 80), (81, 85), (86, 88), (89, 90)] + [(v, v) for v in range(91, 101)]  # fmt: skip
SEED_T2 = [(1, 1), (2, 3), (4, 5), (6, 10), (11, 12), (13, 13), (14, 15), (16, 20), (21, 25),
           (26, 30), (31, 40), (41, 45), (46, 50), (51, 55), (56, 60), (61, 65), (66, 66),
           (67, 70), (71, 75), (76, 80), (81, 85), (86, 88), (89, 90)] + [(v, v) for v in range(91, 101)]  # fmt: skip
INTELLIGENCE = [(1, 5), (6, 7), (8, 8), (9, 9), (10, 10)]
SPELLS = [(1, 6), (7, 9), (10, 10)]
CRITICAL = [(1, 2), (3, 7), (8, 10)]
SEED_BOUNDARIES: dict[str, list[tuple[int, int]]] = {
    "merp-1": SEED_T1,
    "merp-1a": [(1, 1), (2, 4), (5, 8), (9, 11)],
    "merp-1b": [(1, 6), (7, 8), (9, 9), (10, 11)],
    "merp-1c": INTELLIGENCE,
    "merp-1d": SPELLS,
    "merp-1e": CRITICAL,
    "merp-1f": [(1, 5), (6, 8), (9, 10)],
    "merp-2": SEED_T2,
    "merp-2a": [(1, 1), (2, 4), (5, 7), (8, 9), (10, 10), (11, 11)],
    "merp-2b": INTELLIGENCE,
    "merp-2c": SPELLS,
    "merp-2d": [(1, 5), (6, 9), (10, 10)],
    "merp-2e": [(1, 3), (4, 5), (6, 7), (8, 9), (10, 10)],
    "merp-2f": CRITICAL,
}


def test_the_fourteen_tables_are_listed_in_order() -> None:
    assert [t.id for t in load_tables().main()] == list(SEED_BOUNDARIES)


@pytest.mark.parametrize("table_id", list(SEED_BOUNDARIES))
def test_rows_match_the_seed(table_id: str) -> None:
    table = load_tables()[table_id]
    assert [(r.lo, r.hi) for r in table.rows] == SEED_BOUNDARIES[table_id]


def _forced_cases() -> list[tuple[str, int]]:
    # generated from the data: every face of every table's die
    return [(t.id, v) for t in load_tables().tables.values() for v in range(1, t.die.sides + 1)]


@pytest.mark.parametrize(("table_id", "value"), _forced_cases())
def test_a_forced_roll_lands_in_the_right_range(table_id: str, value: int) -> None:
    resolution = Resolution(load_tables(), table_id)
    resolution.supply_typed(value)
    lo, hi = resolution.tree.range or (0, 0)
    assert lo <= value <= hi
    if table_id in SEED_BOUNDARIES:
        assert (lo, hi) in SEED_BOUNDARIES[table_id]


@pytest.mark.parametrize("table_id", ["merp-1a", "merp-1b", "merp-2a"])
def test_plus_one_tables_reach_eleven(table_id: str) -> None:
    table = load_tables()[table_id]
    assert table.high == 11
    assert table.row_for(11) is table.rows[-1]


def test_every_dice_expression_parses_and_every_reference_exists() -> None:
    tables = load_tables()
    for table in tables.tables.values():
        for row in table.rows:
            refs = list(row.rolls) + [r for o in row.options for r in o.rolls]
            assert all(ref.table in tables for ref in refs)
            for expr in [*row.dice.values(), *(e for o in row.options for e in o.dice.values())]:
                assert parse(expr.text) == expr


def test_typos_and_decisions_are_recorded() -> None:
    tables = load_tables()
    seen = " ".join(t["seed"] for t in tables.typos)
    for typo in ("sagardos", "PPara", "1d4+1 (1-5)"):
        assert typo in seen
    assert all(d["en"] and d["es"] for d in tables.decisions)


def test_every_text_has_english_and_spanish() -> None:
    for table in load_tables().tables.values():
        assert table.title_en and table.title_es
        for row in table.rows:
            assert row.text("en") and row.text("es")
            assert row.text("en") != row.text("es") or row.text("en").endswith(".")
            for option in row.options:
                assert option.label_en and option.label_es


# --- the validator --------------------------------------------------------------------------

GOOD = """
[[tables]]
id = "t"
title = { en = "T", es = "T" }
die = "1d4"
[[tables.rows]]
range = [1, 2]
text = { en = "low {n}", es = "bajo {n}" }
dice = { n = "1d6" }
[[tables.rows]]
range = [3, 4]
text = { en = "high", es = "alto" }
rolls = [{ table = "t" }]
"""


def test_a_good_file_loads() -> None:
    tables = load_table_text(GOOD, "good.toml")
    assert [(r.lo, r.hi) for r in tables["t"].rows] == [(1, 2), (3, 4)]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("range = [3, 4]", "range = [4, 4]", "good.toml: table t row 4: gap: nothing covers 3-3"),
        ("range = [3, 4]", "range = [2, 4]", "good.toml: table t row 2-4: overlaps"),
        (
            "range = [3, 4]",
            "range = [3, 5]",
            "good.toml: table t: rows end at 5 but the die reaches 4",
        ),
        ('table = "t"', 'table = "nope"', "good.toml: table t row 3-4: rolls unknown table 'nope'"),
        ('n = "1d6"', 'n = "1x6"', "good.toml: table t row 1-2: dice n:"),
        ("bajo {n}", "bajo {m}", "good.toml: table t row 1-2: es text uses undeclared dice ['m']"),
        ('es = "alto"', 'es = ""', "good.toml: table t row 3-4: text has no es text"),
        ('die = "1d4"', 'die = "2d4"', "good.toml: table t: a table's die must be a single die"),
    ],
)
def test_the_validator_names_file_table_and_row(old: str, new: str, message: str) -> None:
    assert old in GOOD
    with pytest.raises(TableDataError) as caught:
        load_table_text(GOOD.replace(old, new, 1), "good.toml")
    assert str(caught.value).startswith(message)


READINGS = """
[[tables.rows.options]]
key = "near"
label = { en = "Near", es = "Cerca" }
text = { en = "close", es = "cerca" }
when = ["near"]
[[tables.rows.options]]
key = "far"
label = { en = "Far", es = "Lejos" }
when = ["far"]
"""


def test_a_column_reading_may_add_no_text_but_a_picked_alternative_must() -> None:
    text = GOOD + READINGS  # readings of the last row
    row = load_table_text(text, "good.toml")["t"].rows[1]
    assert [o.text_en.source for o in row.options] == ["close", ""]
    assert row.short("en") == "high close"
    picked = text.replace('when = ["far"]\n', "")
    with pytest.raises(TableDataError, match="row 3-4 option far: text must be a table"):
        load_table_text(picked, "good.toml")


def test_a_modifier_widens_the_range_to_cover() -> None:
    text = GOOD.replace('rolls = [{ table = "t" }]', 'rolls = [{ table = "t", modifier = 1 }]')
    with pytest.raises(TableDataError, match="rows end at 4 but the die reaches 5"):
        load_table_text(text, "good.toml")
    fixed = text.replace("range = [3, 4]", "range = [3, 5]")
    assert load_table_text(fixed, "good.toml")["t"].high == 5


# --- distribution -----------------------------------------------------------------------------


def _chi2_critical(df: int, z: float = 3.090232) -> float:
    """Wilson-Hilferty approximation of the chi-square quantile; z = 3.09 is p = 0.001."""
    k = float(df)
    return k * (1 - 2 / (9 * k) + z * math.sqrt(2 / (9 * k))) ** 3


def test_chi2_critical_value_matches_the_tables() -> None:
    assert _chi2_critical(32) == pytest.approx(62.487, abs=0.1)
    assert _chi2_critical(10) == pytest.approx(29.588, abs=0.25)


@pytest.mark.parametrize("table_id", ["merp-1", "merp-2"])
def test_rolled_rows_follow_the_range_widths(table_id: str) -> None:
    tables = load_tables()
    table = tables[table_id]
    rng = random.Random(20240611)
    n = 100_000
    counts: Counter[int] = Counter()
    for _ in range(n):
        resolution = Resolution(tables, table_id).auto(rng)
        assert resolution.tree.row_index is not None
        counts[resolution.tree.row_index] += 1
    statistic = 0.0
    for row in table.rows:
        expected = n * (row.hi - row.lo + 1) / table.die.sides
        statistic += (counts[row.index] - expected) ** 2 / expected
    assert statistic < _chi2_critical(len(table.rows) - 1)
