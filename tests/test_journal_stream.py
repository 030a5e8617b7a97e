"""Journals read a line at a time (#18 Build 3): the same verdicts as the whole-file reader,
the same recovered state, and ``validate`` says how far it got when interrupted."""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmscreen.campaign import CampaignFileError, LiveCampaign, open_campaign
from gmscreen.campaign.journal import list_sessions, read_session
from gmscreen.campaign.journal_stream import JournalStream, Progress, check_campaign
from gmscreen.campaign.model import Settings
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.store import load, read_checkpoint, sessions_dir, write_checkpoint
from gmscreen.cli import campaign_cmds


def clock_on(day: int) -> Callable[[], datetime]:
    return lambda: datetime(2025, 3, day, 20, 0, tzinfo=UTC)


def _open(folder: Path, day: int) -> LiveCampaign:
    return open_campaign(folder, rng=random.Random(day), clock=clock_on(day))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three evenings with gains, rounds, an end of day (one line of several events), undos."""
    folder = create_campaign(tmp_path_factory.mktemp("played"), "Imrryr", Settings())
    with _open(folder, 1) as live:
        live.add_character("Artinar", 13, chaos=43, balance=32, law=47)
        live.add_character("Vadhra", 11, chaos=60, law=10)
    for day in (8, 15):
        with _open(folder, day) as live:
            live.gain("artinar", "elemental")
            live.gain_all(["artinar", "vadhra"], "elemental")
            live.note("to be undone")
            live.undo()
            live.end_day()
            live.gain("vadhra", "friend_dies", roll=live.roll("1d6"))
            live.undo()
            live.redo()
    return folder


@pytest.fixture
def folder(played: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(played, tmp_path / "imrryr"))


def streamed(path: Path) -> tuple[list[int], int | None]:
    with JournalStream(path) as stream:
        seqs = [e.seq for action in stream.actions() for e in action]
        return seqs, stream.torn.line if stream.torn else None


def whole(path: Path) -> tuple[list[int], int | None]:
    log = read_session(path)
    return [e.seq for e in log.events], log.torn.line if log.torn else None


def verdict(read: Callable[[Path], tuple[list[int], int | None]], path: Path) -> object:
    try:
        return read(path)
    except CampaignFileError as error:
        return [(p.line, p.message) for p in error.problems]


@pytest.mark.parametrize("behind", [0, 1, 2])
def test_the_streamed_fold_is_the_recovered_state(folder: Path, behind: int) -> None:
    journals = list_sessions(sessions_dir(folder))
    if behind:  # a checkpoint that lacks the last ``behind`` sessions
        write_checkpoint(folder, read_session(journals[-behind]).header.state)
    checkpoint = read_checkpoint(folder)[0]
    checked = check_campaign(checkpoint, journals)
    assert checked.state == load(folder).state
    assert checked.events == sum(len(read_session(p).events) for p in journals)
    assert checked.notices == load(folder).notices


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    where=st.integers(min_value=1, max_value=40),
    junk=st.sampled_from(
        [b"", b"{", b"[]", b"[1]", b"not json", b'{"seq": 1}', b"x" * 1_000_010, b"\xff\xfe"]
    ),
    replace=st.booleans(),
)
def test_a_hostile_line_gets_the_verdict_the_whole_reader_gives(
    folder: Path, tmp_path: Path, where: int, junk: bytes, replace: bool
) -> None:
    source = list_sessions(sessions_dir(folder))[-1]
    lines = source.read_bytes().split(b"\n")[:-1]
    at = min(where, len(lines))
    lines[at : at + int(replace)] = [junk]
    path = tmp_path / source.name
    path.write_bytes(b"\n".join(lines) + b"\n")
    assert verdict(streamed, path) == verdict(whole, path)


def test_validate_says_how_far_it_got_when_interrupted(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journals = list_sessions(sessions_dir(folder))

    def interrupt(progress: Progress) -> None:
        if progress.path == journals[1] and progress.line == 4:
            raise KeyboardInterrupt

    assert campaign_cmds._validate(folder, interrupt) == 130
    said = capsys.readouterr().err
    assert "interrupted" in said and f"1 of {len(journals)} journals checked (" in said
    assert f"{journals[1].name} line 4" in said
    assert campaign_cmds._validate(folder) == 0  # not interrupted: valid
