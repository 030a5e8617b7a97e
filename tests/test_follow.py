"""The players' screen's follower (``gmscreen show``) reads only what the GM's gmscreen appended:
after any run of the GM's actions (gains, notes, undo and redo, checkpoints, an evening closed
and a new one begun, a journal cut short and written again) it shows what reading every file
again would; an event appended is read from where the last reading ended."""

from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmscreen.campaign import follow_journal
from gmscreen.campaign.follow import CampaignFollower, Followed
from gmscreen.campaign.follow_notes import SHOWN_NOTES, SHOWN_TEXT, shown_count
from gmscreen.campaign.journal import JournalWriter, SessionHeader
from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.model import Campaign, Settings
from gmscreen.campaign.notes import settled
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.player_safe import SharedNote, player_safe
from gmscreen.campaign.store import load_sessions, read_checkpoint, recover, sessions_dir

STEPS = [
    *("gain", "note", "round", "undo", "redo", "checkpoint", "reopen", "day", "add"),
    *("notes", "long", "edit", "remove", "rename", "drop"),
]


def everything_again(folder: Path) -> Followed:
    """What a reader of every file would show: the checkpoint brought up to date, and every
    event of the newest session."""
    checkpoint, _ = read_checkpoint(folder)
    logs = load_sessions(folder, damaged_ok=True)
    newest = logs[-1] if logs else None
    return Followed(
        recover(checkpoint, logs).state,
        tuple(newest.events) if newest is not None else (),
        newest.header.id if newest is not None else "",
    )


def shown(followed: Followed) -> tuple[Campaign, str, tuple[SharedNote, ...]]:
    """What the players' screen shows of ``followed``: the state, the session, and the newest
    of the notes shared (by the follower's bound), with their words, times and names."""
    notes = player_safe(followed.state, "en", followed.events).notes
    newest_first = [len(n.text) for n in reversed(notes)]
    kept = notes[len(notes) - shown_count(newest_first) :]
    return followed.state, followed.session, kept


def _open(folder: Path, n: int) -> LiveCampaign:
    return open_campaign(folder, rng=random.Random(n), checkpoint_every=1_000)


def _step(live: LiveCampaign, step: str, n: int) -> None:
    who = [c.id for c in live.state.characters]
    notes = list(settled(e.event for e in live.events))
    if not notes and step in ("edit", "remove"):
        step = "note"  # nothing written yet tonight: write something
    if not who and step in ("gain", "note", "notes", "rename", "drop"):
        step = "add"  # the first character undone: someone to gain and write about
    match step:
        case "notes":  # more than the screen shows
            for k in range(7):
                live.note(f"note {n}.{k}", who[(n + k) % len(who)], shared=k % 3 != 2)
        case "long":
            live.note(f"{n} " + "long " * 400, shared=True)
        case "edit":
            live.edit_note(notes[n % len(notes)], f"rewritten {n}", shared=n % 3 != 0)
        case "remove":
            live.remove_note(notes[n % len(notes)])
        case "rename":
            live.edit_character(who[n % len(who)], name=f"Renamed {n}")
        case "drop":
            live.remove_character(who[n % len(who)])
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


def follow_steps(steps: list[str]) -> None:
    """The GM plays ``steps``; after each, the follower shows what reading everything would."""
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
                assert follower.current is not None
                assert shown(follower.current) == shown(everything_again(folder)), (n, step)
        finally:
            live.close()


GM_STEPS = st.lists(st.sampled_from(STEPS), min_size=1, max_size=30)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=GM_STEPS)
def test_the_follower_shows_what_reading_everything_again_would(steps: list[str]) -> None:
    follow_steps(steps)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=GM_STEPS)
def test_so_it_does_with_a_state_kept_every_few_events(steps: list[str]) -> None:
    """Undos, redos and checkpoints fold from the states kept on the way (one every 128 events
    in the app, some dozens in all): here every 2 events, only the last 2 and one in 3 before."""
    kept = (follow_journal.SNAPSHOT_EVERY, follow_journal.DENSE, follow_journal.SPARSE)
    follow_journal.SNAPSHOT_EVERY, follow_journal.DENSE, follow_journal.SPARSE = 2, 2, 3
    try:
        follow_steps(steps)
    finally:
        follow_journal.SNAPSHOT_EVERY, follow_journal.DENSE, follow_journal.SPARSE = kept


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
    assert follower.current is not None
    assert shown(follower.current) == shown(everything_again(folder))
    assert len(shown(follower.current)[2]) == 4
    with journal.open("ab") as out:
        out.write(data[len(data) - 10 :])  # and finished
    follower.poll()
    assert shown(follower.current) == shown(everything_again(folder))
    assert len(shown(follower.current)[2]) == 5


def test_an_appended_event_is_read_from_where_the_last_reading_ended(tmp_path: Path) -> None:
    folder = create_campaign(tmp_path, "Followed", Settings(auto_check=False))
    follower = CampaignFollower(folder)
    with _open(folder, 1) as live:
        live.add_character("Artinar", 13)
        live.note("the river is rising", shared=True)
        follower.poll()
        path = live.session_path
        assert path is not None and follower.current is not None
        before = follower.current.events
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
        assert follower.current.events[:1] == before
        assert [e.kind for e in follower.current.events] == ["note", "note"]


def test_the_journals_a_crashed_gmscreen_left_are_folded_in(tmp_path: Path) -> None:
    """A GM's gmscreen that crashed left a journal its checkpoint lacks; the next evening's
    journal starts after it: the follower folds the older one in, as opening does."""
    folder = create_campaign(tmp_path / "played", "Followed", Settings(auto_check=False))
    with _open(folder, 1) as live:
        live.add_character("Artinar", 13, chaos=43, law=47, balance=32)
    live = _open(folder, 2)
    live.gain("artinar", "custom", {"amount": 2})
    live.note("before the crash", "artinar", shared=True)
    crashed = tmp_path / "crashed"  # as the crash left it: no checkpoint of that evening
    shutil.copytree(folder, crashed, ignore=shutil.ignore_patterns(".lock"))
    live.close()
    follower = CampaignFollower(crashed)
    follower.poll()
    assert follower.current is not None
    assert shown(follower.current) == shown(everything_again(crashed))
    # The next evening's gmscreen crashed too, as it made its journal: a header, no event.
    recovered = everything_again(crashed).state
    empty = sessions_dir(crashed) / "2099-01-01-1.jsonl"
    header = SessionHeader("2099-01-01-1", "2099-01-01T20:00", recovered.last_event + 1, recovered)
    JournalWriter(empty, header).close()
    follower.poll()
    assert follower.problem is None
    assert shown(follower.current) == shown(everything_again(crashed))
    assert follower.current.state == recovered
    empty.unlink()
    with _open(crashed, 3) as again:
        again.gain("artinar", "custom", {"amount": 1})
        again.note("after the crash", shared=True)
        follower.poll()
        assert follower.problem is None and follower.current is not None
        assert len(list(sessions_dir(crashed).glob("*.jsonl"))) == 3
        assert shown(follower.current) == shown(everything_again(crashed))
        assert again.state == follower.current.state


def test_a_journal_with_a_damaged_line_the_checkpoint_covers_is_followed(tmp_path: Path) -> None:
    folder = create_campaign(tmp_path, "Followed", Settings(auto_check=False))
    with _open(folder, 1) as live:
        live.add_character("Artinar", 13)
        for n in range(4):
            live.note(f"note {n}", "artinar", shared=True)
    (journal,) = sessions_dir(folder).glob("*.jsonl")
    data = bytearray(journal.read_bytes())
    second = data.index(b"\n") + 1
    data[second : second + 8] = b"#" * 8  # the character's line, damaged in place
    journal.write_bytes(data)
    follower = CampaignFollower(folder)
    follower.poll()
    assert follower.problem is None and follower.current is not None
    assert shown(follower.current) == shown(everything_again(folder))
    assert len(shown(follower.current)[2]) == 4


def test_an_undo_far_into_the_evening_reads_only_its_end_again(tmp_path: Path) -> None:
    """The start of a long evening is damaged in place once the follower has read it: an undo
    and a checkpoint late in the evening fold from a state kept near them, without reading
    the start again (a follower that did would stumble)."""
    folder = create_campaign(tmp_path, "Followed", Settings(auto_check=False))
    follower = CampaignFollower(folder)
    with _open(folder, 1) as live:
        live.add_character("Artinar", 13, chaos=43, law=47, balance=32)
        for n in range(3 * follow_journal.SNAPSHOT_EVERY):
            live.gain("artinar", "custom", {"amount": n % 2})
        follower.poll()
        path = live.session_path
        assert path is not None
        data = bytearray(path.read_bytes())
        second = data.index(b"\n") + 1
        data[second : second + 8] = b"#" * 8
        with path.open("r+b") as file:
            file.write(data)
        live.gain("artinar", "custom", {"amount": 3})
        live.undo()
        follower.poll()
        assert follower.problem is None and follower.current is not None
        assert follower.current.state == live.state
        live.redo()
        live.checkpoint()
        live.gain("artinar", "custom", {"amount": 1})
        follower.poll()
        assert follower.problem is None
        assert follower.current.state == live.state


def test_only_the_newest_shared_notes_are_kept(tmp_path: Path) -> None:
    folder = create_campaign(tmp_path, "Followed", Settings(auto_check=False))
    follower = CampaignFollower(folder)
    with _open(folder, 1) as live:
        live.add_character("Artinar", 13)
        for n in range(3 * SHOWN_NOTES):
            live.note(f"note {n}", "artinar", shared=True)
        live.note("the GM's own")
        follower.poll()
        assert follower.current is not None
        notes = player_safe(follower.current.state, "en", follower.current.events).notes
        assert [n.text for n in notes] == [
            f"note {n}" for n in range(2 * SHOWN_NOTES, 3 * SHOWN_NOTES)
        ]
        assert len(follower.current.events) == SHOWN_NOTES + 1  # and the character's naming
        live.note("x" * SHOWN_TEXT, shared=True)  # long: it alone fills the text shown
        live.note("y" * 10_000, shared=True)  # longer than that: shown whole all the same
        follower.poll()
        notes = player_safe(follower.current.state, "en", follower.current.events).notes
        assert [n.text for n in notes] == ["y" * 10_000]


def test_how_many_notes_are_shown() -> None:
    assert shown_count([]) == 0
    assert shown_count([10] * (SHOWN_NOTES + 5)) == SHOWN_NOTES
    assert shown_count([SHOWN_TEXT - 10, 10, 1]) == 2
    assert shown_count([SHOWN_TEXT * 3, 1]) == 1  # the newest, however long
