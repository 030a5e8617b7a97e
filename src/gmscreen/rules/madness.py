"""Madness Points, the optional Elric! rule (docs/RULES.md "Part 1: Madness Points"), as pure
functions.

Every function takes the character's numbers (:class:`MadnessState`) and the dice that were
rolled, typed or picked, and returns a record of what happened with the state before and after.
Nothing here prints, reads files or rolls on its own: the caller chooses where dice come from.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import msgspec
from msgspec.structs import replace

from gmscreen.rules import dice
from gmscreen.rules.dice import Roll
from gmscreen.rules.errors import CodedError
from gmscreen.rules.madness_data import Preset, load_madness_data
from gmscreen.rules.numbers import all_digits, whole_or_none
from gmscreen.text import clip

Alignment = Literal["chaos", "law"]
Outcome = Literal["success", "failure", "fumble"]
Unit = Literal["rounds", "minutes", "hours", "days"]
UNITS: tuple[Unit, ...] = ("rounds", "minutes", "hours", "days")

MINUTE = 60
HOUR = 3600
DAY = 86400
DEFAULT_ROUND_SECONDS = 12
DEFAULT_FUMBLE_BASE = 1
MAX_STAT = 1000


class MadnessError(CodedError, ValueError):
    """A rule input that cannot be used; the message is for the GM."""


class Episode(msgspec.Struct, frozen=True, gc=False):
    """A temporary madness under way. Times are game seconds on the campaign clock."""

    kind: str
    amount: int
    unit: Unit
    started_at: int
    ends_at: int
    permanent: bool = False  # a fumble: the kind was also added to the permanent madnesses


class MadnessState(msgspec.Struct, frozen=True, gc=False):
    """The numbers of one character that the madness rule reads and changes."""

    pow: int
    app: int = 10
    chaos: int = 0
    balance: int = 0
    law: int = 0
    madness: int = 0
    episode: Episode | None = None
    permanent: tuple[str, ...] = ()
    first_sightings: frozenset[str] = msgspec.field(default_factory=frozenset)
    under_care: bool = False
    last_gain_day: int | None = None
    # The campaign's own horrors this character has seen (their ids): a named god or lord keeps
    # its own first sighting (docs/RULES.md "Gaining madness"); ``first_sightings`` holds the
    # built-in presets' kinds.
    horrors_seen: frozenset[str] = msgspec.field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if not 1 <= self.pow <= MAX_STAT:
            raise MadnessError(f"POW must be from 1 to {MAX_STAT}, not {self.pow}")
        high = MAX_STAT * 10
        # One test for the usual case (every state a replay builds comes through here); the
        # loop only runs to name the first number out of range.
        if (
            0 <= self.app <= high
            and 0 <= self.chaos <= high
            and 0 <= self.balance <= high
            and 0 <= self.law <= high
            and 0 <= self.madness <= high
        ):
            return
        for name in ("app", "chaos", "balance", "law", "madness"):
            value = getattr(self, name)
            if not 0 <= value <= high:
                raise MadnessError(f"{name} must be from 0 to {high}, not {value}")


# --- gains -----------------------------------------------------------------------------------


class Gain(msgspec.Struct, frozen=True, gc=False):
    """What one gain did (:func:`gain`), with the character's numbers before and after.

    ``base`` is the preset's amount (fixed, rolled or from the GM's ``inputs``) before the GM's
    ``adjustment``; ``amount`` is what was added. ``first_time`` is None unless the preset costs
    less after the character's first sighting; ``day`` is the game day.
    """

    preset: str
    inputs: dict[str, int | str]
    roll: Roll | None
    base: int
    adjustment: int
    amount: int
    first_time: bool | None
    day: int
    before: MadnessState
    after: MadnessState


def preset(key: str) -> Preset:
    presets = load_madness_data().presets
    if key not in presets:
        raise MadnessError(f"unknown gain {key!r}: expected one of {', '.join(presets)}")
    return presets[key]


def _whole(inputs: Mapping[str, int | str], name: str) -> int:
    if name not in inputs:
        raise MadnessError(f"this gain needs a value for {name!r}")
    value = inputs[name]
    if isinstance(value, str):
        number = whole_or_none(value)
        if number is None:
            if all_digits(value):  # digits, too many of them
                raise MadnessError(code="input_range", field=name, high=MAX_STAT, value=clip(value))
            raise MadnessError(code="input_not_whole", field=name, value=clip(value))
        value = number
    if not 0 <= value <= MAX_STAT:
        raise MadnessError(code="input_range", field=name, high=MAX_STAT, value=value)
    return value


def gain_dice(key: str, inputs: Mapping[str, int | str] | None = None) -> str | None:
    """The dice expression this gain needs rolled (or typed), or None for a fixed amount."""
    p = preset(key)
    if p.dice:
        return p.dice
    if p.dice_allowed and inputs is not None:
        value = inputs.get(p.amount_input or "amount")
        if isinstance(value, str) and not all_digits(value):
            return dice.parse(value).text
    return None


def gain(
    state: MadnessState,
    key: str,
    inputs: Mapping[str, int | str] | None = None,
    roll: Roll | None = None,
    day: int = 0,
    adjustment: int = 0,
    sighting: str | None = None,
) -> Gain:
    """Apply one gain of preset ``key``. ``roll`` must be given exactly when ``gain_dice`` asks.

    ``sighting``: a campaign horror's id, for a preset that costs less after the first time: the
    first sighting is that horror's own (Arioch and Mabelode each cost the full amount once),
    and seeing it is seeing one of its kind too. None: the preset's own, per kind.
    """
    p = preset(key)
    inputs = dict(inputs or {})
    expression = gain_dice(key, inputs)
    if (expression is None) != (roll is None):
        raise MadnessError(
            f"{key} needs a roll of {expression}" if expression else f"{key} takes no roll"
        )
    if (
        roll is not None
        and expression is not None
        and dice.parse(roll.expr) != dice.parse(expression)
    ):
        raise MadnessError(f"{key} needs a roll of {expression}, not {roll.expr}")
    if adjustment and not p.adjust:
        raise MadnessError(f"{key} takes no adjustment")
    first_time: bool | None = None
    value = 0  # the number the GM entered, for presets that take one
    if roll is not None:
        base = roll.total
    elif p.amount is not None:
        base = p.amount
    elif p.first is not None and p.after is not None:
        if sighting is None:
            first_time = key not in state.first_sightings
        else:
            first_time = sighting not in state.horrors_seen
        base = p.first if first_time else p.after
    elif p.input is not None:
        value = _whole(inputs, p.input)
        base = value // p.divisor if p.divisor else value * (p.per or 1)
    else:
        base = _whole(inputs, p.amount_input or "amount")
    if p.lowers == "app" and value > state.app:
        # docs/RULES.md "Gaining madness": a character cannot lose more APP than it has; the GM
        # mistyped (or the APP on the sheet is out of date): say so rather than clamp silently.
        raise MadnessError(code="app_lost_too_much", lost=value, app=state.app)
    amount = max(0, base + adjustment)
    changes: dict[str, object] = {"madness": state.madness + amount}
    if p.raises == "chaos":
        changes["chaos"] = state.chaos + base
    elif p.raises == "law":
        changes["law"] = state.law + base
    if p.lowers == "app":
        changes["app"] = state.app - value
    if first_time:
        changes["first_sightings"] = state.first_sightings | {key}
        if sighting is not None:
            changes["horrors_seen"] = state.horrors_seen | {sighting}
    if amount > 0:
        # A gain of 0 (a weak creature's POW / 10) is no gain: it does not block recovery.
        changes["last_gain_day"] = day
    after = replace(state, **changes)
    return Gain(key, inputs, roll, base, adjustment, amount, first_time, day, state, after)


# --- the madness check -----------------------------------------------------------------------


def check_due(state: MadnessState) -> bool:
    """A check is due at madness >= POW, except during an episode: madness stays high until the
    episode ends and halves it, and the character is already mad."""
    return state.episode is None and state.madness >= state.pow


def check_target(state: MadnessState) -> tuple[Alignment, int]:
    """The higher of Chaos and Law; Law on a tie."""
    return ("chaos", state.chaos) if state.chaos > state.law else ("law", state.law)


def fumble_chance(state: MadnessState, base: int = DEFAULT_FUMBLE_BASE) -> int:
    """Percent chance to fumble: base, plus 10 for every full 5 points over POW, at most 100."""
    if not 0 <= base <= 100:
        raise MadnessError(f"the fumble base must be from 0 to 100, not {base}")
    steps = max(0, (state.madness - state.pow) // 5)
    return min(100, base + 10 * steps)


def fumble_from(state: MadnessState, base: int = DEFAULT_FUMBLE_BASE) -> int:
    """The lowest d100 roll that fumbles (101 means none can)."""
    return 101 - fumble_chance(state, base)


class Odds(msgspec.Struct, frozen=True, gc=False):
    """The chance of each outcome of the next check d100, in whole percent (they add up to 100)."""

    success: int
    failure: int
    fumble: int


def check_odds(state: MadnessState, base: int = DEFAULT_FUMBLE_BASE) -> Odds:
    """The chance of each outcome of one d100, in whole percent (they add up to 100)."""
    fumble = fumble_chance(state, base)
    _, target = check_target(state)
    success = max(0, min(target, 100 - fumble))
    return Odds(success=success, failure=100 - success - fumble, fumble=fumble)


def outcome_of(roll: int, target: int, first_fumble: int) -> Outcome:
    if roll >= first_fumble:
        return "fumble"  # tested first: a fumble is never a success
    return "success" if roll <= target else "failure"


class CheckRoll(msgspec.Struct, frozen=True, gc=False):
    """One d100 of a madness check (:func:`resolve_check_roll`) and the state it leaves.

    ``fumble_chance`` is in percent and ``fumble_from`` is the lowest roll that fumbles (101: none).
    A success lowers madness by ``drop``; ``repeat`` says it is still due, so another d100 follows.
    """

    target: Alignment
    target_value: int
    fumble_chance: int
    fumble_from: int
    roll: Roll
    outcome: Outcome
    drop: int
    repeat: bool
    before: MadnessState
    after: MadnessState


def resolve_check_roll(
    state: MadnessState, roll: Roll, base: int = DEFAULT_FUMBLE_BASE
) -> CheckRoll:
    """One d100 of a madness check. On success madness drops; failure and fumble need a kind."""
    if state.episode is not None:
        raise MadnessError("no check during a madness episode: it must end first")
    if not check_due(state):
        raise MadnessError(f"no check is due: madness {state.madness} is below POW {state.pow}")
    if not 1 <= roll.total <= 100 or dice.parse(roll.expr) != dice.parse("d100"):
        raise MadnessError(f"a madness check takes one d100 from 1 to 100, not {roll.describe()}")
    target, value = check_target(state)
    chance = fumble_chance(state, base)
    outcome = outcome_of(roll.total, value, 101 - chance)
    drop = 0
    after = state
    if outcome == "success":
        drop = min(state.madness, max(state.balance // 5, 1))
        after = replace(state, madness=state.madness - drop)
    repeat = outcome == "success" and check_due(after)
    return CheckRoll(target, value, chance, 101 - chance, roll, outcome, drop, repeat, state, after)


def duration_unit(state: MadnessState) -> tuple[Unit, int]:
    """The unit of a temporary madness, from the higher alignment minus Balance (and that value)."""
    d = max(state.chaos, state.law) - state.balance
    if d <= 30:
        return "rounds", d
    if d <= 60:
        return "minutes", d
    if d <= 80:
        return "hours", d
    return "days", d


def unit_seconds(unit: Unit, round_seconds: int = DEFAULT_ROUND_SECONDS) -> int:
    return {"rounds": round_seconds, "minutes": MINUTE, "hours": HOUR, "days": DAY}[unit]


def kind_key(roll: Roll) -> str:
    """The madness kind for a 1d6 (rolled, typed, or the GM's pick)."""
    kinds = load_madness_data().kinds
    if not 1 <= roll.total <= len(kinds):
        raise MadnessError(f"the kind of madness is a 1d6 from 1 to 6, not {roll.total}")
    return kinds[roll.total - 1].key


class EpisodeStart(msgspec.Struct, frozen=True, gc=False):
    """A temporary madness begun after a failed or fumbled check (:func:`start_episode`).

    It lasts ``amount`` units of ``unit`` (``unit_value`` chose the unit). ``permanent``: a fumble:
    the kind joined the permanent madnesses too.
    """

    kind: str
    kind_roll: Roll
    permanent: bool
    amount: int
    unit: Unit
    unit_value: int  # max(Chaos, Law) - Balance, which chose the unit
    before: MadnessState
    after: MadnessState


def start_episode(
    state: MadnessState,
    kind_roll: Roll,
    fumble: bool,
    now: int,
    round_seconds: int = DEFAULT_ROUND_SECONDS,
) -> EpisodeStart:
    """After a failed (or fumbled) check: madness of one kind for ``madness`` units of time.

    A fumble adds the same kind to the permanent madnesses; the temporary episode and its
    halving still apply (docs/RULES.md "The madness check": a fumble fails too). A new episode replaces one
    still under way.
    """
    kind = kind_key(kind_roll)
    unit, value = duration_unit(state)
    amount = state.madness
    episode = Episode(
        kind, amount, unit, now, now + amount * unit_seconds(unit, round_seconds), fumble
    )
    permanent = (*state.permanent, kind) if fumble else state.permanent
    after = replace(state, episode=episode, permanent=permanent)
    return EpisodeStart(kind, kind_roll, fumble, amount, unit, value, state, after)


def madness_after_episode(state: MadnessState) -> int:
    return max(0, min(state.madness // 2, state.pow - 1))


class EpisodeEnd(msgspec.Struct, frozen=True, gc=False):
    """An episode over (:func:`end_episode`) at game second ``at``: madness halved, below POW."""

    kind: str
    at: int
    before: MadnessState
    after: MadnessState


def end_episode(state: MadnessState, at: int) -> EpisodeEnd:
    """The episode is over: madness halves, and ends below POW."""
    if state.episode is None:
        raise MadnessError("there is no madness episode to end")
    after = replace(state, episode=None, madness=madness_after_episode(state))
    return EpisodeEnd(state.episode.kind, at, state, after)


# --- recovery and time -----------------------------------------------------------------------


def recovery_blocked(state: MadnessState, day: int) -> bool:
    """A madness gain during ``day`` blocks that night's recovery."""
    return state.last_gain_day == day


def recovery_dice(state: MadnessState, day: int) -> str | None:
    """The dice the end of ``day`` needs: 1d6 under care (calming drugs and proper care);
    none for the plain 1 point, or when a gain that day blocks recovery."""
    return "1d6" if state.under_care and not recovery_blocked(state, day) else None


class Recovery(msgspec.Struct, frozen=True, gc=False):
    """The end-of-day recovery of one character for game day ``day`` (:func:`end_of_day`).

    ``blocked``: a gain that day prevented it; ``roll`` is the 1d6 under care (None for the plain
    1 point or when blocked); ``amount`` is the madness lost.
    """

    day: int
    blocked: bool
    roll: Roll | None
    amount: int
    before: MadnessState
    after: MadnessState


def end_of_day(state: MadnessState, day: int, roll: Roll | None = None) -> Recovery:
    """Daily recovery at the end of ``day``; a gain that day blocks it."""
    expression = recovery_dice(state, day)
    blocked = recovery_blocked(state, day)
    if blocked:
        roll = None
    elif (expression is None) != (roll is None):
        raise MadnessError(
            f"recovery needs a roll of {expression}" if expression else "recovery takes no roll"
        )
    points = 0 if blocked else (roll.total if roll is not None else 1)
    amount = min(points, state.madness)
    after = replace(state, madness=state.madness - amount)
    return Recovery(day, blocked, roll, amount, state, after)


def day_of(seconds: int) -> int:
    """The game day (0 is the first) that a clock reading falls in."""
    return seconds // DAY


class Happening(msgspec.Struct, frozen=True, gc=False):
    """Something the clock makes happen while time passes, in order."""

    at: int
    what: Literal["episode_end", "day_end"]
    who: str | None = None  # the character, for an episode's end
    day: int | None = None  # the day that ends, for a day's end


def time_passes(characters: Mapping[str, MadnessState], now: int, seconds: int) -> list[Happening]:
    """What happens between ``now`` and ``now + seconds``, in order.

    Episodes end when the clock reaches their end; a day ends when the clock reaches midnight.
    At the same instant episodes end first, so the halving happens before that night's recovery.
    """
    if seconds < 0:
        raise MadnessError("time only runs forward")
    until = now + seconds
    happenings = [
        Happening(state.episode.ends_at, "episode_end", who=who)
        for who, state in characters.items()
        if state.episode is not None and state.episode.ends_at <= until
    ]
    happenings.extend(
        Happening(day * DAY, "day_end", day=day - 1)
        for day in range(day_of(now) + 1, day_of(until) + 1)
    )
    happenings.sort(key=lambda h: (h.at, h.what != "episode_end", h.who or ""))
    return happenings


def band(state: MadnessState) -> str:
    """The player-view band key for how close madness is to POW."""
    percent = 100 * state.madness / state.pow
    bands = load_madness_data().bands
    for b in bands:
        if b.below is not None and percent < b.below:
            return b.key
    return bands[-1].key
