"""The round of a fight under way, derived from the journal (shown in the header)."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.reducer import rounds_running


def clock() -> datetime:
    return datetime(2025, 3, 1, 20, 0, tzinfo=UTC)


def rounds(live: LiveCampaign) -> int:
    return rounds_running([e.event for e in live.events if not e.void])


def test_rounds_count_in_a_row_and_reset_on_other_time(tmp_path: Path) -> None:
    folder = create_campaign(tmp_path, "Fight")
    with open_campaign(folder, rng=random.Random(1), clock=clock) as live:
        assert rounds(live) == 0
        artinar = live.add_character("Artinar", 13, law=47).character
        assert artinar is not None
        for expected in (1, 2, 3):
            live.next_round()
            assert rounds(live) == expected
        live.gain(artinar, "elemental")  # a gain in the middle of the fight keeps the count
        live.next_round()
        assert rounds(live) == 4
        live.undo()  # the undone round no longer counts
        assert rounds(live) == 3
        live.advance(600)  # ten minutes later the fight is over
        assert rounds(live) == 0
        live.next_round()
        assert rounds(live) == 1
        events = [e.event for e in live.events]
        assert rounds_running(events[: len(events) - 1]) == 0  # as replay sees an earlier step
