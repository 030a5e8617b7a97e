"""Small helpers composing the campaign table's public API into what the dialogs show.

The table returns journal events; the dialogs want a few numbers (madness before and after,
the outcome). These adapters read them off the events, so the dialogs stay free of event types.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from gmscreen.campaign import events as ev
from gmscreen.campaign.errors import InvalidAction
from gmscreen.campaign.live import BoundCheck, LiveCampaign
from gmscreen.campaign.model import Campaign
from gmscreen.rules.dice import Roll
from gmscreen.rules.madness import MadnessState, Odds, madness_after_episode
from gmscreen.rules.madness_check import Phase

if TYPE_CHECKING:  # the records the dialogs show; their modules load with the dialogs
    from gmscreen.tui.screens.check import EpisodeShown, StepShown
    from gmscreen.tui.screens.gain import GainDone


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
) -> GainDone:
    from gmscreen.tui.screens.gain import GainDone

    event = live.gain(character_id, preset, inputs, roll, adjustment)
    data = event.data
    if not isinstance(data, ev.Gain):  # pragma: no cover - the live campaign's contract
        raise InvalidAction("the gain was not recorded as a gain")
    now = live.character(character_id).sanity.madness
    before, after = _madness(data.changes, now)
    return GainDone(data.amount, before, after, data.roll)


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
        from gmscreen.tui.screens.check import StepShown

        event = self.check.roll(d100)
        data = event.data
        if not isinstance(data, ev.CheckRoll):  # pragma: no cover - the live campaign's contract
            raise InvalidAction("the roll was not recorded as a check roll")
        before, after = _madness(data.changes, self.state.madness)
        return StepShown(data.roll, data.outcome, before, after)

    def choose_kind(self, d6: Roll) -> EpisodeShown:
        from gmscreen.tui.screens.check import EpisodeShown

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
        if isinstance(data, ev.CharacterAdded) and data.character.get("id") == character_id:
            history.append(int(data.character.get("madness", 0)))
            continue
        changes = getattr(data, "changes", None)
        if event.character == character_id and isinstance(changes, dict) and "madness" in changes:
            history.append(int(changes["madness"][1]))
    return history
