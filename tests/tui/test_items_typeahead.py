"""Keys typed ahead on the item tables: each is queued before any is handled, as from a fast GM
or a terminal's buffer (Pilot's press waits between keys, which hides the races).

``/`` used to move the focus to the search box a message later, so the letters right after it
went to the rows (``r`` rolled); ``enter`` ran as a binding only after the next key had been
handed on, so "97 enter 3 enter" typed at once mixed the digits of two dice.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import DataTable

from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.item_tables import ItemTableScreen

from .conftest import SIZE, build, drain, type_ahead
from .test_items import journal, merp_campaign, settle, text_of

RUNE_ROWS = ["0", "6", "14", "28"]  # Table 2's rows whose text has "rune" in it
TABLE_2_ROWS = 33


async def open_tables(app: GMScreenApp, pilot: Pilot[None]) -> ItemTableScreen:
    await pilot.press("t")
    await settle(app, pilot)
    screen = app.screen
    assert isinstance(screen, ItemTableScreen) and screen.current == "merp-2"
    return screen


def row_keys(screen: ItemTableScreen) -> list[str]:
    rows = screen.query_one("#rows", DataTable)
    return [str(row.key.value) for row in rows.ordered_rows]


def test_letters_right_after_slash_go_into_the_search(tmp_path: Path) -> None:
    asyncio.run(_search_at_once(merp_campaign(tmp_path)))


async def _search_at_once(folder: Path) -> None:
    app = build(folder)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_tables(app, pilot)
        type_ahead(app, "/", *"rune")  # r and the rest must not roll, nor be lost
        await drain(app, pilot)
        assert app.screen is screen and screen.roll is None
        assert screen.query_text == "rune"
        assert row_keys(screen) == RUNE_ROWS
        # backspace and more letters, still at once; then enter leaves the filter on
        type_ahead(app, "backspace", "backspace", "backspace", *"od", "enter")
        await drain(app, pilot)
        assert screen.query_text == "rod" and row_keys(screen) == ["13"]
        assert screen.query_one("#search").has_class("shown")
        assert app.live.events == []


def test_after_the_search_the_die_typed_at_once_is_taken(tmp_path: Path) -> None:
    asyncio.run(_search_then_die(merp_campaign(tmp_path)))


async def _search_then_die(folder: Path) -> None:
    app = build(folder)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_tables(app, pilot)
        # esc clears the search; the digits after it are the player's d100, taken by enter
        type_ahead(app, "/", *"rune", "escape", "9", "7", "enter")
        await drain(app, pilot)
        assert app.screen is screen
        assert screen.query_text == "" and not screen.query_one("#search").has_class("shown")
        assert len(row_keys(screen)) == TABLE_2_ROWS
        assert screen.roll is not None
        assert "Table 2  1d100: 97 (typed)  [97]" in text_of(app, "#tree")


def test_a_die_and_its_sub_rolls_typed_at_once(tmp_path: Path) -> None:
    asyncio.run(_dice_at_once(merp_campaign(tmp_path)))


async def _dice_at_once(folder: Path) -> None:
    app = build(folder)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_tables(app, pilot)
        # what the dice showed, read out as fast as the GM types: the d100, then each sub-roll
        type_ahead(app, "9", "7", "enter", "3", "enter", "2", "enter", "4", "enter")
        type_ahead(app, "2", "enter", "1", "enter")
        await drain(app, pilot)
        roll = screen.roll
        assert roll is not None and roll.done, text_of(app, "#error")
        tree = text_of(app, "#tree")
        assert "Table 2  1d100: 97 (typed)  [97]  # (+1)" in tree
        assert "Table 2a  1d10+1: 4+1 = 5 (typed)  [5-7]" in tree
        type_ahead(app, "enter", "4", "1", "enter")  # keep it, and the next d100 at once
        await drain(app, pilot)
        assert screen.roll is not None and "1d100: 41 (typed)" in text_of(app, "#tree")
    kinds = [x["kind"] for x in journal(app)]
    assert kinds == ["item_rolled", "item_kept"]
    inputs = journal(app)[0]["data"]["item"]["tree"]["inputs"]
    assert [i["roll"]["total"] for i in inputs] == [97, 3, 2, 5, 2, 1]


def test_enter_on_a_row_then_its_sub_roll_typed_at_once(tmp_path: Path) -> None:
    asyncio.run(_row_then_die(merp_campaign(tmp_path)))


async def _row_then_die(folder: Path) -> None:
    app = build(folder)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_tables(app, pilot)
        # the cursor on 2-3 (a daily item): enter picks it, and 7 enter answers its 2d
        type_ahead(app, "down", "enter", "7", "enter")
        await drain(app, pilot)
        roll = screen.roll
        assert roll is not None, text_of(app, "#error")
        tree = text_of(app, "#tree")
        assert "Table 2d" in tree and "1d10: 7 (typed)" in tree
        assert "Table 2e" in text_of(app, "#prompt")


def test_a_refused_roll_overridden_and_its_dice_typed_at_once(tmp_path: Path) -> None:
    """No points left: Table 2 refuses the typed 97 and asks; "y" overrides, and the sub-rolls
    typed right after answer the roll the override began, as when typed slowly. The question
    used to open from a worker, a message later: the "y" and the dice went to the tables."""
    keys: tuple[str, ...] = ("9", "7", "enter", "y", "3", "enter", "2", "enter", "4", "enter")
    keys += ("2", "enter", "1", "enter", "escape")  # the last die, then esc: the roll is discarded

    async def run(folder: Path, fast: bool) -> list[dict[str, Any]]:
        app = build(folder)
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_tables(app, pilot)
            if fast:
                type_ahead(app, *keys)
                await drain(app, pilot)
            else:
                for key in keys:
                    await pilot.press(key)
                    await settle(app, pilot)
            assert app.screen is screen and screen.roll is None
        return journal(app)

    (tmp_path / "slow").mkdir()
    (tmp_path / "fast").mkdir()
    slow = asyncio.run(run(merp_campaign(tmp_path / "slow", points_total=0), False))
    fast = asyncio.run(run(merp_campaign(tmp_path / "fast", points_total=0), True))
    assert [(x["kind"], x["data"].get("override")) for x in fast] == [
        ("item_rolled", "no_points"),
        ("item_discarded", None),
    ]
    inputs = fast[0]["data"]["item"]["tree"]["inputs"]
    assert [i["roll"]["total"] for i in inputs] == [97, 3, 2, 5, 2, 1]
    assert [(x["kind"], x["data"]) for x in fast] == [(x["kind"], x["data"]) for x in slow]


def test_a_roll_abandoned_and_the_next_die_typed_at_once(tmp_path: Path) -> None:
    asyncio.run(_abandon_then_die(merp_campaign(tmp_path)))


async def _abandon_then_die(folder: Path) -> None:
    app = build(folder)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_tables(app, pilot)
        # 41 stops at a sub-roll; esc asks, "y" abandons it, and 97 starts the next roll
        type_ahead(app, "4", "1", "enter", "escape", "y", "9", "7", "enter")
        await drain(app, pilot)
        assert app.screen is screen and screen.roll is not None
        assert "Table 2  1d100: 97 (typed)  [97]" in text_of(app, "#tree")
        # the abandoned roll is journaled with its die, before the next roll starts
        assert [e.event.kind for e in app.live.events] == ["item_abandoned"]
