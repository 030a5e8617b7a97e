"""Crash safety: a real child process appends events and is killed with SIGKILL at random moments.

After every kill the campaign is reopened: every event whose append had returned (the child
prints its number only after ``LiveCampaign`` returned) is there, and the state equals the fold of the
journals, session after session.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

from tests.systems import KILLED

from gmscreen.campaign import open_campaign
from gmscreen.campaign.model import Campaign, Character
from gmscreen.campaign.reducer import fold
from gmscreen.campaign.store import load, load_sessions, write_checkpoint
from gmscreen.rules.madness import MadnessState

TRIALS = 50

CHILD = r"""
import random, sys
from tests.systems import KILLED

from gmscreen.campaign import open_campaign
seed = int(sys.argv[2])
rng = random.Random(seed)
live = open_campaign(sys.argv[1], rng=random.Random(seed), checkpoint_every=5)
print("open", flush=True)
for n in range(400):
    pick = rng.random()
    if pick < 0.45:
        events = [live.gain(rng.choice(["a", "b"]), "custom", {"amount": rng.randint(0, 3)})]
    elif pick < 0.6:
        events = live.advance(rng.choice([12, 3600, 86400]))
    elif pick < 0.75:
        undone = live.undo()
        events = [] if undone is None else [live.events[-1].event]
    elif pick < 0.85:
        redone = live.redo()
        events = [] if redone is None else [live.events[-1].event]
    else:
        events = [live.note("n%d" % n)]
    for e in events:
        print(e.seq, flush=True)
"""


def _campaign(folder: Path) -> None:
    folder.mkdir()
    chars = tuple(
        Character(cid, cid.upper(), MadnessState(pow=40, chaos=10, law=20, balance=5))
        for cid in ("a", "b")
    )
    write_checkpoint(folder, Campaign(name="Crash", characters=chars))


def _fold_journals(folder: Path) -> Campaign | None:
    """The state the journals describe, checking that each session starts where the last ended."""
    state: Campaign | None = None
    for log in load_sessions(folder):
        if state is not None:
            assert log.header.state == state, f"{log.path.name} does not start where we were"
        state = fold(log.header.state, log.events)
    return state


def test_sigkill_never_loses_an_acknowledged_event(tmp_path: Path) -> None:
    folder = tmp_path / "crash"
    _campaign(folder)
    chooser = random.Random(20240501)
    acknowledged: set[int] = set()
    for trial in range(TRIALS):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(folder), str(trial)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert child.stdout is not None
        wait_for = chooser.randint(0, 40)
        seen, opened = 0, False
        while seen < wait_for:
            line = child.stdout.readline()
            if not line:
                break
            opened = opened or line.strip() == "open"
            if line.strip().isdigit():
                acknowledged.add(int(line))
            seen += 1
        if chooser.random() < 0.5:  # and now and then let it run on a little
            deadline = time.perf_counter() + chooser.uniform(0, 0.003)
            while time.perf_counter() < deadline:
                pass
        child.kill()  # SIGKILL; TerminateProcess on Windows: no clean-up of its own
        rest, errors = child.communicate()
        assert child.returncode in (KILLED, 0), errors
        acknowledged.update(int(x) for x in rest.split() if x.isdigit())
        opened = opened or "open" in rest.split()

        recovered = load(folder)
        journal = {e.seq for log in recovered.logs for e in log.events}
        assert acknowledged <= journal, f"trial {trial}: lost {sorted(acknowledged - journal)}"
        folded = _fold_journals(folder)
        if folded is not None:
            assert recovered.state == folded
        if trial % 2:  # reopen for real now and then: takes the stale lock over, checkpoints
            live = open_campaign(folder, rng=random.Random(trial))
            assert live.state == recovered.state
            if opened:
                assert any("stale lock" in notice for notice in live.notices), live.notices
            live.close()
    assert acknowledged, "the children never got to append anything"
