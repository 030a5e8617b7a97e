"""One purchase on a MERP special-item table, as the item screen drives it.

The rules' :class:`Resolution` walks the roll step by step; this object adds what the campaign
needs around it: the budget check before the first die (and the GM's override of a refusal),
the journal entry once the item is fully resolved (``item_rolled``, with the whole tree and every
answer given, each die marked rolled, typed or picked), then ``item_kept`` or ``item_discarded``.
Leaving half way (after the first die) is journaled too, ``item_abandoned`` with the dice so far:
it counts as a roll unless the GM says otherwise, and the roll can be resumed later with those
dice (:meth:`ItemRoll.resumed`; see :mod:`gmscreen.campaign.item_actions`).
"""

from __future__ import annotations

import random
from typing import cast

import msgspec

from gmscreen.campaign import actions
from gmscreen.campaign import events as ev
from gmscreen.campaign.errors import InvalidAction
from gmscreen.campaign.item_actions import was_counted
from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.model import Character, Item, ItemNames, MerpProfile
from gmscreen.rules import dice, merp
from gmscreen.rules.merp import Budget, Category, RollRefused
from gmscreen.rules.tables import PendingDie, Resolution
from gmscreen.rules.tables_model import Lang, TableSet
from gmscreen.rules.tables_names import full_name, rolled_names


def budget_of(profile: MerpProfile) -> Budget:
    category = cast(Category, profile.category)
    rolls = {k: v for k, v in profile.rolls.items() if k in merp.TOP_TABLES}
    return merp.budget(category, profile.points_total, rolls)


def refusal(profile: MerpProfile, table_id: str) -> RollRefused | None:
    """Why one more roll on ``table_id`` is not allowed, or None if it is (the campaign's rule)."""
    return actions.roll_refusal(profile, table_id)


class Rolled(msgspec.Struct, frozen=True):
    """The journaled item, waiting to be kept or discarded."""

    item_id: str
    cost: int
    override: str | None


class ItemRoll:
    """A roll on a top table (1 or 2) for one character, from the first die to keep/discard."""

    def __init__(
        self,
        live: LiveCampaign,
        tables: TableSet,
        character_id: str,
        table_id: str,
        lang: Lang,
        override: str | None = None,
    ) -> None:
        self.live = live
        self.tables = tables
        self.character_id = character_id
        self.table_id = table_id
        self.lang = lang
        self.override = override
        self.resolution = Resolution(tables, table_id)
        self.rolled: Rolled | None = None
        self.settled: str | None = None  # "kept" or "discarded"
        self.resumes: str | None = None  # the id of the roll left half way this one goes on with
        self.paid = False  # that roll was paid when it was left: nothing more to pay or check

    @classmethod
    def resumed(
        cls, live: LiveCampaign, tables: TableSet, character_id: str, item: Item, lang: Lang
    ) -> ItemRoll:
        """The roll ``item`` left half way, with the dice it had (none of them rolled again)."""
        roll = cls(live, tables, character_id, item.table, lang)
        roll.resolution = Resolution.from_dict(tables, item.tree)
        roll.resumes = item.id
        roll.paid = was_counted(item)
        return roll

    @classmethod
    def pending(
        cls, live: LiveCampaign, tables: TableSet, character_id: str, lang: Lang
    ) -> ItemRoll | None:
        """A roll journaled this session but neither kept nor discarded (the app was left)."""
        items = live.pending_items(character_id)
        if not items:
            return None
        item = items[0]
        roll = cls(live, tables, character_id, item.table, lang)
        roll.resolution = Resolution.from_dict(tables, item.tree)
        cost, override = 0, None
        for entry in live.events:
            data = entry.event.data
            if isinstance(data, ev.ItemRolled) and data.item.get("id") == item.id:
                cost, override = data.cost, data.override
        roll.rolled = Rolled(item.id, cost, override)
        roll.override = override
        return roll

    @property
    def character(self) -> Character:
        return self.live.character(self.character_id)

    @property
    def done(self) -> bool:
        return self.resolution.done

    def cost(self) -> int:
        profile = self.character.merp
        if profile is None:
            raise InvalidAction(f"{self.character.name} has no MERP profile")
        return actions.roll_cost(profile, self.table_id, self.override)

    # --- answers -------------------------------------------------------------------------------

    def roll(self, rng: random.Random) -> None:
        """Roll the one die awaited (the table's, or one written in an entry)."""
        pending = self.resolution.pending
        if isinstance(pending, PendingDie):
            self.resolution.supply(dice.roll(pending.text, rng))

    def roll_rest(self, rng: random.Random) -> None:
        """Roll every die left, up to the next choice."""
        self.resolution.auto(rng)

    def typed(self, value: str) -> None:
        self.resolution.supply_typed(value)

    def pick_row(self, index: int) -> None:
        self.resolution.pick_row(index)

    def choose(self, index: int) -> None:
        self.resolution.choose(index)

    # --- the journal ---------------------------------------------------------------------------

    def title(self, lang: Lang | None = None) -> str:
        """The item's name in ``lang`` (the screen's language by default)."""
        return full_name(self.resolution.tree, self.tables, lang or self.lang) or self.table_id

    def names(self) -> ItemNames:
        """What the roll so far names the item, in every language: stored with it."""
        full, short = rolled_names(self.resolution.tree, self.tables)
        return ItemNames(full, short)

    def journal(self) -> Rolled | None:
        """Once resolved, record the roll (pays the points); returns what was recorded."""
        if not self.done or self.rolled is not None:
            return self.rolled
        title, names, tree = self.title("en"), self.names(), self.resolution.to_dict()
        if self.resumes is not None:
            event = self.live.item_resumed(
                self.character_id, self.resumes, title, tree, override=self.override, names=names
            )
        else:
            event = self.live.item_rolled(
                self.character_id, self.table_id, title, tree, self.override, names=names
            )
        assert isinstance(event.data, ev.ItemRolled)
        self.rolled = Rolled(str(event.data.item["id"]), event.data.cost, self.override)
        return self.rolled

    def abandon(self, counted: bool) -> None:
        """Leave the roll half way: journaled with its dice, ``counted`` unless the GM said not."""
        self.live.item_abandoned(
            self.character_id,
            self.table_id,
            self.title("en"),
            self.resolution.to_dict(),
            counted=counted,
            override=self.override if counted and not self.paid else None,
            resumes=self.resumes,
            names=self.names(),
        )

    def keep(self) -> None:
        rolled = self.journal()
        if rolled is None:
            raise InvalidAction("the roll is not finished yet")
        self.live.item_kept(self.character_id, rolled.item_id)
        self.settled = "kept"

    def discard(self) -> None:
        rolled = self.journal()
        if rolled is None:
            raise InvalidAction("the roll is not finished yet")
        self.live.item_discarded(self.character_id, rolled.item_id)
        self.settled = "discarded"
