"""The madness check methods of :class:`~gmscreen.campaign.live.LiveCampaign`, and
:class:`BoundCheck`, one character's check driven step by step through them.

A mixin, as :mod:`live_items` and :mod:`live_undo` are: LiveCampaign inherits these as its own
public methods, and a BoundCheck holds the live campaign as this mixin (so this module never
imports :mod:`live`, which imports it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from gmscreen.campaign import actions
from gmscreen.campaign import events as ev
from gmscreen.campaign.model import Campaign, Character
from gmscreen.campaign.undo import ActionGroup
from gmscreen.rules import madness
from gmscreen.rules.dice import Roll
from gmscreen.rules.madness import MadnessState, Odds


class LiveChecks:
    """LiveCampaign's madness check methods (see :mod:`gmscreen.campaign.live`)."""

    state: Campaign

    if TYPE_CHECKING:  # LiveCampaign's, which these methods use

        def character(self, character_id: str) -> Character: ...

        def roll(self, expression: str) -> Roll: ...

        def _one(self, draft: actions.Draft, group: ActionGroup | None = None) -> ev.Event: ...

    def check_due(self, character_id: str) -> bool:
        return actions.check_due(self.character(character_id))

    def start_check(self, character_id: str) -> BoundCheck:
        self.character(character_id)
        return BoundCheck(self, character_id)

    def check_roll(
        self, character_id: str, d100: Roll, group: ActionGroup | None = None
    ) -> ev.Event:
        return self._one(actions.check_roll(self.state, character_id, d100), group)

    def check_kind(self, character_id: str, d6: Roll, group: ActionGroup | None = None) -> ev.Event:
        return self._one(actions.check_kind(self.state, character_id, d6), group)


class BoundCheck:
    """A madness check of one character, driven step by step (always reads the live state)."""

    def __init__(self, live: LiveChecks, character_id: str) -> None:
        self.live = live
        self.character_id = character_id
        self.group = ActionGroup()  # every d100 of the check and its kind: one action, one undo

    @property
    def state(self) -> MadnessState:
        return self.live.character(self.character_id).sanity

    @property
    def phase(self) -> Literal["roll", "kind", "done"]:
        c = self.live.character(self.character_id)
        if c.awaiting_kind is not None:
            return "kind"
        return "roll" if actions.check_due(c) else "done"

    def target(self) -> tuple[str, int]:
        return madness.check_target(self.state)

    def fumble_chance(self) -> int:
        return madness.fumble_chance(self.state, self.live.state.settings.fumble_base)

    def fumble_from(self) -> int:
        return madness.fumble_from(self.state, self.live.state.settings.fumble_base)

    def odds(self) -> Odds:
        return madness.check_odds(self.state, self.live.state.settings.fumble_base)

    def roll(self, d100: Roll | None = None) -> ev.Event:
        """One d100 (rolled by the live campaign unless the GM typed it)."""
        return self.live.check_roll(self.character_id, d100 or self.live.roll("d100"), self.group)

    def choose_kind(self, d6: Roll | None = None) -> ev.Event:
        return self.live.check_kind(self.character_id, d6 or self.live.roll("1d6"), self.group)
