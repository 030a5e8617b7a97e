"""How the screens look in Spanish: 120×40, fixed seed and clock, no animation, no blinking cursor.

The same sample campaigns as ``make screenshots``, opened with ``lang="es"``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gmscreen.tui.item_samples import ITEM_SHOTS, merp_sample_campaign
from gmscreen.tui.screenshots import SHOTS_IN, build, fixed_clock, sample_campaign

SIZE = (120, 40)
Snap = Callable[..., bool]


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    return sample_campaign(tmp_path)


def _snap(snap_compare: Snap, folder: Path, *keys: str) -> bool:
    return snap_compare(build(folder, lang="es"), press=list(keys), terminal_size=SIZE)


def test_main_screen_in_spanish(snap_compare: Snap, sample: Path) -> None:
    assert _snap(snap_compare, sample)


def test_check_shows_the_episode_in_spanish(snap_compare: Snap, sample: Path) -> None:
    _, keys = SHOTS_IN["check-halfway-es"]
    assert _snap(snap_compare, sample, *keys)


def test_item_tables_in_spanish(snap_compare: Snap, tmp_path: Path) -> None:
    wardens = merp_sample_campaign(tmp_path, fixed_clock)
    assert _snap(snap_compare, wardens, *ITEM_SHOTS["items-browse"])


def test_help_in_spanish(snap_compare: Snap, sample: Path) -> None:
    assert _snap(snap_compare, sample, "question_mark")
