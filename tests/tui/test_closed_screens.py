"""A screen that closes leaves none of its drawn lines alive (``app_base.let_go_of_lines``, the
workaround for https://github.com/Textualize/textual/issues/6665: Textual 8.2.8 keeps the line
caches of widgets that are gone): an evening of dialogs must not pile lines up for the
collector to walk."""

from __future__ import annotations

import gc
from typing import Any

from tests.tui.conftest import CREW, play
from textual.pilot import Pilot
from textual.strip import Strip

from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.gain import GainScreen


def live_strips() -> int:
    gc.collect()
    return sum(isinstance(thing, Strip) for thing in gc.get_objects())


def test_a_closed_dialog_leaves_none_of_its_drawn_lines_behind(table_with: Any) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        counts = []
        for _ in range(6):
            await pilot.press("g")
            assert isinstance(app.screen, GainScreen)
            await pilot.press("escape")
            await pilot.pause()
            counts.append(live_strips())
        # Each picker draws some 200 lines (its own, the dimmed GM's screen, their crops).
        assert counts[-1] - counts[1] < 50, counts

    play(table_with(*CREW), scenario)
