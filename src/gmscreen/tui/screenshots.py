"""``python -m gmscreen.tui.screenshots DIR``: SVGs of the main views, for the README.

Every picture comes from the same factory as the real app, on a sample campaign built in a
temporary folder with a fixed seed and a fixed clock, so the pictures only change when the UI does.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import sys
import tempfile
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.rules import dice
from gmscreen.tui.app import GMScreenApp, make_app
from gmscreen.tui.item_samples import ITEM_SHOTS, merp_sample_campaign

SEED = 5
SIZE = (120, 40)
SVG_ROOT = ' xmlns="http://www.w3.org/2000/svg">'

# name -> keys pressed after the app starts
SHOTS: dict[str, tuple[str, ...]] = {
    "main": (),
    "gain-picker": ("g", "f", "r", "i"),
    "check-halfway": ("m", "5", "3", "enter"),
    "help": ("question_mark",),
    "player-view": ("p",),
    "replay": ("R", "enter", "shift+right"),  # the session, at its madness check
}
# name -> terminal size: the GM's screen at other sizes (80×24 is the smallest it supports)
SHOTS_AT: dict[str, tuple[int, int]] = {"main-80x24": (80, 24)}
# name -> (language, keys): the same sample campaign with the screen in another language
SHOTS_IN: dict[str, tuple[str, tuple[str, ...]]] = {
    "check-halfway-es": ("es", ("m", "5", "3", "enter", "enter", "4")),
}


def fixed_clock() -> datetime:
    return datetime(2025, 3, 1, 20, 0, tzinfo=UTC)


def sample_campaign(root: Path) -> Path:
    """Three characters and a short session: gains, a fumbled check, a few rounds."""
    folder = create_campaign(root, "The Dreaming City")
    with open_campaign(folder, rng=random.Random(SEED), clock=fixed_clock) as live:
        live.add_character("Artinar", 13, player="Ann", chaos=43, balance=32, law=47)
        live.add_character(
            "Bors", 12, player="Bea", chaos=20, balance=40, law=10, madness=5, under_care=True
        )
        # Player-typed text is shown as typed, never as markup.
        live.add_character("[bold]Cym[/]", 10, player="Cai", chaos=60, balance=10, law=5)
        live.gain("artinar", "friend_dies", roll=dice.typed("1d6", 4))
        live.gain("artinar", "friend_dies", roll=dice.typed("1d6", 5))
        live.gain("artinar", "custom", {"amount": 2})
        live.gain("bold-cym", "end_of_world", roll=dice.typed("2d8", "5,7"))
        live.check_roll("bold-cym", dice.typed("d100", "00"))
        live.check_kind("bold-cym", dice.picked("1d6", 4))
        for _ in range(3):
            live.next_round()
        live.gain("artinar", "demon", {"pow": 16})
    return folder


def build(folder: Path, rng_seed: int = SEED, lang: str | None = None) -> GMScreenApp:
    return make_app(
        folder,
        rng=random.Random(rng_seed),
        lang=lang,
        clock=fixed_clock,
        config_path=None,
        animations=False,
        cursor_blink=False,
        strict=True,
    )


def keep_spaces(svg: str) -> str:
    """The SVG with its spaces kept as they are: a text run's leading spaces are dropped by
    some renderers (librsvg: "ArtinarNo recovery") unless the document says to keep them."""
    return svg.replace(SVG_ROOT, SVG_ROOT[:-1] + ' xml:space="preserve">', 1)


async def shoot(
    folder: Path,
    keys: Sequence[str],
    target: Path,
    lang: str | None = None,
    size: tuple[int, int] = SIZE,
) -> None:
    app = build(folder, lang=lang)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        if keys:
            await pilot.press(*keys)
        await pilot.pause()
        target.write_text(keep_spaces(app.export_screenshot()), encoding="utf-8")


def main(argv: Sequence[str]) -> int:
    out = Path(argv[0] if argv else "screenshots")
    out.mkdir(parents=True, exist_ok=True)
    for name, keys in SHOTS.items():
        with tempfile.TemporaryDirectory() as tmp:
            folder = sample_campaign(Path(tmp))
            asyncio.run(shoot(folder, keys, out / f"{name}.svg"))
            shutil.rmtree(folder, ignore_errors=True)
        print(out / f"{name}.svg")
    for name, size in SHOTS_AT.items():
        with tempfile.TemporaryDirectory() as tmp:
            folder = sample_campaign(Path(tmp))
            asyncio.run(shoot(folder, (), out / f"{name}.svg", size=size))
        print(out / f"{name}.svg")
    for name, (lang, keys) in SHOTS_IN.items():
        with tempfile.TemporaryDirectory() as tmp:
            folder = sample_campaign(Path(tmp))
            asyncio.run(shoot(folder, keys, out / f"{name}.svg", lang))
        print(out / f"{name}.svg")
    for name, keys in ITEM_SHOTS.items():  # the MERP item screens, on a MERP party
        with tempfile.TemporaryDirectory() as tmp:
            folder = merp_sample_campaign(Path(tmp), fixed_clock)
            asyncio.run(shoot(folder, keys, out / f"{name}.svg"))
        print(out / f"{name}.svg")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
