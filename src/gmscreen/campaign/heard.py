"""What the players hear of a session: plain facts, the only thing their words are made from.

:mod:`gmscreen.campaign.player_safe` decides what these hold (it is the one place that reads the
GM's events for players); :func:`gmscreen.campaign.telling.players_words` says them. A record
holds names, keys the players' catalog words (a preset, a kind, an outcome, a ruling), item
names and shared notes, and game time to the minute; no figure, die, reason or GM-only text
fits in one, so the players' words cannot reach them.
"""

from __future__ import annotations

import msgspec

from gmscreen.campaign.wording import Rough
from gmscreen.rules.madness import Outcome


class Heard(msgspec.Struct, frozen=True):
    """Something the players hear of at game time ``game`` (to the minute), about ``who``."""

    game: int
    who: str = ""


class Gained(Heard, frozen=True):
    """``who`` met a horror: the preset's key (its label is what the players hear)."""

    preset: str = ""


class Checked(Heard, frozen=True):
    """A madness check's final outcome for ``who`` (a success that leaves another check due is
    not final: the next roll's outcome is)."""

    outcome: Outcome = "success"


class Struck(Heard, frozen=True):
    """``who`` is struck by the madness ``kind``, lasting roughly ``lasts``."""

    kind: str = ""
    permanent: bool = False
    lasts: Rough = "moments"


class Passed(Heard, frozen=True):
    """``who``'s ``kind`` passes."""

    kind: str = ""


class TimePassed(Heard, frozen=True):
    """Time passing, once for a run of rounds, advances and days' ends with nothing heard
    between: ``minutes`` of it, and the days that ended (``first``, counted from 1, to ``last``;
    0 when none did). ``game`` is the time it reached."""

    minutes: int = 0
    first: int = 0
    last: int = 0


class Joined(Heard, frozen=True):
    """``who`` joins the table."""


class Left(Heard, frozen=True):
    """``who`` leaves the table."""


class GotItem(Heard, frozen=True):
    title: str = ""


class LostItem(Heard, frozen=True):
    title: str = ""


class RenamedItem(Heard, frozen=True):
    before: str = ""
    after: str = ""


class Ruled(Heard, frozen=True):
    """A GM ruling as the players may know it: what it did (``ruling``), to which ``kind`` of
    madness, or whether care began (``on``). Never its reason."""

    ruling: str = ""
    kind: str = ""
    on: bool = False


class Shared(Heard, frozen=True):
    """A note the GM shared, in its last words; ``who``: whom it is about (or nobody)."""

    text: str = ""
