"""The bestiary methods of :class:`~gmscreen.campaign.live.LiveCampaign`: the campaign's own
horrors added (or saved from the gain just made), edited and removed, each one action.

A mixin: LiveCampaign inherits these as its own public methods; each builds its draft with
:mod:`horror_actions` and commits it through LiveCampaign's one way in. A gain *from* a horror
is :meth:`LiveCampaign.gain` with ``horror=``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gmscreen.campaign import actions, horror_actions
from gmscreen.campaign import events as ev
from gmscreen.campaign.horrors import horror_dice
from gmscreen.campaign.model import Campaign, Horror

if TYPE_CHECKING:
    from gmscreen.campaign.undo import ActionGroup


class LiveHorrors:
    """LiveCampaign's bestiary methods (see :mod:`gmscreen.campaign.live`)."""

    state: Campaign
    _log: list[ev.Event]
    _void: set[int]

    if TYPE_CHECKING:  # LiveCampaign's, which these methods use

        def _one(self, draft: actions.Draft, group: ActionGroup | None = None) -> ev.Event: ...

    @property
    def horrors(self) -> tuple[Horror, ...]:
        """The campaign's own horrors, in the order the GM keeps them."""
        return self.state.horrors

    def horror(self, horror_id: str) -> Horror | None:
        return self.state.horror(horror_id)

    def horror_dice(self, horror_id: str) -> str | None:
        """The dice a gain from this horror needs rolled or typed (None: it asks nothing)."""
        horror = self.state.horror(horror_id)
        return None if horror is None else horror_dice(horror)

    def add_horror(
        self,
        name: str,
        *,
        preset: str | None = None,
        inputs: Mapping[str, int | str] | None = None,
        amount: int | None = None,
        dice: str | None = None,
        players: str = "",
    ) -> ev.Event:
        """A new horror in the bestiary (``preset`` and its ``inputs``, or ``amount``, or
        ``dice``); ``players``: what the players are told it is. Its id is made from the name."""
        return self._one(
            horror_actions.add(
                self.state,
                name,
                preset=preset,
                inputs=inputs,
                amount=amount,
                dice=dice,
                players=players,
            )
        )

    def save_gain_as_horror(self, name: str, players: str = "", seq: int | None = None) -> ev.Event:
        """ "Save as": the last gain of tonight still in effect (or gain event ``seq``) as a new
        horror named ``name``, with that gain's rule and inputs."""
        draft = horror_actions.from_gain(self.state, self._log, self._void, name, players, seq)
        return self._one(draft)

    def edit_horror(self, horror_id: str, **values: Any) -> ev.Event | None:
        """Change a horror: ``name``, ``players``, or its rule (``preset`` with ``inputs``,
        ``amount`` or ``dice``: the whole rule); None if nothing changed."""
        draft = horror_actions.edit(self.state, horror_id, values)
        return self._one(draft) if draft else None

    def remove_horror(self, horror_id: str) -> ev.Event:
        return self._one(horror_actions.remove(self.state, horror_id))
