"""The campaign's own horrors (its bestiary): their first sightings, gains that ask nothing,
and each change to the list one action that undo takes back, replay shows and recovery
applies again (docs/RULES.md "Gaining madness")."""

from __future__ import annotations

import random
import shutil
import tomllib
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gmscreen.campaign import InvalidAction, LiveCampaign, open_campaign
from gmscreen.campaign import events as ev
from gmscreen.campaign.journal import read_session
from gmscreen.campaign.model import Campaign, Character, Horror
from gmscreen.campaign.reducer import fold
from gmscreen.campaign.replay import Replay
from gmscreen.campaign.rulings import ForgetSighting
from gmscreen.campaign.store import load, read_checkpoint, write_checkpoint
from gmscreen.rules import dice
from gmscreen.rules.madness import MadnessState

FIXED = datetime(2025, 4, 1, 20, 0, tzinfo=UTC)
GODS = (Horror("arioch", "Arioch", "chaos_god"), Horror("mabelode", "Mabelode", "chaos_god"))


def _open(folder: Path, every: int = 50) -> LiveCampaign:
    return open_campaign(folder, rng=random.Random(3), clock=lambda: FIXED, checkpoint_every=every)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "melnibone"
    path.mkdir()
    elric = Character("elric", "Elric", MadnessState(pow=99, chaos=30, law=10))
    moonglum = Character("moonglum", "Moonglum", MadnessState(pow=15))
    write_checkpoint(path, Campaign("Melniboné", characters=(elric, moonglum), horrors=GODS))
    return path


def _amount(event: ev.Event) -> int:
    assert isinstance(event.data, ev.Gain)
    return event.data.amount


def _madness(live: LiveCampaign, who: str = "elric") -> int:
    return live.character(who).sanity.madness


def test_two_named_chaos_gods_each_cost_the_full_amount_once(folder: Path) -> None:
    with _open(folder) as live:
        gained = [live.gain("elric", horror=h).data for h in ("arioch", "mabelode", "arioch")]
        assert [g.amount for g in gained if isinstance(g, ev.Gain)] == [10, 10, 5]
        assert [g.first_time for g in gained if isinstance(g, ev.Gain)] == [True, True, False]
        assert [g.horror for g in gained if isinstance(g, ev.Gain)] == [
            "arioch",
            "mabelode",
            "arioch",
        ]
        sanity = live.character("elric").sanity
        assert sanity.madness == 25
        assert sanity.horrors_seen == {"arioch", "mabelode"}


def test_the_built_in_chaos_god_keeps_its_memory_per_kind(folder: Path) -> None:
    with _open(folder) as live:
        # The built-in gain: any Chaos god is "a Chaos god": 10, then 5.
        assert [_amount(live.gain("moonglum", "chaos_god")) for _ in range(2)] == [10, 5]
        # Seen "a Chaos god" does not make Arioch seen: his first sighting is his own.
        assert _amount(live.gain("moonglum", horror="arioch")) == 10
        # Seeing Arioch is seeing a Chaos god: the built-in costs less after him.
        live.gain("elric", horror="arioch")
        assert _amount(live.gain("elric", "chaos_god")) == 5
        assert live.character("elric").sanity.first_sightings == {"chaos_god"}


def test_forgetting_a_sighting_works_on_a_horror_and_on_a_kind(folder: Path) -> None:
    with _open(folder) as live:
        live.gain("elric", horror="arioch")
        live.ruling("elric", ForgetSighting(horror="arioch"), "it was a dream")
        assert _amount(live.gain("elric", horror="arioch")) == 10
        live.ruling("elric", ForgetSighting("chaos_god"), "a dream too")
        assert _amount(live.gain("elric", "chaos_god")) == 10
        with pytest.raises(InvalidAction, match="no first time"):
            live.ruling("elric", ForgetSighting(horror="mabelode"), "never seen")


def test_a_demon_horror_with_pow_18_asks_nothing_and_adds_3(folder: Path) -> None:
    with _open(folder) as live:
        live.add_horror("Herald of Arioch", preset="demon", inputs={"pow": 18}, players="a demon")
        (herald,) = [h for h in live.horrors if h.name == "Herald of Arioch"]
        assert (herald.id, herald.players) == ("herald-of-arioch", "a demon")
        assert live.horror_dice(herald.id) is None  # nothing to roll, nothing to ask
        event = live.gain("moonglum", horror=herald.id)
        assert isinstance(event.data, ev.Gain)
        assert (event.data.preset, event.data.inputs, event.data.amount) == (
            "demon",
            {"pow": 18},
            3,
        )
        assert _madness(live, "moonglum") == 3
        with pytest.raises(InvalidAction, match="horror's rule"):
            live.gain("moonglum", "demon", {"pow": 20}, horror=herald.id)


def test_horrors_of_a_fixed_amount_and_of_dice(folder: Path) -> None:
    with _open(folder) as live:
        live.add_horror("Pale Hound", amount=4)
        live.add_horror("Storm of Blades", dice="2d6")
        assert live.horror_dice("storm-of-blades") == "2d6"
        assert _amount(live.gain("elric", horror="pale-hound")) == 4
        rolled = live.gain("elric", horror="storm-of-blades", roll=dice.typed("2d6", 9))
        assert _amount(rolled) == 9
        with pytest.raises(InvalidAction, match="needs a roll of 2d6"):
            live.gain("elric", horror="storm-of-blades")


def test_creating_a_horror_then_undo_takes_it_back(folder: Path) -> None:
    with _open(folder) as live:
        live.add_horror("Pale Hound", amount=4)
        assert live.horror("pale-hound") is not None
        live.undo()
        assert live.horror("pale-hound") is None
        live.redo()
        assert live.horror("pale-hound") is not None


def test_save_the_gain_just_made_as_a_horror(folder: Path) -> None:
    with _open(folder) as live:
        live.gain("moonglum", "demon", {"pow": "18"})  # as the gain dialog passes it: typed
        saved = live.save_gain_as_horror("Herald of Arioch", players="a demon")
        assert isinstance(saved.data, ev.HorrorAdded)
        assert saved.data.from_gain == saved.seq - 1
        assert live.horror("herald-of-arioch") == Horror(
            "herald-of-arioch", "Herald of Arioch", "demon", {"pow": 18}, "a demon"
        )
        live.gain("elric", "custom", {"amount": "1d4"}, dice.typed("1d4", 2))
        live.save_gain_as_horror("Gate of the Shades")
        assert live.horror("gate-of-the-shades") == Horror(
            "gate-of-the-shades", "Gate of the Shades", "custom", {"amount": "1d4"}
        )
        with pytest.raises(InvalidAction, match="already named"):
            live.save_gain_as_horror("herald of arioch")
        live.undo()  # the second horror, its gain, then the first horror
        live.undo()
        assert live.horror("herald-of-arioch") is not None
        live.undo()
        assert live.horror("herald-of-arioch") is None
    with _open(folder) as live, pytest.raises(InvalidAction, match="No gain to save"):
        live.save_gain_as_horror("Nothing yet")


def _play(live: LiveCampaign) -> None:
    """A session of every bestiary action, undone and redone in places."""
    live.add_horror("Herald of Arioch", preset="demon", inputs={"pow": 18}, players="a demon")
    live.gain("moonglum", horror="herald-of-arioch")
    live.edit_horror("herald-of-arioch", inputs={"pow": 20}, preset="demon")
    live.edit_horror("arioch", name="Arioch, Duke of Hell", players="a god of Chaos")
    live.gain("elric", horror="arioch")
    live.gain("elric", "custom", {"amount": 3})
    live.save_gain_as_horror("Three Knocks")
    live.remove_horror("mabelode")
    live.undo()
    live.add_horror("Ариох", preset="chaos_god_worst")
    live.remove_horror("three-knocks")
    live.undo()
    live.redo()


def test_replay_and_recovery_of_a_session_with_horror_actions(folder: Path, tmp_path: Path) -> None:
    live = _open(folder, every=10_000)  # no checkpoint before the "crash" below
    try:
        _play(live)
        state = live.state
        assert [h.id for h in state.horrors] == ["arioch", "mabelode", "herald-of-arioch", "ариох"]
        assert state.horror("herald-of-arioch") == Horror(
            "herald-of-arioch", "Herald of Arioch", "demon", {"pow": 20}, "a demon"
        )
        # Recovery: the folder as a crash leaves it (campaign.toml from before the session).
        crashed = tmp_path / "crashed"
        shutil.copytree(folder, crashed, ignore=shutil.ignore_patterns(".lock"))
        assert read_checkpoint(crashed)[0].horrors == GODS
        assert load(crashed).state == state
        # Replay: the journal from its header, step by step, ends where the table did.
        assert live.session_path is not None
        log = read_session(live.session_path)
        assert fold(log.header.state, log.events) == state
        replay = Replay.from_log(log)
        assert replay.state_at(replay.steps) == state
        assert replay.state_at(1).horror("herald-of-arioch") is not None
        assert replay.state_at(0).horror("herald-of-arioch") is None
    finally:
        live.close()
    # The checkpoint keeps the list; opening it again finds it as it was.
    written = tomllib.loads((folder / "campaign.toml").read_text("utf-8"))
    assert [h["id"] for h in written["horrors"]] == [h.id for h in state.horrors]
    with _open(folder) as live:
        assert live.state.horrors == state.horrors
        assert live.character("elric").sanity.horrors_seen == {"arioch"}


def test_undo_reaches_a_horror_made_in_an_earlier_session(folder: Path) -> None:
    with _open(folder) as live:
        live.add_horror("Pale Hound", amount=4)
        live.edit_horror("arioch", players="a god")
    with _open(folder) as live:
        live.undo()  # the edit, from last session
        assert live.horror("arioch") == GODS[0]
        live.undo()  # the horror added
        assert live.horror("pale-hound") is None
        live.redo()
        assert live.horror("pale-hound") is not None and live.horror("arioch") == GODS[0]
        live.undo()
        state = live.state
    with _open(folder) as live:
        assert live.state.horrors == state.horrors == GODS


def test_a_horror_that_is_wrong_is_refused_with_the_field_named(folder: Path) -> None:
    with _open(folder) as live:
        for kwargs, said in (
            ({"preset": "demon"}, "pow"),
            ({"preset": "elemental", "inputs": {"pow": 3}}, "pow"),
            ({"preset": "custom", "inputs": {"amount": 3}}, "preset"),
            ({"preset": "no-such-gain"}, "preset"),
            ({"amount": 3, "dice": "1d6"}, "preset"),
            ({"dice": "3d"}, "dice"),
            ({"amount": -1}, "amount"),
            ({"preset": "demon", "inputs": {"pow": "18"}}, "pow"),
            ({}, "preset"),
        ):
            with pytest.raises(InvalidAction, match=said):
                live.add_horror("X", **kwargs)
        with pytest.raises(InvalidAction, match="one line"):
            live.add_horror("Two\nlines", amount=1)
        with pytest.raises(InvalidAction, match="empty"):
            live.add_horror("   ", amount=1)
        assert live.horrors == GODS
        assert live.events == []


def test_a_horror_removed_last_session_comes_back_in_its_place(folder: Path) -> None:
    with _open(folder) as live:
        live.add_horror("Pale Hound", amount=4)
        live.remove_horror("arioch")
    with _open(folder) as live:
        live.undo()
        assert [h.id for h in live.horrors] == ["arioch", "mabelode", "pale-hound"]


def test_a_one_off_gain_keeps_what_the_players_are_told_and_save_as_takes_it(
    folder: Path,
) -> None:
    with _open(folder) as live:
        event = live.gain("elric", "custom", {"amount": 2}, players=" a nameless dread ")
        assert isinstance(event.data, ev.Gain) and event.data.players == "a nameless dread"
        saved = live.save_gain_as_horror("The Thing in the Well")
        assert isinstance(saved.data, ev.HorrorAdded)
        assert saved.data.horror["players"] == "a nameless dread"
        with pytest.raises(InvalidAction, match="one line"):
            live.gain("elric", "elemental", players="two\nlines")
        plain = live.gain("elric", "elemental")
        assert "players" not in plain.to_dict()["data"]  # left out unless said


def test_the_gms_log_recap_and_undo_question_tell_each_horror_action(folder: Path) -> None:
    from gmscreen.campaign.telling import recap_lines

    with _open(folder) as live:
        live.add_horror("Pale Hound", amount=4)
        live.edit_horror("pale-hound", name="The Pale Hound")
        live.gain("elric", horror="pale-hound")
        live.remove_horror("pale-hound")
        assert live.describe_last_undoable() == (
            "A horror leaves the campaign's list: The Pale Hound"
        )
        events = [entry.event for entry in live.events]
        texts = [line.text for line in recap_lines(live.session_start, events)]
    assert texts[0] == "A horror joins the campaign's list: Pale Hound"
    assert texts[1] == "Horror changed: The Pale Hound"
    assert texts[3] == "A horror leaves the campaign's list: The Pale Hound"
