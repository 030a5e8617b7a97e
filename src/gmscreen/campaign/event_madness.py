"""The madness events (docs/RULES.md "Part 1: Madness Points"): gains, checks, episodes,
nights, the game clock.

Part of the union of :mod:`gmscreen.campaign.events`, which re-exports every name here: import
them from there (``from gmscreen.campaign import events as ev``; ``ev.Gain``).
"""

from __future__ import annotations

from gmscreen.campaign.event_json import Changes, check_changes
from gmscreen.campaign.event_record import Clock, Count, Int, Name, Record, Text
from gmscreen.rules.dice import Roll
from gmscreen.rules.madness import Alignment, Outcome, Unit


class Gain(Record, frozen=True):
    """Madness gained from one preset (docs/RULES.md "Gaining madness"), with its dice if any.

    ``base`` is the preset's amount (fixed, rolled or from the GM's ``inputs``) before the GM's
    ``adjustment``; ``amount`` is what was added (never below 0). ``first_time`` is None unless
    the preset costs less after the character's first sighting; ``day`` is the game day.
    """

    preset: Name
    inputs: dict[Name, Int | Text]
    roll: Roll | None
    base: Int
    adjustment: Int
    amount: Int
    first_time: bool | None
    day: Count
    changes: Changes
    # What happened, in the GM's words (the demon's name, the friend who died); empty when the
    # GM left it out, and absent in older journals.
    happened: Text = ""
    # The campaign horror (its id) the gain came from: its preset and inputs are the ones
    # above, and its first sighting its own. None for a built-in gain, and in older journals.
    horror: Name | None = None
    # What the players are told it was ("a nameless dread"), when the GM said: their words for
    # a one-off gain, in place of the preset's own. Empty when not said, and in older journals.
    players: Name = ""

    def __post_init__(self) -> None:
        check_changes(self.changes)


class CheckRoll(Record, frozen=True):
    """One d100 of a madness check (docs/RULES.md "The madness check"), rolled or typed.

    ``target_value`` is the Chaos or Law rolled against; ``fumble_base`` is the campaign setting,
    ``fumble_chance`` the percent that fumbles and ``fumble_from`` the lowest roll that does (101:
    none). A success lowers madness by ``drop``; ``repeat`` says another d100 is due.
    """

    roll: Roll
    target: Alignment
    target_value: Int
    fumble_base: Int
    fumble_chance: Int
    fumble_from: Int
    outcome: Outcome
    drop: Int
    repeat: bool
    changes: Changes

    def __post_init__(self) -> None:
        check_changes(self.changes)


class EpisodeStarted(Record, frozen=True):
    """The kind of madness (a 1d6, rolled or picked) after a failed or fumbled check: an episode.

    It lasts ``amount`` units of ``unit``, the unit chosen by ``unit_value`` (max(Chaos, Law) -
    Balance), and ends at game second ``ends_at``. ``permanent``: a fumble, so the kind is also
    added to the permanent madnesses.
    """

    kind: Name
    kind_roll: Roll
    permanent: bool
    amount: Int
    unit: Unit
    unit_value: Int
    ends_at: Clock
    changes: Changes

    def __post_init__(self) -> None:
        check_changes(self.changes)


class EpisodeEnded(Record, frozen=True):
    """A madness episode ran out as the clock advanced: ``changes`` ends it and halves madness."""

    kind: Name
    changes: Changes

    def __post_init__(self) -> None:
        check_changes(self.changes)


class Recovery(Record, frozen=True):
    """One character's madness recovery in a :class:`DayEnded` (part of it, not an event).

    ``blocked``: a gain that day prevented it; ``roll`` is the 1d6 under care (None for the plain
    1 point or when blocked); ``amount`` is the madness lost.

    Across many days one record covers ``nights`` nights in a row from the end of ``day`` (None:
    the :class:`DayEnded`'s day): the plain 1 point a night, or nights with no recovery because
    the temporary madness ``episode`` (its kind) lasted. The fields with defaults are absent in
    older journals.
    """

    character: Name
    blocked: bool
    roll: Roll | None
    amount: Int
    changes: Changes
    day: Count | None = None
    nights: Count = 1
    episode: Name | None = None  # no recovery: in the grip of this madness

    def __post_init__(self) -> None:
        check_changes(self.changes)


class DayEnded(Record, frozen=True):
    """Midnight on the game clock: game day ``day`` (0 is the first) is over, or ``days`` days
    from it (one event for time across many midnights, not one a day).

    ``recoveries`` holds the daily recovery of every character who had madness to lose, in
    order for each character (see :class:`Recovery`'s ``day`` and ``nights``).
    """

    day: Count
    recoveries: tuple[Recovery, ...]
    days: Count = 1  # absent in older journals


CLOCK_REASONS = ("advance", "round", "end_day")


class ClockAdvanced(Record, frozen=True):
    """The game clock moved on ``seconds``, from ``before`` to ``after`` (game seconds).

    ``reason`` is the command: ``advance``, ``round`` (next round) or ``end_day``. The episodes and
    days that end on the way follow as their own events in the same action.
    """

    seconds: Int
    reason: Name  # one of CLOCK_REASONS
    before: Clock
    after: Clock

    def __post_init__(self) -> None:
        # Checked here rather than typed as a Literal while actions.advance takes a plain str.
        # A reason the recaps have no words for would be a traceback when a session is told.
        if self.reason not in CLOCK_REASONS:
            raise ValueError(f"reason: expected one of {', '.join(CLOCK_REASONS)}")
