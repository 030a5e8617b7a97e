import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gmscreen.rules import dice
from gmscreen.rules.dice import DiceError


@pytest.mark.parametrize(
    ("text", "count", "sides", "modifier"),
    [
        ("1d6", 1, 6, 0),
        ("3d6", 3, 6, 0),
        ("d8", 1, 8, 0),
        ("1d4+1", 1, 4, 1),
        ("2d10-3", 2, 10, -3),
        ("d100", 1, 100, 0),
        ("d%", 1, 100, 0),
        (" 2 D 6 + 1 ", 2, 6, 1),
        ("100d1000", 100, 1000, 0),
    ],
)
def test_parse_accepts(text: str, count: int, sides: int, modifier: int) -> None:
    expr = dice.parse(text)
    assert (expr.count, expr.sides, expr.modifier) == (count, sides, modifier)


@pytest.mark.parametrize(
    "text", ["1d0", "0d6", "999999d6", "2d", "abc", "", "d", "1d1001", "101d6", "1d6+", "1d6*2"]
)
def test_parse_rejects_with_quoted_message(text: str) -> None:
    with pytest.raises(DiceError) as info:
        dice.parse(text)
    message = str(info.value)
    assert repr(text) in message
    assert "NdM" in message or "modifiers" in message


@given(
    count=st.integers(1, 20),
    sides=st.integers(2, 100),
    modifier=st.integers(-50, 50),
    seed=st.integers(0, 2**32),
)
def test_rolls_stay_in_range_and_add_up(count: int, sides: int, modifier: int, seed: int) -> None:
    expr = dice.DiceExpr(count, sides, modifier)
    result = dice.roll(expr, random.Random(seed))
    assert expr.lowest <= result.total <= expr.highest
    assert result.total == sum(result.dice) + modifier
    assert len(result.dice) == count
    assert all(1 <= d <= sides for d in result.dice)
    assert result.source == "rolled"
    assert dice.parse(result.expr) == expr


def test_same_seed_same_roll() -> None:
    a = dice.roll("3d6", random.Random(7))
    b = dice.roll("3d6", random.Random(7))
    assert a == b


def test_typed_double_zero_is_100_and_zero_on_d10_is_10() -> None:
    assert dice.typed("d100", "00").total == 100
    assert dice.typed("d%", "53").total == 53
    assert dice.typed("1d10", "0").total == 10
    assert dice.typed("d100", 53).source == "typed"


def test_typed_each_die_or_total() -> None:
    each = dice.typed("2d6", "4, 5")
    assert each.dice == (4, 5) and each.total == 9
    total = dice.typed("3d6", "11")
    assert total.total == 11 and total.dice == ()
    plus = dice.typed("1d4+1", "5")
    assert plus.dice == (4,) and plus.total == 5


@pytest.mark.parametrize(
    ("expr", "value"),
    [("d100", "101"), ("d100", "0"), ("1d6", "7"), ("3d6", "2"), ("2d6", "1,2,3")],
)
def test_typed_out_of_range_is_refused(expr: str, value: str) -> None:
    with pytest.raises(DiceError):
        dice.typed(expr, value)


def test_picked_records_source_and_checks_range() -> None:
    assert dice.picked("1d6", 4).source == "picked"
    with pytest.raises(DiceError):
        dice.picked("1d6", 7)


def test_roll_round_trips_through_dict() -> None:
    result = dice.roll("2d6+1", random.Random(1))
    assert dice.Roll.from_dict(result.to_dict()) == result
    assert result.describe().startswith("2d6+1: ")
