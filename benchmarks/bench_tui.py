"""How fast the screen is: launch to first frame, and keypress to frame with 30 and 200 characters.

Launch: ``gmscreen --demo`` and a bare Textual ``App`` (a header, a line of text, a footer), each
started in a 120×40 pseudo-terminal until its first frame is on the screen, interleaved, five
times each in each of three runs; the target is a median within 1.5× the bare app's in at least
two of the three. In-process first frames (from building the app to its first frame, headless)
are printed too: they leave out start-up, and so show what drawing the bigger screen costs.

Keys: the real app on a campaign of 30 characters (a table's worth and more) and of 200 (a cliff
guard), each key sent as the terminal driver sends it: the first frame it causes and the last
("settled": no further frame for 80 ms). A dialog opening or closing is followed by frames that
change nothing on the screen (Textual lays out and repaints the screens as they are shown and
hidden): its first frame is what the GM sees, the settled one what the machine spends. Opening
the gain picker is compared, in the same run, with opening a plain ``ModalScreen`` holding an
``OptionList`` of the same presets over the same screen; a dialog over the GM's screen costs
Textual tens of milliseconds whatever it holds (the screen below drawn again, dimmed), so the
keys that open a dialog are judged against that baseline and printed apart. Prints figures;
never fails on time.
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
from textual.binding import Binding
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from common import SIZE, WIDTH, BareApp, percentile, summary
from gmscreen.campaign.model import Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign, make_demo_copy
from gmscreen.i18n import Catalog
from gmscreen.rules.madness_data import load_madness_data
from gmscreen.tui.app import make_app
from gmscreen.tui.screens.gain import preset_hint

RUNS = 7
# The start-up target (#26): launch to first frame <= 1.5x a bare Textual app, the median of 5
# launches each (interleaved: a launch moves by 100 ms with the machine's load), in 2 of 3 runs.
LAUNCHES = 5
LAUNCH_RUNS = 3
LAUNCH_TARGET = 1.5
SIZES = ((30, 0.050), (200, 0.150))  # characters, and every key's p90 target (seconds)
PICKER_OPENINGS = 10
QUIET = 0.08  # a key's frames are over once none came for this long
OPENERS = ("gain: open the picker", "undo: ask")  # the keys of the plan that open a dialog
PLAIN = "a plain ModalScreen with an OptionList"


def fixed_clock() -> datetime:
    return datetime(2025, 3, 1, 20, 0, tzinfo=UTC)


class BareKeyApp(BareApp):
    """The bare app, with a key that changes its line: the baseline for keypress-to-frame."""

    BINDINGS = [("j", "change_line", "Change")]

    def action_change_line(self) -> None:
        self.query_one(Static).update(str(time.perf_counter()))


class PlainPicker(ModalScreen[None]):
    """The baseline for opening the gain picker: a plain ModalScreen with an OptionList of the
    same presets (their words and hints), centred as the picker is."""

    DEFAULT_CSS = """
    PlainPicker { align: center middle; }
    PlainPicker OptionList { width: 84; max-height: 22; }
    """
    BINDINGS = [Binding("escape", "dismiss(None)")]

    def compose(self) -> ComposeResult:
        t = Catalog("en").t
        yield OptionList(
            *[
                Option(Content.assemble(p.label.get("en"), "  ", (preset_hint(p, t), "dim")), id=k)
                for k, p in load_madness_data().presets.items()
            ]
        )


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


def campaign_of(root: Path, characters: int) -> Path:
    # No automatic check: a gain that makes a check due would open the check dialog, and the
    # keys planned next would go to it instead.
    folder = create_campaign(root, f"{characters} characters", Settings(auto_check=False))
    rng = random.Random(2)
    with open_campaign(folder, rng=rng, clock=fixed_clock, checkpoint_every=10_000) as live:
        for n in range(characters):
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


def key_event(app: App[None], key: str) -> Callable[[], object]:
    """What the driver does with a key from the terminal."""

    def send() -> None:
        event = events.Key(key, key if len(key) == 1 else None)
        event.set_sender(app)
        app.post_message(event)

    return send


async def to_frame(
    app: App[None], cause: Callable[[], object], frames: list[Frame]
) -> tuple[float, float, float]:
    """Do ``cause`` (send a key, push a screen); seconds until the first and the last frame it
    caused, and the CPU time this process spent until the last (what a busy machine's other
    programs do not add to: on a shared VM the wall clock mostly measures them)."""
    frames.clear()
    start, cpu = time.perf_counter(), time.process_time()
    cause()
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
    """Each key of ``plan`` (label, key) to its frames; then the gain picker and the plain one,
    each opened over the GM's screen and closed, in turn."""
    app = make()
    frames: list[Frame] = []

    def drawn() -> None:
        frames.append((time.perf_counter(), time.process_time()))

    app.post_display_hook = drawn  # type: ignore[method-assign]
    results: dict[str, list[float]] = {}

    def note(label: str, timed: tuple[float, float, float]) -> None:
        first, last, cpu = timed
        if first == first:  # a key that changes nothing on screen makes no frame (nan)
            results.setdefault(f"{label}, first frame", []).append(first)
            results.setdefault(f"{label}, settled", []).append(last)
            results.setdefault(f"{label}, settled, CPU", []).append(cpu)

    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for label, key in plan:
            note(label, await to_frame(app, key_event(app, key), frames))
        main = app.screen
        for _ in range(PICKER_OPENINGS):  # the same cause for both: a screen pushed
            opened = await to_frame(app, lambda: app.call_next(main.run_action, "gain"), frames)
            note("picker: gain picker, opened", opened)
            await to_frame(app, key_event(app, "escape"), frames)
            opened = await to_frame(app, lambda: app.push_screen(PlainPicker()), frames)
            note(f"picker: {PLAIN}, opened", opened)
            await to_frame(app, key_event(app, "escape"), frames)
        app.exit()
    gc.unfreeze()  # the app froze its start-up (BaseApp.on_ready): the next one starts afresh
    return results


def plan_for_gmscreen() -> list[tuple[str, str]]:
    plan = [("select (j)", "j")] * 30 + [("next round (.)", "full_stop")] * 30
    for _ in range(20):
        # A gain for the selected character: open the picker, filter "ele" down to "Sees an
        # elemental" (a fixed gain, no dice), enter picks it and asks what happened (left
        # out: enter), which applies it and closes the picker.
        plan += [("gain: open the picker (g)", "g")]
        plan += [("gain: type in the picker", k) for k in ("e", "l", "e")]
        plan += [("gain: pick (enter)", "enter")]
        plan += [("gain: apply and close (enter)", "enter"), ("select (j)", "j")]
    for _ in range(10):  # undo asks first; n leaves it
        plan += [("undo: ask (u)", "u"), ("undo: no (n)", "n")]
    return plan


def main() -> None:
    # ``bench_tui.py keys``: only the keypress figures; ``bench_tui.py start``: only start-up
    if sys.argv[1:] != ["keys"]:
        start_up()
    if sys.argv[1:] != ["start"]:
        keys()


def start_up() -> None:
    bare, ours = [], []
    for _ in range(RUNS):  # interleaved, so a busy moment of the machine hits both
        bare.append(asyncio.run(first_frame(BareKeyApp)))
        ours.append(asyncio.run(first_frame(demo_app)))
    print(summary("in-process first frame, bare Textual App", bare))
    print(summary("in-process first frame, gmscreen demo", ours))
    ratio = statistics.median(ours) / statistics.median(bare)
    print(f"{'in-process ratio to the bare App':<{WIDTH}} {ratio:.2f}x")
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
    bare_keys = asyncio.run(keypresses_bare())
    for label, times in bare_keys.items():
        print(summary(label, times))
    for characters, target in SIZES:
        with tempfile.TemporaryDirectory() as tmp:
            folder = campaign_of(Path(tmp), characters)

            def make(folder: Path = folder) -> App[None]:
                return make_app(
                    folder,
                    rng=random.Random(3),
                    clock=fixed_clock,
                    config_path=None,
                    animations=False,
                )

            results = asyncio.run(keypresses(make, plan_for_gmscreen()))
        for label, times in results.items():
            print(summary(f"{characters} characters, {label}", times))
        for end in ("first frame", "settled"):
            for opens in (False, True):
                p90 = {
                    label: percentile(times, 0.9)
                    for label, times in results.items()
                    if label.endswith(end)
                    and not label.startswith("picker")
                    and any(label.startswith(o) for o in OPENERS) == opens
                }
                slowest = max(p90, key=p90.__getitem__)
                what = "a key that opens a dialog" if opens else "any other key"
                print(
                    f"{characters} characters, {what}, {end}: slowest p90"
                    f" {p90[slowest] * 1000:.1f} ms ({slowest.removesuffix(', ' + end)})"
                )
        print(f"{characters} characters: target, every key's p90 <= {target * 1000:.0f} ms")
        for end in ("first frame", "settled"):
            ours = statistics.median(results[f"picker: gain picker, opened, {end}"])
            plain = statistics.median(results[f"picker: {PLAIN}, opened, {end}"])
            print(
                f"{characters} characters, {end}: opening the gain picker / {PLAIN}:"
                f" {ours / plain:.2f}x (target <= 1.3x at 30 characters)"
            )


async def keypresses_bare() -> dict[str, list[float]]:
    app = BareKeyApp()
    frames: list[Frame] = []
    app.post_display_hook = lambda: frames.append((time.perf_counter(), time.process_time()))  # type: ignore[method-assign]
    times: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for _ in range(30):
            _first, last, _cpu = await to_frame(app, key_event(app, "j"), frames)
            times.append(last)
        app.exit()
    return {"bare app, a key with a binding, settled": times}


if __name__ == "__main__":
    main()
