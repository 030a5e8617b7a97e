"""Undo by whole actions (#15.3), through the live campaign: a check with its kind and an end of
day are one undo each; undo reaches back past reopens, session after session, to the campaign
as it began, and redo brings it all back; disk (checkpoint + journals) and replay agree at every
step; the confirm tells each action in words, never the journal's keys."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from msgspec.structs import replace
from tests.rich_session import play_rich_session

from gmscreen.campaign import events as ev
from gmscreen.campaign.item_names import item_name
from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.model import Campaign, Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.replay import Replay
from gmscreen.campaign.store import load
from gmscreen.campaign.telling import recap_lines
from gmscreen.rules import dice, merp
from gmscreen.rules.madness_data import load_madness_data
from gmscreen.rules.tables import roll_table
from gmscreen.rules.tables_names import full_name


def _clock(day: int) -> datetime:
    return datetime(2025, 3, day, 20, 0, tzinfo=UTC)


def _open(folder: Path, day: int = 1) -> LiveCampaign:
    return open_campaign(folder, rng=random.Random(day), clock=lambda: _clock(day))


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return create_campaign(tmp_path, "Undo", Settings(modules=("madness", "merp-items")))


def _same(a: Campaign, b: Campaign) -> bool:
    """The same campaign, whatever its last event (a character put back by an undo of an
    earlier session's removal comes back at the end of the roster)."""

    def plain(c: Campaign) -> Campaign:
        return replace(c, last_event=0, characters=tuple(sorted(c.characters, key=lambda x: x.id)))

    return plain(a) == plain(b)


def test_a_check_with_its_kind_is_one_undo(folder: Path) -> None:
    with _open(folder) as live:
        live.add_character("Artinar", 13, chaos=43, balance=32, law=47, madness=14)
        before = live.state
        check = live.start_check("artinar")
        check.roll(dice.typed("d100", 53))  # over Law 47: a failure, the kind is due
        check.choose_kind(dice.typed("1d6", 3))
        assert live.character("artinar").sanity.episode is not None
        question = live.describe_last_undoable()
        assert question is not None and "53" in question and "Paranoia" in question
        live.undo()
        assert _same(live.state, before)
        assert (
            live.describe_last_undoable()
            == "Artinar: Joins the table (POW 13, Chaos 43, Balance 32, Law 47, madness 14)"
        )


def test_an_end_of_day_with_its_recoveries_is_one_undo(folder: Path) -> None:
    with _open(folder) as live:
        live.add_character("Artinar", 13, madness=7)
        live.add_character("Bors", 12, madness=3)
        live.advance(3600)
        before = live.state
        live.end_day()
        assert [live.character(c).sanity.madness for c in ("artinar", "bors")] == [6, 2]
        live.undo()
        assert _same(live.state, before)


def _sessions(folder: Path) -> list[Campaign]:
    """Three evenings: a rich one, then one with a removal and an edit, then a short one.
    Returns the campaign as it began and after each evening."""
    states = [load(folder).state]
    with _open(folder, 1) as live:
        play_rich_session(live)
        states.append(live.state)
    with _open(folder, 2) as live:
        live.remove_character("bors")
        live.edit_character("artinar", under_care=True, notes="sleeps badly")
        live.change_settings(fumble_base=2)
        profile = {"category": "pure_spell_user", "race": "Noldo", "points_total": 5}
        live.edit_character("ioreth", merp=profile | {"points_spent": 3})
        live.gain("gorjon", "friend_dies", roll=dice.typed("1d6", 2))
        states.append(live.state)
    with _open(folder, 3) as live:
        live.note("the third night")
        states.append(live.state)
    return states


def test_undo_reaches_back_through_every_session_and_redo_brings_it_back(folder: Path) -> None:
    states = _sessions(folder)
    with _open(folder, 4) as live:
        undone = 0
        while live.can_undo():
            assert live.undo() is not None
            undone += 1
            assert load(folder).state == live.state  # checkpoint + journals, at every step
        assert _same(live.state, states[0])  # the campaign as it began, before the first evening
        assert live.describe_last_undoable() is None and live.undo() is None
        path = live.session_path
        assert path is not None
        for _ in range(undone):
            assert live.redo() is not None
        assert _same(live.state, states[-1])
        assert load(folder).state == live.state
        assert not live.can_redo()
    tonight = load(folder).logs[-1]
    assert tonight.path == path
    assert Replay.from_log(tonight).final() == load(folder).state


def test_undo_back_into_an_earlier_session_says_which_and_what(folder: Path) -> None:
    states = _sessions(folder)
    with _open(folder, 4) as live:
        live.undo()  # the third evening's note
        assert _same(live.state, states[2])
        for lang, date in (("en", "2 March 2025"), ("es", "2 de marzo de 2025")):
            question = live.describe_last_undoable(lang)
            assert question is not None and date in question and "Gorjon" in question
        event = live.undo()
        assert event is not None and isinstance(event.data, ev.Gain)
        undo = live.events[-1].event.data
        assert isinstance(undo, ev.UndoEarlier) and undo.session == "2025-03-02-1"
        assert undo.target == event.action


# Keys of the journal a GM must never read: presets, kinds, categories, inputs, fields, modules.
KEYS = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b|\bNone\b|…")


def _told(live: LiveCampaign, lang: str) -> list[str]:
    """Every confirm undo asks, undoing back to the start."""
    told = []
    while live.can_undo():
        question = live.describe_last_undoable(lang)
        assert question is not None
        told.append(question)
        live.undo()
    return told


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("reopened", [True, False])
def test_the_confirm_tells_every_action_in_words(folder: Path, lang: str, reopened: bool) -> None:
    if reopened:  # the three evenings, undone from a fourth
        _sessions(folder)
        with _open(folder, 4) as live:
            told = _told(live, lang)
    else:  # the same actions in one evening, undone that evening
        with _open(folder, 1) as live:
            play_rich_session(live)
            live.edit_character("artinar", under_care=True, notes="sleeps badly")
            profile = {"category": "pure_spell_user", "race": "Noldo", "points_total": 5}
            live.edit_character("ioreth", merp=profile | {"points_spent": 3})
            told = _told(live, lang)
    data = load_madness_data()
    keys = {k for k in (*data.presets, *(k.key for k in data.kinds)) if "_" in k}
    keys |= {"merp", "pow", "app"}  # a key in lower case, as the journal has it
    for question in told:
        assert not KEYS.search(question), question
        assert not any(re.search(rf"\b{re.escape(k)}\b", question) for k in keys), question
    assert any("MERP" in q for q in told)  # the profile edit, by its name


def test_a_redone_earlier_undo_is_the_same_on_disk_and_in_replay(folder: Path) -> None:
    states = _sessions(folder)
    with _open(folder, 4) as live:
        live.undo()
        live.undo()  # into the second evening
        live.redo()
        assert _same(live.state, states[2])
    recovered = load(folder)
    assert _same(recovered.state, states[2])
    lines = Replay.from_log(recovered.logs[-1]).lines()
    assert [line.void for line in lines] == [False, True, False]
    assert lines[2].text.startswith("Redone: ")


def test_undoing_an_earlier_sessions_rename_gives_the_name_back(folder: Path) -> None:
    with _open(folder, 1) as live:
        live.change_settings(name="Imrryr", fumble_base=2)  # one save of the settings screen
    with _open(folder, 2) as live:
        assert live.state.name == "Imrryr"
        question = live.describe_last_undoable()
        assert question is not None and "Imrryr" in question
        live.undo()
        assert (live.state.name, live.state.settings.fumble_base) == ("Undo", 1)
        assert load(folder).state == live.state  # the journal alone says so, as on disk
        live.redo()
        assert (live.state.name, live.state.settings.fumble_base) == ("Imrryr", 2)
        live.undo()
    with _open(folder, 3) as live:
        assert (live.state.name, live.state.settings.fumble_base) == ("Undo", 1)


def test_the_recap_and_the_undo_name_a_noted_item_by_its_title(folder: Path) -> None:
    profile = {"category": "non_spell_user", "race": "Dúnadan", "points_total": 3}
    with _open(folder, 1) as live:
        live.add_character("Halbarad", 14, merp=profile)
        resolution = roll_table(merp.merp_tables(), merp.TABLE_1, random.Random(5))
        while resolution.pending is not None and not resolution.done:
            resolution.choose(0)
            resolution.auto(random.Random(5))
        title = full_name(resolution.tree, merp.merp_tables(), "en")
        rolled = live.item_rolled("halbarad", merp.TABLE_1, title, resolution.to_dict())
        assert isinstance(rolled.data, ev.ItemRolled)
        item_id = str(rolled.data.item["id"])
        live.item_kept("halbarad", item_id)
        live.item_note("halbarad", item_id, "found in the barrow")
    shown = item_name({"title": title, "tree": resolution.to_dict()}, "en")
    with _open(folder, 2) as live:
        question = live.describe_last_undoable() or ""  # of an earlier session: named from now
        assert f"Notes on {shown}: found in the barrow" in question and item_id not in question
        live.item_renamed("halbarad", item_id, "Barrow-blade")
        live.item_note("halbarad", item_id, "it hums at dusk")
        tonight = [e.event for e in live.events]
        lines = [line.text for line in recap_lines(live.session_start, tonight)]
        assert lines[-1] == "Halbarad: Notes on Barrow-blade: it hums at dusk"
    first = load(folder).logs[0]
    told = [line.text for line in recap_lines(first.header.state, first.events)]
    assert told[-1] == f"Halbarad: Notes on {shown}: found in the barrow"
