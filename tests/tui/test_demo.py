"""The demo that ``make run`` opens: from the first frame, a newcomer reaches the item tables in
at most three keys, and the madness check, the inventory and the replay each open."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.tui.conftest import play
from textual.pilot import Pilot
from textual.screen import Screen

from gmscreen.campaign.paths import make_demo_copy
from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.check import CheckScreen
from gmscreen.tui.screens.inventory import InventoryScreen
from gmscreen.tui.screens.item_tables import ItemTableScreen
from gmscreen.tui.screens.replay_picker import SessionPicker


def _opens(tmp_path: Path, keys: list[str], screen: type[Screen[Any]]) -> Screen[Any]:
    """The screen on top after ``keys`` typed from the demo's first frame (of type ``screen``)."""
    seen: list[Screen[Any]] = []

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press(*keys)
        await pilot.pause()
        seen.append(app.screen)

    play(make_demo_copy(tmp_path), scenario)
    assert [type(s) for s in seen] == [screen]
    return seen[0]


def test_the_item_tables_open_with_one_key(tmp_path: Path) -> None:
    _opens(tmp_path, ["t"], ItemTableScreen)  # ≤ 3 keys: the first character has a profile


def test_the_due_check_opens(tmp_path: Path) -> None:
    # Moryn's check is due at the end of the last session
    check = _opens(tmp_path, ["M"], CheckScreen)
    assert isinstance(check, CheckScreen)


def test_the_inventory_opens(tmp_path: Path) -> None:
    _opens(tmp_path, ["i"], InventoryScreen)


def test_the_replay_offers_both_past_sessions(tmp_path: Path) -> None:
    picker = _opens(tmp_path, ["R"], SessionPicker)
    assert isinstance(picker, SessionPicker)
    assert [entry.id for entry in picker.entries] == ["2024-05-03-1", "2024-05-10-1"]
