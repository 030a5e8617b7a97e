"""How fast the screen is: time to first frame, and keypress-to-frame with 200 characters.

Time to first frame of the demo campaign is compared with a bare Textual ``App`` (a header, a
line of text, a footer) measured in the same run, two ways: launched as a GM launches it (the
``gmscreen --demo`` command in a 120×40 pseudo-terminal, until its first frame is on the
screen), and in-process (from building the app to its first frame, headless), which leaves out
start-up and so shows what Textual's drawing of the bigger screen costs. The keypress figures
drive the real app on a campaign of 200 characters: the first frame a key causes, and the last
("settled": no further frame for 80 ms). Prints figures; never fails on time.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import gc
import os
import pty
import random
import select
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from textual import events
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, OptionList, RichLog, Sparkline, Static

from common import SIZE, WIDTH, BareApp, summary
from gmscreen.campaign.model import Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign, make_demo_copy
from gmscreen.tui.app import make_app

RUNS = 7
# The start-up target (#26): launch to first frame <= 1.5x a bare Textual app, the median of 5
# launches each (interleaved: a launch moves by 100 ms with the machine's load), in 2 of 3 runs.
LAUNCHES = 5
LAUNCH_RUNS = 3
LAUNCH_TARGET = 1.5
CHARACTERS = 200
QUIET = 0.08  # a key's frames are over once none came for this long


def fixed_clock() -> datetime:
    return datetime(2025, 3, 1, 20, 0, tzinfo=UTC)


class BareKeyApp(BareApp):
    """The bare app, with a key that changes its line: the baseline for keypress-to-frame."""

    BINDINGS = [("j", "change_line", "Change")]

    def action_change_line(self) -> None:
        self.query_one(Static).update(str(time.perf_counter()))


class SameLayoutApp(App[None]):
    """Plain Textual widgets laid out like the GM's screen, with static text: what Textual
    itself costs for this layout, before any of gmscreen's own work."""

    CSS = """
    #header { dock: top; height: 1; background: $primary; }
    #top { height: 1fr; }
    #roster-box { width: 3fr; border: round $primary; }
    #detail { width: 2fr; border: round $secondary; }
    #log { height: 12; border: round $accent; }
    """

    def compose(self) -> ComposeResult:
        yield Static("Example   Day 2 · 00:00", id="header")
        with Horizontal(id="top"):
            with Vertical(id="roster-box"):
                yield OptionList(
                    *[f"Character {n}\nMadness ████░░░ 7/13\nChaos 43 · Law 47" for n in range(4)]
                )
            with Vertical(id="detail"):
                yield Static("Artinar\nplayed by Ana\n" * 5)
                yield Sparkline([1, 2, 3, 5, 8, 5, 3] * 6)
        yield RichLog(id="log")
        yield Footer()

    def on_mount(self) -> None:
        log = self.query_one(RichLog)
        for n in range(40):
            log.write(f"D1 10:02:48  Vadhra  Paranoia for 25 hours  1d6: 3  #{n}")


LAUNCH_BARE = """
from textual.app import App
from textual.widgets import Footer, Header, Static
class Bare(App):
    def compose(self):
        yield Header(); yield Static("bare-app-ready"); yield Footer()
Bare().run()
"""


def launch(argv: list[str], marker: bytes, quit_key: bytes) -> float:
    """Seconds from starting ``argv`` in a 120×40 pseudo-terminal until ``marker`` is on the
    screen: what a GM waits after typing the command. Then it quits as a person would."""
    return launch_with_cpu(argv, marker, quit_key)[0]


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) process ``pid`` has used so far, from Linux's /proc (in
    ticks, usually 10 ms); nan where there is no /proc. On a shared VM the wall clock of a
    launch mostly measures the other programs; the CPU time moves far less."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as file:
            fields = file.read().rpartition(")")[2].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def launch_with_cpu(argv: list[str], marker: bytes, quit_key: bytes) -> tuple[float, float]:
    """:func:`launch`'s seconds, and the CPU seconds the program had used by then."""
    # Python caches compiled modules on a real machine; this sandbox turns that off by default,
    # which would charge gmscreen (not installed compiled, unlike Textual) for compiling itself.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["TERM"] = "xterm-256color"
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: sizes its terminal, then becomes the program
        # Sized here, before the program can look: sized by the parent, it raced the child,
        # which sometimes started at 0×0, drew the "too small" screen, then the real one.
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[1], SIZE[0], 0, 0))
        os.execvpe(argv[0], argv, env)
    seen, took, cpu = b"", float("nan"), float("nan")
    while time.perf_counter() - start < 30:
        if select.select([fd], [], [], 0.5)[0]:
            try:
                seen += os.read(fd, 1 << 16)
            except OSError:
                break
            if marker in seen:
                took = time.perf_counter() - start
                cpu = cpu_seconds(pid)
                break
    os.write(fd, quit_key)
    deadline = time.perf_counter() + 10
    while not os.waitpid(pid, os.WNOHANG)[0]:
        if time.perf_counter() > deadline:  # it did not quit: do not leave it running
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            break
        if select.select([fd], [], [], 0.1)[0]:
            with contextlib.suppress(OSError):  # the terminal goes away as the program ends
                os.read(fd, 1 << 16)
    os.close(fd)
    return took, cpu


async def first_frame(make: Callable[[], App[None]]) -> float:
    """Seconds from building the app to its first rendered frame (headless)."""
    start = time.perf_counter()
    app = make()
    seen: list[float] = []

    def hook() -> None:
        if not seen:
            seen.append(time.perf_counter())
            app.exit()

    app.post_display_hook = hook  # type: ignore[method-assign]
    await app.run_async(headless=True, size=SIZE)
    return seen[0] - start


def demo_app() -> App[None]:
    return make_app(make_demo_copy(), rng=random.Random(1), clock=fixed_clock, config_path=None)


def big_campaign(root: Path) -> Path:
    # No automatic check: a gain that makes a check due would open the check dialog, and the
    # keys planned next would go to it instead.
    folder = create_campaign(root, "Two hundred", Settings(auto_check=False))
    rng = random.Random(2)
    with open_campaign(folder, rng=rng, clock=fixed_clock, checkpoint_every=10_000) as live:
        for n in range(CHARACTERS):
            live.add_character(
                f"Character {n:03d}",
                rng.randint(8, 18),
                chaos=rng.randint(0, 80),
                balance=rng.randint(0, 60),
                law=rng.randint(0, 80),
                madness=rng.randint(0, 7),
            )
    return folder


Frame = tuple[
    float, float
]  # when a frame was on the screen: wall clock, and this process's CPU time


async def press_to_frame(
    app: App[None], key: str, frames: list[Frame]
) -> tuple[float, float, float]:
    """Send one key as the terminal would; seconds until the first and the last frame it
    caused, and the CPU time this process spent until the last (what a busy machine's other
    programs do not add to: on a shared VM the wall clock mostly measures them)."""
    frames.clear()
    start, cpu = time.perf_counter(), time.process_time()
    character = key if len(key) == 1 else None
    event = events.Key(key, character)
    event.set_sender(app)
    app.post_message(event)  # what the driver does with a key from the terminal
    deadline = start + 3
    while time.perf_counter() < deadline:
        await asyncio.sleep(0.002)
        if frames and time.perf_counter() - frames[-1][0] > QUIET:
            break
    if not frames:
        return (float("nan"), float("nan"), float("nan"))
    return (frames[0][0] - start, frames[-1][0] - start, frames[-1][1] - cpu)


async def keypresses(
    make: Callable[[], App[None]], plan: list[tuple[str, str]]
) -> dict[str, list[float]]:
    app = make()
    frames: list[Frame] = []

    def drawn() -> None:
        frames.append((time.perf_counter(), time.process_time()))

    app.post_display_hook = drawn  # type: ignore[method-assign]
    results: dict[str, list[float]] = {}
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for label, key in plan:
            first, last, cpu = await press_to_frame(app, key, frames)
            if first == first:  # a key that changes nothing on screen makes no frame (nan)
                results.setdefault(f"{label}, first frame", []).append(first)
                results.setdefault(f"{label}, settled", []).append(last)
                results.setdefault(f"{label}, settled, CPU", []).append(cpu)
        app.exit()
    gc.unfreeze()  # the app froze its start-up (BaseApp.on_ready): the next one starts afresh
    return results


def plan_for_gmscreen() -> list[tuple[str, str]]:
    plan = [("select (j)", "j")] * 30 + [("next round (.)", "full_stop")] * 30
    for n in range(11):
        # A gain for the selected character: open the picker, filter "ele" down to "Sees an
        # elemental" (a fixed gain, no dice), enter picks it and asks what happened (left
        # out: enter), which applies it and closes the picker. The evening's first opening
        # lays the picker out for the first time (it is kept for the next ones): counted apart.
        first = " (the evening's first)" if n == 0 else ""
        plan += [(f"gain: open the picker{first} (g)", "g")]
        plan += [("gain: type in the picker", k) for k in ("e", "l", "e")]
        plan += [("gain: pick (enter)", "enter")]
        plan += [("gain: apply and close (enter)", "enter"), ("select (j)", "j")]
    return plan


def main() -> None:
    # ``bench_tui.py keys``: only the keypress figures; ``bench_tui.py start``: only start-up
    if sys.argv[1:] != ["keys"]:
        start_up()
    if sys.argv[1:] != ["start"]:
        keys()


def start_up() -> None:
    bare, same, ours = [], [], []
    for _ in range(RUNS):  # interleaved, so a busy moment of the machine hits all three
        bare.append(asyncio.run(first_frame(BareKeyApp)))
        same.append(asyncio.run(first_frame(SameLayoutApp)))
        ours.append(asyncio.run(first_frame(demo_app)))
    print(summary("first frame, bare Textual App (3 widgets)", bare))
    print(summary("first frame, plain Textual, same layout", same))
    print(summary("first frame, gmscreen demo", ours))
    ratio = statistics.median(ours) / statistics.median(bare)
    print(f"{'ratio to the bare App, in-process':<{WIDTH}} {ratio:.2f}x")
    ratio = statistics.median(ours) / statistics.median(same)
    print(f"{'ratio to the same layout in plain Textual':<{WIDTH}} {ratio:.2f}x")
    gmscreen = str(Path(sys.executable).with_name("gmscreen"))
    bare_run = [sys.executable, "-c", LAUNCH_BARE]
    launch(bare_run, b"bare-app-ready", b"\x11")  # once each first: the module caches warm up
    launch([gmscreen, "--demo"], b"Dreaming", b"q")
    met = 0
    for run in range(1, LAUNCH_RUNS + 1):
        bare_launch, ours_launch, bare_cpu, ours_cpu = [], [], [], []
        for _ in range(LAUNCHES):
            wall, cpu = launch_with_cpu(bare_run, b"bare-app-ready", b"\x11")
            bare_launch.append(wall)
            bare_cpu.append(cpu)
            wall, cpu = launch_with_cpu([gmscreen, "--demo"], b"Dreaming", b"q")
            ours_launch.append(wall)
            ours_cpu.append(cpu)
        print(f"run {run} of {LAUNCH_RUNS}")
        print(summary("  launch to first frame, bare Textual App", bare_launch))
        print(summary("  launch to first frame, gmscreen --demo", ours_launch))
        ratio = statistics.median(ours_launch) / statistics.median(bare_launch)
        met += ratio <= LAUNCH_TARGET
        print(f"{f'  launch ratio of medians (target <= {LAUNCH_TARGET}x)':<{WIDTH}} {ratio:.2f}x")
        # Each gmscreen launch against the bare launch just before it: a busy moment of the
        # machine slows both of a pair.
        paired = statistics.median(o / b for o, b in zip(ours_launch, bare_launch, strict=True))
        print(f"{'  launch ratio, median of back-to-back pairs':<{WIDTH}} {paired:.2f}x")
        if all(c == c for c in bare_cpu + ours_cpu):  # no /proc: no CPU figures
            ratio = statistics.median(ours_cpu) / statistics.median(bare_cpu)
            print(f"{'  launch CPU ratio of medians':<{WIDTH}} {ratio:.2f}x")
    print(f"launch target (<= {LAUNCH_TARGET}x in 2 of {LAUNCH_RUNS} runs): met in {met}")


def keys() -> None:
    bare_keys = asyncio.run(keypresses(BareKeyApp, [("bare app, a key with a binding", "j")] * 30))
    for label, times in bare_keys.items():
        print(summary(label, times))
    with tempfile.TemporaryDirectory() as tmp:
        folder = big_campaign(Path(tmp))

        def big() -> App[None]:
            return make_app(
                folder, rng=random.Random(3), clock=fixed_clock, config_path=None, animations=False
            )

        results = asyncio.run(keypresses(big, plan_for_gmscreen()))
        for label, times in results.items():
            print(summary(f"{CHARACTERS} characters, {label}", times))
        for prefix in ("gain", ""):  # every key of a gain, then every key of the run
            for end in ("settled", "settled, CPU"):
                times = [
                    t
                    for label, ts in results.items()
                    if label.startswith(prefix) and label.endswith(end)
                    for t in ts
                ]
                print(summary(f"{CHARACTERS} characters, {prefix or 'any'} key, {end}", times))
    print("keypress-to-frame target: median <= 30 ms, every key's p90 <= 100 ms")


if __name__ == "__main__":
    main()
