"""The MERP purchase rules below the screen: the campaign prices each roll by the character's
category and the table, and enforces the roll limit and the points left; a GM override is an
explicit argument, journaled on the event and shown in the recap."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gmscreen.campaign import InvalidAction, open_campaign
from gmscreen.campaign import events as ev
from gmscreen.campaign.actions import RollNotAllowed
from gmscreen.campaign.model import Campaign, Character, MerpProfile, Settings
from gmscreen.campaign.store import load, write_checkpoint
from gmscreen.campaign.telling import action_words
from gmscreen.rules.madness import MadnessState

FIXED = datetime(2024, 5, 1, 20, 0, tzinfo=UTC)


def _party(folder: Path, points: int) -> Path:
    def pc(cid: str, category: str) -> Character:
        merp = MerpProfile(category, "Dúnadan", points_total=points)
        return Character(cid, cid.title(), MadnessState(pow=10), merp=merp)

    characters = (pc("halbarad", "non_spell_user"), pc("ioreth", "pure_spell_user"))
    campaign = Campaign(name="T", settings=Settings(modules=("merp-items",)), characters=characters)
    write_checkpoint(folder, campaign)
    return folder


def test_the_third_table_1_roll_of_a_non_spell_user_is_refused_unless_the_gm_overrides(
    tmp_path: Path,
) -> None:
    folder = _party(tmp_path, points=5)
    with open_campaign(folder, rng=random.Random(1), clock=lambda: FIXED) as live:
        for _ in range(2):
            event = live.item_rolled("halbarad", "merp-1", "A sword", {})
            assert isinstance(event.data, ev.ItemRolled)
            assert (event.data.cost, event.data.override) == (1, None)  # the category's price
        journaled = len(live.events)
        with pytest.raises(RollNotAllowed, match="at most 2 rolls") as refused:
            live.item_rolled("halbarad", "merp-1", "A third sword", {})
        assert refused.value.refused.key == "roll_limit"
        assert "como mucho 2" in refused.value.refused.message("es")
        assert len(live.events) == journaled  # nothing written
        with pytest.raises(InvalidAction, match="rule refusing the roll is 'roll_limit'"):
            live.item_rolled("halbarad", "merp-1", "A third sword", {}, "no_points")
        forced = live.item_rolled("halbarad", "merp-1", "A third sword", {}, "roll_limit")
        assert isinstance(forced.data, ev.ItemRolled)
        assert (forced.data.cost, forced.data.override) == (1, "roll_limit")
        assert "overrode the roll limit rule" in action_words([forced], live.state)
    merp = load(folder).state.character("halbarad").merp
    assert merp is not None and (merp.rolls, merp.points_spent) == ({"merp-1": 3}, 3)


def test_the_cost_comes_from_the_category_and_the_table(tmp_path: Path) -> None:
    folder = _party(tmp_path, points=4)
    with open_campaign(folder, rng=random.Random(1), clock=lambda: FIXED) as live:
        costs = [
            live.item_rolled("ioreth", "merp-1", "A dagger", {}).data,  # 2: a spell user's Table 1
            live.item_rolled("ioreth", "merp-2", "A wand", {}).data,  # 1 on Table 2
            live.item_rolled("halbarad", "merp-2", "A ring", {}).data,  # 2: a non spell user's
        ]
        assert [c.cost for c in costs if isinstance(c, ev.ItemRolled)] == [2, 1, 2]
        with pytest.raises(RollNotAllowed, match="at most 1 roll"):
            live.item_rolled("ioreth", "merp-1", "Another", {})
        with pytest.raises(InvalidAction, match="nothing to override"):
            live.item_rolled("ioreth", "merp-2", "A staff", {}, "roll_limit")


def test_an_override_of_the_points_left_pays_what_is_left(tmp_path: Path) -> None:
    folder = _party(tmp_path, points=1)
    with open_campaign(folder, rng=random.Random(1), clock=lambda: FIXED) as live:
        with pytest.raises(RollNotAllowed, match="costs 2 background point"):
            live.item_rolled("ioreth", "merp-1", "A dagger", {})
        forced = live.item_rolled("ioreth", "merp-1", "A dagger", {}, "no_points")
        assert isinstance(forced.data, ev.ItemRolled)
        assert (forced.data.cost, forced.data.override) == (1, "no_points")
        profile = live.character("ioreth").merp
        assert profile is not None and profile.points_left == 0
