"""The MERP item methods of :class:`~gmscreen.campaign.live.LiveCampaign`: rolls, items kept
or discarded, noted, removed, rolls left half way and resumed, items renamed.

A mixin: LiveCampaign inherits these as its own public methods; each builds its drafts with
:mod:`actions` or :mod:`item_actions` and commits them through LiveCampaign's one way in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gmscreen.campaign import actions, item_actions
from gmscreen.campaign import events as ev
from gmscreen.campaign.errors import InvalidAction
from gmscreen.campaign.fields import decode_item
from gmscreen.campaign.live_undo import Entry
from gmscreen.campaign.model import Campaign, Item, ItemNames
from gmscreen.campaign.undo import ActionGroup


class LiveItems:
    """LiveCampaign's MERP item methods (see :mod:`gmscreen.campaign.live`)."""

    state: Campaign

    if TYPE_CHECKING:  # LiveCampaign's, which these methods use

        @property
        def events(self) -> list[Entry]: ...

        def _one(self, draft: actions.Draft, group: ActionGroup | None = None) -> ev.Event: ...

    def item_rolled(
        self,
        character_id: str,
        table: str,
        title: str,
        tree: Mapping[str, Any],
        override: str | None = None,
        *,
        names: ItemNames | None = None,
    ) -> ev.Event:
        """A roll on a MERP table, paid at the price of the character's category; keep or
        discard the item after. A roll past the table's limit or the points left is refused
        (:class:`~gmscreen.campaign.actions.RollNotAllowed`) unless ``override`` names the rule
        refusing it (``merp.RollRefused.key``): the GM's call, journaled on the event; an
        override pays at most the points left. See :func:`actions.roll_cost`. ``title`` is the
        item's English name, ``names`` what the roll named it in every language (stored with it).
        """
        draft = actions.item_rolled(
            self.state, character_id, table, title, tree, override, names=names
        )
        return self._one(draft)

    def pending_items(self, character_id: str) -> list[Item]:
        """Items rolled this session and neither kept nor discarded yet."""
        pending: dict[str, Item] = {}
        for entry in self.events:
            e = entry.event
            if entry.void or e.character != character_id:
                continue
            if isinstance(e.data, ev.ItemRolled):
                item = decode_item(e.data.item)
                pending[item.id] = item
            elif isinstance(e.data, ev.ItemKept | ev.ItemDiscarded):
                pending.pop(str(e.data.item.get("id")), None)
        return list(pending.values())

    def _item(self, character_id: str, item: Item | str) -> Item:
        if isinstance(item, Item):
            return item
        for candidate in self.pending_items(character_id):
            if candidate.id == item:
                return candidate
        raise InvalidAction(f"no rolled item {item!r} is waiting to be kept or discarded")

    def item_kept(self, character_id: str, item: Item | str) -> ev.Event:
        chosen = self._item(character_id, item)
        return self._one(actions.item_kept(self.state, character_id, chosen))

    def item_discarded(self, character_id: str, item: Item | str) -> ev.Event:
        chosen = self._item(character_id, item)
        return self._one(actions.item_discarded(self.state, character_id, chosen))

    def item_note(self, character_id: str, item_id: str, text: str) -> ev.Event | None:
        draft = actions.item_note(self.state, character_id, item_id, text)
        return self._one(draft) if draft else None

    def item_removed(self, character_id: str, item_id: str) -> ev.Event:
        return self._one(actions.item_removed(self.state, character_id, item_id))

    # rolls left half way, resumed; items renamed: see campaign/item_actions.py
    def item_abandoned(self, cid: str, table: str, title: str, tree: Any, **how: Any) -> ev.Event:
        return self._one(item_actions.item_abandoned(self.state, cid, table, title, tree, **how))

    def item_resumed(self, cid: str, left: str, title: str, tree: Any, **how: Any) -> ev.Event:
        return self._one(item_actions.item_resumed(self.state, cid, left, title, tree, **how))

    def item_renamed(self, cid: str, item_id: str, name: str) -> ev.Event | None:
        draft = item_actions.item_renamed(self.state, cid, item_id, name)
        return self._one(draft) if draft else None
