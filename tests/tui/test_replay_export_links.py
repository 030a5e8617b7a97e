"""Replay's ``e``/``E`` with ``exports/`` planted as a link elsewhere: refused on screen, the app
stays up, and nothing outside the campaign folder changes or appears."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from tests.tui.conftest import SIZE
from tests.tui.replay_helpers import build_replay, copy_example, files_of

from gmscreen.tui.screens.replay import ReplayScreen


@pytest.mark.posix("links as POSIX makes them")
def test_exports_linked_elsewhere_are_refused_and_the_replay_stays_up(tmp_path: Path) -> None:
    example = copy_example(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (example / "exports").symlink_to(outside)
    before = files_of(tmp_path)

    async def run() -> bool:
        app = build_replay(example)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("e", "E", "end")
            await pilot.pause()
            return isinstance(app.screen, ReplayScreen) and app.is_running

    assert asyncio.run(run())
    assert files_of(tmp_path) == before
    assert list(outside.iterdir()) == []
