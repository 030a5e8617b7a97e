"""One key, one record (#14.2): a kill while an action of several events is written leaves the
whole action or none of it, and the torn one is reported by what it was.

A forked child plays ``D``, ``a 3 d`` and a gain to three marked characters, and kills itself
with SIGKILL from the journal writer's test hook at a chosen append, after writing a chosen
prefix of that append's bytes (as a kill inside ``write`` would). On reopen the state must be
the fold of the whole actions before it (or with it, once all its JSON is on disk), and a line
cut short must be named in the notices.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gmscreen.campaign import LiveCampaign, open_campaign
from gmscreen.campaign.journal import JournalWriter
from gmscreen.campaign.model import Campaign, Character
from gmscreen.campaign.store import load, write_checkpoint
from gmscreen.campaign.torn_lines import torn_action
from gmscreen.rules.madness import DAY, HOUR, Episode, MadnessState

FIXED = datetime(2024, 5, 1, 20, 0, tzinfo=UTC)
SEED = 7
CUTS_PER_ACTION = 17  # 3 actions x 17 cuts = 51 kills


def _play_d(live: LiveCampaign) -> object:
    return live.end_day()


def _play_a_3_d(live: LiveCampaign) -> object:
    return live.advance(3 * DAY)


def _play_gain_to_three(live: LiveCampaign) -> object:
    return live.gain_all(["a", "b", "c"], "elemental")


# Each with what its torn line may be called once the bytes say what it was (a D cut before
# its reason is still time passing; the span is said once its seconds are whole).
SCRIPT: list[tuple[str, Callable[[LiveCampaign], object], tuple[str, ...]]] = [
    ("D", _play_d, ("The end of day 1", "Time passing")),
    ("a 3 d", _play_a_3_d, ("Time passing",)),
    ("gain to 3", _play_gain_to_three, ("A madness gain",)),
]


def _campaign(folder: Path) -> None:
    folder.mkdir()
    episode = Episode("paranoia", 20, "days", 0, DAY + 12 * HOUR)
    chars = (
        Character("a", "Ana", MadnessState(pow=12, madness=5)),
        Character("b", "Bo", MadnessState(pow=12, madness=8, under_care=True)),
        Character("c", "Cy", MadnessState(pow=12, madness=20, chaos=90, episode=episode)),
    )
    write_checkpoint(folder, Campaign(name="Torn", clock=10 * HOUR, characters=chars))


def _open(folder: Path) -> LiveCampaign:
    return open_campaign(
        folder, rng=random.Random(SEED), clock=lambda: FIXED, checkpoint_every=10**6
    )


def _expected(folder: Path) -> tuple[list[Campaign], list[bytes]]:
    """The state after each whole action, and each action's journal line, played unkilled."""
    lines: list[bytes] = []
    states: list[Campaign] = []

    def record(_path: Path, data: bytes) -> None:
        lines.append(data)

    JournalWriter.before_append = record
    try:
        with _open(folder) as live:
            states.append(live.state)
            for _, play, _ in SCRIPT:
                play(live)
                states.append(live.state)
    finally:
        JournalWriter.before_append = None
    return states, lines


def _killed_at(folder: Path, append: int, cut: int) -> None:
    """Play the script in a child that dies at ``append`` (0-based) after ``cut`` bytes."""
    if sys.platform == "win32":  # the tests that call this are marked posix
        raise NotImplementedError("os.fork")
    pid = os.fork()
    if pid == 0:  # the child: never returns to pytest
        try:
            seen = 0

            def die(path: Path, data: bytes) -> None:
                nonlocal seen
                if seen == append:
                    with open(path, "ab") as out:
                        out.write(data[:cut])
                        out.flush()
                        os.fsync(out.fileno())
                    os.kill(os.getpid(), signal.SIGKILL)
                seen += 1

            JournalWriter.before_append = die
            live = _open(folder)
            for _, play, _ in SCRIPT:
                play(live)
        finally:
            os._exit(3)  # the kill never came: the parent says so
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, status


@pytest.mark.posix("os.fork: a child killed inside an action, its memory shared")
def test_a_kill_inside_an_action_leaves_whole_actions_only(tmp_path: Path) -> None:
    pristine = tmp_path / "pristine"
    _campaign(pristine)
    reference = tmp_path / "reference"
    shutil.copytree(pristine, reference)
    states, lines = _expected(reference)
    assert len(lines) == len(SCRIPT), "one journal line per action"
    trials = 0
    for append, (label, _, name) in enumerate(SCRIPT):
        size = len(lines[append])
        cuts = sorted({round(k * size / (CUTS_PER_ACTION - 1)) for k in range(CUTS_PER_ACTION)})
        for cut in cuts:
            folder = tmp_path / f"trial-{append}-{cut}"
            shutil.copytree(pristine, folder)
            _killed_at(folder, append, cut)
            whole = cut >= size - 1  # all of its JSON is there (the newline may be missing)
            expected = states[append + 1] if whole else states[append]
            where = f"{label}, killed after {cut} of {size} bytes"
            assert load(folder).state == expected, where
            live = _open(folder)
            try:
                assert live.state == expected, where
                torn = [n for n in live.notices if "cut short" in n]
                if 0 < cut < size - 1:
                    assert len(torn) == 1, (where, live.notices)
                    if not torn_action(lines[append][:cut]).startswith("an action"):
                        assert torn[0].startswith(name), (where, torn[0])
                    assert "line" in torn[0] and "left out" in torn[0]
                else:
                    assert not torn, (where, live.notices)
            finally:
                live.close()
            trials += 1
    assert trials >= 50


@pytest.mark.posix("os.fork: a child killed inside an action, its memory shared")
def test_the_torn_action_is_named_by_what_it_was(tmp_path: Path) -> None:
    """The end of day, not a line number: the notice reads as the GM would say it."""
    pristine = tmp_path / "pristine"
    _campaign(pristine)
    _, lines = _expected(_copy(pristine, tmp_path))
    folder = tmp_path / "torn"
    shutil.copytree(pristine, folder)
    _killed_at(folder, 0, len(lines[0]) // 2)
    (notice,) = [n for n in load(folder).notices if "cut short" in n]
    assert notice.startswith("The end of day 1 (event 1 on) was cut short"), notice
    folder = tmp_path / "torn-gain"
    shutil.copytree(pristine, folder)
    _killed_at(folder, 2, len(lines[2]) - 2)
    (notice,) = [n for n in load(folder).notices if "cut short" in n]
    assert notice.startswith("A madness gain (elemental) for Ana, Bo, Cy"), notice


def _copy(pristine: Path, root: Path) -> Path:
    copy = root / "reference"
    shutil.copytree(pristine, copy)
    return copy


@pytest.fixture(autouse=True)
def _no_hook_left() -> Iterator[None]:
    yield
    JournalWriter.before_append = None


@pytest.mark.parametrize(
    "example",
    # (the shipped demo, data/demo/party, is written by today's make_examples.py in schema 2;
    # its first evening was this one)
    [Path("campaigns/example"), Path("campaigns/merp-party")],
    ids=["campaigns-example", "campaigns-merp-party"],
)
def test_schema_1_journals_open_unchanged_byte_for_byte(tmp_path: Path, example: Path) -> None:
    """Older journals (one event a line) read as before, and opening them rewrites nothing."""
    root = Path(__file__).resolve().parents[1]
    folder = tmp_path / "example"
    shutil.copytree(root / example, folder)
    journals = {p: p.read_bytes() for p in (folder / "sessions").glob("*.jsonl")}
    assert journals and all(b'"schema":1,' in data[:60] for data in journals.values())
    expected = load(folder)
    assert expected.logs[-1].events and not expected.notices
    with _open(folder) as live:
        assert live.state == expected.state
    assert {p: p.read_bytes() for p in journals} == journals
