"""The screen in Spanish: the seed's worked example by keys, errors in Spanish, and the switch
between languages mid-session without losing anything."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.tui.conftest import ARTINAR, CREW, SIZE, build, drain, type_ahead

from gmscreen.campaign import events as ev
from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.check import CheckScreen
from gmscreen.tui.screens.main import MainScreen
from gmscreen.tui.widgets.key_bar import KeyBar
from gmscreen.tui.widgets.roll_log import RollLog
from gmscreen.tui.widgets.roster import Roster


def _main(app: GMScreenApp) -> MainScreen:
    assert app.main is not None
    return app.main


def _log_text(app: GMScreenApp) -> str:
    return "\n".join(
        " ".join((e.who_name, e.what, e.dice, e.outcome))
        for e in _main(app).query_one(RollLog).visible_entries
    )


def _card_text(app: GMScreenApp, index: int = 0) -> str:
    return str(_main(app).query_one(Roster).card_at(index))


def _footer_words(app: GMScreenApp) -> str:
    return str(app.screen.query_one(KeyBar).render())


def test_artinar_by_keys_in_spanish(new_campaign: Path) -> None:
    asyncio.run(_artinar_in_spanish(new_campaign))


async def _artinar_in_spanish(new_campaign: Path) -> None:
    app = build(new_campaign, lang="es")
    async with app.run_test(size=SIZE) as pilot:
        # The English example presses each key (test_artinar); here a fast GM types it at once.
        type_ahead(app, "c", *"Artinar", "tab", *"Ana", "tab", "1", "3", "tab", "tab")
        type_ahead(app, "4", "3", "tab", "3", "2", "tab", "4", "7", "enter")
        await drain(app, pilot)  # a form's enter is no priority binding: it closes in turn
        for die in ("4", "5"):
            type_ahead(app, "g", *"amigo", "enter", "enter", die, "enter")
        type_ahead(app, "g", *"otra cosa", "enter", "2", "enter", "enter")
        type_ahead(app, "g", *"demonio", "enter", "1", "6", "enter", "enter")
        await drain(app, pilot)
        assert "14/13" in _card_text(app) and "PL" in _card_text(app)
        assert isinstance(app.screen, CheckScreen)
        await pilot.press("5", "3", "enter")
        await pilot.pause()
        assert "fallo" in _log_text(app)
        await pilot.press("enter", "r", "enter")
        await pilot.pause()
        assert "quedan 14 asaltos" in _card_text(app)
        type_ahead(app, *["full_stop"] * 14)
        await drain(app, pilot)
        character = app.live.state.characters[0]
        assert (character.sanity.madness, character.sanity.episode) == (7, None)
        log = _log_text(app)
        for text in (
            "Ve morir a un amigo",
            "1d6: 4 (tecleada)",
            "Ve un demonio (POD 16)",
            "Chequeo de locura bajo Ley 47 (pifia con 00)",
            "1d100: 53 (tecleada)",
            "durante 14 asaltos",
            "PL 11 → 14",
            "PL 14 → 7",
            "Pasan 14 asaltos",  # one line for the rounds of the episode
        ):
            assert text in log, text
        journal = app.live.events
        await pilot.press("q")
    # The journal keeps keys and numbers: the unit is "rounds", whatever the screen said.
    started = [e.event.data for e in journal if isinstance(e.event.data, ev.EpisodeStarted)]
    assert started[0].unit == "rounds"


def test_a_die_off_range_is_refused_in_spanish(table_with: object) -> None:
    async def run() -> None:
        folder = table_with(dict(ARTINAR, madness=14))  # type: ignore[operator]
        app = build(folder, lang="es")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("m", "0", "enter")
            await pilot.pause()
            error = str(app.screen.query_one("#error").render())
            assert "0 no sale en un d100: teclea un número del 1 al 100" in error
            await pilot.press("escape", "g", *"otra", "enter", *"3x", "enter")
            await pilot.pause()
            error = str(app.screen.query_one("#error").render())
            assert "'3x' no es una expresión de dados" in error

    asyncio.run(run())


def test_switching_language_mid_session_keeps_everything(table_with: object) -> None:
    async def run() -> None:
        folder = table_with(*CREW)  # type: ignore[operator]
        app = build(folder)
        async with app.run_test(size=SIZE) as pilot:
            main = _main(app)
            roster = main.query_one(Roster)
            log = main.query_one(RollLog)
            await pilot.press("down", "space", "down")  # Bors marked, Cym selected
            # a log taller than its pane: rounds with advances between (a run of rounds is one
            # line), typed at once as a fast GM would (each key pressed waits ~70 ms)
            type_ahead(app, *["a", "1", "enter", "full_stop"] * 8)
            await drain(app, pilot)
            log.scroll_to(y=5, animate=False, immediate=True)  # the GM scrolled up the log
            await pilot.pause()
            before = (
                roster.highlighted,
                set(roster.marked),
                log.scroll_y,
                log.following,
                len(log.visible_entries),
                app.live.state.characters,
                app.live.state.clock,
            )
            assert before[2:4] == (5, False)
            assert "Round" in _footer_words(app)
            await pilot.press("L")
            await pilot.pause()
            assert app.catalog.lang == "es" and main.lang == "es"
            assert app.live.state.settings.language == "es"  # journaled
            after = (
                roster.highlighted,
                set(roster.marked),
                log.scroll_y,
                log.following,
                len(log.visible_entries) - 1,  # one more line: the settings change
                app.live.state.characters,
                app.live.state.clock,
            )
            assert after == before
            assert "Asalto" in _footer_words(app)
            assert "PL" in _card_text(app, 1) and "Caos" in _card_text(app, 1)
            assert "Siguiente asalto" in _log_text(app)
            assert "Next round" not in _log_text(app)
            await pilot.press("f")  # the log filter, in Spanish
            await pilot.pause()
            assert "Siguiente asalto" not in _log_text(app)
            await pilot.press("f")
            # and play goes on, in Spanish
            await pilot.press("g", *"elemental", "enter", "enter")
            await pilot.pause()
            assert app.live.state.character("bors").sanity.madness == 7
            # the palette offers the way back
            await pilot.press("ctrl+p")
            await pilot.press(*"Idioma")
            await pilot.pause(0.3)
            await pilot.press("enter")
            await pilot.pause()
            assert app.catalog.lang == "en"
            assert "Next round" in _log_text(app)
            await pilot.press("q")
        reopened = build(folder)
        assert reopened.catalog.lang == "en"  # the last choice was journaled
        reopened.live.close()

    asyncio.run(run())


def test_no_switch_while_a_dialog_is_open(table_with: object) -> None:
    async def run() -> None:
        folder = table_with(dict(ARTINAR, madness=14))  # type: ignore[operator]
        app = build(folder)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("m")
            _main(app).action_switch_language()
            await pilot.pause()
            assert app.catalog.lang == "en"
            assert isinstance(app.screen, CheckScreen)

    asyncio.run(run())


def test_an_undone_language_change_speaks_the_old_language_again(table_with: object) -> None:
    """Every change shows through the one refresh path: ``L`` and its undo alike (the undo
    used to leave the screen speaking Spanish in an English campaign)."""

    async def run() -> None:
        app = build(table_with(ARTINAR))  # type: ignore[operator]
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("L")
            await pilot.pause()
            assert app.catalog.lang == "es" and "Asalto" in _footer_words(app)
            await pilot.press("u", "y")
            await pilot.pause()
            assert not app.live.state.settings.language  # no choice kept, as before the L
            assert app.catalog.lang == "en" and "Round" in _footer_words(app)
            await pilot.press("q")

    asyncio.run(run())


def test_the_language_a_campaign_keeps_is_spoken_with_l_after_lang(table_with: object) -> None:
    """Opened with ``--lang en`` over a campaign that keeps Spanish, ``L`` speaks Spanish."""

    async def run() -> None:
        folder = table_with(ARTINAR)  # type: ignore[operator]
        first = build(folder, lang="es")
        async with first.run_test(size=SIZE) as pilot:
            await pilot.press("L", "L")  # es -> en -> es: the campaign keeps Spanish
            await pilot.pause()
            assert first.live.state.settings.language == "es"
            await pilot.press("q")
        app = build(folder, lang="en")
        async with app.run_test(size=SIZE) as pilot:
            assert app.catalog.lang == "en"
            await pilot.press("L")
            await pilot.pause()
            assert app.catalog.lang == "es" and "Asalto" in _footer_words(app)
            await pilot.press("q")

    asyncio.run(run())
