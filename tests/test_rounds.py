"""The round of a fight under way, derived from the journal (shown in the header)."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.reducer import rounds_running
from gmscreen.campaign.table import Table, open_table


def clock() -> datetime:
    return datetime(2025, 3, 1, 20, 0, tzinfo=UTC)


def live(table: Table) -> int:
    return rounds_running([e.event for e in table.events if not e.void])


def test_rounds_count_in_a_row_and_reset_on_other_time(tmp_path: Path) -> None:
    folder = create_campaign(tmp_path, "Fight")
    with open_table(folder, rng=random.Random(1), clock=clock) as table:
        assert live(table) == 0
        artinar = table.add_character("Artinar", 13, law=47).character
        assert artinar is not None
        for expected in (1, 2, 3):
            table.next_round()
            assert live(table) == expected
        table.gain(artinar, "elemental")  # a gain in the middle of the fight keeps the count
        table.next_round()
        assert live(table) == 4
        table.undo()  # the undone round no longer counts
        assert live(table) == 3
        table.advance(600)  # ten minutes later the fight is over
        assert live(table) == 0
        table.next_round()
        assert live(table) == 1
        events = [e.event for e in table.events]
        assert rounds_running(events[: len(events) - 1]) == 0  # as replay sees an earlier step
