"""The players' screen's follower (``gmscreen show``) reads only what the GM's gmscreen appended:
after any run of the GM's actions (gains, notes, undo and redo, checkpoints, an evening closed
and a new one begun, a journal cut short and written again) it shows what reading every file
again would; an event appended is read from where the last reading ended."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmscreen.campaign.follow import CampaignFollower, Followed
from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.model import Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.store import load_sessions, read_checkpoint, recover, sessions_dir

STEPS = ["gain", "note", "round", "undo", "redo", "checkpoint", "reopen", "day", "add"]


def everything_again(folder: Path) -> Followed:
    """What a reader of every file would show: the checkpoint brought up to date."""
    checkpoint, _ = read_checkpoint(folder)
    logs = load_sessions(folder, damaged_ok=True)
    newest = logs[-1] if logs else None
    return Followed(
        recover(checkpoint, logs).state,
        tuple(newest.events) if newest is not None else (),
        newest.header.id if newest is not None else "",
    )


def _open(folder: Path, n: int) -> LiveCampaign:
    return open_campaign(folder, rng=random.Random(n), checkpoint_every=1_000)


def _step(live: LiveCampaign, step: str, n: int) -> None:
    who = [c.id for c in live.state.characters]
    if not who and step in ("gain", "note"):
        step = "add"  # the first character undone: someone to gain and write about
    match step:
        case "gain":
            live.gain(who[n % len(who)], "custom", {"amount": n % 3})
        case "note":
            live.note(f"note {n}", who[n % len(who)], shared=n % 2 == 0)
        case "round":
            live.next_round()
        case "undo":
            live.undo()
        case "redo":
            live.redo()
        case "checkpoint":
            live.checkpoint()
        case "day":
            live.end_day()
        case _:
            live.add_character(f"Extra {n}", 12)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(st.sampled_from(STEPS), min_size=1, max_size=30))
def test_the_follower_shows_what_reading_everything_again_would(steps: list[str]) -> None:
    with tempfile.TemporaryDirectory() as root:
        folder = create_campaign(Path(root), "Followed", Settings(auto_check=False))
        follower = CampaignFollower(folder)
        live = _open(folder, 0)
        try:
            live.add_character("Artinar", 13, chaos=43, law=47, balance=32)
            follower.poll()
            for n, step in enumerate(steps, start=1):
                if step == "reopen":
                    live.close()
                    live = _open(folder, n)
                else:
                    _step(live, step, n)
                follower.poll()
                assert follower.problem is None
                assert follower.current == everything_again(folder), (n, step)
        finally:
            live.close()


def test_a_journal_cut_short_and_grown_again_is_read_whole(tmp_path: Path) -> None:
    folder = create_campaign(tmp_path, "Followed", Settings(auto_check=False))
    with _open(folder, 1) as live:
        live.add_character("Artinar", 13)
        for n in range(5):
            live.note(f"note {n}", shared=True)
    follower = CampaignFollower(folder)
    (journal,) = sessions_dir(folder).glob("*.jsonl")
    data = journal.read_bytes()
    journal.write_bytes(data[: len(data) - 10])  # the last line torn: being written
    follower.poll()
    assert follower.current == everything_again(folder)
    assert follower.current is not None and len(follower.current.events) == 5
    with journal.open("ab") as out:
        out.write(data[len(data) - 10 :])  # and finished
    follower.poll()
    assert follower.current == everything_again(folder)
    assert len(follower.current.events) == 6


def test_an_appended_event_is_read_from_where_the_last_reading_ended(tmp_path: Path) -> None:
    folder = create_campaign(tmp_path, "Followed", Settings(auto_check=False))
    follower = CampaignFollower(folder)
    with _open(folder, 1) as live:
        live.add_character("Artinar", 13)
        live.note("the river is rising", shared=True)
        follower.poll()
        path = live.session_path
        assert path is not None and follower.current is not None
        shown = follower.current.events
        # What the follower read before is left alone on disk (the same bytes' length, in
        # place); a follower that read the evening again would stumble over the second line.
        data = bytearray(path.read_bytes())
        second = data.index(b"\n") + 1
        data[second : second + 8] = b"#" * 8
        with path.open("r+b") as file:
            file.write(data)
        live.note("the boat leaves at dusk", shared=True)
        assert follower.poll()
        assert follower.problem is None
        assert follower.current.events[:2] == shown
        assert [e.kind for e in follower.current.events] == ["character_added", "note", "note"]
