"""constructor(cls): the generated constructors build what ``cls(*values)`` builds, run the same
checks, and are only used where they can be (else ``cls`` itself)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gmscreen.campaign import events as ev
from gmscreen.campaign.construct import constructor
from gmscreen.campaign.model import Campaign, Character, Item, MerpProfile, Settings
from gmscreen.rules.madness import Episode, MadnessError, MadnessState

SANITY = MadnessState(13, 11, 43, 32, 47, 14, Episode("p", 1, "days", 0, 9), ("p",), frozenset("a"))
CHARACTER = Character("a", "A", SANITY, "Ana", MerpProfile("x"), (Item("i", "1", "t"),), "n")
SAMPLES: list[Any] = [
    # A payload holds whatever it is given (the decoders check it): any values will do.
    *(cls(*(object() for _ in dataclasses.fields(cls))) for cls in ev.PAYLOADS.values()),
    ev.Event(1, 1, "at", 0, None, ev.Note("x")),
    SANITY,
    CHARACTER,
    Campaign("c", Settings(), 5, (CHARACTER,), 3),
]


def _values(obj: Any) -> list[Any]:
    return [getattr(obj, f.name) for f in dataclasses.fields(obj)]


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: type(s).__name__)
def test_builds_what_the_class_builds(sample: Any) -> None:
    cls = type(sample)
    build = constructor(cls)
    assert build is not cls  # the hot classes are all frozen, slotted dataclasses
    built = build(*_values(sample))
    assert type(built) is cls
    assert built == sample and repr(built) == repr(sample)
    assert _hash(built) == _hash(sample)
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.__setattr__(dataclasses.fields(cls)[0].name, None)


def _hash(obj: Any) -> int | str:
    try:
        return hash(obj)
    except TypeError as error:  # a field holds a dict (an item's tree, the MERP rolls)
        return str(error)


def _outcome(make: Any, *values: int) -> Any:
    try:
        return make(*values)
    except MadnessError as error:
        return str(error)


@given(
    st.lists(
        st.integers(-2, 10_002) | st.sampled_from([0, 1, 1000, 1001, 10_000]),
        min_size=6,
        max_size=6,
    )
)
def test_runs_the_same_checks(numbers: list[int]) -> None:
    assert _outcome(constructor(MadnessState), *numbers, None, (), frozenset(), False, None) == (
        _outcome(MadnessState, *numbers, None, (), frozenset(), False, None)
    )


@dataclasses.dataclass(frozen=True)
class _NoSlots:
    a: int


@dataclasses.dataclass(frozen=True, slots=True)
class _NotInInit:
    a: int
    b: int = dataclasses.field(init=False, default=0)


@dataclasses.dataclass(frozen=True, slots=True)
class _OwnInit:
    a: int

    def __init__(self, a: int) -> None:
        object.__setattr__(self, "a", a * 2)


@dataclasses.dataclass(frozen=True, slots=True)
class _WithInitVar:
    a: int
    scale: dataclasses.InitVar[int]

    def __post_init__(self, scale: int) -> None:
        object.__setattr__(self, "a", self.a * scale)


@dataclasses.dataclass(frozen=True, slots=True)
class _Clashing:
    new: int
    cls: int
    self: int


def test_field_names_do_not_clash_with_the_generated_code() -> None:
    assert constructor(_Clashing) is not _Clashing
    assert constructor(_Clashing)(1, 2, 3) == _Clashing(1, 2, 3)


@pytest.mark.parametrize("cls", [int, _NoSlots, _NotInInit, _OwnInit, _WithInitVar])
def test_falls_back_to_the_class_where_it_cannot_do_the_same(cls: type[Any]) -> None:
    assert constructor(cls) is cls
