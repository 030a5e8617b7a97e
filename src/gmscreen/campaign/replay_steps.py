"""Where replay stepping may land, and what the session picker says about each session.

Step ``n`` is the state after the session's first ``n`` events (0: its start). Stepping skips
the events an undo voided (the journal keeps them; the recap strikes them through) and jumps
between madness checks: the check-roll events still in effect.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from pathlib import Path

import msgspec

from gmscreen.campaign import events as ev
from gmscreen.campaign.journal import SessionLog
from gmscreen.campaign.reducer import void_actions


class Steps:
    """The steps of one session that stepping lands on, and its checks."""

    def __init__(self, events: Sequence[ev.Event]) -> None:
        self.count = len(events)
        self.void = void_actions(events)
        self.live = [0, *(n + 1 for n, e in enumerate(events) if e.action not in self.void)]
        self.void_steps = [n + 1 for n, e in enumerate(events) if e.action in self.void]
        self.checks = [
            n + 1
            for n, e in enumerate(events)
            if isinstance(e.data, ev.CheckRoll) and e.action not in self.void
        ]

    def is_void(self, step: int) -> bool:
        """Whether the event that step ``step`` applies was voided by an undo."""
        i = bisect_left(self.live, step)
        return not (i < len(self.live) and self.live[i] == step)

    def next(self, step: int) -> int:
        i = bisect_right(self.live, step)
        return self.live[i] if i < len(self.live) else step

    def previous(self, step: int) -> int:
        i = bisect_left(self.live, step)
        return self.live[i - 1] if i > 0 else step

    def next_check(self, step: int) -> int:
        i = bisect_right(self.checks, step)
        return self.checks[i] if i < len(self.checks) else step

    def previous_check(self, step: int) -> int:
        i = bisect_left(self.checks, step)
        return self.checks[i - 1] if i > 0 else step

    @property
    def last(self) -> int:
        return self.live[-1]


class SessionSummary(msgspec.Struct, frozen=True, gc=False):
    id: str
    path: Path
    started_at: str  # ISO 8601, as the header has it
    events: int
    undone: int  # events an undo voided
    checks: int
    characters: tuple[str, ...]  # names, in the order they first appear in the events


def summarize(log: SessionLog) -> SessionSummary:
    steps = Steps(log.events)
    names = {c.id: c.name for c in log.header.state.characters}
    involved: dict[str, None] = {}
    for event in log.events:
        if isinstance(event.data, ev.CharacterAdded):
            names.setdefault(
                str(event.data.character.get("id")), str(event.data.character.get("name"))
            )
        if event.character:
            involved.setdefault(event.character)
    return SessionSummary(
        id=log.header.id,
        path=log.path,
        started_at=log.header.started_at,
        events=len(log.events),
        undone=sum(1 for e in log.events if e.action in steps.void),
        checks=len(steps.checks),
        characters=tuple(names.get(c, c) for c in involved),
    )
