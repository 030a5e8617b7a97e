"""The one way state changes: ``apply(state, event) -> state``, and folds of many events.

``apply`` sets what an event recorded as changed (the ``after`` of its ``changes``), so history
stays what it was even if a rule is later corrected. Undo is not a change of state in itself:
``fold`` leaves out the actions that active undo events void (see :func:`void_actions`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

import msgspec
from msgspec.structs import replace

from gmscreen.campaign import events as ev
from gmscreen.campaign.errors import CampaignError, UnknownCharacter
from gmscreen.campaign.fields import (
    FieldError,
    character_from_dict,
    decode_item,
    with_values,
)
from gmscreen.campaign.handouts import handout_from_dict
from gmscreen.campaign.horrors import horror_from_dict
from gmscreen.campaign.model import Campaign, Character, Handout, Horror, Item, Settings


class ReplayError(CampaignError):
    """An event that cannot be applied to the state it follows (a journal that does not fit).

    ``seq`` is the event's sequence number, when one event is to blame (its journal line).
    """

    seq: int | None = None


def _afters(changes: Mapping[str, list[Any]]) -> dict[str, Any]:
    return {name: pair[1] for name, pair in changes.items()}


class _Draft(msgspec.Struct):
    """The campaign while events are applied to it: characters by id, replaced in place.

    A fold of many events builds the :class:`Campaign` once, when it is done, instead of once
    per event (each a copy of the characters tuple): that was a quarter of a replay's fold.
    Ids are unique in a campaign (the codec refuses a duplicate, the reducer an added twice).
    """

    base: Campaign
    settings: Settings
    clock: int
    characters: dict[str, Character]
    touched: bool = False  # a character was put or removed: the tuple has to be rebuilt
    name: str = ""
    # The bestiary and the handouts by id, once an event changes them (None: the base's).
    horrors: dict[str, Horror] | None = None
    handouts: dict[int, Handout] | None = None

    @classmethod
    def of(cls, state: Campaign) -> _Draft:
        characters = {c.id: c for c in state.characters}
        return cls(state, state.settings, state.clock, characters, name=state.name)

    def bestiary(self) -> dict[str, Horror]:
        if self.horrors is None:
            self.horrors = {h.id: h for h in self.base.horrors}
        return self.horrors

    def kept(self) -> dict[int, Handout]:
        if self.handouts is None:
            self.handouts = {h.id: h for h in self.base.handouts}
        return self.handouts

    def character(self, character_id: str) -> Character:
        try:
            return self.characters[character_id]
        except KeyError:
            raise UnknownCharacter(character_id) from None

    def put(self, character: Character) -> None:
        """``character`` in place of the one with its id (or added at the end)."""
        self.characters[character.id] = character
        self.touched = True

    def remove(self, character_id: str) -> None:
        self.character(character_id)
        del self.characters[character_id]
        self.touched = True

    def done(self, last_event: int) -> Campaign:
        b = self.base
        chars = tuple(self.characters.values()) if self.touched else b.characters
        horrors = b.horrors if self.horrors is None else tuple(self.horrors.values())
        handouts = b.handouts if self.handouts is None else tuple(self.handouts.values())
        return Campaign(
            self.name, self.settings, self.clock, chars, last_event, b.schema, horrors, handouts
        )


def _change(draft: _Draft, character_id: str | None, changes: Mapping[str, list[Any]]) -> None:
    if character_id is None:
        raise ReplayError("an event that changes a character names none")
    character = draft.character(character_id)
    after = with_values(character, _afters(changes))
    if after is not character:  # many events change nothing: a gain of 0, a blocked recovery
        draft.put(after)


def _abandoned(draft: _Draft, who: str | None, gone: str | None, added: Item | None) -> None:
    """A character's rolls left half way, with ``gone`` resumed and ``added`` left."""
    c = draft.character(who or "")
    kept = tuple(i for i in c.abandoned if i.id != gone)
    draft.put(replace(c, abandoned=(*kept, added) if added is not None else kept))


def _apply_settings(settings: Settings, changes: Mapping[str, list[Any]]) -> Settings:
    values = _afters(changes)
    if "modules" in values:
        values["modules"] = tuple(values["modules"])
    return replace(settings, **values)


def _apply(draft: _Draft, event: ev.Event) -> None:
    data = event.data
    who = event.character
    match data:
        case ev.Gain() | ev.CheckRoll() | ev.EpisodeStarted() | ev.EpisodeEnded():
            _change(draft, who, data.changes)
        case ev.CharacterEdited():
            _change(draft, who, data.changes)
        case ev.Ruling():  # a GM ruling sets what it recorded, as any other change
            _change(draft, who, data.changes)
        case ev.ItemRolled():
            _change(draft, who, data.changes)
            if data.resumes is not None:  # the abandoned roll it finished is no longer waiting
                _abandoned(draft, who, data.resumes, None)
        case ev.ItemAbandoned():
            _change(draft, who, data.changes)
            _abandoned(draft, who, data.resumes, decode_item(data.item))
        case ev.ItemRenamed():
            c = draft.character(who or "")
            inventory = tuple(
                replace(i, name=data.after) if i.id == data.item.get("id") else i
                for i in c.inventory
            )
            draft.put(replace(c, inventory=inventory))
        case ev.DayEnded():
            for recovery in data.recoveries:
                _change(draft, recovery.character, recovery.changes)
        case ev.ClockAdvanced():
            draft.clock = data.after
        case ev.CharacterAdded():
            added = character_from_dict(data.character)
            if added.id in draft.characters:
                raise ReplayError(f"character {added.id!r} is added twice")
            draft.put(added)
        case ev.CharacterRemoved():
            draft.remove(str(data.character.get("id")))
        case ev.ItemKept():
            c = draft.character(who or "")
            item = decode_item(data.item)
            draft.put(replace(c, inventory=(*c.inventory, item)))
        case ev.ItemNoted():
            c = draft.character(who or "")
            inventory = tuple(
                replace(i, notes=data.after) if i.id == data.item_id else i for i in c.inventory
            )
            draft.put(replace(c, inventory=inventory))
        case ev.ItemRemoved():
            c = draft.character(who or "")
            gone = data.item.get("id")
            draft.put(replace(c, inventory=tuple(i for i in c.inventory if i.id != gone)))
        case ev.SettingsChanged():
            _settings_and_name(draft, data.changes)
        case ev.UndoEarlier():
            _undo_earlier(draft, data)
        case ev.HorrorAdded():
            new = horror_from_dict(data.horror)
            if new.id in draft.bestiary():
                raise ReplayError(f"horror {new.id!r} is added twice")
            draft.bestiary()[new.id] = new
        case ev.HorrorEdited():
            before, after = horror_from_dict(data.before), horror_from_dict(data.after)
            if before.id != after.id or draft.bestiary().get(before.id) != before:
                raise ReplayError(f"horror {before.id!r} is not there as the edit found it")
            draft.bestiary()[after.id] = after
        case ev.HorrorRemoved():
            gone = horror_from_dict(data.horror).id
            if draft.bestiary().pop(gone, None) is None:
                raise ReplayError(f"horror {gone!r} is removed, but is not there")
        case ev.Note() | ev.NoteEdited() | ev.NoteRemoved():
            _handout(draft, event)
        case ev.ItemDiscarded() | ev.Undo():
            pass
        case _:  # pragma: no cover
            raise ReplayError(f"event {event.seq} has a payload no reducer knows")


def _handout(draft: _Draft, event: ev.Event) -> None:
    """A note kept for the players is a handout of the state; one rewritten may become one
    (or stop being one: no longer shared or kept), one taken back is none."""
    data = event.data
    if isinstance(data, ev.Note):
        if data.kept and data.shared:
            draft.kept()[event.seq] = Handout(event.seq, data.text, event.character, event.game)
        return
    assert isinstance(data, ev.NoteEdited | ev.NoteRemoved)
    was = draft.kept().pop(data.note, None)
    if isinstance(data, ev.NoteEdited) and data.kept and data.shared:
        game = was.game if was is not None else event.game
        draft.kept()[data.note] = Handout(data.note, data.text, event.character, game)
        # in the order they were written (an edit does not move one to the end)
        draft.handouts = dict(sorted(draft.kept().items()))


def _undo_earlier(draft: _Draft, data: ev.UndoEarlier) -> None:
    """Set back what an action of an earlier session changed (see :class:`ev.UndoEarlier`)."""
    for character_id in data.dropped:
        draft.remove(character_id)
    for raw in data.returned:
        returned = character_from_dict(raw)
        if returned.id in draft.characters:
            raise ReplayError(f"character {returned.id!r} is put back, but is there")
        draft.put(returned)
    for restored in data.characters:
        if restored.changes:
            _change(draft, restored.character, restored.changes)
        if restored.inventory is not None:
            c = draft.character(restored.character)
            items = tuple(decode_item(item) for item in restored.inventory)
            draft.put(replace(c, inventory=items))
    if data.clock is not None:
        draft.clock = data.clock
    if data.settings:
        _settings_and_name(draft, data.settings)
    if data.horrors is not None:
        draft.horrors = {h.id: h for h in map(horror_from_dict, data.horrors)}
    if data.handouts is not None:
        draft.handouts = {h.id: h for h in map(handout_from_dict, data.handouts)}


def _settings_and_name(draft: _Draft, changes: Mapping[str, Any]) -> None:
    """A settings change, or its undo: the settings screen saves the campaign's name too."""
    if "name" in changes:
        draft.name = str(changes["name"][1])
    others = {k: v for k, v in changes.items() if k != "name"}
    draft.settings = _apply_settings(draft.settings, others)


# What an event that does not fit raises while it is applied.
_MISFITS = (FieldError, CampaignError, TypeError, ValueError)


def _misfit(event: ev.Event, error: Exception) -> ReplayError:
    misfit = ReplayError(f"event {event.seq} ({event.kind}) does not apply: {error}")
    misfit.seq = event.seq
    return misfit


def apply(state: Campaign, event: ev.Event) -> Campaign:
    """The state after ``event``. Pure; raises :class:`ReplayError` if it does not fit, or if
    it is not what a journal may hold (a note too long, a number out of bounds): what is
    applied live is journaled, and a journal line that reading would refuse is never written."""
    draft = _Draft.of(state)
    try:
        ev.Event.from_json(event.to_json())
        _apply(draft, event)
    except _MISFITS as error:
        raise _misfit(event, error) from None
    return draft.done(event.seq)


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
    """Apply ``events`` in order, skipping void ones (computed from ``events`` if not given).

    With ``void`` given, ``events`` is read once, in order, and not kept: a journal streamed
    a line at a time folds in the memory of one state.
    """
    if void is None:
        events = list(events)
        void = void_actions(events)
    # As apply() one event after another, on one draft: last_event is set once, at the end
    # (no reducer reads it), and the Campaign is built once.
    draft: _Draft | None = None
    last = state.last_event
    for event in events:
        if draft is None:
            draft = _Draft.of(state)
        last = event.seq
        if event.action in void:
            continue
        try:
            _apply(draft, event)
        except _MISFITS as error:
            raise _misfit(event, error) from None
    return state if draft is None else draft.done(last)


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
