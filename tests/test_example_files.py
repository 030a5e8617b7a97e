"""The campaigns shipped today (schema 1) open unchanged, and write back byte for byte.

Every journal line re-encodes to exactly the bytes on disk, the session headers too, and each
``campaign.toml`` is what writing its state gives: a format change shows here first.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gmscreen.campaign.codec import parse_toml, to_toml
from gmscreen.campaign.events import Event
from gmscreen.campaign.journal import list_sessions, read_session
from gmscreen.campaign.model import SCHEMA
from gmscreen.campaign.store import load

ROOT = Path(__file__).parent.parent
EXAMPLES = [
    ROOT / "campaigns" / "example",
    ROOT / "campaigns" / "merp-party",
    # Not the demo (data/demo/party): it is what today's make_examples.py writes, in today's
    # schema (test_live_campaign.test_shipped_demo_is_what_make_examples_writes), not schema 1.
]


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("folder", EXAMPLES, ids=lambda p: p.name)
def test_every_journal_line_re_encodes_byte_for_byte(folder: Path) -> None:
    sessions = list_sessions(folder / "sessions")
    assert sessions
    for path in sessions:
        lines = path.read_bytes().split(b"\n")
        assert lines.pop() == b""
        log = read_session(path)
        assert log.torn is None and len(log.events) == len(lines) - 1
        assert log.header.to_json() == lines[0]
        for event, line in zip(log.events, lines[1:], strict=True):
            assert event.to_json() == line
            assert Event.from_json(line) == event


@pytest.mark.parametrize("folder", EXAMPLES, ids=lambda p: p.name)
def test_every_checkpoint_writes_back_byte_for_byte(folder: Path) -> None:
    path = folder / "campaign.toml"
    text = path.read_text(encoding="utf-8")
    campaign = parse_toml(text, path)
    assert campaign.schema == SCHEMA == 1
    assert to_toml(campaign) == text


@pytest.mark.parametrize("folder", EXAMPLES, ids=lambda p: p.name)
def test_every_example_opens_and_leaves_its_files_as_they_were(
    folder: Path, tmp_path: Path
) -> None:
    copy = tmp_path / folder.name
    shutil.copytree(folder, copy)
    before = _files(copy)
    recovered = load(copy)
    assert recovered.state.characters
    assert _files(copy) == before
