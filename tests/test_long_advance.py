"""Huge actions (#14): time across many days is one event, a long advance asks first, the clock
has a bound, and no night recovers while a temporary madness lasts (RULES.md "Recovery")."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gmscreen.campaign import actions, open_campaign
from gmscreen.campaign import events as ev
from gmscreen.campaign.actions import ASK_ABOVE_DAYS, MAX_CLOCK, LongAdvance
from gmscreen.campaign.errors import InvalidAction
from gmscreen.campaign.gm_lines import GM_LINES
from gmscreen.campaign.gm_words import Teller, sentence
from gmscreen.campaign.model import Campaign, Character
from gmscreen.campaign.reducer import fold
from gmscreen.campaign.store import read_checkpoint, write_checkpoint
from gmscreen.rules.madness import DAY, HOUR, Episode, MadnessState


def _events(state: Campaign, seconds: int, confirmed: bool = True) -> list[ev.Event]:
    drafts = actions.advance(state, seconds, "advance", random.Random(1), confirmed=confirmed)
    first = state.last_event + 1
    return [
        ev.Event(first + n, first, "2024-05-01T20:00:00.000+00:00", game, who, data)
        for n, (who, data, game) in enumerate(drafts)
    ]


def _after(state: Campaign, seconds: int) -> Campaign:
    return fold(state, _events(state, seconds))


def _party(*states: MadnessState, clock: int = 10 * HOUR) -> Campaign:
    chars = tuple(Character(f"c{n}", f"C{n}", s) for n, s in enumerate(states))
    return Campaign(name="Long", clock=clock, characters=chars)


def test_seventeen_days_are_one_event_carrying_the_recoveries() -> None:
    state = _party(MadnessState(pow=12, madness=7), MadnessState(pow=12, madness=30))
    new = _events(state, 17 * DAY)
    kinds = [e.kind for e in new]
    assert kinds == ["clock_advanced", "day_ended"]  # not one day_ended a day
    day = new[1].data
    assert isinstance(day, ev.DayEnded) and (day.day, day.days) == (0, 17)
    after = fold(state, new)
    assert [c.sanity.madness for c in after.characters] == [0, 13]
    # one record per run of plain nights, not one a night
    assert [(r.character, r.nights, r.amount) for r in day.recoveries] == [
        ("c0", 7, 7),
        ("c1", 17, 17),
    ]


@settings(max_examples=60, deadline=None)
@given(
    madness=st.lists(st.integers(0, 40), min_size=1, max_size=3),
    days=st.integers(1, ASK_ABOVE_DAYS),
    episode_days=st.one_of(st.none(), st.integers(1, 45)),
    gained_today=st.booleans(),
    hour=st.integers(0, 23),
)
def test_many_days_at_once_are_the_days_one_by_one(
    madness: list[int], days: int, episode_days: int | None, gained_today: bool, hour: int
) -> None:
    """The fold of one long advance equals that of a day at a time (no care: no dice)."""
    clock = hour * HOUR
    states = []
    for n, points in enumerate(madness):
        episode = None
        if n == 0 and episode_days is not None:
            points = max(points, 12)
            episode = Episode("phobia", episode_days, "days", clock, clock + episode_days * DAY)
        last_gain = 0 if gained_today else None
        states.append(
            MadnessState(pow=12, madness=points, episode=episode, last_gain_day=last_gain)
        )
    state = _party(*states, clock=clock)
    at_once = _after(state, days * DAY)
    one_by_one = state
    for _ in range(days):
        one_by_one = _after(one_by_one, DAY)
    assert at_once.characters == one_by_one.characters
    assert at_once.clock == one_by_one.clock


def test_no_recovery_while_a_temporary_madness_lasts() -> None:
    """RULES.md: the night in an episode's grip is skipped, and the log says so."""
    episode = Episode("paranoia", 3, "days", 0, 2 * DAY + 6 * HOUR)
    state = _party(MadnessState(pow=12, madness=14, episode=episode))
    new = _events(state, DAY)
    day = new[-1].data
    assert isinstance(day, ev.DayEnded)
    (night,) = day.recoveries
    assert night.episode == "paranoia" and night.amount == 0 and not night.changes
    assert fold(state, new).characters[0].sanity.madness == 14
    lines = Teller({"c0": "C0"}, "en", says=GM_LINES).tell(new)
    assert any(line.what == "No recovery: in the grip of Paranoia" for line in lines), [
        line.what for line in lines
    ]
    # three days on: two nights skipped, the episode ends (14 -> 7), the third night recovers
    three = _events(state, 3 * DAY)
    assert [e.kind for e in three] == ["clock_advanced", "episode_ended", "day_ended"]
    assert fold(state, three).characters[0].sanity.madness == 6


def test_the_log_and_the_recap_show_one_line_for_many_days() -> None:
    state = _party(MadnessState(pow=12, madness=7), MadnessState(pow=12, madness=3))
    new = _events(state, 17 * DAY)
    lines = Teller({"c0": "Ana", "c1": "Bo"}, "en", says=GM_LINES).tell(new[1:])
    assert len(lines) == 1
    assert lines[0].what == "17 days pass (days 1 to 17 end)"
    assert lines[0].outcome == "recovery Ana 7 → 0; Bo 3 → 0"
    recap = sentence(lines[0])  # the recap says the log's words
    assert recap == "17 days pass (days 1 to 17 end) · recovery Ana 7 → 0; Bo 3 → 0"


def test_more_than_the_limit_asks_first_and_the_clock_is_bounded(tmp_path: Path) -> None:
    state = _party(MadnessState(pow=12, madness=10))
    with pytest.raises(LongAdvance) as asked:
        actions.advance(state, (ASK_ABOVE_DAYS + 1) * DAY, "advance", random.Random(1))
    assert asked.value.days == ASK_ABOVE_DAYS + 1
    actions.advance(state, ASK_ABOVE_DAYS * DAY, "advance", random.Random(1))  # no question
    with pytest.raises(InvalidAction, match="ends at day 1000000"):
        actions.advance(state, MAX_CLOCK, "advance", random.Random(1), confirmed=True)
    folder = tmp_path / "c"
    folder.mkdir()
    write_checkpoint(folder, state)
    with open_campaign(folder, rng=random.Random(1)) as live:
        new = live.advance(999_999 * DAY, confirmed=True)  # `a 999999 d`: two events
        assert len(new) == 2 and live.state.clock == 10 * HOUR + 999_999 * DAY
        with pytest.raises(InvalidAction):
            live.advance(DAY, confirmed=True)  # past day 1,000,000
    journal = next((folder / "sessions").glob("*.jsonl"))
    assert journal.stat().st_size < 10_000
    assert read_checkpoint(folder)[0].clock == 10 * HOUR + 999_999 * DAY  # reads back
