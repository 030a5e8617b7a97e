"""Background-point costs and roll limits for the special item tables."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gmscreen.rules.merp import (
    COSTS,
    MESSAGES,
    RollRefused,
    budget,
    check_roll_allowed,
    table_name,
)

CHEAP_ON_1 = ["non_spell_user", "semi_spell_user", "dwarf_spell_user"]
CHEAP_ON_2 = ["pure_spell_user", "hybrid_spell_user", "elf_non_spell_user"]


@pytest.mark.parametrize("category", CHEAP_ON_1)
def test_non_semi_and_dwarf_pay_one_on_table_1_and_two_on_table_2(category: str) -> None:
    state = budget(category, 5, {})  # type: ignore[arg-type]
    assert (state.tables["merp-1"].cost, state.tables["merp-1"].max_rolls) == (1, 2)
    assert (state.tables["merp-2"].cost, state.tables["merp-2"].max_rolls) == (2, 1)


@pytest.mark.parametrize("category", CHEAP_ON_2)
def test_pure_hybrid_and_elves_pay_two_on_table_1_and_one_on_table_2(category: str) -> None:
    state = budget(category, 5, {})  # type: ignore[arg-type]
    assert (state.tables["merp-1"].cost, state.tables["merp-1"].max_rolls) == (2, 1)
    assert (state.tables["merp-2"].cost, state.tables["merp-2"].max_rolls) == (1, 2)


def test_budget_tracks_points_and_rolls_left() -> None:
    state = budget("non_spell_user", 5, {"merp-1": 1})
    assert (state.points_spent, state.points_left) == (1, 4)
    assert state.tables["merp-1"].rolls_left == 1 and state.tables["merp-1"].allowed
    assert state.tables["merp-2"].rolls_left == 1 and state.tables["merp-2"].allowed
    state = budget("non_spell_user", 5, {"merp-1": 2, "merp-2": 1})
    assert (state.points_spent, state.points_left) == (4, 1)
    assert not state.tables["merp-1"].allowed and not state.tables["merp-2"].allowed


def test_the_roll_limit_is_refused_in_english_and_spanish() -> None:
    with pytest.raises(RollRefused) as caught:
        check_roll_allowed("pure_spell_user", 10, {"merp-1": 1}, "merp-1")
    assert str(caught.value) == (
        "a pure spell user may make at most 1 roll on Table 1, and has already made 1"
    )
    assert caught.value.message("es").startswith(
        "un hechicero puro puede hacer como mucho 1 tirada en"
    )


def test_running_out_of_points_is_refused() -> None:
    with pytest.raises(RollRefused, match="costs 2 background point"):
        check_roll_allowed("semi_spell_user", 1, {}, "merp-2")
    with pytest.raises(RollRefused) as caught:
        check_roll_allowed("semi_spell_user", 1, {}, "merp-2")
    assert caught.value.message("es") == "una tirada en Tabla 2 cuesta 2 P.H., pero solo quedan 1"
    assert check_roll_allowed("semi_spell_user", 2, {}, "merp-2").cost == 2


def test_unknown_category_and_table_are_refused() -> None:
    with pytest.raises(RollRefused, match="unknown character category 'wizard'"):
        check_roll_allowed("wizard", 3, {}, "merp-1")  # type: ignore[arg-type]
    with pytest.raises(RollRefused) as caught:
        check_roll_allowed("non_spell_user", 3, {}, "merp-1a")
    # named as the GM reads the tables, never by their ids
    assert str(caught.value) == (
        "special items are bought on Table 1 and Table 2, not on 'Table 1a'"
    )
    assert "Tabla 1 y Tabla 2" in caught.value.message("es")


def test_tables_are_named_as_the_gm_reads_them() -> None:
    assert table_name("merp-1", "en") == "Table 1"
    assert table_name("merp-2a", "es") == "Tabla 2a"
    assert table_name("merp-1-100-armor", "en") == "merp-1-100-armor"  # an inner table's id


def test_every_message_exists_in_both_languages() -> None:
    assert all(set(texts) == {"en", "es"} for texts in MESSAGES.values())


@given(
    category=st.sampled_from(sorted(COSTS)),
    points=st.integers(0, 8),
    made_1=st.integers(0, 3),
    made_2=st.integers(0, 3),
    table=st.sampled_from(["merp-1", "merp-2"]),
)
def test_allowed_means_check_passes(
    category: str, points: int, made_1: int, made_2: int, table: str
) -> None:
    made = {"merp-1": made_1, "merp-2": made_2}
    state = budget(category, points, made)  # type: ignore[arg-type]
    cost = COSTS[category][table]  # type: ignore[index]
    expected = made[table] < cost.max_rolls and cost.points <= state.points_left
    assert state.tables[table].allowed == expected
    if expected:
        assert check_roll_allowed(category, points, made, table).cost == cost.points  # type: ignore[arg-type]
    else:
        with pytest.raises(RollRefused):
            check_roll_allowed(category, points, made, table)  # type: ignore[arg-type]
