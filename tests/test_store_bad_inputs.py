"""Bad input on disk: a clear message naming file and line, and every file left byte for byte."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from gmscreen.campaign import CampaignFileError, CampaignLocked, open_campaign
from gmscreen.campaign.model import Campaign, Character
from gmscreen.campaign.store import load, write_checkpoint
from gmscreen.rules.madness import MadnessState


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    folder = tmp_path / "camp"
    folder.mkdir()
    chars = (
        Character("artinar", "Artinar", MadnessState(pow=13, chaos=43, balance=32, law=47)),
        Character("elric", "Elric", MadnessState(pow=18, chaos=70, balance=10, law=5)),
    )
    write_checkpoint(folder, Campaign(name="Bad", characters=chars))
    with open_campaign(folder, rng=random.Random(1)) as live:
        live.gain("artinar", "custom", {"amount": 3})
        live.gain("elric", "elemental")
    return folder


def _edit_toml(old: str, new: str, count: int = 1) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        path = folder / "campaign.toml"
        text = path.read_text()
        assert old in text
        path.write_text(text.replace(old, new, count))

    return edit


def _journal(folder: Path) -> Path:
    return next((folder / "sessions").glob("*.jsonl"))


def _drop_header(folder: Path) -> None:
    path = _journal(folder)
    path.write_bytes(b"".join(path.read_bytes().splitlines(keepends=True)[1:]))


def _break_middle_line(folder: Path) -> None:
    path = _journal(folder)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[1] = lines[1][:20] + b"\n"
    path.write_bytes(b"".join(lines))


def _break_middle_line_not_covered(folder: Path) -> None:
    """A damaged line the checkpoint does not cover (it is older than the events on it)."""
    _break_middle_line(folder)
    _edit_toml("last_event = 2", "last_event = 0")(folder)


CASES = {
    "broken TOML": (_edit_toml('name = "Bad"', 'name = "Bad'), "campaign.toml:3:", "TOML"),
    "wrong type": (_edit_toml("chaos = 43", 'chaos = "lots"'), "campaign.toml:", "chaos"),
    "unknown schema": (_edit_toml("schema = 1", "schema = 7"), "campaign.toml:2:", "schema 7"),
    "negative POW": (_edit_toml("pow = 13", "pow = -3"), "campaign.toml:", "pow"),
    "duplicate ids": (_edit_toml('id = "elric"', 'id = "artinar"'), "campaign.toml:", "duplicate"),
    "journal without header": (_drop_header, ".jsonl:1:", "session header"),
    "bad line mid-journal": (_break_middle_line_not_covered, ".jsonl:2:", "not valid JSON"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_input_is_reported_and_nothing_written(campaign: Path, case: str) -> None:
    damage, where, what = CASES[case]
    damage(campaign)
    before = _snapshot(campaign)
    with pytest.raises(CampaignFileError) as info:
        open_campaign(campaign, rng=random.Random(1))
    message = str(info.value)
    assert where in message and what in message, message
    assert _snapshot(campaign) == before
    with pytest.raises(CampaignFileError):
        load(campaign)
    assert _snapshot(campaign) == before


def test_a_damaged_middle_line_the_checkpoint_covers_does_not_stop_the_campaign(
    campaign: Path,
) -> None:
    """#14.3: reported, set aside, nothing rewritten; the state is the checkpoint's."""
    expected = load(campaign).state
    _break_middle_line(campaign)
    journal = _journal(campaign)
    before = journal.read_bytes()
    with open_campaign(campaign, rng=random.Random(1)) as live:
        assert live.state == expected
        notice = " ".join(live.notices)
        assert f"{journal.name} has a damaged line 2" in notice, live.notices
        assert "not valid JSON" in notice
    assert journal.read_bytes() == before
    corrupt = journal.with_name(journal.name + ".corrupt")
    assert corrupt.read_bytes() == before.splitlines()[1]


def test_line_of_the_offending_key_is_named(campaign: Path) -> None:
    _edit_toml("pow = 18", "pow = -1")(campaign)
    text = (campaign / "campaign.toml").read_text().splitlines()
    line = next(n for n, t in enumerate(text, 1) if t.startswith("pow = -1"))
    with pytest.raises(CampaignFileError) as info:
        load(campaign)
    assert f"campaign.toml:{line}: characters[1].pow: must be from 1 to 1000, not -1" in str(
        info.value
    )


def test_every_problem_is_listed(campaign: Path) -> None:
    _edit_toml("pow = 13", "pow = 0")(campaign)
    _edit_toml("law = 5", "law = true")(campaign)
    _edit_toml("schema = 1", "schema = 2")(campaign)
    with pytest.raises(CampaignFileError) as info:
        load(campaign)
    assert len(info.value.problems) == 3


def test_torn_last_line_is_set_aside_and_the_rest_kept(campaign: Path) -> None:
    path = _journal(campaign)
    with open(path, "ab") as out:
        out.write(b'{"seq": 3, "action": 3, "at": "2024-')
    before = _snapshot(campaign)
    recovered = load(campaign)
    assert _snapshot(campaign) == before  # reading writes nothing
    assert any("cut short" in n and path.name in n for n in recovered.notices)
    assert [e.seq for e in recovered.logs[0].events] == [1, 2]
    with open_campaign(campaign, rng=random.Random(1)) as live:
        assert live.state.character("elric").sanity.madness == 2
        assert any("cut short" in n for n in live.notices)
    after = _snapshot(campaign)
    corrupt = path.name + ".corrupt"
    assert after.pop(f"sessions/{corrupt}") == b'{"seq": 3, "action": 3, "at": "2024-'
    # The session index is a cache of the journals: the one that grew is described again.
    after.pop("sessions/index.json")
    before.pop("sessions/index.json", None)
    assert after == before  # the journal itself is untouched; nothing else was rewritten


def test_torn_line_of_an_unsaved_tail_is_replayed_up_to_the_tear(campaign: Path) -> None:
    with open_campaign(campaign, rng=random.Random(1), checkpoint_every=1000) as live:
        live.gain("artinar", "custom", {"amount": 4})
        journal = live.session_path
        assert journal is not None
        # a crash: the lock stays held by a process that is gone, the checkpoint is behind
        with open(journal, "ab") as out:
            out.write(b'{"seq": 4, "act')
        live._lock.release()  # simulate the kernel dropping the lock of a dead process
        recovered = load(campaign)
    assert recovered.state.character("artinar").sanity.madness == 7
    assert recovered.replayed == 1


LOCK_HOLDER = r"""
import random, sys
from gmscreen.campaign import open_campaign
live = open_campaign(sys.argv[1], rng=random.Random(1))
print("locked", flush=True)
sys.stdin.readline()
live.close()
"""


def test_a_campaign_locked_by_a_live_process_is_refused(campaign: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", LOCK_HOLDER, str(campaign)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        before = _snapshot(campaign)
        with pytest.raises(CampaignLocked) as info:
            open_campaign(campaign, rng=random.Random(1))
        assert f"process {holder.pid}" in str(info.value)
        assert _snapshot(campaign) == before
    finally:
        holder.communicate("\n", timeout=20)
    assert holder.returncode == 0
    with open_campaign(campaign, rng=random.Random(1)) as live:
        assert not live.notices  # released cleanly: no stale lock to take over


def test_a_second_table_in_the_same_process_is_refused(campaign: Path) -> None:
    with open_campaign(campaign, rng=random.Random(1)), pytest.raises(CampaignLocked):
        open_campaign(campaign, rng=random.Random(1))


def test_missing_campaign_says_so(tmp_path: Path) -> None:
    with pytest.raises(CampaignFileError, match="no campaign here"):
        open_campaign(tmp_path, rng=random.Random(1))
    assert list(tmp_path.iterdir()) == []
