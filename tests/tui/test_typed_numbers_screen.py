"""Typed numbers on the screen are ASCII digits (#13.3): ``²`` (a key on AZERTY keyboards), ``٣``
and ``+-5`` in the check, a gain's answer, an adjustment, the character form and the item
search are refused or ignored, never a crash, and the screen goes on working."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.widgets import Static

from gmscreen.campaign.events import CheckRoll
from gmscreen.tui.app import GMScreenApp

from .conftest import ARTINAR, SIZE, build
from .test_items import merp_campaign, settle


def _error(app: GMScreenApp) -> str:
    return str(app.screen.query_one("#error", Static).render())


def _madness(app: GMScreenApp) -> int:
    return app.live.state.characters[0].sanity.madness


def test_a_superscript_in_the_check_is_not_a_digit(table_with: Callable[..., Path]) -> None:
    async def run() -> None:
        app = build(table_with({**ARTINAR, "madness": 14}))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("m", "²", "٣", "enter")
            await pilot.pause()
            assert app.is_running
            await pilot.press("5", "3", "enter")  # the check goes on: 53 under Law 47 fails
            await pilot.pause()
            rolls = [e.event.data for e in app.live.events]
            assert [r.roll.total for r in rolls if isinstance(r, CheckRoll)] == [53]

    asyncio.run(run())


def _gain_answer(folder: Path, keys: list[str]) -> tuple[str, int, bool]:
    async def run() -> tuple[str, int, bool]:
        app = build(folder)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("g", *keys, "enter")
            await pilot.pause()
            return _error(app), _madness(app), app.is_running

    return asyncio.run(run())


def test_a_gain_answer_in_another_script_is_an_error(table_with: Callable[..., Path]) -> None:
    folder = table_with(ARTINAR)
    for answer in ("²", "٣", "1_6"):
        error, madness, running = _gain_answer(folder, [*"demon", "enter", *answer])
        assert running and error.startswith("POW:") and madness == 0, (answer, error)


def test_plus_minus_five_is_not_an_adjustment(table_with: Callable[..., Path]) -> None:
    folder = table_with(ARTINAR)
    keys = [*"true love", "enter", "enter", "1", "5", "enter", "+", "-", "5"]  # 3d6: 15, +-5
    error, madness, running = _gain_answer(folder, keys)
    assert running and "adjustment" in error and madness == 0


def test_a_superscript_pow_in_the_form_is_an_error(new_campaign: Path) -> None:
    async def run() -> None:
        app = build(new_campaign)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("c", *"Elric", "tab", "tab", "²", "enter")
            await pilot.pause()
            assert app.is_running
            assert not app.live.state.characters  # the form stays open, with its error
            error = str(app.screen.query_one("#e-pow", Static).render())
            assert "whole number" in error

    asyncio.run(run())


def test_a_superscript_in_the_item_search_finds_nothing(tmp_path: Path) -> None:
    async def run() -> dict[str, Any]:
        app = build(merp_campaign(tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("t")
            await settle(app, pilot)
            await pilot.press("/", "²", "enter")
            await settle(app, pilot)
            await pilot.press("²")  # a key on the table itself: no digit either
            await settle(app, pilot)
            return {"running": app.is_running, "screen": type(app.screen).__name__}

    assert asyncio.run(run()) == {"running": True, "screen": "ItemTableScreen"}
