"""The live campaign (LiveCampaign): the worked example, time, undo/redo, items, edits, errors, replay, demo."""

from __future__ import annotations

import filecmp
import importlib.util
import random
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType

import pytest

from gmscreen.campaign import (
    CampaignError,
    InvalidAction,
    LiveCampaign,
    UnknownCharacter,
    open_campaign,
)
from gmscreen.campaign import events as ev
from gmscreen.campaign.model import Campaign, Character, MerpProfile, Settings
from gmscreen.campaign.paths import campaign_to_open, demo_source, make_demo_copy
from gmscreen.campaign.reducer import fold
from gmscreen.campaign.replay import Replay
from gmscreen.campaign.store import load, read_checkpoint, write_checkpoint
from gmscreen.rules import dice
from gmscreen.rules.madness import DAY, MadnessState

FIXED = datetime(2024, 5, 1, 20, 0, tzinfo=UTC)
REPO = Path(__file__).resolve().parents[1]


def _open(folder: Path, seed: int = 1, every: int = 50) -> LiveCampaign:
    return open_campaign(
        folder, rng=random.Random(seed), clock=lambda: FIXED, checkpoint_every=every
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "c"
    path.mkdir()
    chars = (
        Character("artinar", "Artinar", MadnessState(pow=13, chaos=43, balance=32, law=47)),
        Character("ylen", "Ylen", MadnessState(pow=12, law=68, madness=20, under_care=True)),
        Character(
            "halbarad",
            "Halbarad",
            MadnessState(pow=10),
            merp=MerpProfile("non_spell_user", "Dúnadan", 3),
        ),
    )
    settings = Settings(modules=("madness", "merp-items"))
    write_checkpoint(path, Campaign(name="T", settings=settings, characters=chars))
    return path


def test_artinar_worked_example(folder: Path) -> None:
    with _open(folder) as live:
        live.gain("artinar", "friend_dies", roll=dice.typed("1d6", 5))
        live.gain("artinar", "friend_dies", roll=dice.typed("1d6", 4))
        live.gain("artinar", "custom", {"amount": 2})
        live.gain("artinar", "demon", {"pow": 16})
        assert live.character("artinar").sanity.madness == 14
        check = live.start_check("artinar")
        assert (check.phase, check.target()) == ("roll", ("law", 47))
        assert check.fumble_from() == 100
        step = check.roll(dice.typed("d100", 53))
        assert isinstance(step.data, ev.CheckRoll) and step.data.outcome == "failure"
        assert (check.phase, step.data.outcome) == ("kind", "failure")
        episode = check.choose_kind(dice.picked("1d6", 4))
        assert isinstance(episode.data, ev.EpisodeStarted)
        assert (episode.data.amount, episode.data.unit) == (14, "rounds")
        assert (check.phase, episode.data.unit) == ("done", "rounds")
        live.advance(13 * 12)
        assert live.character("artinar").sanity.episode is not None
        live.next_round()
        assert live.character("artinar").sanity.madness == 7
        live.end_day()  # the day of the gains: no recovery
        assert live.character("artinar").sanity.madness == 7
        for left in range(6, -1, -1):
            live.end_day()
            assert live.character("artinar").sanity.madness == left
        assert live.state.clock == 8 * DAY


def test_under_care_recovers_1d6_with_the_tables_rng(folder: Path) -> None:
    with _open(folder, seed=5) as live:
        events = live.end_day()
    day = next(e.data for e in events if isinstance(e.data, ev.DayEnded))
    (recovery,) = [r for r in day.recoveries if r.character == "ylen"]
    expected = dice.roll("1d6", random.Random(5))
    assert recovery.roll == expected and recovery.amount == expected.total
    assert recovery.changes["madness"] == [20, 20 - expected.total]


def test_undo_takes_back_a_whole_action_and_redo_puts_it_back(folder: Path) -> None:
    with _open(folder) as live:
        live.gain("artinar", "custom", {"amount": 20})
        live.check_roll("artinar", dice.typed("d100", 90))
        live.check_kind("artinar", dice.typed("1d6", 1))
        before = live.state
        live.advance(3 * DAY)
        assert live.character("artinar").sanity.episode is None
        # the clock, the episode's end, and one event for the three days (not one a day)
        # the confirm tells every event of the action, not "(and 2 more)", in the order
        # they happened: the episode ended on the way, then the clock, then the nights
        assert live.describe_last_undoable() == (
            "Artinar: Catatonia is over · madness 20 → 10; Time passes: 3 days; "
            "3 days pass (days 1 to 3 end) · recovery Artinar none the first night (gained "
            "madness that day); Artinar 10 → 8; Ylen 20 → 12"
        )
        undone = live.undo()
        assert undone is not None and undone.kind == "clock_advanced"
        assert live.state.clock == before.clock
        assert live.state.characters == before.characters
        assert [e.void for e in live.events][-4:] == [True] * 3 + [False]
        redone = live.redo()
        assert redone is undone or redone == undone
        assert live.state.clock == 3 * DAY
        assert live.redo() is None
        live.undo()
        live.note("something else happens")
        assert not live.can_redo() and live.redo() is None


def test_undoing_the_undo_event_redoes(folder: Path) -> None:
    with _open(folder) as live:
        live.gain("artinar", "elemental")
        live.undo()
        assert live.character("artinar").sanity.madness == 0
        live.redo()
        assert live.character("artinar").sanity.madness == 2
        kinds = [(e.event.kind, e.void) for e in live.events]
        assert kinds == [("gain", False), ("undo", True), ("undo", False)]
        redo = live.events[-1].event.data
        assert isinstance(redo, ev.Undo) and redo.redo


def test_invalid_actions_write_nothing(folder: Path) -> None:
    with _open(folder) as live:
        with pytest.raises(UnknownCharacter):
            live.gain("nobody", "elemental")
        with pytest.raises(InvalidAction, match="no check is due"):
            live.check_roll("artinar", dice.typed("d100", 5))
        with pytest.raises(InvalidAction, match="No kind of madness is due"):
            live.check_kind("artinar", dice.typed("1d6", 5))
        with pytest.raises(InvalidAction, match="needs a roll of 1d6"):
            live.gain("artinar", "friend_dies")
        with pytest.raises(InvalidAction, match="Time only runs forward"):
            live.advance(0)
        with pytest.raises(InvalidAction, match="pow: must be from 1"):
            live.edit_character("artinar", pow=0)
        with pytest.raises(InvalidAction, match="already a character"):
            live.add_character("X", 10, id="artinar")
        with pytest.raises(InvalidAction, match="note is empty"):
            live.note("  ")
        assert live.events == [] and live.session_path is None
    assert not (folder / "sessions").exists()


def test_characters_added_edited_removed(folder: Path) -> None:
    with _open(folder) as live:
        added = live.add_character("Moon Glum", 11, chaos=5, player="Iris")
        assert added.character == "moon-glum"
        edit = live.edit_character("moon-glum", pow=12, under_care=True)
        assert edit is not None and isinstance(edit.data, ev.CharacterEdited)
        assert edit.data.changes == {"pow": [11, 12], "under_care": [False, True]}
        assert live.edit_character("moon-glum", pow=12) is None
        live.remove_character("moon-glum")
        assert not live.state.has_character("moon-glum")
        live.undo()
        assert live.character("moon-glum").sanity.pow == 12


def test_items_rolled_kept_noted_removed_and_the_budget(folder: Path) -> None:
    tree = {"table": "merp-1", "text": "A sword", "value": None}
    with _open(folder) as live:
        rolled = live.item_rolled("halbarad", "merp-1", "A sword", tree)
        assert isinstance(rolled.data, ev.ItemRolled)
        item_id = str(rolled.data.item["id"])
        assert [i.id for i in live.pending_items("halbarad")] == [item_id]
        merp = live.character("halbarad").merp
        assert merp is not None and (merp.points_spent, dict(merp.rolls)) == (1, {"merp-1": 1})
        live.item_kept("halbarad", item_id)
        assert live.pending_items("halbarad") == []
        live.item_note("halbarad", item_id, "elvish runes")
        assert live.character("halbarad").inventory[0].notes == "elvish runes"
        second = live.item_rolled("halbarad", "merp-1", "A cloak", {"x": 1})
        live.item_discarded("halbarad", str(second.data.item["id"]))  # type: ignore[union-attr]
        with pytest.raises(InvalidAction, match=r"costs 2 background point.*only 1 are left"):
            live.item_rolled("halbarad", "merp-2", "More", {})  # a non spell user pays 2 there
        with pytest.raises(InvalidAction, match="no MERP profile"):
            live.item_rolled("artinar", "merp-1", "x", {})
        live.item_removed("halbarad", item_id)
        assert live.character("halbarad").inventory == ()
    reopened = load(folder).state.character("halbarad")
    assert reopened.merp is not None and reopened.merp.points_spent == 2  # 1 a Table 1 roll


def test_listeners_hear_each_action(folder: Path) -> None:
    heard: list[list[str]] = []
    with _open(folder) as live:
        live.listeners.append(lambda events: heard.append([e.kind for e in events]))
        live.gain("artinar", "elemental")
        live.undo()
    assert heard == [["gain"], ["undo"]]


def test_checkpoint_every_n_events(folder: Path) -> None:
    with _open(folder, every=3) as live:
        for _ in range(4):
            live.gain("artinar", "elemental")
        assert read_checkpoint(folder)[0].last_event == 3
    assert read_checkpoint(folder)[0].last_event == 4


def test_replay_steps_match_the_live_table(folder: Path) -> None:
    seen = []
    with _open(folder) as live:
        for n in range(30):
            if n % 7 == 3:
                live.undo()
            elif n % 11 == 5:
                live.redo()
            else:
                live.gain("artinar", "custom", {"amount": n % 4})
            seen.append((len(live.events), live.state))
        path = live.session_path
        assert path is not None
    replay = Replay.from_file(path, every=4)
    for step, state in seen:
        assert replay.state_at(step) == state
    assert replay.final() == fold(replay.start, replay.events)


def test_demo_copy_is_fresh_and_leaves_the_source_alone(tmp_path: Path) -> None:
    source = demo_source()
    before = {p: p.read_bytes() for p in source.rglob("*") if p.is_file()}
    copy = make_demo_copy(tmp_path)
    with _open(copy) as live:
        live.gain("artinar", "elemental")
    assert {p: p.read_bytes() for p in source.rglob("*") if p.is_file()} == before
    choice = campaign_to_open(None, demo=True)
    assert choice.demo and "demo" in choice.title and choice.path is not None
    assert choice.path != source


def _make_examples() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "make_examples", REPO / "campaigns" / "make_examples.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_shipped_demo_is_what_make_examples_writes(tmp_path: Path) -> None:
    _make_examples().build_demo(tmp_path / "party")
    shipped = demo_source()
    names = ["campaign.toml", *[f"sessions/{p.name}" for p in (shipped / "sessions").iterdir()]]
    assert sorted(p.name for p in (tmp_path / "party" / "sessions").iterdir()) == sorted(
        p.name for p in (shipped / "sessions").iterdir()
    )
    match, mismatch, errors = filecmp.cmpfiles(shipped, tmp_path / "party", names, shallow=False)
    assert not mismatch and not errors and match


def test_the_demo_shows_both_modules() -> None:
    """What ``make run`` opens: a madness check due, points to spend, an item kept and one
    waiting, a note shared with the players, and past sessions to replay."""
    recovered = load(demo_source())
    state = recovered.state
    assert set(state.settings.modules) == {"madness", "merp-items"}
    assert len(recovered.logs) >= 2
    assert any(
        c.sanity.madness >= c.sanity.pow and c.sanity.episode is None for c in state.characters
    )
    assert any(c.sanity.episode is not None or c.sanity.permanent for c in state.characters)
    assert all(c.merp is not None and c.merp.points_left > 0 for c in state.characters)
    kinds = [e.kind for log in recovered.logs for e in log.events]
    for kind in (
        "gain",
        "check_roll",
        "episode_started",
        "episode_ended",
        "day_ended",
        "note",
        "item_rolled",
        "item_kept",
    ):
        assert kind in kinds, kind
    notes = [e.data for log in recovered.logs for e in log.events if isinstance(e.data, ev.Note)]
    assert any(n.shared for n in notes) and not all(n.shared for n in notes)


def test_example_campaign_has_what_the_issue_asks_for() -> None:
    recovered = load(REPO / "campaigns" / "example")
    state = recovered.state
    artinar = state.character("artinar").sanity
    assert (artinar.chaos, artinar.balance, artinar.law, artinar.pow) == (43, 32, 47, 13)
    assert any(c.sanity.under_care for c in state.characters)
    assert any(c.sanity.permanent for c in state.characters)
    assert any(
        c.sanity.madness >= c.sanity.pow and c.sanity.episode is None for c in state.characters
    )
    assert len({(c.sanity.chaos > c.sanity.law) for c in state.characters}) == 2
    assert recovered.logs and len(recovered.logs[0].events) >= 10
    merp = load(REPO / "campaigns" / "merp-party").state
    assert all(c.merp is not None and c.merp.points_left > 0 for c in merp.characters)


def test_closed_table_refuses(folder: Path) -> None:
    live = _open(folder)
    live.close()
    with pytest.raises(CampaignError, match="closed"):
        live.gain("artinar", "elemental")
