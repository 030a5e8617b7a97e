"""When a dialog over the GM's screen goes, the screen is not laid out again for nothing.

Textual asks for a layout of the screen shown once a dialog's widgets are gone
(gmscreen.tui.screens.kept_layout); the GM's screen drops that request, and what closing the
dialog changed is on the screen.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.screen import Screen

from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.main import MainScreen

from .conftest import ARTINAR, madness, play


def main_screen(app: GMScreenApp) -> MainScreen:
    assert app.main is not None
    return app.main


def count_layouts(screen: Screen[Any]) -> list[Screen[Any]]:
    """Every layout of ``screen`` from now on (Textual publishes the signal after each)."""
    layouts: list[Screen[Any]] = []
    screen.screen_layout_refresh_signal.subscribe(screen, layouts.append)
    return layouts


async def settle(pilot: Pilot[None]) -> None:
    for _ in range(6):
        await pilot.pause()


def on_screen(app: GMScreenApp) -> str:
    return app.export_screenshot().replace("&#160;", " ")


def test_closing_the_gain_picker_lays_nothing_out_and_shows_the_gain(
    table_with: Callable[..., Path],
) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        screen = main_screen(app)
        await pilot.press("g", *"elemental", "enter")  # asks what happened
        await settle(pilot)
        layouts = count_layouts(screen)
        await pilot.press("enter")  # applies the gain and closes the picker
        await settle(pilot)
        assert app.screen is screen
        assert layouts == []
        assert madness(app, "artinar") == 2
        assert "2/13" in on_screen(app)  # the card and the detail pane's meter
        assert "Sees an elemental" in on_screen(app)  # the log's new line

    play(table_with(ARTINAR), scenario)


def test_closing_a_check_lays_nothing_out_and_shows_the_episode(
    table_with: Callable[..., Path],
) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        screen = main_screen(app)
        await pilot.press("m", "9", "9", "enter", "enter", "2")  # a failure; the kind: 2
        await settle(pilot)
        layouts = count_layouts(screen)
        await pilot.press("enter")  # the episode starts, the check closes
        await settle(pilot)
        assert app.screen is screen
        assert layouts == []
        assert app.live.state.character("artinar").sanity.episode is not None
        assert "Stupor" in on_screen(app)

    play(table_with(dict(ARTINAR, madness=14)), scenario)


def test_closing_the_gain_picker_draws_one_frame(table_with: Callable[..., Path]) -> None:
    """The gain, the card, the log's line and the picker's going: all in the one frame."""

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("g", *"elemental", "enter")
        await settle(pilot)
        frames: list[None] = []
        app.post_display_hook = lambda: frames.append(None)  # type: ignore[method-assign]
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is main_screen(app)
        assert len(frames) == 1

    play(table_with(ARTINAR), scenario)
