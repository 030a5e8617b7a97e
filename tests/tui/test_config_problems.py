"""The GM's screen opens whatever the GM's config file holds (#25.6): an array nested thousands
deep, an integer of 5,000 digits, an entry that gives no key. Each is one start-up message
naming the problem (the file's line, or the command), and the table is there to play."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.tui.conftest import play
from textual.pilot import Pilot

from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.main import MainScreen

FILES = {
    "deep": (
        "gain = " + "[" * 3000 + "]" * 3000,
        "Your config could not be read: {path}:2: nested more than 64 deep",
    ),
    "huge": (
        "gain = " + "7" * 5000,
        "Your config could not be read: {path}:2: number out of range "
        "(at most 9,007,199,254,740,992 either side of 0)",
    ),
    "no key": (
        'gain = ",,,"',
        "Your config's [keys] table: gain is given no key. The keys given there that do not "
        "clash were taken; press ? for every key.",
    ),
}


@pytest.mark.parametrize("kind", FILES)
def test_the_screen_opens_with_one_message(new_campaign: Path, tmp_path: Path, kind: str) -> None:
    keys_line, said = FILES[kind]
    config = tmp_path / "config.toml"
    config.write_text(f"[keys]\n{keys_line}\n", encoding="utf-8")
    told: list[str] = []

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, MainScreen)
        told.extend(str(n.message) for n in app.pop_ups_shown())
        await pilot.press("full_stop")  # the table plays: a round goes by
        assert app.live.state.clock > 0

    play(new_campaign, scenario, config_path=config)
    assert told == [said.format(path=config)]
