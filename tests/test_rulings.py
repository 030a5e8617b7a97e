"""GM rulings through the campaign API: each changes the state as RULES.md says, is journaled
with its reason, undoes and redoes, replays and recovers to the same state, and is told in the
GM's words ("GM ruling: …") and, with no reason and no number, in the players'."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmscreen.campaign import InvalidAction, LiveCampaign, open_campaign
from gmscreen.campaign import events as ev
from gmscreen.campaign import rulings as r
from gmscreen.campaign.model import Campaign, Character, Settings
from gmscreen.campaign.player_safe import player_safe
from gmscreen.campaign.recap_markdown import players_markdown
from gmscreen.campaign.reducer import fold
from gmscreen.campaign.store import load_sessions, recover, write_checkpoint
from gmscreen.campaign.telling import recap_lines
from gmscreen.rules import dice
from gmscreen.rules.madness import MadnessState

FIXED = datetime(2024, 5, 1, 20, 0, tzinfo=UTC)


def _open(folder: Path) -> LiveCampaign:
    return open_campaign(folder, rng=random.Random(3), clock=lambda: FIXED)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "c"
    path.mkdir()
    artinar = Character("artinar", "Artinar", MadnessState(pow=13, chaos=43, balance=32, law=47))
    bors = Character("bors", "Bors", MadnessState(pow=12, madness=5))
    write_checkpoint(path, Campaign(name="T", characters=(artinar, bors)))
    return path


def _worked_example(live: LiveCampaign) -> None:
    """RULES.md's Artinar: 9 + 2 + 3 madness, a check failed at 53: 14 rounds of madness."""
    live.gain("artinar", "custom", {"amount": 9})
    live.gain("artinar", "custom", {"amount": 2})
    live.gain("artinar", "demon", {"pow": 16})
    live.check_roll("artinar", dice.typed("d100", 53))
    live.check_kind("artinar", dice.typed("1d6", 4))  # phobia
    episode = live.character("artinar").sanity.episode
    assert episode is not None and episode.amount == 14


def test_ending_the_episode_with_the_halving(folder: Path) -> None:
    with _open(folder) as live:
        _worked_example(live)
        event = live.ruling("artinar", r.EndEpisode(halve=True), "a healing spell")
        s = live.character("artinar").sanity
        # as when it runs out: min(floor(14 / 2), POW - 1) = 7, and the episode is over
        assert (s.episode, s.madness) == (None, 7)
        assert isinstance(event.data, ev.Ruling)
        assert (event.data.ruling, event.data.subject, event.data.halved) == (
            "end_episode",
            "phobia",
            True,
        )
        assert event.data.reason == "a healing spell"
        assert not live.check_due("artinar")


def test_ending_the_episode_without_the_halving_makes_a_check_due(folder: Path) -> None:
    with _open(folder) as live:
        _worked_example(live)
        live.ruling("artinar", r.EndEpisode(halve=False), "she snaps out of it")
        s = live.character("artinar").sanity
        assert (s.episode, s.madness) == (None, 14)
        # madness 14 >= POW 13 and no episode: a check is due again (RULES.md)
        assert live.check_due("artinar")


def test_no_episode_no_ending(folder: Path) -> None:
    with _open(folder) as live:
        with pytest.raises(InvalidAction) as refused:
            live.ruling("artinar", r.EndEpisode(halve=True), "why not")
        assert refused.value.code == "ruling.no_episode"
        assert live.events == []


def test_a_permanent_madness_added_and_removed(folder: Path) -> None:
    with _open(folder) as live:
        live.ruling("bors", r.AddPermanent("paranoia"), "a curse")
        live.ruling("bors", r.AddPermanent("phobia"), "a second curse")
        assert live.character("bors").sanity.permanent == ("paranoia", "phobia")
        live.ruling("bors", r.RemovePermanent("paranoia"), "the curse is lifted")
        assert live.character("bors").sanity.permanent == ("phobia",)
        with pytest.raises(InvalidAction) as refused:
            live.ruling("bors", r.RemovePermanent("paranoia"), "again")
        assert refused.value.code == "ruling.no_permanent"
        with pytest.raises(InvalidAction) as unknown:
            live.ruling("bors", r.AddPermanent("boredom"), "no such kind")
        assert unknown.value.code == "ruling.unknown_kind"
        assert len(live.events) == 3


def test_a_first_sighting_forgotten_gives_the_full_gain_again(folder: Path) -> None:
    with _open(folder) as live:
        first = live.gain("bors", "chaos_god")
        assert isinstance(first.data, ev.Gain) and first.data.amount == 10
        second = live.gain("bors", "chaos_god")
        assert isinstance(second.data, ev.Gain) and second.data.amount == 5
        live.ruling("bors", r.ForgetSighting("chaos_god"), "it was an illusion")
        assert "chaos_god" not in live.character("bors").sanity.first_sightings
        third = live.gain("bors", "chaos_god")
        assert isinstance(third.data, ev.Gain)
        assert (third.data.amount, third.data.first_time) == (10, True)
        with pytest.raises(InvalidAction) as refused:
            live.ruling("bors", r.ForgetSighting("law_god"), "never seen")
        assert refused.value.code == "ruling.no_sighting"


def test_madness_set_to_a_value(folder: Path) -> None:
    with _open(folder) as live:
        live.ruling("bors", r.SetMadness(12), "miscounted last session")
        assert live.character("bors").sanity.madness == 12
        assert live.check_due("bors")  # 12 >= POW 12
        # a ruling is no gain: the night's recovery is not blocked by it
        assert live.character("bors").sanity.last_gain_day is None
        for value, code in ((12, "ruling.nothing"), (10_001, "input_range")):
            with pytest.raises(InvalidAction) as refused:
                live.ruling("bors", r.SetMadness(value), "again")
            assert refused.value.code == code


def test_under_care_recovers_a_d6_a_night(folder: Path) -> None:
    with _open(folder) as live:
        live.ruling("bors", r.SetUnderCare(True), "taken to the temple")
        assert live.character("bors").sanity.under_care
        events = live.end_day()
        (day,) = [e.data for e in events if isinstance(e.data, ev.DayEnded)]
        (recovery,) = [x for x in day.recoveries if x.character == "bors"]
        assert recovery.roll is not None and recovery.roll.expr == "1d6"
        live.ruling("bors", r.SetUnderCare(False), "left the temple")
        assert not live.character("bors").sanity.under_care
        with pytest.raises(InvalidAction) as refused:
            live.ruling("bors", r.SetUnderCare(False), "still out")
        assert refused.value.code == "ruling.nothing"


@pytest.mark.parametrize("reason", ["", "   ", "\n\t"])
def test_a_ruling_needs_a_reason(folder: Path, reason: str) -> None:
    with _open(folder) as live:
        with pytest.raises(InvalidAction) as refused:
            live.ruling("bors", r.SetMadness(3), reason)
        assert refused.value.code == "ruling.reason"
        assert live.events == []


def test_no_ruling_without_the_madness_rules(tmp_path: Path) -> None:
    path = tmp_path / "m"
    path.mkdir()
    merp_only = Settings(modules=("merp-items",))
    bors = Character("bors", "Bors", MadnessState(pow=12, madness=5))
    write_checkpoint(path, Campaign(name="T", settings=merp_only, characters=(bors,)))
    with _open(path) as live:
        with pytest.raises(InvalidAction) as refused:
            live.ruling("bors", r.SetMadness(3), "why")
        assert refused.value.code == "madness_off"


def _every_ruling(live: LiveCampaign, reason: str = "the GM says so") -> None:
    _worked_example(live)
    live.gain("artinar", "law_god")
    live.ruling("artinar", r.EndEpisode(halve=True), reason)
    live.ruling("artinar", r.AddPermanent("amnesia"), reason)
    live.ruling("bors", r.AddPermanent("stupor"), reason)
    live.ruling("bors", r.RemovePermanent("stupor"), reason)
    live.ruling("artinar", r.ForgetSighting("law_god"), reason)
    live.ruling("bors", r.SetMadness(9), reason)
    live.ruling("bors", r.SetUnderCare(True), reason)


def test_each_ruling_undoes_and_redoes_as_one_action(folder: Path) -> None:
    with _open(folder) as live:
        _every_ruling(live)
        rulings = [e.event for e in live.events if isinstance(e.event.data, ev.Ruling)]
        for event in reversed(rulings):
            before = live.state
            assert "GM ruling" in (live.describe_last_undoable() or "")
            assert live.undo() == event
            assert live.redo() == event
            assert live.state.characters == before.characters
            live.undo()
        # every ruling undone: the state the worked example and the gain left
        artinar = live.character("artinar").sanity
        assert artinar.episode is not None and artinar.madness == 24
        assert live.character("bors").sanity == MadnessState(pow=12, madness=5)


def test_rulings_replay_and_recover_to_the_same_state(folder: Path) -> None:
    with _open(folder) as live:
        _every_ruling(live)
        live.undo()  # the last (under care) undone: replay must leave it out too
        played = live.state
        start = live.session_start
        assert fold(start, [e.event for e in live.events]).characters == played.characters
    # Recovery: the checkpoint written on close, and the journal replayed onto the session start.
    (log,) = load_sessions(folder)
    assert recover(log.header.state, [log]).state.characters == played.characters
    with _open(folder) as again:
        assert again.state.characters == played.characters
        assert not again.character("bors").sanity.under_care


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_gm_recap_says_gm_ruling_with_the_reason(folder: Path, lang: str) -> None:
    with _open(folder) as live:
        _every_ruling(live, "the 3rd healing spell")
        lines = recap_lines(live.session_start, [e.event for e in live.events], lang)
    said = [line.text for line in lines if isinstance(line.event.data, ev.Ruling)]
    lead = {"en": "GM ruling: ", "es": "Decisión del máster: "}[lang]
    assert len(said) == 7
    assert all(lead in text and "the 3rd healing spell" in text for text in said)
    assert "24 → 12" in said[0]  # the GM sees the numbers: min(24 // 2, POW - 1)
    assert "5 → 9" in said[5]


# Reasons a GM might type: numbers, markup, anything.
REASONS = st.text(min_size=1, max_size=40).map(lambda text: f"REASON-{text}")


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(reason=REASONS, value=st.integers(0, 10_000), lang=st.sampled_from(["en", "es"]))
def test_the_players_never_hear_a_reason_or_a_number_from_a_ruling(
    tmp_path_factory: pytest.TempPathFactory, reason: str, value: int, lang: str
) -> None:
    folder = tmp_path_factory.mktemp("players")
    bors = Character("bors", "Bors", MadnessState(pow=12, madness=5))
    artinar = Character("artinar", "Artinar", MadnessState(pow=13, chaos=43, balance=32, law=47))
    write_checkpoint(folder, Campaign(name="T", characters=(artinar, bors)))
    with _open(folder) as live:
        _every_ruling(live, reason)
        if value != 9:
            live.ruling("bors", r.SetMadness(value), reason)
        events = [e.event for e in live.events]
        view = player_safe(live.state, lang, events, live.session_start, story=True)
        markdown = players_markdown(view, "T", "s1")
    rulings = {e.seq for e in events if isinstance(e.data, ev.Ruling)}
    assert "REASON-" not in markdown and "REASON-" not in repr(view.to_dict())
    told = [line for line in view.story if "GM ruling" in line.text or "máster" in line.text]
    # the episode ended, the two madnesses added, the one removed, care: five told, no digit
    assert len(told) == 5 and len(rulings) >= 7
    assert not any(ch.isdigit() for line in told for ch in line.text)


def test_the_players_recap_of_the_rich_session_with_rulings_keeps_every_secret(
    tmp_path: Path,
) -> None:
    from tests.player_safe_checks import assert_player_safe
    from tests.rich_session import fixed_clock, play_rich_session

    from gmscreen.campaign.paths import create_campaign

    both = Settings(modules=("madness", "merp-items"), auto_check=False)
    folder = create_campaign(tmp_path, "Imrryr", both)
    with open_campaign(folder, rng=random.Random(7), clock=fixed_clock) as live:
        told = play_rich_session(live)
        # reasons full of figures: the players must never read them
        live.ruling("artinar", r.EndEpisode(halve=False), "Day 3: 14 points, POW 13")
        told.under_way.remove("artinar")
        live.ruling("bors", r.AddPermanent("amnesia"), "1d6 rolled 5")
        live.ruling("bors", r.RemovePermanent("catatonia"), "cured at 00:05")
        live.ruling("gorjon", r.SetMadness(1), "madness 99")
        live.ruling("cymoril", r.SetUnderCare(True), "POW 14")
        live.ruling("gorjon", r.ForgetSighting("chaos_god"), "10 or 5")
    (log,) = load_sessions(folder)
    final = recover(log.header.state, [log]).state
    for lang in ("en", "es"):
        view = player_safe(final, lang, log.events, log.header.state, story=True)
        text = players_markdown(view, "Imrryr", log.header.id)
        assert_player_safe(text, final, log.events, lang, log.header.id, told)
        assert "GM ruling" in text or "Decisión del máster" in text
