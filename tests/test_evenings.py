"""A session is an evening (issue 30): opening the campaign again within a few hours of the last
event goes on with the same session in the replay list, ``gmscreen sessions`` and ``export``;
the journals stay separate files. The rule, the setting, and a session of several journals
replayed and exported as one, also when campaign.toml was edited between the openings."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from msgspec.structs import replace

from gmscreen.campaign.evenings import Evenings, evenings, goes_on, joined
from gmscreen.campaign.journal import list_sessions, read_session
from gmscreen.campaign.model import Character, Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.session_index import SessionEntry, list_entries
from gmscreen.campaign.store import read_checkpoint, recover, sessions_dir, write_checkpoint
from gmscreen.cli import main
from gmscreen.rules.madness import MadnessState

EVENING = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)


def at(hours: float) -> Callable[[], datetime]:
    return lambda: EVENING + timedelta(hours=hours)


def entry(n: int, started: str, ended: str) -> SessionEntry:
    return SessionEntry(
        Path(f"2025-03-01-{n}.jsonl"), f"2025-03-01-{n}", started, 1, 0, 0, (), n, n, 0, 0, 0,
        "0" * 64, ended,
    )  # fmt: skip


def test_a_journal_begun_within_the_hours_goes_on_with_the_session() -> None:
    first = entry(1, "2025-03-01T20:00:00+00:00", "2025-03-01T22:30:00+00:00")
    assert goes_on(first, entry(2, "2025-03-01T22:35:00+00:00", ""), 6)
    assert goes_on(first, entry(2, "2025-03-02T04:30:00+00:00", ""), 6)  # 6 hours: still
    assert not goes_on(first, entry(2, "2025-03-02T04:31:00+00:00", ""), 6)
    assert not goes_on(first, entry(2, "2025-03-01T22:35:00+00:00", ""), 0)  # 0: each its own
    # the same moment in another time zone; a clock gone back, or one that does not read
    assert goes_on(first, entry(2, "2025-03-01T23:35:00+01:00", ""), 1)
    assert not goes_on(first, entry(2, "2025-03-01T21:00:00+00:00", ""), 6)
    assert not goes_on(first, entry(2, "yesterday", ""), 6)


STAMPS = st.integers(min_value=0, max_value=10 * 24 * 60)  # minutes into ten days


@given(
    st.lists(st.tuples(STAMPS, st.integers(min_value=0, max_value=600)), max_size=12),
    st.integers(min_value=0, max_value=48),
)
def test_grouping_keeps_every_journal_in_order_and_splits_only_at_long_pauses(
    spans: list[tuple[int, int]], hours: int
) -> None:
    base = datetime(2025, 3, 1, tzinfo=UTC)

    def stamp(minutes: int) -> str:
        return (base + timedelta(minutes=minutes)).isoformat()

    entries = [
        entry(n, stamp(start), stamp(start + length))
        for n, (start, length) in enumerate(sorted(spans))
    ]
    grouped = evenings(entries, hours)
    assert [j for e in grouped for j in e.journals] == entries
    for session in grouped:
        assert all(goes_on(a, b, hours) for a, b in pairwise(session.journals))
    for before, after in pairwise(grouped):
        assert not goes_on(before.journals[-1], after.journals[0], hours)


def _reopened(tmp_path: Path, settings: Settings | None = None) -> Path:
    """An evening: two characters and a gain; gmscreen quit and opened again 40 minutes
    later, Bors's POW fixed in campaign.toml meanwhile and Cym added by hand; another gain."""
    folder = create_campaign(tmp_path, "Tanelorn", settings)
    with open_campaign(folder, rng=random.Random(1), clock=at(0)) as live:
        live.add_character("Artinar", 13, chaos=43, balance=32, law=47)
        live.add_character("Bors", 12, chaos=20, balance=40, law=10)
        live.gain("artinar", "elemental")
    checkpoint, _ = read_checkpoint(folder)
    with open_campaign(folder, rng=random.Random(1), clock=at(0.1)):
        pass  # opened and quit at once: no event, no journal
    bors = checkpoint.character("bors")
    fixed = replace(bors, sanity=replace(bors.sanity, pow=14))
    cym = Character("cym", "Cym", MadnessState(pow=10, chaos=30, balance=20, law=5, madness=3))
    chars = (*(fixed if c.id == "bors" else c for c in checkpoint.characters), cym)
    write_checkpoint(folder, replace(checkpoint, characters=chars))
    with open_campaign(folder, rng=random.Random(1), clock=at(0.7)) as live:
        live.gain("cym", "demon", {"pow": 16})
    return folder


def test_an_evening_of_two_openings_is_one_session_everywhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _reopened(tmp_path)
    first, second = list_sessions(sessions_dir(folder))  # the journals stay two files
    assert main(["sessions", str(folder)]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert len(listed) == 2 and listed[1].startswith(first.stem)  # a header and one session
    assert listed[1].endswith("(opened 2 times)")
    # export: either journal's id names the session; the recap tells both openings
    assert main(["export", str(folder), "--session", second.stem]) == 0
    recap = capsys.readouterr().out
    assert f"session {first.stem}" in recap
    assert "Sees an elemental" in recap and "Sees a demon" in recap
    assert "Cym" in recap.split("##")[1]  # the standing: as the last opening left it


def test_a_session_of_two_journals_replays_from_each_ones_start(tmp_path: Path) -> None:
    folder = _reopened(tmp_path)
    listing = list_entries(sessions_dir(folder))
    played = Evenings.of(listing)
    [session] = played.sessions
    evening = played.log(session)
    logs = [read_session(p) for p in list_sessions(sessions_dir(folder))]
    replay = evening.replay(every=2)
    boundary = len(logs[0].events)
    assert evening.restarts == {boundary: logs[1].header.state}
    # the hand edits show from the second opening on, never before
    assert replay.state_at(boundary - 1).character("bors").sanity.pow == 12
    assert replay.state_at(boundary).character("bors").sanity.pow == 14
    assert not replay.state_at(boundary - 1).has_character("cym")
    for step in range(boundary, replay.steps + 1):  # from any cached step, both ways
        assert replay.state_at(step).has_character("cym")
    final = recover(logs[1].header.state, [logs[1]]).state
    assert replay.final() == final == evening.final()
    assert replay.final() == read_checkpoint(folder)[0]


def test_evening_hours_zero_keeps_every_opening_a_session(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _reopened(tmp_path, Settings(evening_hours=0))
    assert read_checkpoint(folder)[0].settings.evening_hours == 0
    assert "evening_hours = 0" in (folder / "campaign.toml").read_text(encoding="utf-8")
    assert main(["sessions", str(folder)]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 3  # a header and two sessions


def test_a_single_journal_joins_to_itself(tmp_path: Path) -> None:
    folder = _reopened(tmp_path)
    log = read_session(list_sessions(sessions_dir(folder))[0])
    evening = joined([log])
    assert evening.log is log and evening.restarts == {}
