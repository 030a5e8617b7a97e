"""Opening reads tonight (#18 Build 1): the checkpoint and the newest journals, older ones on
demand; the periodic checkpoint deferred off the action that crossed the threshold (Build 5)."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gmscreen.campaign import CampaignError, LiveCampaign, open_campaign
from gmscreen.campaign.journal import list_sessions, read_session
from gmscreen.campaign.model import Settings
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.store import (
    campaign_file,
    load,
    read_checkpoint,
    sessions_dir,
    write_checkpoint,
)


def clock_on(day: int) -> Callable[[], datetime]:
    return lambda: datetime(2025, 3, day, 20, 0, tzinfo=UTC)


def _open(folder: Path, day: int, every: int = 50) -> LiveCampaign:
    return open_campaign(
        folder, rng=random.Random(day), clock=clock_on(day), checkpoint_every=every
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Four evenings: characters, then three sessions of gains and rounds."""
    folder = create_campaign(tmp_path, "Imrryr", Settings(auto_check=False))
    with _open(folder, 1) as live:
        live.add_character("Artinar", 13, chaos=43, balance=32, law=47)
        live.add_character("Vadhra", 11, chaos=60, law=10)
    for day in (8, 15, 22):
        with _open(folder, day) as live:
            live.gain("artinar", "elemental")
            live.next_round()
            live.gain("vadhra", "friend_dies", roll=live.roll("1d6"))
    return folder


def spoil(path: Path) -> None:
    path.write_bytes(b"this is no journal\n")


def test_opening_reads_only_the_newest_journal(folder: Path) -> None:
    journals = list_sessions(sessions_dir(folder))
    for old in journals[:-1]:
        spoil(old)  # an old journal that cannot be read: opening never reads it
    expected = read_checkpoint(folder)[0]
    with _open(folder, 29) as live:
        assert live.state == expected
        assert [log.path for log in live.past_sessions] == [journals[-1]]
        assert live.history.paths == tuple(journals)
        assert not live.history.is_read(journals[0])
        with pytest.raises(CampaignError):  # read when asked for: and it is said it cannot be
            live.history.log(journals[0])


def test_an_earlier_session_is_read_on_demand(folder: Path) -> None:
    journals = list_sessions(sessions_dir(folder))
    with _open(folder, 29) as live:
        assert not live.history.is_read(journals[1])
        log = live.history.log(journals[1])
        assert live.history.is_read(journals[1])
        assert log.events == read_session(journals[1]).events
        assert live.history.log(journals[1]) is log  # read once
        newest = list(live.history.newest_first(2))
        assert [log.path for log in newest] == [journals[-1], journals[-2]]


def test_a_checkpoint_behind_by_several_sessions_replays_them_all(folder: Path) -> None:
    journals = list_sessions(sessions_dir(folder))
    full = load(folder).state
    write_checkpoint(folder, read_session(journals[1]).header.state)  # as after the first evening
    with _open(folder, 29) as live:
        assert live.state == full
        assert [log.path for log in live.past_sessions] == journals[1:]
        assert any("recovered" in notice for notice in live.notices)


def test_the_periodic_checkpoint_waits_for_the_screen_and_close_still_writes_it(
    folder: Path,
) -> None:
    queued: list[Callable[[], None]] = []
    live = _open(folder, 29, every=1)
    live.defer_checkpoint = queued.append
    before = campaign_file(folder).read_bytes()
    live.gain("artinar", "elemental")
    live.next_round()
    assert campaign_file(folder).read_bytes() == before  # the action is not delayed by it
    assert len(queued) == 1  # one checkpoint queued, however many actions cross meanwhile
    queued.pop()()
    assert read_checkpoint(folder)[0] == live.state
    live.gain("vadhra", "elemental")
    live.close()  # quit: written even though the queued checkpoint never ran
    assert read_checkpoint(folder)[0] == live.state
    queued.pop()()  # running it after close writes nothing and raises nothing


def test_a_deferred_checkpoint_that_fails_is_told(folder: Path) -> None:
    queued: list[Callable[[], None]] = []
    told: list[str] = []
    live = _open(folder, 29, every=1)
    live.defer_checkpoint = queued.append
    live.notice_listeners.append(told.append)
    live.gain("artinar", "elemental")
    campaign_file(folder).write_text("name = \n", encoding="utf-8")  # the GM's broken edit
    queued.pop()()
    assert told and "campaign.toml" in told[0]
    live.close()
