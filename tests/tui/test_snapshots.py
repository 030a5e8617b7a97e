"""How the screens look: 120×40, fixed seed and clock, no animation, no blinking cursor.

Each test opens the same sample campaign as ``make screenshots`` and presses keys to one state.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gmscreen.tui.screenshots import build, sample_campaign

SIZE = (120, 40)
Snap = Callable[..., bool]


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    return sample_campaign(tmp_path)


def _snap(snap_compare: Snap, folder: Path, *keys: str, **kwargs: Any) -> bool:
    return snap_compare(build(folder), press=list(keys), terminal_size=SIZE, **kwargs)


def test_main_screen(snap_compare: Snap, sample: Path) -> None:
    assert _snap(snap_compare, sample)


def test_gain_picker_filtered(snap_compare: Snap, sample: Path) -> None:
    assert _snap(snap_compare, sample, "g", "f", "r", "i")


def test_check_before_the_roll(snap_compare: Snap, sample: Path) -> None:
    assert _snap(snap_compare, sample, "m")


def test_check_outcome_of_a_typed_roll(snap_compare: Snap, sample: Path) -> None:
    assert _snap(snap_compare, sample, "m", "5", "3", "enter")


def test_check_asks_the_kind(snap_compare: Snap, sample: Path) -> None:
    assert _snap(snap_compare, sample, "m", "5", "3", "enter", "enter")


def test_check_shows_the_episode(snap_compare: Snap, sample: Path) -> None:
    assert _snap(snap_compare, sample, "m", "5", "3", "enter", "enter", "4")


def test_form_with_errors(snap_compare: Snap, sample: Path) -> None:
    # A name already taken, POW out of range, Chaos not a number.
    keys = [*"Bors", "tab", "tab", "0", "tab", "tab", "x", "enter"]
    assert _snap(snap_compare, sample, "c", *keys)


def test_player_view(snap_compare: Snap, sample: Path) -> None:
    assert _snap(snap_compare, sample, "p")


def test_help(snap_compare: Snap, sample: Path) -> None:
    assert _snap(snap_compare, sample, "question_mark")
