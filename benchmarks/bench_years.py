"""Campaigns that live for years (#18): what 100 and 1,000 past sessions cost against one.

Three campaigns are generated in a temporary folder (nothing is kept): 1, 100 and 1,000 past
sessions of 300 events each, 12 characters, one week of real time between two sessions. One
session is played through the live campaign (gains, rounds, madness checks, notes, a day's end,
an undo); every session of the generated campaigns is that session's events renumbered (each
folds from its header's state, so each replays), written as journal lines directly (a fsync per
event would take an hour for 300,000 events). Then, in one run, printed as figures and ratios:

- launch to first frame (``gmscreen FOLDER`` in a 120×40 pseudo-terminal, as bench_tui times
  the demo), for 100 and 1,000 sessions against the 1-session campaign (target ≤ 1.2×);
- ``gmscreen sessions`` on 1,000 sessions (target ≤ 0.5 s), next to 1 session;
- opening the replay picker from the GM's screen (R to its first frame; target ≤ 0.3 s);
- jumping in a replayed session of the 1,000-session campaign (target ≤ 50 ms);
- ``gmscreen validate`` of a campaign with one 200 MiB journal: its peak memory against the
  empty campaign's, each in a fresh Python (target ≤ 100 MiB above; ``bench_years.py validate``
  runs this part alone).

Launches are interleaved (1, 100, 1,000, 1, …): a busy moment of the shared machine hits all
three. Prints figures; never fails on time.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from msgspec.structs import replace
from textual import events as textual_events
from textual.app import App

from bench_tui import launch
from common import SIZE, WIDTH, summary
from gmscreen.campaign import events as ev
from gmscreen.campaign.journal import SessionHeader, list_sessions, read_session
from gmscreen.campaign.model import Campaign, Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.reducer import fold
from gmscreen.campaign.session_index import list_entries
from gmscreen.campaign.store import read_checkpoint, sessions_dir, write_checkpoint
from gmscreen.tui.app import make_app
from gmscreen.tui.screens.replay import ReplayScreen
from gmscreen.tui.screens.replay_picker import SessionPicker

SIZES = (1, 100, 1000)
EVENTS = 300  # a session's events, about
LAUNCHES = 7  # each campaign, interleaved
COMMAND_RUNS = 7
PICKER_OPENS = 7
JUMPS = 60
VALIDATE_MIB = 200  # the journal validate reads
VALIDATE_RUNS = 3
NAMES = (
    "Artinar", "Vadhra", "Zarozinia", "Moonglum", "Rackhir", "Cymoril",
    "Dyvim", "Tanelorn", "Oonai", "Myshella", "Jagreen", "Shaarilla",
)  # fmt: skip
MARKER = b"Zarozinia"  # a name on the roster: the GM's screen is up
FIRST_DAY = date(2007, 1, 6)
SESSIONS_IMPORTS = "import gmscreen.cli, gmscreen.cli.campaign_cmds"  # what the command loads


def fixed_clock() -> datetime:
    return datetime(2007, 1, 6, 20, 0, tzinfo=UTC)


def play_template(root: Path) -> tuple[SessionHeader, list[ev.Event]]:
    """One evening played through the live campaign: its start state and its events."""
    folder = create_campaign(root, "Template", Settings(auto_check=False))
    rng = random.Random(18)
    with open_campaign(folder, rng=rng, clock=fixed_clock, checkpoint_every=10_000) as live:
        for name in NAMES:
            live.add_character(
                name,
                rng.randint(10, 16),
                chaos=rng.randint(10, 70),
                balance=rng.randint(0, 40),
                law=rng.randint(10, 70),
            )
    with open_campaign(folder, rng=rng, clock=fixed_clock, checkpoint_every=10_000) as live:
        ids = [c.id for c in live.state.characters]
        while len(live.events) < EVENTS:
            who = rng.choice(ids)
            choice = rng.random()
            if live.check_due(who):
                check = live.start_check(who)
                while check.phase != "done":
                    if check.phase == "roll":
                        check.roll()
                    else:
                        check.choose_kind()
            elif choice < 0.45:
                live.gain(who, "friend_dies", roll=live.roll("1d6"))
            elif choice < 0.8:
                live.next_round()
            elif choice < 0.9:
                live.note(f"{live.character(who).name} looks over the ruins", who)
            elif choice < 0.97:
                live.advance(3600, "advance")
            else:
                live.undo()
        path = live.session_path
    assert path is not None
    log = read_session(path)
    return log.header, log.events


def renumbered(event: ev.Event, shift: int) -> ev.Event:
    data = event.data
    if isinstance(data, ev.Undo):
        data = replace(data, target=data.target + shift)
    return replace(event, seq=event.seq + shift, action=event.action + shift, data=data)


def line(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"


def generate(root: Path, sessions: int, header: SessionHeader, events: list[ev.Event]) -> Path:
    """A campaign of ``sessions`` past sessions, each ``events`` renumbered after the last."""
    folder = create_campaign(root, f"Years {sessions}", Settings(auto_check=False))
    sessions_dir(folder).mkdir()
    base = header.first_seq - 1  # events before the template's session (its characters)
    span = len(events)
    start: Campaign = header.state
    for n in range(sessions):
        shift = n * span
        day = FIRST_DAY + timedelta(weeks=n)
        state = replace(header.state, last_event=base + shift)
        session_id = f"{day.isoformat()}-1"
        head = SessionHeader(
            session_id, f"{day.isoformat()}T20:00:00+00:00", base + shift + 1, state
        )
        moved = [renumbered(e, shift) for e in events]
        with open(sessions_dir(folder) / f"{session_id}.jsonl", "w", encoding="utf-8") as out:
            out.write(line(head.to_dict()))
            out.writelines(line(e.to_dict()) for e in moved)
        start, last = state, moved
    write_checkpoint(folder, fold(start, last))
    # Opened and closed once, as a GM's campaign has been: the session index is written.
    open_campaign(folder, rng=random.Random(1), clock=fixed_clock).close()
    return folder


def big_journal(
    root: Path, header: SessionHeader, events: list[ev.Event], mib: int = VALIDATE_MIB
) -> Path:
    """A campaign of one session whose journal is ``mib`` MiB large (the template's events
    over and over), its checkpoint including them all (as after quitting)."""
    folder = create_campaign(root, "Years validate", Settings(auto_check=False))
    sessions_dir(folder).mkdir()
    base = header.first_seq - 1
    head = SessionHeader("2007-01-06-1", "2007-01-06T20:00:00+00:00", base + 1, header.state)
    rounds = 0
    with open(sessions_dir(folder) / f"{head.id}.jsonl", "wb") as out:
        out.write(head.to_json() + b"\n")
        while out.tell() < mib * 2**20:
            shift = rounds * len(events)
            out.writelines(renumbered(e, shift).to_json() + b"\n" for e in events)
            rounds += 1
    write_checkpoint(folder, replace(header.state, last_event=base + rounds * len(events)))
    return folder


# The peak resident memory of this process: VmHWM (Linux) is the new program's own; the
# rusage figure would carry the forking parent's peak across exec (this bench's, hundreds of MB).
PEAK = (
    "import resource, sys\n"
    "from gmscreen.cli import main\n"
    "code = main(['validate', sys.argv[1]])\n"
    "try:\n"
    "    status = open('/proc/self/status').read().split('VmHWM:')[1].split()[0]\n"
    "except (OSError, IndexError):\n"
    "    status = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
    "print(status, file=sys.stderr)\n"
    "sys.exit(code)\n"
)


def validate_peak(folder: Path) -> tuple[float, float]:
    """``gmscreen validate FOLDER`` in a fresh Python: its peak memory (MiB) and seconds."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", PEAK, str(folder)],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    took = time.perf_counter() - start
    return int(done.stderr.split()[-1]) / 1024, took  # KiB


def validate_memory(root: Path, header: SessionHeader, events: list[ev.Event]) -> None:
    empty = create_campaign(root, "Years empty", Settings(auto_check=False))
    big = big_journal(root, header, events)
    size = sum(p.stat().st_size for p in list_sessions(sessions_dir(big))) / 2**20
    peaks, bases, times = [], [], []
    for _ in range(VALIDATE_RUNS):  # interleaved: a busy moment hits both
        base, _ = validate_peak(empty)
        peak, took = validate_peak(big)
        bases.append(base)
        peaks.append(peak)
        times.append(took)
    extra = [p - b for p, b in zip(peaks, bases, strict=True)]
    print(
        f"{'validate, empty campaign: peak memory':<{WIDTH}} {min(bases):.0f}-{max(bases):.0f} MiB"
    )
    print(
        f"{f'validate, one {size:.0f} MiB journal: peak memory':<{WIDTH}}"
        f" {min(peaks):.0f}-{max(peaks):.0f} MiB, in {min(times):.1f}-{max(times):.1f} s"
    )
    print(
        f"{'  above the empty campaign':<{WIDTH}} {min(extra):.0f}-{max(extra):.0f} MiB"
        " (target <= 100 MiB)"
    )


def run_command(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


async def until_frame(app: App[None], frames: list[float], done: object, start: float) -> float:
    """Seconds from ``start`` to the first frame drawn once ``done()`` is true."""
    assert callable(done)
    deadline = start + 30
    while time.perf_counter() < deadline:
        await asyncio.sleep(0.0005)
        if done() and frames and frames[-1] > start:
            return frames[-1] - start
    return float("nan")


def send_key(app: App[None], key: str) -> None:
    event = textual_events.Key(key, key if len(key) == 1 else None)
    event.set_sender(app)
    app.post_message(event)  # what the driver does with a key from the terminal


async def picker_and_jumps(folder: Path, jumps: bool) -> tuple[list[float], list[float]]:
    """R on the GM's screen to the picker's first frame (several times); then, if ``jumps``,
    random jumps in the latest session to their first frame."""
    app = make_app(
        folder, rng=random.Random(3), clock=fixed_clock, config_path=None, animations=False
    )
    frames: list[float] = []
    app.post_display_hook = lambda: frames.append(time.perf_counter())  # type: ignore[method-assign]
    opened: list[float] = []
    jumped: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for _ in range(PICKER_OPENS):
            frames.clear()
            start = time.perf_counter()
            send_key(app, "R")
            opened.append(
                await until_frame(app, frames, lambda: isinstance(app.screen, SessionPicker), start)
            )
            await pilot.pause()
            if len(opened) < PICKER_OPENS:
                send_key(app, "escape")
                await pilot.pause(0.05)
        if jumps:
            send_key(app, "enter")  # the latest session, where the cursor starts
            await pilot.pause(0.2)
            screen = app.screen
            assert isinstance(screen, ReplayScreen), screen
            rng = random.Random(5)
            for _ in range(JUMPS):
                step = rng.randint(0, EVENTS)
                frames.clear()
                start = time.perf_counter()
                screen.go(step)
                jumped.append(await until_frame(app, frames, lambda: True, start))
                await pilot.pause()
        app.exit()
    return opened, jumped


def ratio(label: str, ours: list[float], base: list[float], target: str) -> None:
    value = statistics.median(ours) / statistics.median(base)
    paired = statistics.median(o / b for o, b in zip(ours, base, strict=True))
    goal = f"; target {target}" if target else ""
    print(f"{label:<{WIDTH}} {value:.2f}x (pairs {paired:.2f}x{goal})")


def main() -> None:
    gmscreen = str(Path(sys.executable).with_name("gmscreen"))
    with tempfile.TemporaryDirectory(prefix="years-bench-") as tmp:
        root = Path(tmp)
        started = time.perf_counter()
        header, events = play_template(root / "template")
        if sys.argv[1:] == ["validate"]:  # that figure alone
            validate_memory(root, header, events)
            return
        folders = {n: generate(root / str(n), n, header, events) for n in SIZES}
        made = time.perf_counter() - started
        big = folders[SIZES[-1]]
        size = sum(p.stat().st_size for p in list_sessions(sessions_dir(big)))
        print(
            f"generated in {made:.1f} s: {len(events)} events a session, {len(NAMES)} characters;"
            f" {SIZES[-1]} sessions = {size / 2**20:.0f} MiB of journals"
        )
        read_checkpoint(big)  # they open
        for folder in folders.values():  # once each first: module caches warm up
            launch([gmscreen, str(folder)], MARKER, b"q")
        launches: dict[int, list[float]] = {n: [] for n in SIZES}
        for _ in range(LAUNCHES):
            for n in SIZES:
                launches[n].append(launch([gmscreen, str(folders[n])], MARKER, b"q"))
        for n in SIZES:
            print(summary(f"launch to first frame, {n} past session(s)", launches[n]))
        for n in SIZES[1:]:
            ratio(f"launch ratio, {n} sessions to 1", launches[n], launches[1], "<= 1.2x")
        listing: dict[int, list[float]] = {n: [] for n in (SIZES[0], SIZES[-1])}
        for _ in range(COMMAND_RUNS):
            for n in listing:
                listing[n].append(run_command([gmscreen, "sessions", str(folders[n])]))
        for n, times in listing.items():
            print(summary(f"gmscreen sessions, {n} session(s)", times))
        ratio(f"gmscreen sessions, {SIZES[-1]} sessions to 1", listing[SIZES[-1]], listing[1], "")
        startup = [
            run_command([sys.executable, "-c", SESSIONS_IMPORTS]) for _ in range(COMMAND_RUNS)
        ]
        print(summary("  of which Python and gmscreen sessions' imports alone", startup))
        in_process = []
        for _ in range(COMMAND_RUNS):
            start = time.perf_counter()
            list_entries(sessions_dir(big))
            in_process.append(time.perf_counter() - start)
        print(summary(f"  listing {SIZES[-1]} sessions in-process (the index)", in_process))
        print(
            f"{'gmscreen sessions on 1,000 sessions, median':<{WIDTH}}"
            f" {statistics.median(listing[SIZES[-1]]):.2f} s (target <= 0.5 s)"
        )
        small_picker, _ = asyncio.run(picker_and_jumps(folders[1], jumps=False))
        picker, jumped = asyncio.run(picker_and_jumps(big, jumps=True))
        print(summary("replay picker, R to its first frame, 1 session", small_picker))
        print(summary(f"replay picker, R to its first frame, {SIZES[-1]} sessions", picker))
        ratio(f"replay picker, {SIZES[-1]} sessions to 1", picker, small_picker, "")
        print(
            f"{'replay picker on 1,000 sessions, median':<{WIDTH}}"
            f" {statistics.median(picker):.3f} s (target <= 0.3 s)"
        )
        print(summary(f"replay jump to its first frame, {SIZES[-1]} sessions", jumped))
        print(f"{'replay jump, slowest':<{WIDTH}} {max(jumped) * 1000:.1f} ms (target <= 50 ms)")
        validate_memory(root, header, events)


if __name__ == "__main__":
    main()
