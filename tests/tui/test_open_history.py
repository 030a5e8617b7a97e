"""The GM's screen over years of sessions (#18): the log shows the last session played, the
session index is brought up to date in a worker once the screen is up (not on opening), and the
periodic checkpoint is written after the frame of the key that crossed it."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime
from pathlib import Path

from tests.tui.conftest import SIZE, build

from gmscreen.campaign.model import Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.session_index import index_path, list_entries
from gmscreen.campaign.store import read_checkpoint, sessions_dir
from gmscreen.tui.widgets.roll_log import RollLog, haystack


def played(tmp_path: Path) -> Path:
    folder = create_campaign(tmp_path, "Imrryr", Settings(auto_check=False))
    for day in (1, 8, 15):
        clock = lambda day=day: datetime(2025, 3, day, 20, 0, tzinfo=UTC)  # noqa: E731
        with open_campaign(folder, rng=random.Random(day), clock=clock) as live:
            if day == 1:
                live.add_character("Artinar", 13, chaos=43, balance=32, law=47)
            live.note(f"the evening of the {day}th")
    return folder


def test_the_index_is_written_once_the_screen_is_up_and_the_log_shows_the_last_evening(
    tmp_path: Path,
) -> None:
    folder = played(tmp_path)
    index = index_path(sessions_dir(folder))
    index.unlink()

    async def run() -> tuple[bool, bool, str]:
        app = build(folder)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await app.workers.wait_for_complete()
            written = index.is_file() and not list_entries(sessions_dir(folder)).stale
            shown = "\n".join(haystack(e) for e in app.screen.query_one(RollLog).entries)
            await pilot.press("full_stop")
            await pilot.press("q")
            return written, app.live.fault is None, shown

    written, fine, shown = asyncio.run(run())
    assert written and fine  # before quitting: the worker wrote it
    assert "the evening of the 15th" in shown and "the evening of the 8th" not in shown
    assert read_checkpoint(folder)[0].clock > 0  # quit wrote the round
