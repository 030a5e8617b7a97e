"""Replay of a session: its header's start state plus its events, steppable both ways.

``state_at(step)`` is the campaign as the table showed it after ``step`` events (an undo at
step k voids what it undid from then on). States are cached every ``every`` steps and right
after every undo, so any step costs at most ``every`` applications of the reducer: the fold
from the nearest cached step before it never crosses an undo.

A session of several journals (an evening, :mod:`gmscreen.campaign.evenings`) is replayed as
one: ``restarts`` gives, at the step where each later journal begins, the state it began from
(its header's), which the replay takes there: what was edited in campaign.toml between two
openings shows from then on, and no fold crosses that step.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from pathlib import Path

from gmscreen.campaign import events as ev
from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.journal import SessionLog, read_session
from gmscreen.campaign.model import Campaign
from gmscreen.campaign.reducer import fold, void_actions
from gmscreen.campaign.telling import RecapLine, recap_lines


def pick_session(logs: list[SessionLog], session: str | None) -> SessionLog:
    """The session ``session`` names (its id or its journal's file name), or the last one.

    Raises :class:`CampaignError` if there are no sessions or none is named ``session``.
    """
    if not logs:
        raise CampaignError("this campaign has no sessions yet")
    if session is None:
        return logs[-1]
    for log in logs:
        if session in (log.header.id, log.path.name):
            return log
    raise CampaignError(
        f"no session {session!r}: choose one of {', '.join(log.header.id for log in logs)}"
    )


class Replay:
    def __init__(
        self,
        start: Campaign,
        events: list[ev.Event],
        every: int = 64,
        restarts: Mapping[int, Campaign] | None = None,
    ) -> None:
        self.start = start
        self.events = events
        self.every = max(1, every)
        # step -> the state a later journal of the session began from (see the module's doc)
        self.restarts = {s: c for s, c in (restarts or {}).items() if 0 < s <= len(events)}
        self._restarts = sorted(self.restarts)
        self._undos = [n for n, e in enumerate(events) if isinstance(e.data, ev.Undo)]
        self._first: dict[int, int] = {}  # action -> index of its first event
        for n, event in enumerate(events):
            self._first.setdefault(event.action, n)
        self._cache: dict[int, tuple[Campaign, frozenset[int]]] = {0: (start, frozenset())}
        self._keys = [0]  # the cached steps, sorted
        wanted = set(range(self.every, len(events) + 1, self.every))
        wanted.update(n + 1 for n in self._undos)
        wanted.update(self._restarts)
        for step in sorted(wanted):  # in order: each builds on the ones before it
            if step in self.restarts:
                void = frozenset(void_actions(events[:step]))
                self._cache[step] = (self.restarts[step], void)
            else:
                self._cache[step] = self._compute(step)
            self._keys.append(step)

    @classmethod
    def from_log(cls, log: SessionLog, every: int = 64) -> Replay:
        return cls(log.header.state, log.events, every)

    @classmethod
    def from_file(cls, path: Path, every: int = 64) -> Replay:
        return cls.from_log(read_session(path), every)

    @property
    def steps(self) -> int:
        return len(self.events)

    def _compute(self, step: int) -> tuple[Campaign, frozenset[int]]:
        index = bisect_right(self._keys, step) - 1
        base = self._keys[index]
        state, void = self._cache[base]
        # the step a later journal began at, at or before ``step``: no fold goes back past it
        later = bisect_right(self._restarts, step)
        floor = self._restarts[later - 1] if later else 0
        if bisect_right(self._undos, step - 1) > bisect_right(self._undos, base - 1):
            # An undo between the cached step and this one: start again from a cached step
            # whose events before it are void exactly as they are at ``step``.
            void = frozenset(void_actions(self.events[:step]))
            while index > 0 and self._keys[index] > floor:
                cached = self._cache[self._keys[index]][1]
                if all(self._first.get(a, step) >= self._keys[index] for a in cached ^ void):
                    break
                index -= 1
            base = self._keys[index]
            state = self._cache[base][0]
        return fold(state, self.events[base:step], set(void)), void

    def state_at(self, step: int) -> Campaign:
        """The state after the first ``step`` events (0 is the session's start)."""
        if not 0 <= step <= len(self.events):
            raise IndexError(f"step {step} is outside 0..{len(self.events)}")
        cached = self._cache.get(step)
        return cached[0] if cached else self._compute(step)[0]

    def final(self) -> Campaign:
        return self.state_at(len(self.events))

    def lines(self, lang: str = "en") -> list[RecapLine]:
        return recap_lines(self.start, self.events, lang)
