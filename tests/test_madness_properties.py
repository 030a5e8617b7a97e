"""Invariants of the madness rule, for any numbers a campaign can hold."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gmscreen.rules import dice
from gmscreen.rules.madness import (
    MadnessError,
    MadnessState,
    check_odds,
    end_episode,
    end_of_day,
    gain,
    gain_dice,
    resolve_check_roll,
)
from gmscreen.rules.madness_check import CheckSequence
from gmscreen.rules.madness_data import load_madness_data

states = st.builds(
    MadnessState,
    pow=st.integers(1, 100),
    app=st.integers(0, 30),
    chaos=st.integers(0, 200),
    balance=st.integers(0, 200),
    law=st.integers(0, 200),
    madness=st.integers(0, 400),
    under_care=st.booleans(),
)
PRESETS = sorted(load_madness_data().presets)


@given(
    states,
    st.sampled_from(PRESETS),
    st.integers(0, 100),
    st.integers(0, 2**32),
    st.integers(-10, 10),
)
def test_gains_never_lower_madness(
    state: MadnessState, key: str, value: int, seed: int, adjust: int
) -> None:
    preset = load_madness_data().presets[key]
    name = preset.needs_input
    inputs: dict[str, int | str] = {name: value} if name else {}
    expression = gain_dice(key, inputs)
    roll = dice.roll(expression, random.Random(seed)) if expression else None
    if preset.lowers == "app" and value > state.app:
        with pytest.raises(MadnessError, match="APP lost is more than"):  # RULES.md: refused
            gain(state, key, inputs, roll)
        return
    result = gain(state, key, inputs, roll, adjustment=adjust if preset.adjust else 0)
    assert result.after.madness >= state.madness >= 0
    assert result.after.app >= 0
    assert result.amount >= 0


@given(states, st.integers(0, 2**32), st.integers(0, 20))
def test_a_check_sequence_always_ends_and_keeps_madness_sane(
    state: MadnessState, seed: int, base: int
) -> None:
    rng = random.Random(seed)
    seq = CheckSequence(state, fumble_base=base)
    rolls = 0
    while seq.phase == "roll":
        before = seq.state.madness
        step = seq.roll(dice.roll("d100", rng))
        rolls += 1
        assert step.after.madness >= 0
        if step.outcome == "success":
            assert step.after.madness < before  # a success never raises madness
        assert rolls <= state.madness + 1  # each success lowers madness by at least 1
    if seq.phase == "kind":
        seq.choose_kind(dice.roll("1d6", rng))
        assert seq.state.episode is not None
        after = end_episode(seq.state, at=0).after
        assert 0 <= after.madness < after.pow  # after an episode madness is below POW
    assert seq.phase == "done"


@given(states, st.integers(1, 100), st.integers(0, 100))
def test_outcomes_match_the_odds(state: MadnessState, roll: int, base: int) -> None:
    state = MadnessState(
        pow=state.pow, madness=state.pow + state.madness, law=state.law, chaos=state.chaos
    )
    odds = check_odds(state, base)
    assert odds.success + odds.failure + odds.fumble == 100
    assert min(odds.success, odds.failure, odds.fumble) >= 0
    outcome = resolve_check_roll(state, dice.typed("d100", roll), base).outcome
    # The odds count rolls: success is 1..s, failure s+1..100-f, fumble the top f.
    expected = (
        "success" if roll <= odds.success else "failure" if roll <= 100 - odds.fumble else "fumble"
    )
    assert outcome == expected


@given(states, st.integers(0, 50), st.integers(1, 6))
def test_recovery_never_goes_negative(state: MadnessState, day: int, d6: int) -> None:
    roll = dice.typed("1d6", d6) if state.under_care else None
    after = end_of_day(state, day, roll).after
    assert 0 <= after.madness <= state.madness


@given(states, st.integers(0, 1000))
def test_chaotic_transformation_takes_at_most_the_app_there_is(
    state: MadnessState, lost: int
) -> None:
    # RULES.md, gains table: APP drops by the APP lost, at most the APP the character has.
    if lost > state.app:
        with pytest.raises(MadnessError, match="APP lost is more than"):
            gain(state, "chaotic_transformation", {"app_lost": lost})
        return
    result = gain(state, "chaotic_transformation", {"app_lost": lost})
    assert result.after.app == state.app - lost >= 0
    assert result.after.madness == state.madness + 2 * lost
