"""Time across midnights for one character: episodes that end and nights that recover.

docs/RULES.md "Recovery": at the end of each game day a character with no gain that day loses 1
madness point (1d6 under care); a gain that day blocks it; no recovery while a temporary
madness lasts (the night is skipped, and said so); an episode that ends at midnight ends
first, so that night recovers from the halved madness.

Work is per run of nights, not per night: a plain run of n nights is one record (n points),
so a million days cost what the few nights that change anything cost. Only nights under care
roll (a 1d6 each, recorded), and there are at most as many as madness points to lose.
"""

from __future__ import annotations

import random
from typing import Literal

import msgspec
from msgspec.structs import replace

from gmscreen.rules import dice
from gmscreen.rules.dice import Roll
from gmscreen.rules.madness import (
    DAY,
    MadnessState,
    day_of,
    end_episode,
    end_of_day,
    recovery_dice,
)

Night = Literal["skipped", "blocked", "plain", "care"]


class Nights(msgspec.Struct, frozen=True, gc=False):
    """``nights`` nights in a row from the end of game day ``day``, all of one kind.

    ``skipped``: a temporary madness (``episode``, its kind) lasted, no recovery; ``blocked``: a
    gain that day; ``plain``: 1 point a night; ``care``: one night, its 1d6 in ``roll``.
    """

    kind: Night
    day: int
    nights: int
    amount: int
    before: MadnessState
    after: MadnessState
    roll: Roll | None = None
    episode: str | None = None


class Passage(msgspec.Struct, frozen=True, gc=False):
    """What the clock moving from ``now`` to ``until`` does to one character, in order.

    ``episode_end`` is the game second the episode under way ends at, if it ends on the way
    (``ended`` is the state just after: madness halved); ``nights`` follow in order.
    """

    episode_end: int | None
    ended: MadnessState | None
    nights: tuple[Nights, ...]

    @property
    def after(self) -> MadnessState | None:
        """The state at ``until`` (None: nothing changed)."""
        return self.nights[-1].after if self.nights else self.ended


def midnights(now: int, until: int) -> int:
    """How many midnights the clock passes from ``now`` to ``until`` (reaching one counts)."""
    return day_of(until) - day_of(now)


def time_passes_for(state: MadnessState, now: int, until: int, rng: random.Random) -> Passage:
    """One character's episode end and nights from ``now`` to ``until`` (see the module)."""
    first_day = day_of(now)
    days = midnights(now, until)
    episode = state.episode
    ends_at = episode.ends_at if episode is not None and episode.ends_at <= until else None
    runs: list[Nights] = []
    skipped = 0
    if episode is not None:
        # Midnights strictly before the end are in the episode's grip (at the end itself the
        # episode ends first); an episode that outlasts the advance holds every night.
        last = days if ends_at is None else -(-ends_at // DAY) - 1 - first_day
        skipped = max(0, min(days, last))
        if skipped:
            runs.append(
                Nights("skipped", first_day, skipped, 0, state, state, episode=episode.kind)
            )
    ended = None
    if ends_at is not None:
        ended = end_episode(state, ends_at).after
        state = ended
    elif episode is not None:
        return Passage(None, None, tuple(runs))
    day = first_day + skipped
    left = days - skipped
    while left > 0 and state.madness > 0:
        if state.last_gain_day == day or state.under_care:
            expression = recovery_dice(state, day)
            roll = dice.roll(expression, rng) if expression else None
            recovery = end_of_day(state, day, roll)
            kind: Night = "blocked" if recovery.blocked else "care"
            runs.append(Nights(kind, day, 1, recovery.amount, state, recovery.after, roll))
            state, day, left = recovery.after, day + 1, left - 1
            continue
        n = min(left, state.madness)
        if state.last_gain_day is not None and state.last_gain_day > day:
            n = min(n, state.last_gain_day - day)  # a gain dated later (edited by hand) blocks
        after = replace(state, madness=state.madness - n)
        runs.append(Nights("plain", day, n, n, state, after))
        state, day, left = after, day + n, left - n
    return Passage(ends_at, ended, tuple(runs))
