"""``gmscreen show`` follows a GM playing in another gmscreen (#19.1): the GM plays through the
campaign API here, the players' screen runs as a Pilot app beside it, reading the files only.

Each event the GM makes is drawn within a second (waited for, with that bound); the GM quitting
and reopening (a new session file) is followed, and so is the language the GM chooses; the
players' screen writes nothing into the campaign folder, nor takes its lock. (That what it draws
after a rich session keeps every secret is in tests/test_player_safe.py, with every other
players' surface.)
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

from tests.rich_session import SHARED_NOTES, fixed_clock, play_rich_session
from tests.tui.conftest import SIZE
from textual.content import Content
from textual.pilot import Pilot
from textual.widget import Widget

from gmscreen.campaign.lock import LOCK_NAME
from gmscreen.campaign.model import Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.store import read_checkpoint
from gmscreen.tui.show_app import ShowApp, make_show_app

FOLLOW_WITHIN = 1.0  # seconds: #19's bound from a GM's event to the players' screen


def drawn(app: ShowApp) -> str:
    """Everything the players' screen draws now, as text."""
    out: list[str] = []
    for widget in app.screen.query(Widget):
        if not widget.display:
            continue
        visual = widget.render()  # containers draw a blank: nothing
        if isinstance(visual, Content):
            out.append(visual.plain)
        elif isinstance(visual, str):
            out.append(visual)
    return "\n".join(out)


async def shown_within(pilot: Pilot[None], app: ShowApp, text: str) -> bool:
    """Whether ``text`` is drawn within FOLLOW_WITHIN of now (looked at as the frames come)."""
    deadline = time.monotonic() + FOLLOW_WITHIN
    while text not in drawn(app):
        if time.monotonic() > deadline:
            return False
        await pilot.pause(0.02)
    return True


def folder_files(folder: Path) -> dict[str, tuple[int, int, bytes]]:
    """Every file in ``folder``: inode, modification time and bytes (a rewrite of the same
    bytes is a write too)."""
    return {
        str(p.relative_to(folder)): (p.stat().st_ino, p.stat().st_mtime_ns, p.read_bytes())
        for p in folder.rglob("*")
        if p.is_file()
    }


def show(folder: Path) -> ShowApp:
    return make_show_app(folder, strict=True, animations=False)


def test_show_follows_each_event_and_a_new_session(tmp_path: Path) -> None:
    settings = Settings(modules=("madness", "merp-items"), auto_check=False)
    folder = create_campaign(tmp_path, "Imrryr", settings)
    live = open_campaign(folder, rng=random.Random(7), clock=fixed_clock)
    first_session: Path | None = None

    async def run() -> None:
        nonlocal live, first_session
        app = show(folder)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert "Artinar" not in drawn(app)
            live.add_character("Artinar", 13, chaos=43, balance=32, law=47, player="Ann")
            assert await shown_within(pilot, app, "Artinar"), "a new character"
            live.note("The river is rising", shared=True)
            assert await shown_within(pilot, app, "The river is rising"), "a shared note"
            live.note("The ferryman is a spy")  # the GM's own
            live.note("The boat leaves at dusk", "artinar", shared=True)
            assert await shown_within(pilot, app, "About Artinar: The boat leaves at dusk")
            assert "ferryman" not in drawn(app)
            live.end_day()
            assert await shown_within(pilot, app, "day 2"), "the game day"

            # The GM quits: the checkpoint is written, the screen keeps what it showed.
            first_session = live.session_path
            live.close()
            await pilot.pause(0.3)  # a poll or so with the GM gone: nothing to wait for
            assert "Artinar" in drawn(app)

            # ... and reopens: the first event starts a new session file, which is followed.
            live = open_campaign(folder, rng=random.Random(8), clock=fixed_clock)
            live.note("A new evening begins", shared=True)
            assert live.session_path is not None and live.session_path != first_session
            assert await shown_within(pilot, app, "A new evening begins"), "the new session"
            assert app.follower.current is not None
            assert app.follower.current.session == live.session_path.stem
            live.add_character("Bors", 12, chaos=20, balance=10, law=5)
            assert await shown_within(pilot, app, "Bors"), "an event of the new session"
            assert "Artinar" in drawn(app)

    try:
        asyncio.run(run())
    finally:
        live.close()


def test_show_writes_nothing_and_takes_no_lock(tmp_path: Path) -> None:
    settings = Settings(modules=("madness", "merp-items"), auto_check=False)
    folder = create_campaign(tmp_path, "Imrryr", settings)
    with open_campaign(folder, rng=random.Random(7), clock=fixed_clock) as live:
        play_rich_session(live)
    before = folder_files(folder)

    async def run() -> None:
        app = show(folder)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert await shown_within(pilot, app, SHARED_NOTES[1])
            await pilot.pause(0.3)  # a poll or so more, with nothing new to read
            assert not (folder / LOCK_NAME).exists(), "the players' screen took the lock"

    asyncio.run(run())
    assert folder_files(folder) == before


def test_show_takes_a_theme_for_the_room(tmp_path: Path) -> None:
    folder = create_campaign(tmp_path, "Imrryr")

    async def run() -> None:
        app = make_show_app(folder, strict=True, animations=False, theme="solarized-light")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.theme == "solarized-light" and not app.current_theme.dark

    asyncio.run(run())


def test_show_follows_the_language_the_gm_chooses(tmp_path: Path) -> None:
    """``L`` on the GM's screen journals the language (the checkpoint waits for quit): a
    running show speaks it within a second, one started afterwards from its first frame, and
    ``--lang`` still wins (#30.1)."""
    folder = create_campaign(tmp_path, "Imrryr")
    english, spanish = "This screen follows the GM's game", "Esta pantalla sigue la partida"
    with open_campaign(folder, rng=random.Random(7), clock=fixed_clock) as live:
        live.add_character("Artinar", 13, chaos=43, balance=32, law=47, player="Ann")

        async def run() -> None:
            app = show(folder)
            async with app.run_test(size=SIZE) as pilot:
                await pilot.pause()
                assert english in drawn(app) and "Now: day 1" in drawn(app)
                live.change_settings(language="es")  # what L does on the GM's screen
                assert read_checkpoint(folder)[0].settings.language == ""  # not yet written
                assert await shown_within(pilot, app, spanish), "a running show"
                assert "Ahora: día 1" in drawn(app) and "Imrryr · la pantalla" in app.title
            later = show(folder)
            async with later.run_test(size=SIZE) as pilot:
                await pilot.pause()
                assert spanish in drawn(later), "a show started after L"
            chosen = make_show_app(folder, lang="en", strict=True, animations=False)
            async with chosen.run_test(size=SIZE) as pilot:
                await pilot.pause()
                live.note("The river is rising", shared=True)
                assert await shown_within(pilot, chosen, "The river is rising")
                assert english in drawn(chosen), "--lang wins"

        asyncio.run(run())


def test_show_waits_for_a_broken_file_without_telling_what_it_holds(tmp_path: Path) -> None:
    """A file's problem quotes its value (``must be from 0 to …, not 99999``): the players'
    screen says it waits, not why, and keeps the last reading it could make."""
    folder = create_campaign(tmp_path, "Imrryr")
    with open_campaign(folder, rng=random.Random(7), clock=fixed_clock) as live:
        live.add_character("Artinar", 13, chaos=43, balance=32, law=47, madness=6)
    checkpoint = folder / "campaign.toml"
    assert "madness = 6\n" in checkpoint.read_text(encoding="utf-8")

    async def run() -> None:
        app = show(folder)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert "Artinar" in drawn(app)
            text = checkpoint.read_text(encoding="utf-8")
            checkpoint.write_text(text.replace("madness = 6\n", "madness = 99999\n"))
            assert await shown_within(pilot, app, "Waiting for the campaign")
            assert app.follower.problem is not None and "99999" in app.follower.problem
            assert "99999" not in drawn(app) and "madness" not in drawn(app)
            assert "Artinar" in drawn(app)

    asyncio.run(run())
