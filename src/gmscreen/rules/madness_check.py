"""The madness check as a small state machine the GM steps through one key at a time.

Phases: ``roll`` (a d100 is due) → on success, ``roll`` again while still due, else ``done``;
on failure or fumble → ``kind`` (a 1d6 for the kind of madness) → ``done``.
The CLI and the screen both drive this; each step returns the rules' record for the journal.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from gmscreen.rules.dice import Roll
from gmscreen.rules.madness import (
    DEFAULT_FUMBLE_BASE,
    DEFAULT_ROUND_SECONDS,
    CheckRoll,
    EpisodeStart,
    MadnessError,
    MadnessState,
    Odds,
    check_due,
    check_odds,
    check_target,
    fumble_chance,
    resolve_check_roll,
    start_episode,
)

Phase = Literal["roll", "kind", "done"]


class CheckSequence(msgspec.Struct):
    """One character's madness check under way: its d100s and any episode.

    ``state`` is the character's numbers as the check leaves them; ``now`` is the game clock
    (seconds) an episode starts at.
    """

    state: MadnessState
    fumble_base: int = DEFAULT_FUMBLE_BASE
    now: int = 0
    round_seconds: int = DEFAULT_ROUND_SECONDS
    steps: list[CheckRoll] = msgspec.field(default_factory=list)
    episode: EpisodeStart | None = None

    @property
    def phase(self) -> Phase:
        if self.episode is not None:
            return "done"
        if self.steps and self.steps[-1].outcome != "success":
            return "kind"
        return "roll" if check_due(self.state) else "done"

    @property
    def outcome(self) -> str | None:
        """success, failure or fumble once the sequence has ended (None before)."""
        if self.phase != "done" or not self.steps:
            return None
        return self.steps[-1].outcome

    def target(self) -> tuple[str, int]:
        return check_target(self.state)

    def fumble_chance(self) -> int:
        return fumble_chance(self.state, self.fumble_base)

    def odds(self) -> Odds:
        return check_odds(self.state, self.fumble_base)

    def roll(self, d100: Roll) -> CheckRoll:
        if self.phase != "roll":
            raise MadnessError(f"no d100 is due now (the check is at {self.phase!r})")
        step = resolve_check_roll(self.state, d100, self.fumble_base)
        self.steps.append(step)
        self.state = step.after
        return step

    def choose_kind(self, d6: Roll) -> EpisodeStart:
        if self.phase != "kind":
            raise MadnessError(f"no kind of madness is due now (the check is at {self.phase!r})")
        fumble = self.steps[-1].outcome == "fumble"
        self.episode = start_episode(self.state, d6, fumble, self.now, self.round_seconds)
        self.state = self.episode.after
        return self.episode
