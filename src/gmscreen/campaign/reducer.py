"""The one way state changes: ``apply(state, event) -> state``, and folds of many events.

``apply`` sets what an event recorded as changed (the ``after`` of its ``changes``), so history
stays what it was even if a rule is later corrected. Undo is not a change of state in itself:
``fold`` leaves out the actions that active undo events void (see :func:`void_actions`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from gmscreen.campaign import events as ev
from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.fields import (
    FieldError,
    character_from_dict,
    decode_item,
    with_values,
)
from gmscreen.campaign.model import Campaign, Settings


class ReplayError(CampaignError):
    """An event that cannot be applied to the state it follows (a journal that does not fit)."""


def _afters(changes: Mapping[str, list[Any]]) -> dict[str, Any]:
    return {name: pair[1] for name, pair in changes.items()}


def _change(
    state: Campaign, character_id: str | None, changes: Mapping[str, list[Any]]
) -> Campaign:
    if character_id is None:
        raise ReplayError("an event that changes a character names none")
    character = state.character(character_id)
    after = with_values(character, _afters(changes))
    # Many events change nothing (a gain of 0, a blocked recovery): the same state, not a copy.
    return state if after is character else state.with_character(after)


def _apply_settings(settings: Settings, changes: Mapping[str, list[Any]]) -> Settings:
    values = _afters(changes)
    if "modules" in values:
        values["modules"] = tuple(values["modules"])
    return replace(settings, **values)


def _apply(state: Campaign, event: ev.Event) -> Campaign:
    data = event.data
    who = event.character
    match data:
        case ev.Gain() | ev.CheckRoll() | ev.EpisodeStarted() | ev.EpisodeEnded():
            return _change(state, who, data.changes)
        case ev.CharacterEdited() | ev.ItemRolled():
            return _change(state, who, data.changes)
        case ev.DayEnded():
            for recovery in data.recoveries:
                state = _change(state, recovery.character, recovery.changes)
            return state
        case ev.ClockAdvanced():
            return replace(state, clock=data.after)
        case ev.CharacterAdded():
            added = character_from_dict(data.character)
            if state.has_character(added.id):
                raise ReplayError(f"character {added.id!r} is added twice")
            return state.with_character(added)
        case ev.CharacterRemoved():
            return state.without_character(str(data.character.get("id")))
        case ev.ItemKept():
            c = state.character(who or "")
            item = decode_item(data.item)
            return state.with_character(replace(c, inventory=(*c.inventory, item)))
        case ev.ItemNoted():
            c = state.character(who or "")
            inventory = tuple(
                replace(i, notes=data.after) if i.id == data.item_id else i for i in c.inventory
            )
            return state.with_character(replace(c, inventory=inventory))
        case ev.ItemRemoved():
            c = state.character(who or "")
            gone = data.item.get("id")
            inventory = tuple(i for i in c.inventory if i.id != gone)
            return state.with_character(replace(c, inventory=inventory))
        case ev.SettingsChanged():
            return replace(state, settings=_apply_settings(state.settings, data.changes))
        case ev.Note() | ev.ItemDiscarded() | ev.Undo():
            return state
    raise ReplayError(f"event {event.seq} has a payload no reducer knows")  # pragma: no cover


# What an event that does not fit raises while it is applied.
_MISFITS = (FieldError, CampaignError, TypeError, ValueError)


def _misfit(event: ev.Event, error: Exception) -> ReplayError:
    return ReplayError(f"event {event.seq} ({event.kind}) does not apply: {error}")


def apply(state: Campaign, event: ev.Event) -> Campaign:
    """The state after ``event``. Pure; raises :class:`ReplayError` if it does not fit."""
    try:
        after = _apply(state, event)
    except _MISFITS as error:
        raise _misfit(event, error) from None
    return after.at_event(event.seq)


def void_actions(events: Sequence[ev.Event]) -> set[int]:
    """The actions that active undos void.

    An undo is active unless a later active undo voids it, so walking backwards settles each
    undo before the ones it targets: undoing an undo redoes.
    """
    void: set[int] = set()
    for event in reversed(events):
        if isinstance(event.data, ev.Undo) and event.action not in void:
            void.add(event.data.target)
    return void


def fold(state: Campaign, events: Iterable[ev.Event], void: set[int] | None = None) -> Campaign:
    """Apply ``events`` in order, skipping void ones (computed from ``events`` if not given)."""
    events = list(events)
    if not events:
        return state
    void = void_actions(events) if void is None else void
    # As apply() one event after another, but last_event is set once, at the end: no reducer
    # reads it, and it saves building a second Campaign per event.
    for event in events:
        if event.action in void:
            continue
        try:
            state = _apply(state, event)
        except _MISFITS as error:
            raise _misfit(event, error) from None
    return state.at_event(events[-1].seq)


def rounds_running(events: Sequence[ev.Event], void: Collection[int] = ()) -> int:
    """The round of the fight under way: how many times in a row the clock last moved by a
    round (0 once it moved any other way). Undone actions and events that are not clock moves
    (a gain, a check in the middle of the fight) do not break the run."""
    count = 0
    for event in reversed(events):
        if event.action in void or not isinstance(event.data, ev.ClockAdvanced):
            continue
        if event.data.reason != "round":
            break
        count += 1
    return count
