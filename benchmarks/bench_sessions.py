"""``gmscreen sessions`` on a campaign of 100 sessions, and on a copy of it (#25 item 4).

A campaign of 100 past sessions (300 events each, 12 characters: bench_years' template) is
generated in a temporary folder, then copied with ``cp -r`` (new files: new inode times, the same
bytes), as a GM copies a campaign to a laptop. In one run, interleaved, ``gmscreen sessions`` is
timed on

- the untouched campaign (its index as the GM's screen wrote it),
- the copy, first call and the calls after (target: <= 0.3 s from the second call on),
- the campaign with no index at all (every journal read and parsed: what a distrusted index
  costs every time), which ``sessions`` then writes, so it is deleted before each of these runs,

beside Python starting and importing what ``sessions`` imports (the floor). Prints figures
(wall clock and CPU time, with the load average); never fails on time.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_years import SESSIONS_IMPORTS, generate, play_template
from common import WIDTH, summary
from gmscreen.campaign.store import sessions_dir

SESSIONS = 100
RUNS = 7


CPU: dict[str, list[float]] = {}  # each run's CPU time (user + system), by label


def timed(argv: list[str], label: str = "") -> float:
    """Wall clock of one run; its CPU time goes to ``CPU[label]`` (on a machine shared with
    others, the wall clock mostly measures them: the CPU time is the honest figure)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    CPU.setdefault(label, []).append(used)
    return took


def copy_tree(source: Path, target: Path) -> None:
    """``cp -r`` where there is one (new inode times, as a GM's copy gets), else the same copy."""
    if shutil.which("cp") and os.name == "posix":
        subprocess.run(["cp", "-r", str(source), str(target)], check=True)
    else:
        shutil.copytree(source, target, copy_function=shutil.copyfile)


def main() -> None:
    gmscreen = str(Path(sys.executable).with_name("gmscreen"))
    with tempfile.TemporaryDirectory(prefix="sessions-bench-") as tmp:
        root = Path(tmp)
        header, events = play_template(root / "template")
        untouched = generate(root / "untouched", SESSIONS, header, events)
        bare = generate(root / "bare", SESSIONS, header, events)
        index = sessions_dir(bare) / "index.json"
        copy = root / "copy"
        copy_tree(untouched, copy)
        size = sum(p.stat().st_size for p in sessions_dir(untouched).glob("*.jsonl"))
        print(f"{SESSIONS} sessions, {len(events)} events each: {size / 2**20:.1f} MiB of journals")
        first_copy = timed([gmscreen, "sessions", str(copy)], "copy, first call")
        runs: dict[str, list[float]] = {"untouched": [], "copy": [], "none": [], "floor": []}
        for _ in range(RUNS):  # interleaved: a busy moment of the machine hits all of them
            runs["untouched"].append(timed([gmscreen, "sessions", str(untouched)], "untouched"))
            runs["copy"].append(timed([gmscreen, "sessions", str(copy)], "copy"))
            index.unlink(missing_ok=True)
            runs["none"].append(timed([gmscreen, "sessions", str(bare)], "none"))
            runs["floor"].append(timed([sys.executable, "-c", SESSIONS_IMPORTS], "floor"))
        print(f"{'load average (1, 5, 15 min)':<{WIDTH}} {os.getloadavg()}")
        print(summary("floor: Python and the imports of sessions", runs["floor"]))
        print(summary("sessions, the untouched campaign", runs["untouched"]))
        print(f"{'sessions, the cp -r copy, first call':<{WIDTH}} {first_copy:.3f} s")
        print(summary("sessions, the cp -r copy, calls after", runs["copy"]))
        print(summary("sessions, no index (every journal parsed)", runs["none"]))
        print("CPU time of each run (user + system), s: median (min-max)")
        for label, cpu in CPU.items():
            print(
                f"{'  ' + label:<{WIDTH}} {statistics.median(cpu):.3f} ({min(cpu):.3f}-{max(cpu):.3f})"
            )
        print(
            f"{'the copy after its first call, median':<{WIDTH}}"
            f" {statistics.median(runs['copy']):.3f} s wall,"
            f" {statistics.median(CPU['copy']):.3f} s CPU (target <= 0.3 s)"
        )


if __name__ == "__main__":
    main()
