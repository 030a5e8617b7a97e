"""Store figures: journal append with fsync, checkpoint of 200 characters, 10,000-event recovery.

    .venv/bin/python benchmarks/bench_store.py

Prints figures against the targets (p99 append <= 10 ms, checkpoint <= 50 ms, recovery <= 0.3 s);
never fails on time: the disk under the benchmark decides most of it.
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from common import percentile
from gmscreen.campaign import open_campaign
from gmscreen.campaign.model import Campaign, Character
from gmscreen.campaign.store import load, write_checkpoint
from gmscreen.rules import dice
from gmscreen.rules.madness import MadnessState

FIXED = datetime(2024, 5, 1, 20, 0, tzinfo=UTC)


def party(n: int) -> Campaign:
    chars = tuple(
        Character(f"pc{i}", f"Character {i}", MadnessState(pow=10 + i % 9, chaos=i % 50, law=20))
        for i in range(n)
    )
    return Campaign(name="Bench", characters=chars)


def bench_append(root: Path, count: int = 500) -> None:
    folder = root / "append"
    folder.mkdir()
    write_checkpoint(folder, party(4))
    times = []
    with open_campaign(
        folder, rng=random.Random(1), clock=lambda: FIXED, checkpoint_every=10**9
    ) as t:
        for n in range(count):
            start = time.perf_counter()
            t.gain(f"pc{n % 4}", "friend_dies", roll=dice.typed("1d6", n % 6 + 1))
            times.append(time.perf_counter() - start)
    ms = [x * 1000 for x in times]
    print(
        f"append (gain, journaled with fsync), {count} events: "
        f"p50 {percentile(ms, 0.5):.2f} ms, p99 {percentile(ms, 0.99):.2f} ms, "
        f"max {max(ms):.2f} ms  (target p99 <= 10 ms)"
    )
    # The disk's own floor, in the same run: a bare write of a line of the same size and its
    # fsync (what the journal cannot go below; on a shared VM most of the p99 is this).
    line = b"x" * 400 + b"\n"
    floor = []
    fd = os.open(folder / "floor", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        for _ in range(count):
            start = time.perf_counter()
            os.write(fd, line)
            os.fsync(fd)
            floor.append((time.perf_counter() - start) * 1000)
    finally:
        os.close(fd)
    print(
        f"  baseline, a bare write + fsync of {len(line)} bytes: "
        f"p50 {percentile(floor, 0.5):.2f} ms, p99 {percentile(floor, 0.99):.2f} ms"
    )


def bench_checkpoint(root: Path, repeats: int = 20) -> None:
    folder = root / "checkpoint"
    folder.mkdir()
    campaign = party(200)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        write_checkpoint(folder, campaign)
        times.append(time.perf_counter() - start)
    size = (folder / "campaign.toml").stat().st_size
    print(
        f"checkpoint of 200 characters ({size / 1024:.0f} KiB): "
        f"median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms"
        "  (target <= 50 ms)"
    )


def bench_recovery(root: Path, count: int = 10_000) -> None:
    folder = root / "recovery"
    folder.mkdir()
    write_checkpoint(folder, party(6))
    live = open_campaign(folder, rng=random.Random(2), clock=lambda: FIXED, checkpoint_every=10**9)
    rng = random.Random(3)
    made = 0
    while made < count:
        pick = rng.random()
        if pick < 0.8:
            live.gain(f"pc{rng.randrange(6)}", "custom", {"amount": rng.randint(0, 2)})
            made += 1
        elif pick < 0.9:
            made += len(live.advance(rng.choice([12, 3600, 86_400])))
        else:
            live.note("n")
            made += 1
    live._lock.release()  # a crash: the checkpoint never saw these events
    times, cpu = [], []
    for _ in range(7):  # one sample on a shared machine says little: median and spread
        start, start_cpu = time.perf_counter(), time.process_time()
        recovered = load(folder)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    assert recovered.replayed >= count
    print(
        f"recovery of a {recovered.replayed}-event journal, none of it checkpointed (worst case): "
        f"median {statistics.median(times):.3f} s, min {min(times):.3f} s, max {max(times):.3f} s"
        "  (target <= 0.3 s)"
    )
    # Wall time well above CPU time: another process had the CPU. (In a VM, time the host
    # takes counts as CPU time too: runs still vary, compare medians of several runs.)
    print(f"  the same, CPU time: median {statistics.median(cpu):.3f} s, min {min(cpu):.3f} s")
    write_checkpoint(folder, recovered.state)  # as the table does every 50 events and on quit
    start, start_cpu = time.perf_counter(), time.process_time()
    again = load(folder)
    took, took_cpu = time.perf_counter() - start, time.process_time() - start_cpu
    assert again.replayed == 0 and again.state == recovered.state
    print(
        f"reopening with the same journal, checkpoint up to date (reads and checks every line): "
        f"{took:.3f} s (CPU time {took_cpu:.3f} s)"
    )


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="gmscreen-bench-") as tmp:
        root = Path(tmp)
        bench_append(root)
        bench_checkpoint(root)
        bench_recovery(root)


if __name__ == "__main__":
    main()
