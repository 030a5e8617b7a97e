"""Faults on the write path without mounts (#14.3): a journal replaced under the live campaign is
never appended to, and a checkpoint that cannot be written is a notice, not a failed action."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from gmscreen.campaign import open_campaign
from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.journal import JournalChanged, JournalWriter, SessionHeader, read_session
from gmscreen.campaign.model import Campaign, Character
from gmscreen.campaign.store import load, write_checkpoint
from gmscreen.rules.madness import MadnessState


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    folder = tmp_path / "c"
    folder.mkdir()
    chars = (Character("ana", "Ana", MadnessState(pow=12, madness=5)),)
    write_checkpoint(folder, Campaign(name="Faults", characters=chars))
    return folder


def test_a_replaced_journal_is_never_appended_to(folder: Path) -> None:
    with open_campaign(folder, rng=random.Random(1)) as live:
        live.note("one")
        live.end_day()
        journal = live.session_path
        assert journal is not None
        copy = journal.with_name("copy")
        shutil.copyfile(journal, copy)
        copy.replace(journal)  # the same bytes, another file
        replaced = journal.read_bytes()
        live.note("two")
        assert any("replaced by another file" in n for n in live.notices), live.notices
        aside = journal.with_name(journal.name + ".damaged")
        assert aside.read_bytes() == replaced  # kept as it was, never appended to
        fresh = live.session_path
        assert fresh is not None
        assert [e.seq for e in read_session(fresh).events] == [e.event.seq for e in live.events]
        state = live.state
    assert load(folder).state == state


def test_the_writer_names_what_happened_to_its_file(tmp_path: Path) -> None:
    path = tmp_path / "2024-05-01-1.jsonl"
    writer = JournalWriter(path, SessionHeader("2024-05-01-1", "", 1, Campaign(name="x")))
    writer.check()
    with open(path, "ab") as out:
        out.write(b"{}\n")
    with pytest.raises(JournalChanged, match="made longer"):
        writer.check()
    path.write_bytes(b"")
    with pytest.raises(JournalChanged, match="cut short"):
        writer.check()
    path.unlink()
    with pytest.raises(JournalChanged, match="deleted"):
        writer.check()
    writer.close()


def test_a_checkpoint_that_cannot_be_written_is_a_notice_not_a_failed_action(
    folder: Path,
) -> None:
    checkpoint = folder / "campaign.toml"
    kept = checkpoint.read_bytes()
    live = open_campaign(folder, rng=random.Random(1), checkpoint_every=1)
    checkpoint.unlink()
    checkpoint.mkdir()  # a checkpoint the system will not let us write
    event = live.note("done all the same")
    assert live.events[-1].event == event
    assert any("campaign.toml was not updated" in n for n in live.notices), live.notices
    with pytest.raises(CampaignError, match=r"campaign\.toml"):  # a message naming it
        live.checkpoint()
    state = live.state
    live.close()  # never raises: it says what was kept
    assert live.close_problem is not None and "journal" in live.close_problem
    checkpoint.rmdir()
    checkpoint.write_bytes(kept)
    with open_campaign(folder, rng=random.Random(1)) as again:
        assert again.state == state  # the journal had it all
