"""Campaigns written by an earlier gmscreen open, replay and write back unchanged.

``tests/fixtures/written-by-0.1`` was written by gmscreen 0.1 (the code before the campaign's
own horrors and handouts): the rich session of ``tests/rich_session.py``, then a second evening
(a first sighting forgotten, a two-line shared note, a settings change, undos and a redo) and a
third that undoes an action of the second (``undo_earlier``). With the demo campaign and the
examples in ``campaigns/`` (written by the same code), every journal line must decode and
encode back byte for byte, every header's state and the checkpoint must write back the values
they were read from, every session must replay to the next one's start, and opening and closing
the campaign must leave ``campaign.toml`` as it was.
"""

from __future__ import annotations

import itertools
import random
import shutil
import tomllib
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import pytest

from gmscreen.campaign.codec import campaign_to_dict, checkpoint_values
from gmscreen.campaign.journal import list_sessions, read_session
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import demo_source
from gmscreen.campaign.reducer import fold
from gmscreen.campaign.store import load, read_checkpoint, sessions_dir

FIXTURES = Path(__file__).parent / "fixtures"
EXAMPLES = Path(__file__).resolve().parents[1] / "campaigns"
FOLDERS = {
    "written-by-0.1": FIXTURES / "written-by-0.1",
    "demo": demo_source(),
    "example": EXAMPLES / "example",
    "merp-party": EXAMPLES / "merp-party",
}


@pytest.fixture(params=sorted(FOLDERS))
def written(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    copy = tmp_path / "campaign"
    shutil.copytree(FOLDERS[request.param], copy)
    return copy


def test_every_journal_line_reads_and_writes_back_byte_for_byte(written: Path) -> None:
    paths = list_sessions(sessions_dir(written))
    assert paths
    for path in paths:
        lines = path.read_bytes().splitlines()
        header = msgspec.json.decode(lines[0])
        log = read_session(path)
        assert campaign_to_dict(log.header.state) == header["state"], path.name
        assert log.header.to_json() == lines[0], path.name
        events = iter(log.events)
        for line in lines[1:]:
            raw = msgspec.json.decode(line)
            for one in raw if isinstance(raw, list) else [raw]:
                event = next(events)
                assert event.to_dict() == one, (path.name, event.seq)
                if not isinstance(raw, list):
                    assert event.to_json() == line, (path.name, event.seq)
        assert next(events, None) is None


def test_each_session_replays_to_the_next_ones_start_and_the_checkpoint(written: Path) -> None:
    logs = [read_session(p) for p in list_sessions(sessions_dir(written))]
    for log, following in itertools.pairwise(logs):
        assert fold(log.header.state, log.events) == following.header.state
    checkpoint, _ = read_checkpoint(written)
    assert fold(logs[-1].header.state, logs[-1].events) == checkpoint
    assert load(written).state == checkpoint


def test_the_checkpoint_writes_back_the_values_it_was_read_from(written: Path) -> None:
    text = (written / "campaign.toml").read_text("utf-8")
    checkpoint, _ = read_checkpoint(written)
    assert checkpoint_values(checkpoint) == tomllib.loads(text)


def test_opening_and_closing_leaves_campaign_toml_as_it_was(written: Path) -> None:
    before = (written / "campaign.toml").read_bytes()
    clock = datetime(2026, 1, 1, 20, 0, tzinfo=UTC)
    with open_campaign(written, rng=random.Random(1), clock=lambda: clock) as live:
        assert live.state == read_checkpoint(written)[0]
    assert (written / "campaign.toml").read_bytes() == before
