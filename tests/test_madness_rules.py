"""The madness rule (RULES.md Part 1): the seed's worked example and the boundaries."""

from __future__ import annotations

import pytest

from gmscreen.rules import dice
from gmscreen.rules.madness import (
    DAY,
    MadnessError,
    MadnessState,
    band,
    check_due,
    check_odds,
    check_target,
    duration_unit,
    end_episode,
    end_of_day,
    fumble_chance,
    fumble_from,
    gain,
    gain_dice,
    recovery_dice,
    resolve_check_roll,
    start_episode,
    time_passes,
)
from gmscreen.rules.madness_check import CheckSequence
from gmscreen.rules.madness_data import load_madness_data


def d100(value: int) -> dice.Roll:
    return dice.typed("d100", value)


def test_artinar_end_to_end() -> None:
    artinar = MadnessState(pow=13, chaos=43, balance=32, law=47)
    first = gain(artinar, "friend_dies", roll=dice.typed("1d6", 4), day=0)
    second = gain(first.after, "friend_dies", roll=dice.typed("1d6", 5), day=0)
    assert second.after.madness == 9
    revenge = gain(second.after, "custom", {"amount": 2}, day=0)
    demon = gain(revenge.after, "demon", {"pow": 16}, day=0)
    assert demon.amount == 3
    state = demon.after
    assert state.madness == 14

    seq = CheckSequence(state, fumble_base=1)
    assert (seq.phase, seq.target()) == ("roll", ("law", 47))
    step = seq.roll(d100(53))
    assert (step.outcome, step.fumble_from) == ("failure", 100)
    assert (seq.phase, step.outcome) == ("kind", "failure")
    episode = seq.choose_kind(dice.picked("1d6", 1))
    assert (episode.amount, episode.unit, episode.unit_value) == (14, "rounds", 15)
    assert (seq.phase, seq.outcome) == ("done", "failure")

    # 14 rounds of 12 seconds later the episode is over and madness halves to 7.
    ending = time_passes({"artinar": seq.state}, now=0, seconds=14 * 12)
    assert [h.what for h in ending] == ["episode_end"]
    state = end_episode(seq.state, ending[0].at).after
    assert state.madness == 7 and state.episode is None

    # The day of the gains gives no recovery; then one point a day: 7 days to be well.
    assert end_of_day(state, day=0).blocked
    for day in range(1, 8):
        recovery = end_of_day(state, day=day)
        assert not recovery.blocked and recovery.amount == 1
        state = recovery.after
    assert state.madness == 0
    assert end_of_day(state, day=8).after.madness == 0


@pytest.mark.parametrize(
    ("high", "balance", "unit"),
    [
        (30, 0, "rounds"),
        (31, 0, "minutes"),
        (60, 0, "minutes"),
        (61, 0, "hours"),
        (80, 0, "hours"),
        (81, 0, "days"),
        (200, 0, "days"),
        (10, 50, "rounds"),  # negative: rounds
        (47, 32, "rounds"),
        (91, 30, "hours"),  # 61
        (91, 61, "rounds"),  # 30
    ],
)
def test_duration_unit_boundaries(high: int, balance: int, unit: str) -> None:
    assert duration_unit(MadnessState(pow=10, law=high, balance=balance))[0] == unit
    assert duration_unit(MadnessState(pow=10, chaos=high, balance=balance))[0] == unit


@pytest.mark.parametrize(
    ("over", "base", "chance"),
    [
        (0, 1, 1),
        (4, 1, 1),
        (5, 1, 11),
        (9, 1, 11),
        (10, 1, 21),
        (14, 1, 21),
        (45, 1, 91),
        (50, 1, 100),  # 101 capped
        (90, 1, 100),
        (0, 2, 2),
        (5, 2, 12),
        (95, 2, 100),
    ],
)
def test_fumble_steps_and_cap(over: int, base: int, chance: int) -> None:
    state = MadnessState(pow=13, madness=13 + over, law=50)
    assert fumble_chance(state, base) == chance
    assert fumble_from(state, base) == 101 - chance


def test_only_00_fumbles_at_base_1() -> None:
    state = MadnessState(pow=13, madness=14, law=100)
    assert resolve_check_roll(state, d100(99)).outcome == "success"
    assert resolve_check_roll(state, dice.typed("d100", "00")).outcome == "fumble"


def test_fumble_inside_the_success_range_is_a_fumble() -> None:
    # 10 over POW: fumbles from 80 up, while Law 95 would succeed up to 95.
    state = MadnessState(pow=10, madness=20, law=95)
    assert resolve_check_roll(state, d100(79)).outcome == "success"
    assert resolve_check_roll(state, d100(80)).outcome == "fumble"
    assert resolve_check_roll(state, d100(95)).outcome == "fumble"
    odds = check_odds(state)
    assert (odds.success, odds.failure, odds.fumble) == (79, 0, 21)


@pytest.mark.parametrize(
    ("chaos", "law", "target"),
    [(43, 47, ("law", 47)), (50, 47, ("chaos", 50)), (40, 40, ("law", 40)), (0, 0, ("law", 0))],
)
def test_target_is_the_higher_alignment_law_on_a_tie(
    chaos: int, law: int, target: tuple[str, int]
) -> None:
    assert check_target(MadnessState(pow=10, chaos=chaos, law=law)) == target


def test_target_zero_always_fails() -> None:
    state = MadnessState(pow=10, madness=10)
    assert resolve_check_roll(state, d100(1)).outcome == "failure"
    assert check_odds(state).success == 0


@pytest.mark.parametrize(
    ("balance", "drop"), [(0, 1), (1, 1), (4, 1), (5, 1), (9, 1), (10, 2), (32, 6)]
)
def test_success_drops_balance_fifth_at_least_one(balance: int, drop: int) -> None:
    state = MadnessState(pow=10, madness=30, law=90, balance=balance)
    step = resolve_check_roll(state, d100(1))
    assert step.outcome == "success"
    assert step.drop == drop and step.after.madness == 30 - drop


def test_success_repeats_while_still_due_at_equal() -> None:
    state = MadnessState(pow=10, madness=11, law=90, balance=0)
    seq = CheckSequence(state)
    seq.roll(d100(5))
    assert (seq.state.madness, seq.phase) == (10, "roll")  # 10 >= POW 10: check again
    seq.roll(d100(5))
    assert seq.state.madness == 9 and seq.phase == "done" and seq.outcome == "success"


def test_fumble_is_a_failure_and_leaves_a_permanent_madness() -> None:
    state = MadnessState(pow=13, madness=30, law=80, balance=10)
    seq = CheckSequence(state)
    seq.roll(d100(100))
    episode = seq.choose_kind(dice.picked("1d6", 5))
    assert episode.permanent and episode.after.permanent == ("amnesia",)
    assert (episode.amount, episode.unit) == (30, "hours")
    assert end_episode(episode.after, 0).after.madness == 12  # min(15, POW - 1)


def test_first_sightings_halve_later_ones() -> None:
    state = MadnessState(pow=10)
    first = gain(state, "chaos_god")
    again = gain(first.after, "chaos_god")
    assert (first.amount, first.first_time) == (10, True)
    assert (again.amount, again.first_time) == (5, False)
    # A different sight is its own first time.
    assert gain(again.after, "law_god_worst").amount == 20


def test_alignment_gains_raise_the_alignment() -> None:
    state = MadnessState(pow=10, chaos=5, law=7)
    chaos = gain(state, "gain_chaos", {"points": 3})
    assert (chaos.after.chaos, chaos.after.madness) == (8, 3)
    law = gain(state, "gain_law", {"points": 2})
    assert (law.after.law, law.after.madness) == (9, 2)


@pytest.mark.parametrize(
    ("key", "inputs", "amount"),
    [
        ("demon", {"pow": 16}, 3),
        ("demon", {"pow": 4}, 0),
        ("elemental", {}, 2),
        ("chaotic_creature", {"pow": 8}, 0),
        ("chaotic_creature", {"pow": 25}, 2),
        ("chaotic_feature", {"app_dice": 2}, 4),
        ("chaotic_transformation", {"app_lost": 3}, 6),
        ("confined", {"amount": 4}, 4),
        ("frustrated_by_law", {"amount": 1}, 1),
        ("elemental_lord", {}, 8),
        ("beast_plant_lord", {}, 6),
    ],
)
def test_fixed_and_input_presets(key: str, inputs: dict[str, int], amount: int) -> None:
    assert gain_dice(key, inputs) is None
    assert gain(MadnessState(pow=10), key, inputs).amount == amount


@pytest.mark.parametrize(
    ("key", "expr"),
    [
        ("friend_dies", "1d6"),
        ("true_love_dies", "3d6"),
        ("other_plane", "1d4"),
        ("end_of_world", "2d8"),
    ],
)
def test_dice_presets_need_their_roll(key: str, expr: str) -> None:
    assert gain_dice(key) == expr
    with pytest.raises(MadnessError):
        gain(MadnessState(pow=10), key)
    with pytest.raises(MadnessError):
        gain(MadnessState(pow=10), key, roll=dice.typed("1d20", 3))


def test_true_love_takes_an_adjustment_never_below_zero() -> None:
    state = MadnessState(pow=10)
    assert gain(state, "true_love_dies", roll=dice.typed("3d6", 10), adjustment=-3).amount == 7
    assert gain(state, "true_love_dies", roll=dice.typed("3d6", 3), adjustment=-9).amount == 0
    with pytest.raises(MadnessError):
        gain(state, "elemental", adjustment=2)


def test_custom_takes_an_amount_or_dice() -> None:
    state = MadnessState(pow=10)
    assert gain_dice("custom", {"amount": "2d6+1"}) == "2d6+1"
    result = gain(state, "custom", {"amount": "2d6+1"}, roll=dice.typed("2d6+1", "3,4"))
    assert result.amount == 8
    with pytest.raises(dice.DiceError):
        gain_dice("custom", {"amount": "1d0"})
    with pytest.raises(MadnessError):
        gain(state, "custom", {"amount": -3})


def test_app_lost_lowers_app() -> None:
    assert (
        gain(MadnessState(pow=10, app=12), "chaotic_transformation", {"app_lost": 3}).after.app == 9
    )


def test_app_lost_is_at_most_the_app_the_character_has() -> None:
    # RULES.md, gains table: "at most the APP the character has; more is refused".
    state = MadnessState(pow=10, app=5)
    all_of_it = gain(state, "chaotic_transformation", {"app_lost": 5})
    assert (all_of_it.after.app, all_of_it.amount) == (0, 10)
    with pytest.raises(MadnessError, match="6 APP lost is more than the 5 APP") as refused:
        gain(state, "chaotic_transformation", {"app_lost": 6})
    assert refused.value.code == "app_lost_too_much"
    assert refused.value.params == {"lost": 6, "app": 5}


def test_a_zero_gain_does_not_block_recovery() -> None:
    state = MadnessState(pow=10, madness=4)
    weak = gain(state, "chaotic_creature", {"pow": 8}, day=3)
    assert weak.after.last_gain_day is None
    assert not end_of_day(weak.after, day=3).blocked


def test_recovery_under_care_takes_1d6_and_a_gain_blocks_it() -> None:
    state = MadnessState(pow=10, madness=9, under_care=True)
    assert end_of_day(state, day=0, roll=dice.typed("1d6", 4)).after.madness == 5
    with pytest.raises(MadnessError):
        end_of_day(state, day=0)
    gained = gain(state, "elemental", day=2).after
    assert recovery_dice(state, day=2) == "1d6" and recovery_dice(gained, day=2) is None
    assert recovery_dice(gained, day=3) == "1d6" and recovery_dice(MadnessState(pow=10), 0) is None
    assert end_of_day(gained, day=2).blocked
    assert (
        end_of_day(
            MadnessState(pow=10, madness=2, under_care=True), 0, dice.typed("1d6", 6)
        ).after.madness
        == 0
    )


def test_time_passes_ends_episodes_before_that_midnights_recovery() -> None:
    state = MadnessState(pow=13, madness=14, law=47, balance=32)
    ep = start_episode(state, dice.picked("1d6", 2), False, now=DAY - 14 * 12).after
    happenings = time_passes(
        {"a": ep, "b": MadnessState(pow=5)}, now=DAY - 14 * 12, seconds=2 * DAY
    )
    assert [(h.what, h.who, h.day) for h in happenings] == [
        ("episode_end", "a", None),
        ("day_end", None, 0),
        ("day_end", None, 1),
    ]
    with pytest.raises(MadnessError):
        time_passes({}, now=0, seconds=-1)


def test_bad_states_and_rolls_are_refused() -> None:
    with pytest.raises(MadnessError):
        MadnessState(pow=0)
    with pytest.raises(MadnessError):
        MadnessState(pow=10, madness=-1)
    with pytest.raises(MadnessError):
        resolve_check_roll(MadnessState(pow=10, madness=3), d100(5))  # not due
    with pytest.raises(MadnessError):
        resolve_check_roll(MadnessState(pow=10, madness=30), dice.typed("1d20", 5))
    with pytest.raises(MadnessError):
        gain(MadnessState(pow=10), "no_such_gain")
    with pytest.raises(MadnessError):
        fumble_chance(MadnessState(pow=10), base=101)


@pytest.mark.parametrize(
    ("madness", "key"),
    [
        (0, "calm"),
        (3, "calm"),
        (4, "uneasy"),
        (7, "uneasy"),
        (8, "shaken"),
        (11, "shaken"),
        (12, "edge"),
        (15, "edge"),
        (16, "breaking"),
    ],
)
def test_player_view_bands(madness: int, key: str) -> None:
    assert band(MadnessState(pow=16, madness=madness)) == key


def test_data_has_every_preset_of_the_rules() -> None:
    expected = {
        "gain_chaos", "gain_law", "demon", "elemental", "chaotic_creature", "chaotic_feature",
        "friend_dies", "true_love_dies", "chaos_god", "chaos_god_worst", "law_god", "law_god_worst",
        "elemental_lord", "beast_plant_lord", "other_plane", "end_of_world",
        "chaotic_transformation", "confined", "frustrated_by_law", "custom",
    }  # fmt: skip
    data = load_madness_data()
    assert set(data.presets) == expected
    assert [k.key for k in data.kinds] == [
        "catatonia", "stupor", "paranoia", "phobia", "amnesia", "suicide",
    ]  # fmt: skip


def test_no_check_is_due_during_an_episode() -> None:
    state = MadnessState(pow=13, madness=14, law=47, balance=32)
    mad = start_episode(state, dice.picked("1d6", 3), False, now=0).after
    assert check_due(state) and not check_due(mad)
    with pytest.raises(MadnessError, match="episode"):
        resolve_check_roll(mad, d100(5))
    assert check_due(end_episode(mad, 168).after) is False  # 7 < 13


def test_the_data_validator_refuses_a_preset_that_lowers_something_else() -> None:
    import copy
    import tomllib
    from importlib import resources

    from gmscreen.rules.madness_data import MadnessDataError, parse_madness_data

    raw = tomllib.loads(resources.files("gmscreen.data").joinpath("madness.toml").read_text())
    parse_madness_data(copy.deepcopy(raw))  # the bundled data is fine
    raw["presets"]["chaotic_transformation"]["lowers"] = "pow"
    with pytest.raises(MadnessDataError, match="lowers"):
        parse_madness_data(raw)
