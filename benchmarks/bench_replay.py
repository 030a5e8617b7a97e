"""How fast replay jumps: any step of a 10,000-event session, target ≤ 50 ms.

A 10,000-event session is synthesized from the example session's own events (gains, checks,
episodes, time, notes; every 50th action undone), written as a journal and read back. Then:

- ``Replay.state_at`` for random steps (cached every 64 steps and after every undo), against
  the baseline of folding the session from its start for the same steps (no cache);
- the replay screen's whole update for a random step, headless (``ReplayScreen.go``: state,
  roster, detail with its sparkline, timeline, log), and the same plus the frame it causes,
  against a bare Textual app updating one Static in the same run. Every screen jump (and bare
  update) is timed in three separate passes; a jump's time is the median of its three tries.
  On a shared VM a single frame now and then stalls for tens of milliseconds whatever it draws
  (the bare app's slowest update shows it): one try says as much about the machine as about
  the jump.

Prints median, p90, p99 and max, and what the slowest jumps to a frame were (how far they
jumped, how many frames they caused, whether a full pass of the cyclic collector ran in them);
never fails on time.
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from msgspec.structs import replace
from textual.app import App
from textual.widgets import Static

from common import SIZE, WIDTH, BareApp, summary
from gmscreen.campaign import events as ev
from gmscreen.campaign.journal import SessionHeader, read_session
from gmscreen.campaign.paths import create_campaign, demo_source
from gmscreen.campaign.reducer import fold
from gmscreen.campaign.replay import Replay
from gmscreen.campaign.store import sessions_dir, write_checkpoint
from gmscreen.tui.replay_app import make_replay_app
from gmscreen.tui.screens.replay import ReplayScreen

EVENTS = 10_000
PASSES = 3  # every screen jump is timed this many times, in separate passes
UNDO_EVERY = 50
SESSION = "2025-01-01-1"


def synthesize(count: int) -> tuple[SessionHeader, list[ev.Event]]:
    """``count`` events that fold: the example's own events, repeated with new numbers."""
    example = read_session(demo_source() / "sessions" / "2024-05-03-1.jsonl")
    pattern = [e for e in example.events if not isinstance(e.data, ev.Undo)]
    events: list[ev.Event] = []
    seq = 0
    while len(events) < count:
        for template in pattern:
            if len(events) >= count:
                break
            seq += 1
            action = seq if template.action == template.seq else events[-1].action
            events.append(replace(template, seq=seq, action=action))
            if seq % UNDO_EVERY == 0 and len(events) < count and action == seq:
                seq += 1
                events.append(replace(template, seq=seq, action=seq, data=ev.Undo(action, False)))
    header = SessionHeader(SESSION, "2025-01-01T20:00:00+00:00", 1, example.header.state)
    fold(header.state, events)  # they must apply
    return header, events


def write_campaign(root: Path, header: SessionHeader, events: list[ev.Event]) -> Path:
    folder = create_campaign(root, "Ten thousand")
    write_checkpoint(folder, header.state)
    sessions_dir(folder).mkdir()
    with open(sessions_dir(folder) / f"{SESSION}.jsonl", "w", encoding="utf-8") as out:
        for obj in (header.to_dict(), *(e.to_dict() for e in events)):
            out.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n")
    return folder


def timed(run: Callable[[], object], times: list[float]) -> None:
    start = time.perf_counter()
    run()
    times.append(time.perf_counter() - start)


Frame = tuple[
    float, float
]  # when a frame was on the screen: wall clock, and this process's CPU time


def frame_hook(app: App[None], frames: list[Frame]) -> None:
    def drawn() -> None:
        frames.append((time.perf_counter(), time.process_time()))

    app.post_display_hook = drawn  # type: ignore[method-assign]


async def to_frame(
    app: App[None], frames: list[Frame], change: Callable[[], object]
) -> tuple[float, float]:
    """Seconds from making ``change`` to the first frame drawn after it: on the wall clock,
    and in this process's CPU time (which the machine's other programs do not add to)."""
    frames.clear()
    start, cpu = time.perf_counter(), time.process_time()
    change()
    while not frames and time.perf_counter() - start < 3:
        await asyncio.sleep(0.0005)
    if not frames:
        return float("nan"), float("nan")
    return frames[0][0] - start, frames[0][1] - cpu


class Jump:
    """One timed jump to a frame, and what may explain its time."""

    def __init__(
        self,
        start: int,
        step: int,
        seconds: float,
        cpu: float,
        frames: int,
        full_gc: int,
        gc_seconds: float,
        gc_after: float = 0.0,
    ) -> None:
        self.start, self.step, self.seconds, self.cpu = start, step, seconds, cpu
        self.frames = frames  # frames drawn until the screen settled (1: only the first)
        self.full_gc = full_gc  # full passes of the cyclic collector before the first frame
        self.gc_seconds = gc_seconds  # time in the collector (any generation) before it
        # after it, until the screen is idle: a key pressed then waits this long too (the
        # replay leaves the collector as CPython runs it)
        self.gc_after = gc_after

    def __str__(self) -> str:
        gc_note = f", {self.full_gc} full gc pass" if self.full_gc else ""
        gc_note += f", {self.gc_seconds * 1000:.1f} ms in gc"
        return (
            f"{self.seconds * 1000:7.2f} ms  step {self.start:>5} -> {self.step:>5}"
            f" ({self.step - self.start:+d}), {self.frames} frame(s){gc_note}"
        )


async def screen_jumps(folder: Path, steps: list[int]) -> tuple[list[float], list[Jump]]:
    app = make_replay_app(folder, SESSION, config_path=None, animations=False)
    frames: list[Frame] = []
    frame_hook(app, frames)
    full_passes: list[float] = []
    passes: list[tuple[float, float]] = []  # (start, end) of every collection

    def on_gc(phase: str, info: dict[str, int]) -> None:
        now = time.perf_counter()
        if phase == "start":
            passes.append((now, now))
            if info["generation"] == 2:
                full_passes.append(now)
        elif passes:
            passes[-1] = (passes[-1][0], now)

    update: list[float] = []
    jumps: list[Jump] = []
    gc.callbacks.append(on_gc)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            for step in steps:
                timed(partial(screen.go, step), update)
            # The same jumps, from the same step, PASSES times: each pass ends where the next
            # starts, and 200 other jumps come between two tries of one jump (the line caches
            # have long forgotten it), so the tries differ only by what the machine did.
            for _ in range(PASSES):
                for step in steps:
                    start, full_passes[:], passes[:] = screen.step, [], []
                    seconds, cpu = await to_frame(app, frames, partial(screen.go, step))
                    first = frames[0][0] if frames else 0.0
                    await pilot.pause()
                    full_gc = sum(t < first for t in full_passes)
                    in_gc = sum(end - begin for begin, end in passes if end < first)
                    after = sum(end - begin for begin, end in passes if begin >= first)
                    jumps.append(
                        Jump(start, screen.step, seconds, cpu, len(frames), full_gc, in_gc, after)
                    )
    finally:
        gc.callbacks.remove(on_gc)
    return update, jumps


async def bare_updates(count: int) -> list[float]:
    """``count`` updates, PASSES times over (as the jumps are measured)."""
    app = BareApp()
    frames: list[Frame] = []
    frame_hook(app, frames)
    times: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        static = app.query_one(Static)
        for _ in range(PASSES):
            for n in range(count):
                times.append((await to_frame(app, frames, partial(static.update, str(n))))[0])
                await pilot.pause()
    return times


def each_of_passes(times: list[float]) -> list[float]:
    """Each jump's (or update's) median over the passes: the machine's hiccups, which hit one
    try and not the others, left out."""
    count = len(times) // PASSES
    return [statistics.median(times[n::count]) for n in range(count)]


def main() -> None:
    rng = random.Random(7)
    header, events = synthesize(EVENTS)
    with tempfile.TemporaryDirectory() as tmp:
        folder = write_campaign(Path(tmp), header, events)
        path = sessions_dir(folder) / f"{SESSION}.jsonl"
        start = time.perf_counter()
        replay = Replay.from_file(path)
        opened = time.perf_counter() - start
        undos = sum(isinstance(e.data, ev.Undo) for e in replay.events)
        print(f"session: {replay.steps} events ({undos} undos), {path.stat().st_size // 1024} KiB")
        print(f"{'read the journal and build the cache':<{WIDTH}} {opened * 1000:7.1f} ms")

        steps = [rng.randint(0, replay.steps) for _ in range(2000)]
        jumps: list[float] = []
        for step in steps:
            timed(partial(replay.state_at, step), jumps)
        print(summary("state_at(random step), cached every 64 and after undos", jumps))

        baseline: list[float] = []
        for step in steps[:40]:
            timed(partial(fold, replay.start, replay.events[:step]), baseline)
        print(summary("baseline: fold from the start, no cache", baseline))

        screen_steps = [rng.randint(0, replay.steps) for _ in range(200)]
        update, jumped = asyncio.run(screen_jumps(folder, screen_steps))
        framed = [j.seconds for j in jumped]
        print(summary("replay screen: go(random step), headless", update))
        print(summary(f"replay screen: go(random step) to its first frame, {PASSES} tries", framed))
        per_jump = each_of_passes(framed)
        print(summary("  each jump: the median of its tries", per_jump))
        cpu_per_jump = each_of_passes([j.cpu for j in jumped])
        print(summary("  each jump, CPU time: the median of its tries", cpu_per_jump))
        print("  the slowest tries, and the other tries of the same jump:")
        count = len(screen_steps)
        for index, jump in sorted(enumerate(jumped), key=lambda ij: -ij[1].seconds)[:5]:
            others = [jumped[n] for n in range(index % count, len(jumped), count) if n != index]
            tries = ", ".join(f"{j.seconds * 1000:.1f}" for j in others)
            print(f"    {jump}; other tries {tries} ms")
        with_gc = [j.seconds for j in jumped if j.full_gc]
        print(f"  {len(with_gc)} of {len(jumped)} with a full gc pass before their frame")
        print(summary("  time in the collector before the frame", [j.gc_seconds for j in jumped]))
        print(
            summary("  time in the collector after it (a key waits)", [j.gc_after for j in jumped])
        )
        print(
            summary(
                "  each jump, frame and collection after it: median of tries",
                each_of_passes([j.seconds + j.gc_after for j in jumped]),
            )
        )
        bare = asyncio.run(bare_updates(len(screen_steps)))
        print(summary(f"baseline: bare Textual app, Static.update + frame, {PASSES} tries", bare))
        print(summary("  each update: the median of its tries", each_of_passes(bare)))
    print(
        f"target: any step ≤ 50 ms; the slowest jump (median of its {PASSES} tries)"
        f" {max(per_jump) * 1000:.1f} ms, state_at's slowest {max(jumps) * 1000:.2f} ms;"
        f" the slowest single try {max(framed) * 1000:.1f} ms; in CPU time the slowest jump"
        f" {max(cpu_per_jump) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
