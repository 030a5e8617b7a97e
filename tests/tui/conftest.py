"""Shared set-up for the UI tests: a fresh campaign, a fixed seed and clock, strict catalog."""

from __future__ import annotations

import asyncio
import random
import unicodedata
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.app import App
from textual.keys import KEY_NAME_REPLACEMENTS
from textual.pilot import Pilot

from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.model import Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.tui.app import GMScreenApp, make_app

SIZE = (120, 40)
SEED = 5


def fixed_clock() -> datetime:
    return datetime(2025, 3, 1, 20, 0, tzinfo=UTC)


def build(campaign: Path | LiveCampaign, **options: Any) -> GMScreenApp:
    """The app as tests run it: seeded, fixed clock, no user config, no animation or blink."""
    options.setdefault("rng", random.Random(SEED))
    return make_app(
        campaign,
        clock=fixed_clock,
        config_path=options.pop("config_path", None),
        strict=True,
        animations=False,
        cursor_blink=False,
        **options,
    )


Scenario = Callable[[GMScreenApp, Pilot[None]], Awaitable[None]]


def play(folder: Path, scenario: Scenario, **options: Any) -> GMScreenApp:
    """Run ``scenario`` in the app for ``folder`` (120x40, after its first frame)."""

    async def run() -> GMScreenApp:
        app = build(folder, **options)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await scenario(app, pilot)
        return app

    return asyncio.run(run())


def madness(app: GMScreenApp, character_id: str) -> int:
    return app.live.state.character(character_id).sanity.madness


@pytest.fixture
def new_campaign(tmp_path: Path) -> Path:
    return create_campaign(tmp_path, "Young Kingdoms")


@pytest.fixture
def table_with(tmp_path: Path) -> Callable[..., Path]:
    """A campaign folder with characters added through the table (keyword lists of values)."""

    def make(*characters: dict[str, Any], settings: Settings | None = None) -> Path:
        folder = create_campaign(tmp_path, "Melniboné", settings)
        with open_campaign(folder, rng=random.Random(1), clock=fixed_clock) as live:
            for values in characters:
                values = dict(values)
                live.add_character(values.pop("name"), values.pop("pow"), **values)
        return folder

    return make


ARTINAR = {"name": "Artinar", "pow": 13, "chaos": 43, "balance": 32, "law": 47, "player": "Ann"}
CREW = (
    ARTINAR,
    {"name": "Bors", "pow": 12, "chaos": 20, "balance": 40, "law": 10, "madness": 5},
    {"name": "[bold]Cym[/]", "pow": 10, "chaos": 60, "balance": 10, "law": 5, "madness": 12},
)


def key_name(character: str) -> str:
    """Textual's name for the key that types ``character`` ("." is full_stop, " " is space)."""
    if character.isalnum():
        return character
    name = unicodedata.name(character).lower().replace(" ", "_").replace("-", "_")
    return KEY_NAME_REPLACEMENTS.get(name, name)


def type_ahead(app: App[Any], *keys: str) -> None:
    """Queue every key before any is handled, as from a fast GM or a terminal's buffer (Pilot's
    press waits between keys, which hides the races); a one-character key is that character.
    The keys go into the app's queue as the terminal driver puts them there."""
    for key in keys:
        if len(key) == 1:
            event = events.Key(key_name(key), key)
        else:
            event = events.Key(key, "\r" if key == "enter" else None)
        app.post_message(event)


async def drain(app: App[Any], pilot: Pilot[None]) -> None:
    """Let the keys typed ahead, and what they open, be handled."""
    for _ in range(12):
        await pilot.pause()
