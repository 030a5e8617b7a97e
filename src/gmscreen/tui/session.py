"""What the madness dialogs show, and the adapters that make it from the live campaign.

The live campaign returns journal events; the dialogs want a few numbers (madness before and
after, the outcome). The records they show are defined here, next to the adapters that read
them off the events, so the dialogs stay free of event types and this module of the dialogs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from gmscreen.campaign import events as ev
from gmscreen.campaign.errors import InvalidAction
from gmscreen.campaign.live import BoundCheck, LiveCampaign
from gmscreen.campaign.model import Campaign
from gmscreen.campaign.reducer import void_actions
from gmscreen.campaign.undo import ActionGroup
from gmscreen.rules.dice import Roll
from gmscreen.rules.madness import MadnessState, Odds, madness_after_episode
from gmscreen.rules.madness_check import Phase


class GainDone(msgspec.Struct, frozen=True):
    """A gain as the gain dialog reports it."""

    amount: int
    before: int  # madness
    after: int
    roll: Roll | None


class StepShown(msgspec.Struct, frozen=True):
    """One d100 of the check, as the check dialog shows it."""

    roll: Roll
    outcome: str  # success, failure or fumble
    before: int  # madness
    after: int


class EpisodeShown(msgspec.Struct, frozen=True):
    """The madness a failed check started, as the check dialog shows it."""

    kind: str
    kind_roll: Roll
    permanent: bool
    amount: int
    unit: str
    madness_after: int  # once the episode is over


class CheckResult(msgspec.Struct, frozen=True):
    """What the check dialog is dismissed with once the check is over."""

    outcome: str  # success, failure or fumble
    steps: tuple[StepShown, ...]
    episode: EpisodeShown | None


def _madness(changes: Mapping[str, list[object]], now: int) -> tuple[int, int]:
    pair = changes.get("madness")
    if not pair:
        return now, now
    before, after = pair
    return int(str(before)), int(str(after))


def apply_gain(
    live: LiveCampaign,
    character_id: str,
    preset: str,
    inputs: Mapping[str, int | str],
    roll: Roll | None,
    adjustment: int,
    group: ActionGroup | None = None,
    happened: str = "",
) -> GainDone:
    """One target's gain; ``group``: the dialog's, so the gains to every target are one action."""
    event = live.gain(character_id, preset, inputs, roll, adjustment, happened, group)
    data = event.data
    if not isinstance(data, ev.Gain):  # pragma: no cover - the live campaign's contract
        raise InvalidAction("the gain was not recorded as a gain")
    now = live.character(character_id).sanity.madness
    before, after = _madness(data.changes, now)
    return GainDone(data.amount, before, after, data.roll)


def apply_gain_all(
    live: LiveCampaign,
    character_ids: Sequence[str],
    preset: str,
    inputs: Mapping[str, int | str],
    happened: str = "",
) -> list[GainDone]:
    """A gain without dice to every target at once: one action (see ``LiveCampaign.gain_all``)."""
    done = []
    for event in live.gain_all(character_ids, preset, inputs, happened):
        data = event.data
        if not isinstance(data, ev.Gain):  # pragma: no cover - the live campaign's contract
            raise InvalidAction("the gain was not recorded as a gain")
        now = live.character(event.character or "").sanity.madness
        before, after = _madness(data.changes, now)
        done.append(GainDone(data.amount, before, after, None))
    return done


class CheckAdapter:
    """A :class:`~gmscreen.campaign.live.BoundCheck` as the check screen drives it."""

    def __init__(self, check: BoundCheck) -> None:
        self.check = check

    @property
    def state(self) -> MadnessState:
        return self.check.state

    @property
    def phase(self) -> Phase:
        return self.check.phase

    def odds(self) -> Odds:
        return self.check.odds()

    def target(self) -> tuple[str, int]:
        return self.check.target()

    def fumble_chance(self) -> int:
        return self.check.fumble_chance()

    def roll(self, d100: Roll) -> StepShown:
        event = self.check.roll(d100)
        data = event.data
        if not isinstance(data, ev.CheckRoll):  # pragma: no cover - the live campaign's contract
            raise InvalidAction("the roll was not recorded as a check roll")
        before, after = _madness(data.changes, self.state.madness)
        return StepShown(data.roll, data.outcome, before, after)

    def choose_kind(self, d6: Roll) -> EpisodeShown:
        event = self.check.choose_kind(d6)
        data = event.data
        if not isinstance(
            data, ev.EpisodeStarted
        ):  # pragma: no cover - the live campaign's contract
            raise InvalidAction("the kind was not recorded as an episode")
        return EpisodeShown(
            data.kind,
            data.kind_roll,
            data.permanent,
            data.amount,
            data.unit,
            madness_after_episode(self.state),
        )


def madness_history(
    start: Campaign, events: Sequence[ev.Event], void: set[int], character_id: str
) -> list[int]:
    """Madness of one character after each event of the session that changed it."""
    history: list[int] = []
    if start.has_character(character_id):
        history.append(start.character(character_id).sanity.madness)
    for event in events:
        if event.action in void:
            continue
        data = event.data
        if isinstance(data, ev.DayEnded):
            for recovery in data.recoveries:
                if recovery.character == character_id and "madness" in recovery.changes:
                    history.append(int(recovery.changes["madness"][1]))
            continue
        if isinstance(data, ev.UndoEarlier):  # an earlier session's action taken back
            for restored in data.characters:
                if restored.character == character_id and "madness" in restored.changes:
                    history.append(int(restored.changes["madness"][1]))
            continue
        if isinstance(data, ev.CharacterAdded) and data.character.get("id") == character_id:
            history.append(int(data.character.get("madness", 0)))
            continue
        changes = getattr(data, "changes", None)
        if event.character == character_id and isinstance(changes, dict) and "madness" in changes:
            history.append(int(changes["madness"][1]))
    return history


RECENT_SESSIONS = 8  # earlier sessions the sparkline reaches back into, at most


class MadnessHistories:
    """One character's madness over the earlier sessions and this one (its last ``points``),
    as the GM's sparkline shows it. The detail pane asks on every cursor move, so the earlier
    sessions (the last few: ``RECENT_SESSIONS``) are folded once per character (they cannot change while the campaign is open),
    and this session's once per change of the journal (every event, an undo too, adds one)."""

    def __init__(self, live: LiveCampaign, points: int) -> None:
        self.live = live
        self.points = points
        self._past: dict[str, list[int]] = {}
        self._session: dict[str, list[int]] = {}
        self._session_at = -1  # the journal's length when _session was folded

    def of(self, character_id: str) -> list[int]:
        return (self._past_madness(character_id) + self._session_madness(character_id))[
            -self.points :
        ]

    def _session_madness(self, character_id: str) -> list[int]:
        entries = self.live.events
        if self._session_at != len(entries):
            self._session.clear()
            self._session_at = len(entries)
        if character_id not in self._session:
            void = {e.event.action for e in entries if e.void}
            self._session[character_id] = madness_history(
                self.live.session_start, [e.event for e in entries], void, character_id
            )
        return self._session[character_id]

    def _past_madness(self, character_id: str) -> list[int]:
        if character_id not in self._past:
            # Newest session first, back until the line is full or RECENT_SESSIONS were read:
            # what the pane draws, never the whole campaign (read once, kept by the history).
            history: list[int] = []
            for log in self.live.history.newest_first(RECENT_SESSIONS):
                if len(history) >= self.points:
                    break
                history[:0] = madness_history(
                    log.header.state, log.events, void_actions(log.events), character_id
                )
            self._past[character_id] = history[-self.points :]
        return self._past[character_id]
