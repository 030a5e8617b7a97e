"""The undo and redo methods of :class:`~gmscreen.campaign.live.LiveCampaign`: one whole
action at a time, tonight's or (none left tonight) an earlier session's.

A mixin: LiveCampaign inherits these as its own public methods; the rules of what is undone
are :mod:`gmscreen.campaign.undo`'s, the folding :mod:`gmscreen.campaign.reducer`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import msgspec

from gmscreen.campaign import actions
from gmscreen.campaign import events as ev
from gmscreen.campaign import undo as undoing
from gmscreen.campaign.history import SessionHistory
from gmscreen.campaign.model import Campaign
from gmscreen.campaign.reducer import fold, void_actions
from gmscreen.campaign.telling import action_words, earlier_action_words
from gmscreen.campaign.undo import ActionGroup, EarlierAction


class Entry(msgspec.Struct, frozen=True):
    """An event of this session and whether an undo has voided it."""

    event: ev.Event
    void: bool


class LiveUndo:
    """LiveCampaign's undo and redo (see :mod:`gmscreen.campaign.live`)."""

    state: Campaign
    history: SessionHistory
    _log: list[ev.Event]
    _void: set[int]
    _snapshots: dict[int, Campaign]

    if TYPE_CHECKING:  # LiveCampaign's one way in, which these methods use

        def _commit(
            self, drafts: Sequence[actions.Draft], group: ActionGroup | None = None
        ) -> list[ev.Event]: ...

        def _stamp(
            self, drafts: Sequence[actions.Draft], action: int | None = None
        ) -> list[ev.Event]: ...

        def _journal(self, new: list[ev.Event]) -> None: ...

        def _after(self, new: list[ev.Event]) -> None: ...

    def _actions(self, action: int) -> list[ev.Event]:
        return [e for e in self._log if e.action == action]

    def _undo_target(self) -> int | None:
        return undoing.undo_target(self._log, self._void)

    def _earlier_target(self) -> EarlierAction | None:
        """Nothing left to undo tonight: the last action of an earlier session still in effect."""
        return undoing.earlier_target(self.history.newest_first(len(self.history.paths)), self._log)

    def _redo_target(self) -> int | None:
        return undoing.redo_target(self._log, self._void)

    def can_undo(self) -> bool:
        return self._undo_target() is not None or self._earlier_target() is not None

    def can_redo(self) -> bool:
        return self._redo_target() is not None

    def describe_last_undoable(self, lang: str = "en") -> str | None:
        target = self._undo_target()
        if target is not None:
            return action_words(self._actions(target), self.state, lang)
        earlier = self._earlier_target()
        if earlier is None:
            return None
        started = earlier.log.header.started_at
        return earlier_action_words(started, earlier.events, self.state, lang)

    def describe_last_redoable(self, lang: str = "en") -> str | None:
        target = self._redo_target()
        return action_words(self._redone(target), self.state, lang) if target else None

    def undo(self) -> ev.Event | None:
        """Take back the last action still in effect, tonight's or (none left) an earlier
        session's; returns its first event (None if there is nothing to undo)."""
        target = self._undo_target()
        if target is not None:
            self._commit_undo(target, redo=False)
            return self._actions(target)[0]
        earlier = self._earlier_target()
        if earlier is None:
            return None
        self._commit([(None, undoing.undo_earlier(self.state, earlier), self.state.clock)])
        return earlier.events[0]

    def _redone(self, undo_action: int) -> list[ev.Event]:
        return undoing.redone(self._log, undo_action)

    def redo(self) -> ev.Event | None:
        """Undo the last undo, if nothing was done since; returns the first event it restored."""
        target = self._redo_target()
        if target is None:
            return None
        redone = self._redone(target)
        self._commit_undo(target, redo=True)
        return redone[0]

    def _commit_undo(self, target: int, redo: bool) -> None:
        (undo,) = self._stamp([(None, ev.Undo(target, redo), self.state.clock)])
        log = [*self._log, undo]
        void = void_actions(log)
        changed = void ^ self._void
        start = min(n for n, e in enumerate(log) if e.action in changed)
        base = max(k for k in self._snapshots if k <= start)
        state = fold(self._snapshots[base], log[base:], void)
        self._journal([undo])
        for k in [k for k in self._snapshots if k > start]:
            del self._snapshots[k]
        self._log, self._void, self.state = log, void, state
        self._after([undo])
