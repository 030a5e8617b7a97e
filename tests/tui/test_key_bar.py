"""The key bar: shows the keys that work on the screen under it, as remapped, and a click on a
key presses it (Pilot, 120×40)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.tui.conftest import ARTINAR, SIZE, build
from textual.pilot import Pilot

from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.gain import GainScreen
from gmscreen.tui.screens.main import MainScreen
from gmscreen.tui.widgets.key_bar import KeyBar


def run(folder: Path, scenario, **options: object) -> None:  # type: ignore[no-untyped-def]
    async def go() -> None:
        app = build(folder, **options)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await scenario(app, pilot)

    asyncio.run(go())


def bar_text(app: GMScreenApp) -> str:
    return str(app.screen.query_one(KeyBar).render())


def test_the_bar_follows_the_screen_and_a_click_presses_the_key(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        text = bar_text(app)
        assert " g Gain " in text and " q Quit " in text and text.rstrip().endswith("palette")
        bar = app.screen.query_one(KeyBar)
        x = text.index(" g Gain ") + 2
        await pilot.click(bar, offset=(x, 0))
        await pilot.pause()
        assert isinstance(app.screen, GainScreen)
        assert " Gain " not in bar_text(app) and "Cancel" in bar_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert " g Gain " in bar_text(app)

    run(table_with(ARTINAR), scenario)


def test_the_bar_shows_remapped_keys(table_with, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    config = tmp_path / "config.toml"
    config.write_text('[keys]\ngain = "G"\n', encoding="utf-8")

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        text = bar_text(app)
        assert " G Gain " in text and " g Gain " not in text

    run(table_with(ARTINAR), scenario, config_path=config)


def test_typing_a_filter_narrows_the_presets_at_once(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        from textual.widgets import OptionList

        await pilot.press("g")
        await pilot.pause()
        presets = app.screen.query_one("#presets", OptionList)
        every = presets.option_count
        height = presets.size.height
        await pilot.press("f", "r", "i")
        assert presets.option_count < every and presets.highlighted == 0
        await pilot.pause()
        assert presets.size.height == height  # the dialog does not jump while filtering

    run(table_with(ARTINAR), scenario)
