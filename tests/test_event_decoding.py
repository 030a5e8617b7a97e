"""Event decoding: the specialised decoders give exactly what a plain, obviously correct decoder
gives (the same event, or the same error naming the same key), on every kind of event and on
damaged copies of them.

``_Reference`` is the closure-per-field decoder gmscreen used before the decoders were generated
(kept here as the oracle): slower, but each rule is written once and plainly.
"""

from __future__ import annotations

import copy
import types
import typing
from collections.abc import Callable
from dataclasses import MISSING, fields, is_dataclass
from typing import Any, Union

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gmscreen.campaign import events as ev
from gmscreen.rules.dice import DiceError, Roll

# --- the oracle ------------------------------------------------------------------------------

Decoder = Callable[[Any, str], Any]
Fail = ev.EventFormatError


def _int(value: Any, key: str) -> int:
    if type(value) is not int:
        raise Fail(f"{key}: expected a whole number")
    return value


def _str(value: Any, key: str) -> str:
    if type(value) is not str:
        raise Fail(f"{key}: expected text")
    return value


def _bool(value: Any, key: str) -> bool:
    if type(value) is not bool:
        raise Fail(f"{key}: expected true or false")
    return value


def _roll(value: Any, key: str) -> Roll:
    try:
        return Roll.from_dict(value)
    except (KeyError, TypeError, ValueError, DiceError) as error:
        raise Fail(f"{key}: not a roll ({error})") from None


def _changes(value: Any, key: str) -> ev.Changes:
    if type(value) is not dict:
        raise Fail(f"{key}: expected field -> [before, after]")
    for pair in value.values():
        if type(pair) is not list or len(pair) != 2:
            raise Fail(f"{key}: expected field -> [before, after]")
    return value


def _any_dict(value: Any, key: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Fail(f"{key}: expected an object")
    return value


def _inputs(value: Any, key: str) -> dict[str, int | str]:
    if not isinstance(value, dict) or not all(
        isinstance(v, int | str) and not isinstance(v, bool) for v in value.values()
    ):
        raise Fail(f"{key}: expected names with numbers or text")
    return value


def _reference(tp: Any) -> Decoder:
    simple: dict[Any, Decoder] = {int: _int, str: _str, bool: _bool, Roll: _roll}
    if tp in simple:
        return simple[tp]
    if tp == ev.Changes:
        return _changes
    if tp == dict[str, Any]:
        return _any_dict
    if tp == dict[str, int | str]:
        return _inputs
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (Union, types.UnionType) and type(None) in args:
        inner = _reference(next(a for a in args if a is not type(None)))
        return lambda v, k: None if v is None else inner(v, k)
    if origin is tuple:
        item = _reference(args[0])

        def _tuple(value: Any, key: str) -> tuple[Any, ...]:
            if not isinstance(value, list):
                raise Fail(f"{key}: expected a list")
            return tuple(item(v, f"{key}[{n}]") for n, v in enumerate(value))

        return _tuple
    assert is_dataclass(tp)
    hints = typing.get_type_hints(tp)
    parts = [(f.name, _reference(hints[f.name])) for f in fields(tp) if f.default is MISSING]
    optional = [(f.name, _reference(hints[f.name])) for f in fields(tp) if f.default is not MISSING]

    def _object(value: Any, key: str) -> Any:
        if type(value) is not dict:
            raise Fail(f"{key}: expected an object")
        try:
            args = [d(value[n], n) for n, d in parts]
            extra = {n: d(value[n], n) for n, d in optional if n in value}
            return tp(*args, **extra)
        except KeyError:
            missing = [n for n, _ in parts if n not in value]
            raise Fail(f"{key}: missing {', '.join(missing)}") from None
        except Fail as error:
            raise Fail(f"{key}.{error}") from None

    return _object


def reference_event(raw: Any) -> ev.Event:
    if not isinstance(raw, dict):
        raise Fail("an event is a JSON object")
    kind = raw.get("kind")
    if kind not in ev.PAYLOADS:
        raise Fail(f"kind: unknown event kind {kind!r}")
    character = raw.get("character")
    if character is not None and not isinstance(character, str):
        raise Fail("character: expected text or null")
    return ev.Event(
        seq=_int(raw.get("seq"), "seq"),
        action=_int(raw.get("action"), "action"),
        at=_str(raw.get("at"), "at"),
        game=_int(raw.get("game"), "game"),
        character=character,
        data=_reference(ev.PAYLOADS[kind])(raw.get("data"), "data"),
    )


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
    ev.Note("the bridge falls"),
    ev.SettingsChanged({"fumble_base": [1, 2]}),
    ev.Undo(7, True),
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


def _outcome(decode: Callable[[Any], ev.Event], raw: Any) -> tuple[str, Any]:
    try:
        return ("event", decode(raw))
    except Fail as error:
        return ("error", str(error))
    except Exception as error:  # an unexpected error must be the same one too
        return ("crash", type(error).__name__)


def _same(raw: Any) -> None:
    expected = _outcome(reference_event, copy.deepcopy(raw))
    assert _outcome(ev.Event.from_dict, raw) == expected


@pytest.mark.parametrize("raw", EVENTS, ids=[e["kind"] for e in EVENTS])
def test_every_kind_decodes_as_the_reference_does(raw: dict[str, Any]) -> None:
    kind, event = _outcome(ev.Event.from_dict, raw)
    assert kind == "event" and event.to_dict() == raw
    _same(raw)


@pytest.mark.parametrize("raw", EVENTS, ids=[e["kind"] for e in EVENTS])
def test_every_damaged_copy_fails_as_the_reference_does(raw: dict[str, Any]) -> None:
    """Each key removed, and each value replaced by each odd value, one at a time."""
    for odd in ODD:
        _same(copy.deepcopy(odd))
    for path in [p for p in _paths(raw) if p]:
        broken = copy.deepcopy(raw)
        if isinstance(_parent(broken, path), dict):
            del _parent(broken, path)[path[-1]]
            _same(broken)
        for odd in ODD:
            broken = copy.deepcopy(raw)
            _parent(broken, path)[path[-1]] = copy.deepcopy(odd)
            _same(broken)


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
def test_several_damages_at_once_fail_as_the_reference_does(
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
    _same(raw)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"seq": True}, "seq: expected a whole number"),
        ({"at": 3}, "at: expected text"),
        ({"character": 3}, "character: expected text or null"),
        ({"data": []}, "data: expected an object"),
        ({"data": {"day": 1, "recoveries": [{}]}}, "data.recoveries[0]: missing character, "),
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
    with pytest.raises(Fail, match=r"^data\.recoveries\[1\]\.roll: not a roll \('source'\)$"):
        ev.Event.from_dict(raw)
    raw["data"]["recoveries"][1]["roll"] = None
    raw["data"]["recoveries"][0]["blocked"] = 1
    with pytest.raises(Fail, match=r"^data\.recoveries\[0\]\.blocked: expected true or false$"):
        ev.Event.from_dict(raw)
