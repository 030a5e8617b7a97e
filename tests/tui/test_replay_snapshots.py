"""How replay looks (120×40, no animation): the session picker, mid-session, at a check."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from tests.tui.conftest import SIZE
from tests.tui.replay_helpers import build_replay, copy_example

Snap = Callable[..., bool]


@pytest.fixture
def example(tmp_path: Path) -> Path:
    return copy_example(tmp_path)


def test_replay_session_picker(snap_compare: Snap, example: Path) -> None:
    assert snap_compare(build_replay(example, session=None), terminal_size=SIZE)


def test_replay_mid_session(snap_compare: Snap, example: Path) -> None:
    # Seven steps in: past the undone gain (struck through in the log, × on the timeline).
    app = build_replay(example)
    assert snap_compare(app, press=["right"] * 7, terminal_size=SIZE)


def test_replay_at_a_madness_check(snap_compare: Snap, example: Path) -> None:
    # The second check: Vadhra's fumble, highlighted in the log and marked on the timeline.
    app = build_replay(example)
    assert snap_compare(app, press=["shift+right", "shift+right"], terminal_size=SIZE)
