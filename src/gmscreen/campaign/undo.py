"""Undo by whole actions, back past a reopen into the campaign's earlier sessions.

An action is what the GM did as one thing: a gain to every marked character (each with its own
dice, one key each), a whole madness check with the kind of madness it ends in, an end of day
with its recoveries. Each key still journals its events at once (one line each); the keys after
the first *join* its action (:class:`ActionGroup`), so one undo takes the whole of it back.

Undo is a stack: it takes back the last action still in effect. Once tonight's session has none
left, it reaches into the earlier sessions, newest first. Their journals are never written again:
the undo is an :class:`~gmscreen.campaign.events.UndoEarlier` in tonight's journal, carrying what
it sets back (:func:`undo_earlier`), so a fold of tonight's session alone, from its header or
from the checkpoint, gives the same state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import msgspec

from gmscreen.campaign import events as ev
from gmscreen.campaign.codec import settings_to_dict
from gmscreen.campaign.fields import character_to_dict, diff, encode_item, get_value
from gmscreen.campaign.handouts import handout_to_dict
from gmscreen.campaign.horrors import horror_to_dict
from gmscreen.campaign.journal import SessionLog
from gmscreen.campaign.model import Campaign, Character, Settings
from gmscreen.campaign.reducer import fold, void_actions

_Keyed = TypeVar("_Keyed")
UNDOS = (ev.Undo, ev.UndoEarlier)  # what an undo never targets: undoing an undo is a redo


class ActionGroup:
    """Keys that make one action: the first commit starts it, the next ones join it while it
    is still the last thing done (nothing else happened since, and it was not undone)."""

    def __init__(self) -> None:
        self.action: int | None = None


def joins(
    group: ActionGroup | None, size: int, log: Sequence[ev.Event], void: set[int]
) -> int | None:
    """The action ``group``'s next key joins: its own while it is the last thing done (one
    event: a journal line of several starts its action)."""
    if group is None or group.action is None or size != 1 or not log:
        return None
    last = log[-1].action
    return last if last == group.action and last not in void else None


def undo_target(log: Sequence[ev.Event], void: set[int]) -> int | None:
    """The last action of ``log`` still in effect (an undo is never one: undoing it is a redo)."""
    for e in reversed(log):
        if e.action not in void and not isinstance(e.data, UNDOS):
            return e.action
    return None


def redo_target(log: Sequence[ev.Event], void: set[int]) -> int | None:
    """The last undo of ``log`` still in effect, if nothing was done after it."""
    for e in reversed(log):
        if e.action in void or (isinstance(e.data, ev.Undo) and e.data.redo):
            continue
        return e.action if isinstance(e.data, UNDOS) else None
    return None


def redone(log: Sequence[ev.Event], undo_action: int) -> list[ev.Event]:
    """The events that undoing the undo ``undo_action`` brings back."""
    data = next(e.data for e in log if e.action == undo_action)
    if isinstance(data, ev.UndoEarlier):
        return data.undone_events()
    assert isinstance(data, ev.Undo)
    return [e for e in log if e.action == data.target]


class EarlierAction(msgspec.Struct, frozen=True):
    """An action of an earlier session that undo would take back next."""

    log: SessionLog
    action: int

    @property
    def events(self) -> list[ev.Event]:
        return [e for e in self.log.events if e.action == self.action]


def undone_later(logs: Sequence[Sequence[ev.Event]]) -> set[int]:
    """The actions that undos from later sessions took back (and that were not redone)."""
    taken: set[int] = set()
    for events in logs:
        void = void_actions(events)
        for e in events:
            if isinstance(e.data, ev.UndoEarlier) and e.action not in void:
                taken.add(e.data.target)
    return taken


def earlier_target(
    past_newest_first: Iterable[SessionLog], tonight: Sequence[ev.Event]
) -> EarlierAction | None:
    """The last action still in effect in the earlier sessions (None: nothing left to undo).

    ``past_newest_first`` is walked lazily (the campaign's history reads a journal only when it
    is reached): the undos of tonight and of every session already passed say what was taken.
    """
    taken = undone_later([tonight])
    for log in past_newest_first:
        void = void_actions(log.events)
        for e in reversed(log.events):
            if e.action in void or e.action in taken or isinstance(e.data, UNDOS):
                continue
            return EarlierAction(log, e.action)
        taken |= undone_later([log.events])
    return None


def undo_earlier(state: Campaign, target: EarlierAction) -> ev.UndoEarlier:
    """The undo of ``target`` as it applies to ``state`` (the campaign now): each field the
    action changed goes back to what it was before the action."""
    log = target.log
    events = log.events
    first = next(n for n, e in enumerate(events) if e.action == target.action)
    before = fold(log.header.state, events[:first], void_actions(events))
    after = fold(before, target.events, set())
    was = {c.id: c for c in before.characters}
    made = {c.id: c for c in after.characters}
    restored = [
        r
        for cid in was.keys() & made.keys()
        if state.has_character(cid)
        for r in [_restored(state.character(cid), was[cid], made[cid])]
        if r is not None
    ]
    now, was_set = _all_settings(state.settings), _all_settings(after.settings)
    settings = {
        k: [now[k], v]
        for k, v in _all_settings(before.settings).items()
        if v != was_set[k] and v != now[k]
    }
    if before.name != after.name and before.name != state.name:
        # the settings screen saves the campaign's name with them: so it comes back with them
        settings["name"] = [state.name, before.name]
    returned = tuple(
        character_to_dict(c)
        for cid, c in was.items()
        if cid not in made and not state.has_character(cid)
    )
    dropped = tuple(cid for cid in made if cid not in was and state.has_character(cid))
    return ev.UndoEarlier(
        target=target.action,
        session=log.header.id,
        started_at=log.header.started_at,
        undone=tuple(e.to_dict() for e in target.events),
        characters=tuple(sorted(restored, key=lambda r: r.character)),
        returned=returned,
        dropped=dropped,
        clock=before.clock if before.clock != after.clock and before.clock != state.clock else None,
        settings=settings,
        horrors=_plain(
            _set_back(state.horrors, before.horrors, after.horrors, lambda h: h.id),
            horror_to_dict,
        ),
        handouts=_plain(
            _set_back(state.handouts, before.handouts, after.handouts, lambda h: h.id),
            handout_to_dict,
            by=lambda h: h.id,
        ),
    )


def _plain(
    items: list[_Keyed] | None,
    encode: Callable[[Any], dict[str, Any]],
    by: Callable[[Any], Any] | None = None,
) -> tuple[dict[str, Any], ...] | None:
    """The plain forms of a list set back (in ``by``'s order, if given), or None."""
    if items is None:
        return None
    return tuple(encode(i) for i in (sorted(items, key=by) if by else items))


def _restored(now: Character, before: Character, after: Character) -> ev.Restored | None:
    """``now`` with what the action changed set back to ``before`` (None: nothing to set)."""
    changes = {
        name: [get_value(now, name), old]
        for name, (old, _) in diff(before, after).items()
        if get_value(now, name) != old
    }
    inventory = _inventory(now, before, after)
    if not changes and inventory is None:
        return None
    return ev.Restored(now.id, changes, inventory)


def _inventory(
    now: Character, before: Character, after: Character
) -> tuple[dict[str, Any], ...] | None:
    """``now``'s items without those the action kept, with those it took out and the notes
    it changed as they were (None: the action left the inventory alone)."""
    items = _set_back(now.inventory, before.inventory, after.inventory, lambda i: i.id)
    return None if items is None else tuple(encode_item(i) for i in items)


def _set_back(
    now: Sequence[_Keyed],
    before: Sequence[_Keyed],
    after: Sequence[_Keyed],
    key: Callable[[Any], Any],
) -> list[_Keyed] | None:
    """``now`` (a list of things with ids: items, horrors, handouts) as the action had not
    been: without those it added, with those it took out or changed as they were before it, in
    the order they had then (those added since, by later actions, after them). None: the
    action left the list alone, or the list is already so."""
    if before == after:
        return None
    got = {key(i): i for i in after}
    present = {key(i): i for i in now}
    items: list[_Keyed] = []
    for was in before:
        k = key(was)
        if k not in got:  # the action took it out: back it comes (as it is, if back already)
            items.append(present.get(k, was))
        elif k in present:  # still there: as it was, if the action changed it
            items.append(was if was != got[k] else present[k])
        # else taken out since, by a later action: it stays out
    had = {key(i) for i in before}
    items += [i for k, i in present.items() if k not in had and k not in got]
    return None if items == list(now) else items


def _all_settings(settings: Settings) -> dict[str, Any]:
    """Every setting, the player view's words too (settings_to_dict leaves them out when none)."""
    return {"player_words": {}, **settings_to_dict(settings)}
