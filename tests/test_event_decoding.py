"""Event decoding: every kind of event reads back as it was written, and every damaged copy of
one is an :class:`EventFormatError` naming the key (never another exception).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gmscreen.campaign import events as ev
from gmscreen.rules.dice import Roll

Fail = ev.EventFormatError


# --- one event of every kind -----------------------------------------------------------------

ROLL = Roll("1d6", (4,), 1, 5, "typed")
ITEM = {"id": "merp-2-1", "table": "2", "title": "Sword", "tree": {"a": [1, None]}, "notes": ""}
RECOVERY = ev.Recovery("elric", False, ROLL, 5, {"madness": [9, 4]})
PAYLOADS: list[ev.Payload] = [
    ev.Gain("demon", {"pow": 14, "x": "1d6"}, ROLL, 4, 1, 5, True, 2, {"madness": [4, 9]}),
    ev.Gain("custom", {}, None, 0, 0, 0, None, 0, {}),
    ev.CheckRoll(ROLL, "chaos", 43, 1, 3, 98, "fumble", 2, False, {"chaos": [43, 41]}),
    ev.EpisodeStarted("paranoia", ROLL, True, 14, "rounds", 12, 268, {"episode": [None, {}]}),
    ev.EpisodeEnded("paranoia", {"episode": [{}, None]}),
    ev.DayEnded(3, (RECOVERY, ev.Recovery("moonglum", True, None, 0, {}))),
    ev.DayEnded(4, ()),
    ev.ClockAdvanced(12, "round", 0, 12),
    ev.CharacterAdded({"id": "x", "pow": 10}),
    ev.CharacterEdited({"name": ["A", "B"]}),
    ev.CharacterRemoved({"id": "x"}),
    ev.ItemRolled(ITEM, 1, {"merp": [None, None]}, "roll_limit"),
    ev.ItemRolled(ITEM, 0, {}),
    ev.ItemKept(ITEM),
    ev.ItemDiscarded(ITEM),
    ev.ItemNoted("merp-2-1", "", "notched"),
    ev.ItemRemoved(ITEM),
    ev.ItemRolled(ITEM, 0, {}, None, "merp-1-1"),
    ev.ItemAbandoned(ITEM, 1, {"merp": [None, None]}),
    ev.ItemAbandoned(ITEM, 0, {}, False, "roll_limit", "merp-1-1"),
    ev.ItemRenamed(ITEM, "Narsil"),
    ev.Note("the bridge falls"),
    ev.NoteEdited(24, "the bridge falls at dawn", True, "the bridge falls", False),
    ev.NoteRemoved(24, "the bridge falls at dawn", True),
    ev.SettingsChanged({"fumble_base": [1, 2]}),
    ev.Undo(7, True),
    ev.Ruling("end_episode", "a healing spell", {"madness": [14, 7]}, "paranoia", True),
    ev.Ruling("set_madness", "miscounted", {"madness": [9, 4]}),
    ev.UndoEarlier(
        3,
        "2024-04-30-1",
        "2024-04-30T20:00:00.000+00:00",
        ({"seq": 3, "action": 3, "at": "", "game": 0, "kind": "note", "data": {"text": "x"}},),
        (ev.Restored("elric", {"madness": [4, 2]}, ()),),
        ({"id": "x", "pow": 10},),
        ("y",),
        60,
        {"fumble_base": [2, 1]},
    ),
    ev.Gain("friend_dies", {}, ROLL, 4, 0, 4, None, 1, {"madness": [0, 4]}, "Moonglum's cousin"),
    # the campaign's own horrors and handouts (fields absent in older journals)
    ev.Gain(
        "chaos_god", {}, None, 10, 0, 10, True, 1, {"horrors_seen": [[], ["arioch"]]}, "", "arioch"
    ),
    ev.HorrorAdded({"id": "herald", "name": "Herald", "preset": "demon", "pow": 18}, 5),
    ev.HorrorEdited({"id": "h", "name": "H", "amount": 2}, {"id": "h", "name": "H", "dice": "1d6"}),
    ev.HorrorRemoved({"id": "h", "name": "H", "amount": 2}),
    ev.Note("the map\nof the city", True, True),
    ev.NoteEdited(24, "the map", False, "the map\nof the city", True, False, True),
    ev.NoteRemoved(24, "the map", True, True),
    ev.UndoEarlier(
        9,
        "2024-04-30-1",
        "2024-04-30T20:00:00.000+00:00",
        (),
        horrors=({"id": "h", "name": "H", "amount": 2},),
        handouts=({"id": 24, "game": 0, "text": "the map"},),
    ),
]
EVENTS = [
    ev.Event(n + 1, n + 1, "2024-05-01T20:00:00.000+00:00", 60 * n, "elric", data).to_dict()
    for n, data in enumerate(PAYLOADS)
]


def test_every_kind_is_sampled() -> None:
    assert {type(p) for p in PAYLOADS} == set(ev.PAYLOADS.values())


# Values that break one rule or another: wrong types, bools for numbers, empty containers.
ODD = [None, 0, -1, 7, True, False, "", "x", 1.5, [], [1], [1, 2], {}, {"a": 1}, ROLL.to_dict()]


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path inside ``value``, the value's own (empty) path included."""
    found = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            found += _paths(v, (*path, k))
    elif isinstance(value, list):
        for n, v in enumerate(value):
            found += _paths(v, (*path, n))
    return found


def _parent(raw: Any, path: tuple[Any, ...]) -> Any:
    """The container that holds the value at ``path``."""
    for step in path[:-1]:
        raw = raw[step]
    return raw


def _fails_cleanly(raw: Any) -> None:
    """``raw`` decodes to an event, or fails with a message: never another exception."""
    try:
        event = ev.Event.from_dict(raw)
    except Fail as error:
        assert str(error)
    else:  # a damage that leaves a valid event (a value replaced by one as good)
        assert ev.Event.from_json(event.to_json()) == event


@pytest.mark.parametrize("raw", EVENTS, ids=[e["kind"] for e in EVENTS])
def test_every_kind_reads_back_as_written(raw: dict[str, Any]) -> None:
    event = ev.Event.from_dict(raw)
    assert event.to_dict() == raw
    assert ev.Event.from_json(event.to_json()) == event


@pytest.mark.parametrize("raw", EVENTS, ids=[e["kind"] for e in EVENTS])
def test_every_damaged_copy_fails_with_a_message(raw: dict[str, Any]) -> None:
    """Each key removed, and each value replaced by each odd value, one at a time."""
    for odd in ODD:
        _fails_cleanly(copy.deepcopy(odd))
    for path in [p for p in _paths(raw) if p]:
        broken = copy.deepcopy(raw)
        if isinstance(_parent(broken, path), dict):
            del _parent(broken, path)[path[-1]]
            _fails_cleanly(broken)
        for odd in ODD:
            broken = copy.deepcopy(raw)
            _parent(broken, path)[path[-1]] = copy.deepcopy(odd)
            _fails_cleanly(broken)


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(
    base=st.sampled_from(EVENTS),
    edits=st.lists(st.tuples(st.integers(0, 10**6), _json | st.sampled_from(ODD)), max_size=3),
    drops=st.lists(st.integers(0, 10**6), max_size=2),
)
def test_several_damages_at_once_fail_with_a_message(
    base: dict[str, Any], edits: list[tuple[int, Any]], drops: list[int]
) -> None:
    raw = copy.deepcopy(base)
    for pick, value in edits:
        paths = [p for p in _paths(raw) if p]
        path = paths[pick % len(paths)]
        _parent(raw, path)[path[-1]] = copy.deepcopy(value)
    for pick in drops:
        paths = [p for p in _paths(raw) if p and isinstance(_parent(raw, p), dict)]
        if paths:
            path = paths[pick % len(paths)]
            del _parent(raw, path)[path[-1]]
    _fails_cleanly(raw)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"seq": True}, "seq: expected a whole number"),
        ({"at": 3}, "at: expected text"),
        ({"character": 3}, "character: expected text or null"),
        ({"data": []}, "data: expected an object"),
        ({"data": {"day": 1, "recoveries": [{}]}}, "data.recoveries[0]: missing character"),
        ({"data": {"day": 1, "recoveries": 3}}, "data.recoveries: expected a list"),
        ({"data": {"day": "1", "recoveries": 3}}, "data.day: expected a whole number"),
    ],
)
def test_messages_name_the_key(change: dict[str, Any], message: str) -> None:
    raw = {**EVENTS[5], **change}  # a day_ended
    with pytest.raises(Fail) as info:
        ev.Event.from_dict(raw)
    assert str(info.value).startswith(message)


def test_a_bad_roll_inside_a_recovery_is_named() -> None:
    raw = copy.deepcopy(EVENTS[5])
    raw["data"]["recoveries"][1]["roll"] = {"expr": "1d6"}
    with pytest.raises(Fail, match=r"^data\.recoveries\[1\]\.roll: missing dice$"):
        ev.Event.from_dict(raw)
    raw["data"]["recoveries"][1]["roll"] = None
    raw["data"]["recoveries"][0]["blocked"] = 1
    with pytest.raises(Fail, match=r"^data\.recoveries\[0\]\.blocked: expected true or false$"):
        ev.Event.from_dict(raw)
