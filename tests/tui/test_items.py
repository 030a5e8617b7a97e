"""The item tables by keys: typed rolls and sub-rolls, keep, the budget's refusals (issue #6)."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from gmscreen.campaign.model import Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.dialogs import ConfirmScreen
from gmscreen.tui.screens.item_tables import ItemTableScreen

from .conftest import SIZE, build, fixed_clock

IORETH = {"category": "pure_spell_user", "race": "Noldo", "points_total": 3}


def merp_campaign(root: Path, **merp: Any) -> Path:
    folder = create_campaign(root, "Wardens", Settings(modules=("merp-items",)))
    with open_campaign(folder, rng=random.Random(1), clock=fixed_clock) as live:
        live.add_character("Ioreth", 10, merp={**IORETH, **merp})
    return folder


@pytest.fixture
def wardens(tmp_path: Path) -> Path:
    return merp_campaign(tmp_path)


def journal(app: GMScreenApp) -> list[dict[str, Any]]:
    path = app.live.session_path
    assert path is not None
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def text_of(app: GMScreenApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).content)


def item_screen(app: GMScreenApp) -> ItemTableScreen:
    assert isinstance(app.screen, ItemTableScreen)
    return app.screen


async def settle(app: GMScreenApp, pilot: Pilot[None]) -> None:
    # The item screen runs inside a worker of the main screen (it awaits the screen), so
    # waiting for every worker would wait for the screen to close: let the queue drain instead.
    await pilot.pause()
    await pilot.pause()


async def type_die(app: GMScreenApp, pilot: Pilot[None], value: str, purpose: str) -> None:
    """The prompt names the die awaited; then the GM types the face and presses enter."""
    assert purpose in text_of(app, "#prompt")
    await pilot.press(*value, "enter")
    await settle(app, pilot)


def test_two_rolls_kept_then_the_limit_and_the_cost_refuse(wardens: Path) -> None:
    asyncio.run(_two_rolls_then_refusals(wardens))


async def _two_rolls_then_refusals(wardens: Path) -> None:
    app = build(wardens)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t")
        await settle(app, pilot)
        screen = item_screen(app)
        assert screen.current == "merp-2"  # the cheaper table for a pure spell user
        assert "3 of 3 background points left" in text_of(app, "#budget")

        # Table 2, the player's 97, then every sub-roll typed as it is asked for
        await type_die(app, pilot, "97", "type the player's d100")
        await type_die(app, pilot, "3", "Table 2d: realm of the item (1d10)")
        await type_die(app, pilot, "2", "Table 2e: size of the item (not its kind) (1d10)")
        await type_die(app, pilot, "4", "Table 2a: extra qualities of special items (#) (1d10+1)")
        await type_die(app, pilot, "2", "2a: resistance roll bonus (1d10)")
        await type_die(app, pilot, "1", "2a: realm the bonus protects against (1d10)")
        roll = screen.roll
        assert roll is not None and roll.done and roll.rolled is not None
        tree = text_of(app, "#tree")
        assert "Table 2  1d100: 97 (typed)  [97]  # (+1)" in tree
        assert "Table 2a  1d10+1: 4+1 = 5 (typed)  [5-7]" in tree
        assert "+5 to resistance rolls." in tree and "Essence." in tree
        await pilot.press("enter")  # keep
        await settle(app, pilot)

        # Table 2 again: 41, a daily item, whose 2e asks the GM which column to read
        await type_die(app, pilot, "41", "type the player's d100")
        await type_die(app, pilot, "7", "Table 2d")
        await type_die(app, pilot, "4", "Table 2e")
        assert "Choose with 1–2" in text_of(app, "#prompt")
        assert "1) Daily, adder or multiplier column" in text_of(app, "#tree")
        await pilot.press("2")
        await settle(app, pilot)
        assert "→ Daily or magic item column (picked by the GM)" in text_of(app, "#tree")
        await pilot.press("enter")
        await settle(app, pilot)
        assert "1 of 3 background points left (2 spent)" in text_of(app, "#budget")

        # a third roll on Table 2: the roll limit refuses; the GM does not override
        await pilot.press("r")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmScreen)
        limit = "a pure spell user may make at most 2 rolls on Table 2, and has already made 2"
        assert limit in str(app.screen.query_one("#question", Static).content)
        await pilot.press("n")
        await settle(app, pilot)
        assert limit in text_of(app, "#error")

        # Table 1 costs a pure spell user 2 points a roll: refused with 1 left
        await pilot.press(*["left_square_bracket"] * 7)
        assert screen.current == "merp-1"
        await pilot.press("r")
        await settle(app, pilot)
        cost = "a roll on Table 1 costs 2 background points, but only 1 are left"
        assert isinstance(app.screen, ConfirmScreen)
        assert cost in str(app.screen.query_one("#question", Static).content)
        await pilot.press("escape")
        await settle(app, pilot)
        assert cost in text_of(app, "#error")
        assert screen.roll is None

    ioreth = app.live.character("ioreth")
    assert ioreth.merp is not None
    assert (ioreth.merp.points_spent, ioreth.merp.points_left) == (2, 1)
    assert dict(ioreth.merp.rolls) == {"merp-2": 2}
    assert [i.id for i in ioreth.inventory] == ["merp-2-1", "merp-2-2"]
    first, second = ioreth.inventory
    assert first.title.startswith("Adder: +5 spells a day")
    assert second.title.startswith("Daily item")
    kids = [c["table"] for c in first.tree["tree"]["subrolls"]]
    assert kids == ["merp-2d", "merp-2e", "merp-2a"]
    quality = first.tree["tree"]["subrolls"][2]
    assert (quality["roll"], quality["modifier"], quality["total"]) == (4, 1, 5)
    assert [c["table"] for c in quality["subrolls"]] == ["merp-2a-rr", "merp-2a-realm"]

    lines = journal(app)
    assert [x["kind"] for x in lines] == ["item_rolled", "item_kept", "item_rolled", "item_kept"]
    rolled = [x["data"] for x in lines if x["kind"] == "item_rolled"]
    assert [r["cost"] for r in rolled] == [1, 1]
    assert [r.get("override") for r in rolled] == [None, None]
    # every die is in the journal with its source: all typed here, and the choice
    inputs = rolled[0]["item"]["tree"]["inputs"]
    assert [(i["roll"]["total"], i["roll"]["source"]) for i in inputs] == [
        (97, "typed"),
        (3, "typed"),
        (2, "typed"),
        (5, "typed"),
        (2, "typed"),
        (1, "typed"),
    ]
    assert rolled[1]["item"]["tree"]["inputs"][-1] == {"choice": 1}
