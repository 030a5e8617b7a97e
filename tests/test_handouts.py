"""Handouts: a shared note kept for the players across sessions, in the state (so a later
evening finds it without reading the journal that wrote it) until the GM stops sharing it; and
notes of several lines, kept whole in the journal and the checkpoint."""

from __future__ import annotations

import random
import shutil
import tomllib
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gmscreen.campaign import InvalidAction, LiveCampaign, open_campaign
from gmscreen.campaign import events as ev
from gmscreen.campaign.journal import read_session
from gmscreen.campaign.model import Handout, Settings
from gmscreen.campaign.notes import handouts_now
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.reducer import fold
from gmscreen.campaign.store import campaign_file, load, read_checkpoint
from gmscreen.cli import main

MAP = "The map of the Dreaming City\nwith the secret gate marked"


def _open(folder: Path, day: int = 1, every: int = 50) -> LiveCampaign:
    clock = datetime(2025, 5, day, 20, 0, tzinfo=UTC)
    return open_campaign(
        folder, rng=random.Random(day), clock=lambda: clock, checkpoint_every=every
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    folder = create_campaign(tmp_path, "Imrryr", Settings(auto_check=False))
    with _open(folder) as live:
        live.add_character("Elric", 15)
    return folder


def test_a_handout_stays_for_the_next_evening_until_it_is_unshared(folder: Path) -> None:
    with _open(folder, 1) as live:
        kept = live.note(MAP, "elric", kept=True)
        live.note("Tonight only", shared=True)
        assert isinstance(kept.data, ev.Note) and kept.data.shared and kept.data.kept
        assert live.state.handouts == (Handout(kept.seq, MAP, "elric", 0),)
    written = tomllib.loads(campaign_file(folder).read_text("utf-8"))
    assert written["handouts"] == [{"id": kept.seq, "character": "elric", "game": 0, "text": MAP}]
    with _open(folder, 2) as live:  # evening two: the journal of evening one is not read
        assert [n.text for n in handouts_now(live.state)] == [MAP]
        live.edit_note(kept.seq, MAP + "\nand the tide tables", shared=True)
        assert live.state.handouts[0].text.endswith("tide tables")
        live.edit_note(kept.seq, MAP, shared=False)  # the GM stops sharing it
        assert not live.state.handouts
        live.undo()
        assert [h.id for h in live.state.handouts] == [kept.seq]
        live.edit_note(kept.seq, MAP, shared=True, kept=False)  # shared tonight, not kept
        assert not live.state.handouts
    with _open(folder, 3) as live:
        assert not live.state.handouts
        with pytest.raises(InvalidAction, match="no note"):
            live.edit_note(kept.seq, MAP, shared=True)


def test_a_handout_of_an_earlier_evening_is_taken_back_and_undone(folder: Path) -> None:
    with _open(folder, 1) as live:
        first = live.note("The ferryman's price", kept=True)
        second = live.note(MAP, kept=True)
    with _open(folder, 2) as live:
        removed = live.remove_note(first.seq)
        assert isinstance(removed.data, ev.NoteRemoved) and removed.data.kept
        assert [h.id for h in live.state.handouts] == [second.seq]
        live.undo()
        assert [h.id for h in live.state.handouts] == [first.seq, second.seq]
        live.undo()  # nothing left tonight: the second note, from evening one
        assert [h.id for h in live.state.handouts] == [first.seq]
        state = live.state
    with _open(folder, 3) as live:
        assert live.state.handouts == state.handouts


def test_recovery_and_replay_give_the_same_handouts(folder: Path, tmp_path: Path) -> None:
    live = _open(folder, 1, every=10_000)
    try:
        a = live.note("one\r\ntwo\rthree", kept=True)
        b = live.note("GM only")
        live.edit_note(b.seq, "now a handout", shared=True, kept=True)
        live.edit_note(a.seq, "one\ntwo\nthree", shared=True, kept=True)  # the same: nothing
        c = live.note("gone soon", kept=True)
        live.remove_note(c.seq)
        state = live.state
        assert [(h.id, h.text) for h in state.handouts] == [
            (a.seq, "one\ntwo\nthree"),
            (b.seq, "now a handout"),
        ]
        crashed = tmp_path / "crashed"
        shutil.copytree(folder, crashed, ignore=shutil.ignore_patterns(".lock"))
        assert read_checkpoint(crashed)[0].handouts == ()
        assert load(crashed).state == state
        assert live.session_path is not None
        log = read_session(live.session_path)
        assert fold(log.header.state, log.events) == state
        (note,) = [e.data for e in log.events if e.seq == a.seq]
        assert isinstance(note, ev.Note) and note.text == "one\ntwo\nthree"
    finally:
        live.close()


def test_a_note_of_several_lines_is_kept_whole(folder: Path) -> None:
    with _open(folder) as live:
        note = live.note(MAP)
        assert live.session_path is not None
        path = live.session_path
    (event,) = [e for e in read_session(path).events if e.seq == note.seq]
    assert isinstance(event.data, ev.Note) and event.data.text == MAP
    assert b"\\n" in path.read_bytes().splitlines()[-1]  # one journal line, the break escaped


BAD = """
[[handouts]]
id = 12
text = ""

[[handouts]]
id = "twelve"
text = "a map"

[[handouts]]
id = 13
text = "a map"
seen = true
"""


def test_bad_handouts_in_the_file_are_named_at_their_line(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = campaign_file(folder)
    head = path.read_text("utf-8")
    path.write_text(head + BAD, "utf-8")
    capsys.readouterr()
    assert main(["validate", str(folder)]) == 1
    out = capsys.readouterr().out
    start = head.count("\n") + 1
    assert f"{path}:{start + 3}: handouts[0].text: a handout says something" in out
    assert f"{path}:{start + 6}: handouts[1].id: expected a whole number, found text" in out
    assert f"{path}:{start + 12}: handouts[2].seen: expected one of" in out
