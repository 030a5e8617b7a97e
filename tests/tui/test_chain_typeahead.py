"""Keys typed right after the key that closes a dialog go to the dialog that opens next (a gain's
check, the next check due), or to the screen below if none opens, as if typed slowly.

Each key is queued before any is handled (``type_ahead``). The closing key used to be handled by
the dialog while the app went on handing out the keys typed after it: they reached the screen
below before the next dialog was open, and were lost there (or ran its commands), and the
advance-time box read the keys typed after its enter as part of the amount.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from gmscreen.campaign import events as ev
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.rules.madness import DEFAULT_ROUND_SECONDS
from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.main import MainScreen

from .conftest import ARTINAR, CREW, drain, fixed_clock, play, type_ahead


def journal(app: GMScreenApp) -> list[object]:
    return [entry.event.data for entry in app.live.events]


def campaign(root: Path, *characters: dict[str, Any]) -> Path:
    root.mkdir()
    folder = create_campaign(root, "Melniboné")
    with open_campaign(folder, rng=random.Random(1), clock=fixed_clock) as live:
        for values in characters:
            values = dict(values)
            live.add_character(values.pop("name"), values.pop("pow"), **values)
    return folder


def test_a_gain_and_the_check_it_makes_due_typed_at_once(tmp_path: Path) -> None:
    """The seed's Artinar at 11/13 gains the demon's 1d6 (16 typed: 3 more), which makes his
    check due (auto_check): its d100 (53, a failure), then the episode's kind rolled."""
    keys = ("g", *"demon", "enter", "1", "6", "enter", "enter", "5", "3", "enter", "enter", "r")
    keys += ("enter",)

    def run(fast: bool) -> GMScreenApp:
        async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
            if fast:
                type_ahead(app, *keys)
                await drain(app, pilot)
            else:
                for key in keys:
                    await pilot.press(key)
                    await pilot.pause()
            assert isinstance(app.screen, MainScreen)

        root = tmp_path / ("fast" if fast else "slow")
        return play(campaign(root, dict(ARTINAR, madness=11)), scenario)

    slow, fast = run(False), run(True)
    assert journal(fast) == journal(slow)
    rolls = [data for data in journal(fast) if isinstance(data, ev.CheckRoll)]
    assert [(r.roll.total, r.roll.source, r.outcome) for r in rolls] == [(53, "typed", "failure")]
    assert any(isinstance(data, ev.EpisodeStarted) for data in journal(fast))


def test_every_check_due_typed_at_once_after_capital_m(table_with: Callable[..., Path]) -> None:
    crew = (dict(ARTINAR, madness=14), CREW[1], dict(CREW[2], name="Cym"))
    keys = ("M", "5", "3", "enter", "enter", "1", "enter", "9", "0", "enter", "enter", "1", "enter")

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        type_ahead(app, *keys)
        await drain(app, pilot)
        assert isinstance(app.screen, MainScreen)

    app = play(table_with(*crew), scenario)
    rolls = [(e.event.character, e.event.data) for e in app.live.events]
    checks = [(who, d.roll.total) for who, d in rolls if isinstance(d, ev.CheckRoll)]
    assert checks == [("artinar", 53), ("cym", 90)]
    started = [who for who, d in rolls if isinstance(d, ev.EpisodeStarted)]
    assert started == ["artinar", "cym"]


def test_an_advance_then_a_main_screen_key_typed_at_once(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        type_ahead(app, "a", "1", "0", "space", "m", "enter", ".")
        await drain(app, pilot)
        assert isinstance(app.screen, MainScreen)

    app = play(table_with(*CREW), scenario)
    advanced = [data for data in journal(app) if isinstance(data, ev.ClockAdvanced)]
    assert [(a.reason, a.seconds) for a in advanced] == [
        ("advance", 600),
        ("round", DEFAULT_ROUND_SECONDS),
    ]
