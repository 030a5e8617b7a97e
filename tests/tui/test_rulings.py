"""GM rulings on the GM's screen: ``x`` opens the menu for the selected character, a key picks
a correction, its dialog asks what it needs and a reason; the ruling is journaled, shown in the
log as "GM ruling: …", and undone with ``u``. The palette opens each one directly."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from textual.command import CommandPalette
from textual.pilot import Pilot
from textual.widgets import Static

from gmscreen.campaign import events as ev
from gmscreen.campaign.model import Settings
from gmscreen.rules import dice
from gmscreen.rules.madness import MadnessState
from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.commands import PALETTE_KEY
from gmscreen.tui.screens.check import CheckScreen
from gmscreen.tui.screens.main import MainScreen
from gmscreen.tui.screens.rulings import RulingForm, RulingsMenu
from gmscreen.tui.widgets.roll_log import RollLog

from .conftest import ARTINAR, SIZE, build, drain, play, type_ahead

BORS = {"name": "Bors", "pow": 12, "chaos": 20, "balance": 40, "law": 10, "madness": 5}
MANUAL = Settings(auto_check=False)


def rulings_of(app: GMScreenApp) -> list[ev.Ruling]:
    return [e.event.data for e in app.live.events if isinstance(e.event.data, ev.Ruling)]


def log_text(app: GMScreenApp) -> str:
    """What the log's lines say, a long line's pieces joined again, then their outcomes."""
    entries = app.screen.query_one(RollLog).entries
    return " ".join(e.what for e in entries) + "\n" + " ".join(e.outcome for e in entries)


def mad_artinar(app: GMScreenApp) -> None:
    """RULES.md's Artinar, failed at 53: phobia for 14 rounds, madness 14."""
    live = app.live
    live.gain("artinar", "custom", {"amount": 14})
    live.check_roll("artinar", dice.typed("d100", 53))
    live.check_kind("artinar", dice.typed("1d6", 4))


async def rule(pilot: Pilot[None], *keys: str, reason: str = "a healing spell") -> None:
    """``x``, then the keys of the menu and the dialog, the reason typed, enter."""
    await pilot.press("x")
    assert isinstance(pilot.app.screen, RulingsMenu)
    await pilot.press(*keys)
    assert isinstance(pilot.app.screen, RulingForm)
    type_ahead(pilot.app, *reason, "enter")  # typed at once (each key pressed waits ~70 ms)
    await drain(pilot.app, pilot)


def test_end_the_episode_halving_from_the_menu(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        mad_artinar(app)
        await pilot.pause()
        await rule(pilot, "e")
        assert isinstance(app.screen, MainScreen)
        s = app.live.character("artinar").sanity
        assert (s.episode, s.madness) == (None, 7)
        (ruling,) = rulings_of(app)
        assert (ruling.ruling, ruling.halved, ruling.reason) == (
            "end_episode",
            True,
            "a healing spell",
        )
        assert "GM ruling: phobia ends now, madness halved. Reason: a healing spell" in log_text(
            app
        )
        assert "madness 14 → 7" in log_text(app)

    play(table_with(ARTINAR, settings=MANUAL), scenario)


def test_end_the_episode_keeping_madness_opens_the_check_due(
    table_with: Callable[..., Path],
) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        mad_artinar(app)
        await pilot.pause()
        await rule(pilot, "E", reason="she shakes it off")
        s = app.live.character("artinar").sanity
        assert (s.episode, s.madness) == (None, 14)
        # madness 14 >= POW 13 with no episode: the check opens by itself, as after a gain
        assert isinstance(app.screen, CheckScreen)

    play(table_with(ARTINAR), scenario)


def test_add_and_remove_a_permanent_madness(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await rule(pilot, "a", "down", "down", reason="a curse")  # the third kind: paranoia
        assert app.live.character("artinar").sanity.permanent == ("paranoia",)
        assert "GM ruling: permanent paranoia added. Reason: a curse" in log_text(app)
        await rule(pilot, "r", reason="the curse lifted")
        assert app.live.character("artinar").sanity.permanent == ()
        assert [x.ruling for x in rulings_of(app)] == ["add_permanent", "remove_permanent"]

    play(table_with(ARTINAR), scenario)


def test_forget_a_first_sighting(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        app.live.gain("artinar", "chaos_god")
        await pilot.pause()
        await rule(pilot, "f", reason="it was a mirage")
        assert app.live.character("artinar").sanity.first_sightings == frozenset()
        assert "first time forgotten" in log_text(app)

    play(table_with(ARTINAR, settings=MANUAL), scenario)


def test_set_madness_to_a_value(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("down")  # Bors
        await rule(pilot, "s", "9", "tab", reason="miscounted")
        assert app.live.character("bors").sanity.madness == 9
        assert "madness 5 → 9" in log_text(app)

    play(table_with(ARTINAR, BORS), scenario)


def test_set_under_care(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await rule(pilot, "c", reason="the temple takes him in")
        assert app.live.character("artinar").sanity.under_care
        await rule(pilot, "c", reason="he leaves the temple")
        assert not app.live.character("artinar").sanity.under_care
        assert "GM ruling: no longer under care. Reason: he leaves the temple" in log_text(app)

    play(table_with(ARTINAR), scenario)


def test_a_ruling_needs_a_reason_and_says_so(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("down")
        await rule(pilot, "s", "9", reason="")  # enter with no reason
        form = app.screen
        assert isinstance(form, RulingForm)
        error = form.query_one("#error", Static).render()
        assert "needs a reason" in str(error)
        assert form.focused is form.query_one("#reason")
        await pilot.press(*"miscounted", "enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert app.live.character("bors").sanity.madness == 9

    play(table_with(ARTINAR, BORS), scenario)


def test_what_does_not_apply_is_refused_in_the_menu(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("x", "e")  # no episode under way
        menu = app.screen
        assert isinstance(menu, RulingsMenu)
        assert "no episode under way" in str(menu.query_one("#error", Static).render())
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)
        assert rulings_of(app) == []

    play(table_with(ARTINAR), scenario)


def test_a_ruling_undoes_with_u(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("down")
        await rule(pilot, "s", "9", "tab", reason="miscounted")
        await pilot.press("u", "y")
        await pilot.pause()
        assert app.live.character("bors").sanity.madness == 5

    play(table_with(ARTINAR, BORS), scenario)


def test_typed_ahead_a_ruling_lands_in_order(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        type_ahead(app, "down", "x", "s", "1", "1", "tab", *"fast GM", "enter")
        await drain(app, pilot)
        assert app.live.character("bors").sanity.madness == 11
        assert [x.reason for x in rulings_of(app)] == ["fast GM"]

    play(table_with(ARTINAR, BORS, settings=MANUAL), scenario)


# Each ruling the palette offers (what is typed to find it: the palette pauses after every key
# for its search), what is typed into its form, and what it changed.
BY_PALETTE: list[tuple[str, tuple[str, ...], Callable[[MadnessState], bool]]] = [
    ("ruling set madness", ("7", "tab"), lambda s: s.madness == 7),
    ("ruling under care", (), lambda s: s.under_care),
    ("ruling add a perm", (), lambda s: s.permanent == ("catatonia",)),
]


def test_the_palette_opens_each_ruling(table_with: Callable[..., Path]) -> None:
    """One evening, three rulings from the palette (each an app of its own said nothing more)."""

    async def run() -> None:
        app = build(table_with(ARTINAR))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            for name, keys, check in BY_PALETTE:
                await pilot.press(PALETTE_KEY)
                assert isinstance(app.screen, CommandPalette)
                type_ahead(app, *name)  # as a GM types: at once (each key pressed waits)
                for _ in range(50):  # the palette searches in a worker
                    await pilot.pause(0.01)
                await pilot.press("enter")
                for _ in range(10):
                    await pilot.pause()
                assert isinstance(app.screen, RulingForm), name
                type_ahead(app, *keys, *"by the palette", "enter")
                await drain(app, pilot)
                assert check(app.live.character("artinar").sanity), name

    asyncio.run(run())


def test_the_menu_in_spanish(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await rule(pilot, "c", reason="el templo lo acoge")
        assert "Decisión del máster: queda bajo cuidados" in log_text(app)

    play(table_with(ARTINAR), scenario, lang="es")


def test_a_reason_is_shown_as_typed_and_inert(table_with: Callable[..., Path]) -> None:
    hostile = "[bold]cured[/] \x1b]0;pwned\x07 by 3 priests"

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        from gmscreen.campaign import rulings

        app.live.ruling("artinar", rulings.SetUnderCare(True), hostile)
        await pilot.pause()
        shown = log_text(app)
        assert "[bold]cured[/]" in shown  # markup shown as written, not read
        assert "\x1b" not in shown and "\x07" not in shown  # no control character drawn
        (ruling,) = rulings_of(app)
        assert ruling.reason == hostile  # the journal keeps it as typed

    play(table_with(ARTINAR), scenario)
