"""Replay of a session: its header's start state plus its events, steppable both ways.

``state_at(step)`` is the campaign as the table showed it after ``step`` events (an undo at
step k voids what it undid from then on). States are cached every ``every`` steps, so any step
costs at most ``every`` applications of the reducer (unless an undo reaches further back).
"""

from __future__ import annotations

from pathlib import Path

from gmscreen.campaign import events as ev
from gmscreen.campaign.journal import SessionLog, read_session
from gmscreen.campaign.model import Campaign
from gmscreen.campaign.recap import RecapLine, recap
from gmscreen.campaign.reducer import fold, void_actions


class Replay:
    def __init__(self, start: Campaign, events: list[ev.Event], every: int = 64) -> None:
        self.start = start
        self.events = events
        self.every = max(1, every)
        self._undos = [n for n, e in enumerate(events) if isinstance(e.data, ev.Undo)]
        self._cache: dict[int, tuple[Campaign, set[int]]] = {0: (start, set())}
        for step in range(self.every, len(events) + 1, self.every):
            self._cache[step] = self._compute(step)

    @classmethod
    def from_log(cls, log: SessionLog, every: int = 64) -> Replay:
        return cls(log.header.state, log.events, every)

    @classmethod
    def from_file(cls, path: Path, every: int = 64) -> Replay:
        return cls.from_log(read_session(path), every)

    @property
    def steps(self) -> int:
        return len(self.events)

    def _compute(self, step: int) -> tuple[Campaign, set[int]]:
        base = max(k for k in self._cache if k <= step)
        state, void = self._cache[base]
        if any(base <= n < step for n in self._undos):
            void = void_actions(self.events[:step])
            old = self._cache[base][1]
            changed = void ^ old
            first = next((n for n, e in enumerate(self.events[:base]) if e.action in changed), base)
            base = max(k for k in self._cache if k <= first)
            state = self._cache[base][0]
        return fold(state, self.events[base:step], void), void

    def state_at(self, step: int) -> Campaign:
        """The state after the first ``step`` events (0 is the session's start)."""
        if not 0 <= step <= len(self.events):
            raise IndexError(f"step {step} is outside 0..{len(self.events)}")
        cached = self._cache.get(step)
        return cached[0] if cached else self._compute(step)[0]

    def final(self) -> Campaign:
        return self.state_at(len(self.events))

    def lines(self, players: bool = False) -> list[RecapLine]:
        return recap(self.start, self.events, players)
