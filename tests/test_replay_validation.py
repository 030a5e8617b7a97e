"""Replaying a journal checks every event as applying it live does: a journal that puts POW to 0
or madness below 0 is refused, with the event and the field named, however fast the fold is.

``reference_fold`` is the plain version of the fold (kept as the oracle of the one on a draft):
a new state per event.
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from gmscreen.campaign import events as ev
from gmscreen.campaign.errors import CampaignError, CampaignFileError
from gmscreen.campaign.fields import (
    EDITABLE,
    FieldError,
    character_from_dict,
    character_to_dict,
    decode_item,
    with_values,
)
from gmscreen.campaign.journal import JournalWriter, SessionHeader, read_session
from gmscreen.campaign.model import Campaign, Character, Item, MerpProfile
from gmscreen.campaign.reducer import ReplayError, apply, fold, void_actions
from gmscreen.campaign.store import load, write_checkpoint
from gmscreen.rules.madness import Episode, MadnessError, MadnessState

# --- oracles ---------------------------------------------------------------------------------


def _reference_change(state: Campaign, who: str | None, changes: ev.Changes) -> Campaign:
    if who is None:
        raise ReplayError("an event that changes a character names none")
    character = state.character(who)
    return state.with_character(with_values(character, {k: v[1] for k, v in changes.items()}))


def reference_apply(state: Campaign, event: ev.Event) -> Campaign:
    """The reducer as it was: a new Campaign for every event, through its own methods."""
    data, who = event.data, event.character
    try:
        match data:
            case ev.Gain() | ev.CheckRoll() | ev.EpisodeStarted() | ev.EpisodeEnded():
                state = _reference_change(state, who, data.changes)
            case ev.CharacterEdited() | ev.ItemRolled():
                state = _reference_change(state, who, data.changes)
            case ev.DayEnded():
                for recovery in data.recoveries:
                    state = _reference_change(state, recovery.character, recovery.changes)
            case ev.ClockAdvanced():
                state = replace(state, clock=data.after)
            case ev.CharacterAdded():
                added = character_from_dict(data.character)
                if state.has_character(added.id):
                    raise ReplayError(f"character {added.id!r} is added twice")
                state = state.with_character(added)
            case ev.CharacterRemoved():
                state = state.without_character(str(data.character.get("id")))
            case ev.ItemKept():
                c = state.character(who or "")
                item = decode_item(data.item)
                state = state.with_character(replace(c, inventory=(*c.inventory, item)))
            case ev.ItemRemoved():
                c = state.character(who or "")
                kept = tuple(i for i in c.inventory if i.id != data.item.get("id"))
                state = state.with_character(replace(c, inventory=kept))
            case ev.SettingsChanged():
                values = {k: v[1] for k, v in data.changes.items()}
                state = replace(state, settings=replace(state.settings, **values))
            case ev.Note() | ev.Undo():
                pass
            case _:
                raise AssertionError(f"no reference for {data!r}")
    except (FieldError, CampaignError, TypeError, ValueError) as error:
        raise ReplayError(f"event {event.seq} ({event.kind}) does not apply: {error}") from None
    return state.at_event(event.seq)


def reference_fold(state: Campaign, events: list[ev.Event]) -> Campaign:
    void = void_actions(events)
    for event in events:
        state = state.at_event(event.seq) if event.action in void else reference_apply(state, event)
    return state


# --- with_values -----------------------------------------------------------------------------

SANITY = MadnessState(
    pow=13,
    app=11,
    chaos=43,
    balance=32,
    law=47,
    madness=14,
    episode=Episode("paranoia", 14, "rounds", 100, 268, True),
    permanent=("paranoia",),
    first_sightings=frozenset({"chaos_god"}),
    under_care=True,
    last_gain_day=3,
    horrors_seen=frozenset({"arioch"}),
)
ITEM = Item("1-1", "1", "Sword +10", {"value": None})
ARTINAR = Character(
    "a", "Artinar", SANITY, "Ana", MerpProfile("pure_spell_user", "Noldo", 5, 2), (ITEM,), "n"
)
PLAIN = Character("b", "B", MadnessState(pow=9))


@pytest.mark.parametrize("name", EDITABLE)
def test_every_field_set_to_what_it_is_changes_nothing(name: str) -> None:
    value = character_to_dict(ARTINAR)[name]
    assert with_values(ARTINAR, {name: value}) == ARTINAR


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"pow": 0}, "pow: must be from 1 to 1000, not 0"),
        ({"madness": -1}, "madness: must be from 0 to 10000, not -1"),
        ({"madness": True}, "madness: expected a whole number, found true/false"),
        ({"chaos": 4, "law": "x"}, "law: expected a whole number, found text"),
        ({"nope": 1}, "nope: is not a character field"),
        ({"awaiting_kind": "x"}, "awaiting_kind: expected failure or fumble, not 'x'"),
    ],
)
def test_bad_values_are_named(values: dict[str, Any], message: str) -> None:
    with pytest.raises(FieldError) as info:
        with_values(ARTINAR, values)
    assert str(info.value) == message


def test_madness_state_refuses_out_of_range_numbers_in_order() -> None:
    with pytest.raises(MadnessError, match=r"^POW must be from 1 to 1000, not 0$"):
        MadnessState(pow=0, chaos=-1)
    with pytest.raises(MadnessError, match=r"^chaos must be from 0 to 10000, not -1$"):
        MadnessState(pow=1, chaos=-1, law=-1)
    with pytest.raises(MadnessError, match=r"^madness must be from 0 to 10000, not 10001$"):
        MadnessState(pow=1, madness=10_001)


# --- fold ------------------------------------------------------------------------------------

AT = "2024-05-01T20:00:00.000+00:00"


def _event(seq: int, data: ev.Payload, who: str | None = "a", action: int = 0) -> ev.Event:
    return ev.Event(seq, action or seq, AT, 0, who, data)


def _gain(seq: int, changes: ev.Changes, who: str | None = "a", action: int = 0) -> ev.Event:
    return _event(seq, ev.Gain("custom", {}, None, 0, 0, 0, None, 0, changes), who, action)


START = Campaign(name="Fold", characters=(ARTINAR, PLAIN), last_event=4)

_COMMON = [
    lambda n: _gain(n, {"madness": [0, n % 50]}),
    lambda n: _gain(n, {"chaos": [0, n], "last_gain_day": [None, 2]}, "b"),
    lambda n: _gain(n, {"madness": [0, n % 7]}, "a", max(5, n - 1)),
    lambda n: _gain(n, {}, "b"),
    lambda n: _event(n, ev.ClockAdvanced(12, "round", 0, n * 12), None),
    lambda n: _event(n, ev.Note("x"), None),
    lambda n: _event(n, ev.CharacterEdited({"name": ["", f"N{n}"]}), "b"),
    lambda n: _event(n, ev.Undo(max(5, n - 2), False), None),
    lambda n: _event(n, ev.SettingsChanged({"fumble_base": [1, n % 5 + 1]}), None),
    lambda n: _event(n, ev.ItemKept({"id": f"i{n % 2}", "table": "1", "title": "x"}), "a"),
    lambda n: _event(n, ev.ItemRemoved({"id": f"i{n % 2}"}), "a"),
    lambda n: _event(
        n,
        ev.DayEnded(
            0,
            (
                ev.Recovery("a", False, None, 1, {"madness": [1, 0]}),
                ev.Recovery("b", True, None, 0, {}),
            ),
        ),
        None,
    ),
]
# Characters come and go; an event about one that is not there is refused.
_RARE = [
    lambda n: _event(n, ev.CharacterAdded({"id": "c", "pow": 9}), None),
    lambda n: _event(n, ev.CharacterRemoved({"id": "c"}), None),
    lambda n: _gain(n, {"madness": [0, 1]}, "c"),
    lambda n: _gain(n, {"madness": [0, -1]}, "a"),
]
_step = st.sampled_from(_COMMON * 4 + _RARE)


@settings(max_examples=150, deadline=None)
@given(steps=st.lists(_step, max_size=25))
def test_fold_is_one_apply_after_another(steps: list[Any]) -> None:
    """The same state, or the same error, as the reducer that built a Campaign per event."""
    events = [make(n) for n, make in enumerate(steps, start=5)]
    outcomes: list[Campaign | str] = []
    for replay in (fold, reference_fold, _apply_one_by_one):
        try:
            outcomes.append(replay(START, events))
        except ReplayError as error:
            outcomes.append(str(error))
    assert outcomes[0] == outcomes[1] == outcomes[2]


def _apply_one_by_one(state: Campaign, events: list[ev.Event]) -> Campaign:
    void = void_actions(events)
    for event in events:
        state = state.at_event(event.seq) if event.action in void else apply(state, event)
    return state


def test_fold_of_nothing_is_the_state_itself() -> None:
    assert fold(START, []) is START


def test_fold_ends_at_the_last_event_even_when_it_is_void() -> None:
    events = [_gain(5, {"madness": [14, 20]}), _event(6, ev.Undo(5, False), None)]
    assert fold(START, events) == replace(START, last_event=6)


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (_gain(7, {"pow": [13, 0]}), "event 7 (gain) does not apply: pow: must be from 1 to 1000"),
        (_gain(7, {"madness": [14, -1]}), "event 7 (gain) does not apply: madness: must be from 0"),
        (_gain(7, {"madness": [1, 2]}, None), "event 7 (gain) does not apply: an event that "),
        (_gain(7, {"madness": [1, 2]}, "z"), "event 7 (gain) does not apply: there is no char"),
        (
            _event(7, ev.DayEnded(0, (ev.Recovery("b", False, None, 1, {"pow": [9, 0]}),)), None),
            "event 7 (day_ended) does not apply: pow: must be from 1 to 1000, not 0",
        ),
    ],
)
def test_an_event_that_does_not_fit_is_refused(event: ev.Event, message: str) -> None:
    events = [_gain(5, {"madness": [14, 15]}), _event(6, ev.Note("x"), None), event]
    for replay in (fold, reference_fold):
        with pytest.raises(ReplayError) as info:
            replay(START, events)
        assert str(info.value).startswith(message)


def test_an_undone_event_that_does_not_fit_is_not_applied() -> None:
    events = [_gain(5, {"pow": [13, 0]}), _event(6, ev.Undo(5, False), None)]
    assert fold(START, events) == replace(START, last_event=6)


def test_a_journal_that_puts_pow_to_0_is_refused_on_open(tmp_path: Path) -> None:
    write_checkpoint(tmp_path, START)
    path = tmp_path / "sessions" / "2024-05-01-1.jsonl"
    writer = JournalWriter(path, SessionHeader("2024-05-01-1", AT, 5, START))
    for event in [_gain(5, {"madness": [14, 15]}), _gain(6, {"pow": [13, 0]}, "a")]:
        writer.append(event)
    writer.close()
    with pytest.raises(CampaignFileError) as info:
        load(tmp_path)
    assert str(info.value).endswith(
        "2024-05-01-1.jsonl:3: event 6 (gain) does not apply: pow: must be from 1 to 1000, not 0"
    )


@pytest.mark.parametrize("enabled", [True, False])
def test_reading_a_journal_leaves_the_collector_as_it_was(tmp_path: Path, enabled: bool) -> None:
    path = tmp_path / "2024-05-01-1.jsonl"
    writer = JournalWriter(path, SessionHeader("2024-05-01-1", AT, 5, START))
    writer.append(_gain(5, {"madness": [14, 15]}))
    writer.close()
    broken = tmp_path / "2024-05-01-2.jsonl"
    broken.write_bytes(b"{}\n")
    was = gc.isenabled()
    try:
        _collector(enabled)
        assert len(read_session(path).events) == 1
        assert gc.isenabled() is enabled
        with pytest.raises(CampaignFileError):
            read_session(broken)
        assert gc.isenabled() is enabled
    finally:
        _collector(was)


def _collector(enabled: bool) -> None:
    if enabled:
        gc.enable()
    else:
        gc.disable()
