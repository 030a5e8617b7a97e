"""A MERP roll left half way: journaled with its dice, counted unless the GM says otherwise,
kept across a reopen and resumed with the dice already rolled; items renamed (issue #16)."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gmscreen.campaign import InvalidAction, open_campaign
from gmscreen.campaign import events as ev
from gmscreen.campaign.actions import RollNotAllowed
from gmscreen.campaign.fields import encode_item
from gmscreen.campaign.item_names import item_name
from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.model import Campaign, Character, Item, MerpProfile, Settings
from gmscreen.campaign.store import load, write_checkpoint
from gmscreen.campaign.telling import action_words
from gmscreen.rules.madness import MadnessState
from gmscreen.rules.tables import Resolution, load_tables

FIXED = datetime(2024, 5, 1, 20, 0, tzinfo=UTC)
TABLES = load_tables()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    # a non spell user: Table 1 at 1 point a roll, at most 2 rolls
    merp = MerpProfile("non_spell_user", "Dúnadan", points_total=5)
    hador = Character("hador", "Hador", MadnessState(pow=10), merp=merp)
    settings = Settings(modules=("merp-items",))
    write_checkpoint(tmp_path, Campaign(name="T", settings=settings, characters=(hador,)))
    return tmp_path


def half_way(table: str = "merp-1") -> Resolution:
    """A roll whose d100 is typed and which still waits for more (a row with sub-tables)."""
    for row in TABLES[table].rows:
        resolution = Resolution(TABLES, table)
        resolution.supply_typed(row.lo)
        if not resolution.done:
            return resolution
    raise AssertionError("no row of the table asks for more after its d100")


def profile(live: LiveCampaign) -> MerpProfile:
    merp = live.state.character("hador").merp
    assert merp is not None
    return merp


def test_an_abandoned_roll_counts_survives_a_reopen_and_resumes_with_its_dice(
    folder: Path,
) -> None:
    left = half_way()
    d100 = left.inputs[0]
    with open_campaign(folder, rng=random.Random(1), clock=lambda: FIXED) as live:
        event = live.item_abandoned("hador", "merp-1", "half", left.to_dict())
        assert isinstance(event.data, ev.ItemAbandoned)
        assert event.data.counted and event.data.cost == 1
        assert event.data.item["tree"]["inputs"][0]["roll"]["total"] == d100.total  # type: ignore[union-attr]
        assert profile(live).rolls == {"merp-1": 1} and profile(live).points_spent == 1
        # it counts against the limit: one roll more, then the third is refused
        live.item_rolled("hador", "merp-1", "second", {"done": True})
        with pytest.raises(RollNotAllowed):
            live.item_rolled("hador", "merp-1", "third", {"done": True})
    reopened = load(folder).state.character("hador")
    assert [i.id for i in reopened.abandoned] == ["merp-1-1"]
    with open_campaign(folder, rng=random.Random(1), clock=lambda: FIXED) as live:
        waiting = live.state.character("hador").abandoned[0]
        resumed = Resolution.from_dict(TABLES, waiting.tree)
        assert resumed.inputs[0] == d100 and not resumed.done  # no free reroll of the d100
        resumed.auto(random.Random(3), choose=lambda pending: 0)
        done = live.item_resumed("hador", waiting.id, "resumed", resumed.to_dict())
        assert isinstance(done.data, ev.ItemRolled)
        assert done.data.resumes == "merp-1-1" and done.data.cost == 0 and not done.data.changes
        assert profile(live).rolls == {"merp-1": 2} and profile(live).points_spent == 2
        assert live.state.character("hador").abandoned == ()
        live.item_kept("hador", "merp-1-1")
        with pytest.raises(InvalidAction, match="no roll"):
            live.item_resumed("hador", "merp-1-1", "again", resumed.to_dict())


def test_the_gm_may_not_count_it_and_the_resume_then_pays(folder: Path) -> None:
    left = half_way()
    with open_campaign(folder, rng=random.Random(1), clock=lambda: FIXED) as live:
        event = live.item_abandoned("hador", "merp-1", "half", left.to_dict(), counted=False)
        assert isinstance(event.data, ev.ItemAbandoned)
        assert not event.data.counted and event.data.cost == 0 and not event.data.changes
        assert profile(live).rolls == {} and profile(live).points_spent == 0
        assert "does not count" in action_words([event], None, names={"hador": "Hador"})
        waiting = live.state.character("hador").abandoned[0]
        resumed = Resolution.from_dict(TABLES, waiting.tree)
        resumed.auto(random.Random(3), choose=lambda pending: 0)
        done = live.item_resumed("hador", waiting.id, "resumed", resumed.to_dict())
        assert isinstance(done.data, ev.ItemRolled) and done.data.cost == 1
        assert profile(live).rolls == {"merp-1": 1}


def test_left_again_it_is_not_paid_twice(folder: Path) -> None:
    left = half_way()
    with open_campaign(folder, rng=random.Random(1), clock=lambda: FIXED) as live:
        live.item_abandoned("hador", "merp-1", "half", left.to_dict())
        waiting = live.state.character("hador").abandoned[0]
        again = live.item_abandoned("hador", "merp-1", "half", left.to_dict(), resumes=waiting.id)
        assert isinstance(again.data, ev.ItemAbandoned) and again.data.cost == 0
        assert [i.id for i in live.state.character("hador").abandoned] == [waiting.id]
        assert profile(live).rolls == {"merp-1": 1} and profile(live).points_spent == 1


def test_nothing_rolled_or_finished_is_not_abandoned(folder: Path) -> None:
    with open_campaign(folder, rng=random.Random(1), clock=lambda: FIXED) as live:
        fresh = Resolution(TABLES, "merp-1")
        with pytest.raises(InvalidAction, match="nothing is rolled"):
            live.item_abandoned("hador", "merp-1", "x", fresh.to_dict())
        fresh.auto(random.Random(2), choose=lambda pending: 0)
        with pytest.raises(InvalidAction, match="finished"):
            live.item_abandoned("hador", "merp-1", "x", fresh.to_dict())
        assert live.events == [] or all(
            not isinstance(e.event.data, ev.ItemAbandoned) for e in live.events
        )


def test_a_renamed_item_reads_by_its_name_everywhere_and_after_a_reopen(folder: Path) -> None:
    roll = Resolution(TABLES, "merp-1")
    roll.auto(random.Random(5), choose=lambda pending: 0)
    with open_campaign(folder, rng=random.Random(1), clock=lambda: FIXED) as live:
        live.item_rolled("hador", "merp-1", "rolled", roll.to_dict())
        live.item_kept("hador", "merp-1-1")
        rolled_name = item_name(live.state.character("hador").inventory[0], "en")
        event = live.item_renamed("hador", "merp-1-1", "  Narsil's [b]shard[/b] ")
        assert event is not None and isinstance(event.data, ev.ItemRenamed)
        assert live.item_renamed("hador", "merp-1-1", "Narsil's [b]shard[/b]") is None
        line = action_words([event], None, names={"hador": "Hador"})
        assert rolled_name in line and "Narsil's [b]shard[/b]" in line
        with pytest.raises(InvalidAction, match="one line"):
            live.item_renamed("hador", "merp-1-1", "two\nlines")
    item = load(folder).state.character("hador").inventory[0]
    assert item.name == "Narsil's [b]shard[/b]"
    for lang in ("en", "es"):
        assert item_name(item, lang) == "Narsil's [b]shard[/b]"
    with open_campaign(folder, rng=random.Random(1), clock=lambda: FIXED) as live:
        live.item_renamed("hador", "merp-1-1", "")  # back to the name its dice give
        back = live.state.character("hador").inventory[0]
        assert item_name(back, "en") == rolled_name


def test_items_without_a_name_encode_as_before() -> None:
    item = Item("merp-1-1", "merp-1", "Sword", {"tree": {}})
    assert "name" not in encode_item(item)


def test_a_full_name_longer_than_a_name_field_is_kept_and_reads_back(folder: Path) -> None:
    # full names carry every sub-roll's result and are never cut: 66 of the 744 names of
    # test_item_names pass 200 characters (up to 347); keeping one refused "item.title: too long"
    title = "Magic sword (+15); " * 18
    with open_campaign(folder, rng=random.Random(1), clock=lambda: FIXED) as live:
        live.item_rolled("hador", "merp-1", title, {"done": True})
        live.item_kept("hador", "merp-1-1")  # read back from the journaled roll
    assert load(folder).state.character("hador").inventory[0].title == title
