"""How the GM rulings look: the menu and two of its dialogs, on ``make screenshots``' campaign
(120×40, fixed seed and clock, no animation, no blinking cursor)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gmscreen.tui.screenshots import build, sample_campaign

SIZE = (120, 40)
Snap = Callable[..., bool]


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    return sample_campaign(tmp_path)


def test_rulings_menu(snap_compare: Snap, sample: Path) -> None:
    # Artinar, selected, has no episode under way: both endings are shown dimmed, with why.
    assert snap_compare(build(sample), press=["x"], terminal_size=SIZE)


def test_ruling_set_madness_typed(snap_compare: Snap, sample: Path) -> None:
    keys = ["x", "s", "9", "tab", *"miscounted"]
    assert snap_compare(build(sample), press=keys, terminal_size=SIZE)


def test_ruling_add_a_permanent_madness(snap_compare: Snap, sample: Path) -> None:
    assert snap_compare(build(sample), press=["x", "a", "down", "down"], terminal_size=SIZE)
