"""How fast the players' screen (``gmscreen show``) follows an event the GM journals, and what a
very long session costs it.

1. A campaign whose session already holds some 3,000 events (gains, notes, rounds for a party
   of eight) is played on by a live campaign in this process, one event at a time, as the GM's
   gmscreen would. After each event the follower looks (``CampaignFollower.poll``) and the
   players' view is worked out (``player_safe``, what ``ShowScreen.show_followed`` lays out): the
   work the players' screen does on its UI thread per event. Baseline, same run: reading the
   whole journal once (``read_session``), what a follower that reads everything again pays.

2. ``bench_follow.py big`` (this part alone; ``all`` runs both): a 100 MB journal, 10,000 shared
   notes of 10,000 characters (the most a note may hold), written directly. ``gmscreen show``
   (the app, headless, 120x40) is started in a fresh Python until its first frame shows the
   newest note: its CPU time and peak memory (VmHWM), beside the same for a campaign of one
   note (Python, Textual and gmscreen alone). Targets: <= 10 s CPU, <= 300 MB. Then lines are
   appended to that journal one at a time (a shared note of 10,000 characters, an hour
   passing, the hour taken back, in turn) and the screen, in this process, looks and draws: CPU and wall clock from the append
   to the frame that shows it (target <= 50 ms a event). And, for the other shape of a long
   journal, a 100 MiB one of ordinary events (bench_years' evening over and over: gains,
   checks, rounds, notes, undos; some 370,000 events) to its first frame.

Prints figures (the load average too: on a shared machine the CPU time is the honest figure);
never fails on time.
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from msgspec.structs import replace

from bench_years import MARKER, big_journal, play_template
from common import SIZE, WIDTH, summary
from gmscreen.campaign import events as ev
from gmscreen.campaign.follow import CampaignFollower
from gmscreen.campaign.journal import SessionHeader, read_session
from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.model import Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.player_safe import player_safe
from gmscreen.campaign.store import sessions_dir, write_checkpoint

EVENTS = 3000
FOLLOWED = 60  # events journaled one at a time, each followed
BIG_NOTES = 10_000  # notes of the big journal ...
NOTE_SIZE = 10_000  # ... of this many characters (bounds.MAX_TEXT)
APPENDED = 40  # lines appended to it, each followed to its frame
ORDINARY_MIB = 100  # a journal of ordinary events (bench_years' evening, over and over)


def fixed_clock() -> datetime:
    return datetime(2025, 3, 1, 20, 0, tzinfo=UTC)


def play(live: LiveCampaign, rng: random.Random, n: int) -> None:
    """``n`` actions of an evening: gains, shared notes, rounds."""
    ids = [c.id for c in live.state.characters]
    for k in range(n):
        match k % 4:
            case 0:
                live.gain(rng.choice(ids), "elemental")
            case 1:
                live.note(f"note {k}", rng.choice(ids), shared=k % 8 == 1)
            case 2:
                live.next_round()
            case _:
                live.gain(rng.choice(ids), "custom", {"amount": 0})


def follow_one_event() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(auto_check=False)
        folder = create_campaign(Path(tmp), "Followed", settings)
        rng = random.Random(4)
        with open_campaign(folder, rng=rng, clock=fixed_clock, checkpoint_every=100_000) as live:
            for n in range(8):
                live.add_character(f"Character {n}", 99, chaos=10, law=10, balance=10)
            play(live, rng, EVENTS)
            follower = CampaignFollower(folder)
            follower.poll()
            path = live.session_path
            assert path is not None
            whole, walls, cpus = [], [], []
            for _ in range(FOLLOWED):
                play(live, rng, 1)
                wall, cpu = time.perf_counter(), time.process_time()
                changed = follower.poll()
                current = follower.current
                assert changed and current is not None
                player_safe(current.state, "en", current.events)
                walls.append(time.perf_counter() - wall)
                cpus.append(time.process_time() - cpu)
                start = time.perf_counter()
                read_session(path, damaged_ok=True)
                whole.append(time.perf_counter() - start)
            print(f"{'events in the session':<{WIDTH}} {len(live.events)}")
            print(summary("baseline: read the whole journal once", whole))
            print(summary("follow one event (poll + player_safe)", walls))
            print(summary("follow one event, CPU", cpus))


# --- a 100 MB journal ----------------------------------------------------------------------


def note_text(n: int) -> str:
    return f"note {n}: " + ("the river is rising " * (NOTE_SIZE // 20 + 1))[: NOTE_SIZE - 12]


class BigJournal:
    """A campaign of eight characters whose one session is BIG_NOTES long shared notes, and
    the lines that may be appended to it (a note, an hour passing, an undo of it)."""

    def __init__(self, root: Path, notes: int) -> None:
        template = create_campaign(root / "template", "Template", Settings(auto_check=False))
        with open_campaign(template, rng=random.Random(1), clock=fixed_clock) as live:
            for n in range(8):
                live.add_character(f"Character {n}", 13, chaos=10, law=10, balance=10)
            live.note("x", "character-0", shared=True)
            live.advance(60, "advance")
            live.undo()
            path = live.session_path
        assert path is not None
        log = read_session(path)
        self.note = next(e for e in log.events if isinstance(e.data, ev.Note))
        self.hour = next(e for e in log.events if isinstance(e.data, ev.ClockAdvanced))
        self.undo = log.events[-1]
        start = log.header.state
        self.clock = start.clock
        self.folder = create_campaign(root, f"Big {notes}", Settings(auto_check=False))
        sessions_dir(self.folder).mkdir()
        header = SessionHeader("2025-03-01-1", "2025-03-01T20:00:00+00:00", 1, start)
        # As at the session's start: the checkpoint holds the characters, the journal the rest.
        write_checkpoint(self.folder, replace(start, last_event=0))
        self.path = sessions_dir(self.folder) / f"{header.id}.jsonl"
        self.seq = 0
        self.last_hour = 0
        with open(self.path, "wb") as out:
            out.write(header.to_json() + b"\n")
            for n in range(notes):
                out.write(self.note_line(n))

    def note_line(self, n: int) -> bytes:
        self.seq += 1
        data = replace(self.note.data, text=note_text(n))
        return replace(self.note, seq=self.seq, action=self.seq, data=data).to_json() + b"\n"

    def hour_line(self) -> bytes:
        """An hour of game time passes (the screen's clock moves on)."""
        self.seq += 1
        assert isinstance(self.hour.data, ev.ClockAdvanced)
        data = replace(self.hour.data, seconds=3600, before=self.clock, after=self.clock + 3600)
        moved = replace(self.hour, seq=self.seq, action=self.seq, game=self.clock, data=data)
        self.clock += 3600
        self.last_hour = self.seq
        return moved.to_json() + b"\n"

    def undo_line(self) -> bytes:
        """The GM takes the last hour back."""
        self.seq += 1
        assert isinstance(self.undo.data, ev.Undo)
        data = replace(self.undo.data, target=self.last_hour)
        self.clock -= 3600
        return (
            replace(self.undo, seq=self.seq, action=self.seq, game=self.clock, data=data).to_json()
            + b"\n"
        )


# The players' screen in a fresh Python, to its first frame showing ``marker``: CPU seconds and
# peak memory (VmHWM: this program's own, not the forking parent's), on stderr.
SHOW_ONCE = """
import asyncio, resource, sys, time
from pathlib import Path
from textual.content import Content
from textual.widget import Widget
from gmscreen.tui.show_app import make_show_app

async def run():
    app = make_show_app(Path(sys.argv[1]), strict=True, animations=False)
    async with app.run_test(size=(120, 40)) as pilot:
        while True:
            texts = [w.render() for w in app.screen.query(Widget) if w.display]
            if any(isinstance(t, Content) and sys.argv[2] in t.plain for t in texts):
                break
            await pilot.pause(0.01)

asyncio.run(run())
use = resource.getrusage(resource.RUSAGE_SELF)
try:
    peak = int(open("/proc/self/status").read().split("VmHWM:")[1].split()[0])
except (OSError, IndexError):  # not Linux: this figure may carry the parent's peak
    peak = use.ru_maxrss
print(use.ru_utime + use.ru_stime, peak / 1024, file=sys.stderr)
"""


def show_once(folder: Path, marker: str) -> tuple[float, float, float]:
    """``gmscreen show`` to its first frame: CPU seconds, peak MiB, wall seconds."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", SHOW_ONCE, str(folder), marker],
        check=True,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - start
    cpu, peak = done.stderr.split()[-2:]
    return float(cpu), float(peak), wall


async def follow_appended(big: BigJournal) -> tuple[list[float], list[float]]:
    """Lines appended one at a time, each followed by the screen to the frame that shows it."""
    from textual.content import Content
    from textual.widget import Widget

    from gmscreen.tui.show_app import ShowScreen, make_show_app

    def drawn() -> str:
        texts = [w.render() for w in app.screen.query(Widget) if w.display]
        return "\n".join(t.plain for t in texts if isinstance(t, Content))

    app = make_show_app(big.folder, strict=True, animations=False)
    walls: list[float] = []
    cpus: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        while f"note {BIG_NOTES - 1}:" not in drawn():
            await pilot.pause(0.05)
        screen = app.screen
        assert isinstance(screen, ShowScreen)
        for k in range(APPENDED):
            kind = k % 3
            if kind == 0:
                line = big.note_line(BIG_NOTES + k)
            else:
                line = big.hour_line() if kind == 1 else big.undo_line()
            with open(big.path, "ab") as out:
                out.write(line)
            wall, cpu = time.perf_counter(), time.process_time()
            screen.follow()  # what its interval timer does: look, lay out what changed
            await pilot.pause()  # and the frame
            cpus.append(time.process_time() - cpu)
            walls.append(time.perf_counter() - wall)
            if kind == 0:
                assert f"note {BIG_NOTES + k}:" in drawn(), (k, screen.follower.problem)
            current = screen.follower.current
            assert current is not None and current.state.clock == big.clock, k
        app.exit()
    return walls, cpus


def long_journals() -> None:
    with tempfile.TemporaryDirectory(prefix="follow-bench-") as tmp:
        root = Path(tmp)
        start = time.perf_counter()
        big = BigJournal(root / "big", BIG_NOTES)
        small = BigJournal(root / "small", 1)
        size = big.path.stat().st_size
        print(
            f"generated in {time.perf_counter() - start:.1f} s: {BIG_NOTES:,} shared notes of "
            f"{NOTE_SIZE:,} characters, {size / 1e6:.0f} MB"
        )
        runs = [(show_once(small.folder, "note 0:"), show_once(big.folder, f"note {BIG_NOTES - 1}:"))
                for _ in range(2)]  # fmt: skip
        print(f"{'load average (1, 5, 15 min)':<{WIDTH}} {os.getloadavg()}")
        for name, n in (("one note (baseline)", 0), (f"{size / 1e6:.0f} MB journal", 1)):
            cpu = [r[n][0] for r in runs]
            peak = [r[n][1] for r in runs]
            wall = [r[n][2] for r in runs]
            print(
                f"{'show to its first frame, ' + name:<{WIDTH}} CPU {min(cpu):.2f}-{max(cpu):.2f} s,"
                f" peak {min(peak):.0f}-{max(peak):.0f} MiB, wall {min(wall):.1f}-{max(wall):.1f} s"
            )
        print(f"{'  targets for the big journal':<{WIDTH}} CPU <= 10 s, peak <= 300 MB (286 MiB)")
        header, template = play_template(root / "years")
        ordinary = big_journal(root / "ordinary", header, template, ORDINARY_MIB)
        lines = sum(1 for _ in next(sessions_dir(ordinary).glob("*.jsonl")).open("rb"))
        used, most, took = show_once(ordinary, MARKER.decode())
        print(
            f"{f'show to its first frame, {ORDINARY_MIB} MiB of {lines:,} events':<{WIDTH}}"
            f" CPU {used:.2f} s, peak {most:.0f} MiB, wall {took:.1f} s"
        )
        walls, cpus = asyncio.run(follow_appended(big))
        print(summary("an appended line, to its frame (wall)", walls))
        print(summary("an appended line, to its frame (CPU)", cpus))
        print(f"{'  target':<{WIDTH}} <= 50 ms a event")
        print(f"{'load average (1, 5, 15 min)':<{WIDTH}} {os.getloadavg()}")


def main() -> None:
    part = sys.argv[1] if len(sys.argv) > 1 else "events"
    if part in ("events", "all"):
        follow_one_event()
    if part in ("big", "all"):
        long_journals()


if __name__ == "__main__":
    main()
