"""How the item screens look: 120×40, fixed seed and clock, no animation, no blinking cursor.

Each test opens the MERP sample campaign of ``make screenshots`` and presses keys to one state.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gmscreen.tui.item_samples import ITEM_SHOTS, merp_sample_campaign
from gmscreen.tui.screenshots import build, fixed_clock

SIZE = (120, 40)
Snap = Callable[..., bool]


@pytest.fixture
def wardens(tmp_path: Path) -> Path:
    return merp_sample_campaign(tmp_path, fixed_clock)


def _snap(snap_compare: Snap, folder: Path, shot: str) -> bool:
    return snap_compare(build(folder), press=list(ITEM_SHOTS[shot]), terminal_size=SIZE)


def test_browse_table_1(snap_compare: Snap, wardens: Path) -> None:
    assert _snap(snap_compare, wardens, "items-browse")


def test_result_tree_with_a_pending_choice(snap_compare: Snap, wardens: Path) -> None:
    assert _snap(snap_compare, wardens, "items-choice")


def test_refusal_by_the_roll_limit(snap_compare: Snap, wardens: Path) -> None:
    assert _snap(snap_compare, wardens, "items-refused")


def test_inventory_with_a_literal_note(snap_compare: Snap, wardens: Path) -> None:
    assert _snap(snap_compare, wardens, "inventory")


def test_leaving_a_roll_half_way_asks(snap_compare: Snap, wardens: Path) -> None:
    # Halbarad's Table 1, 64 typed: a choice is pending; esc asks how to leave it (y, f, n)
    press = ["down", "t", "6", "4", "enter", "escape"]
    assert snap_compare(build(wardens), press=press, terminal_size=SIZE)
