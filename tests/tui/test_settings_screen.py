"""The settings screen (S and the palette): changed, checked as typed, journaled, in the log."""

from __future__ import annotations

from pathlib import Path

from tests.tui.conftest import CREW, play
from textual.pilot import Pilot
from textual.widgets import Input, Static

from gmscreen.campaign import events as ev
from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.player_view import PlayerView, player_lines
from gmscreen.tui.screens.settings import SettingsScreen
from gmscreen.tui.widgets.form_controls import Choice, SpaceCheckbox
from gmscreen.tui.widgets.roll_log import RollLog


def _settings_events(app: GMScreenApp) -> list[ev.Event]:
    return [e.event for e in app.live.events if isinstance(e.event.data, ev.SettingsChanged)]


def _set(app: GMScreenApp, field: str, text: str) -> None:
    box = app.screen.query_one(f"#f-{field}", Input)
    box.value = text


def _error(app: GMScreenApp, field: str) -> str:
    return str(app.screen.query_one(f"#e-{field}", Static).render())


def test_settings_changed_are_one_journaled_event_shown_in_the_log(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("S")
        assert isinstance(app.screen, SettingsScreen)
        _set(app, "name", "The Dragon Isles")
        _set(app, "fumble_base", "20")
        _set(app, "round_seconds", "10")
        _set(app, "words-breaking", "is falling apart")
        app.screen.query_one("#f-module-merp-items", SpaceCheckbox).focus()
        await pilot.press("space")  # the MERP items on
        app.screen.query_one("#f-auto_check", SpaceCheckbox).focus()
        await pilot.press("space", "enter")  # checks no longer open by themselves; saved
        await pilot.pause()
        assert not isinstance(app.screen, SettingsScreen)
        log = "\n".join(e.what for e in app.screen.query_one(RollLog).entries)
        assert "fumble base 1 → 20" in log and "The Dragon Isles" in log
        await pilot.press("p")
        assert isinstance(app.screen, PlayerView)
        assert "is falling apart" in player_lines(app.screen.view, app.catalog.t).plain

    app = play(table_with(*CREW), scenario)
    [saved] = _settings_events(app)
    assert isinstance(saved.data, ev.SettingsChanged)
    assert set(saved.data.changes) == {
        "name",
        "fumble_base",
        "round_seconds",
        "modules",
        "auto_check",
        "player_words",
    }
    state = app.live.state
    assert state.name == "The Dragon Isles"
    assert state.settings.modules == ("madness", "merp-items")
    assert (state.settings.fumble_base, state.settings.round_seconds) == (20, 10)
    assert state.settings.auto_check is False


def test_a_bad_value_is_refused_inline_as_typed(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("S")
        app.screen.query_one("#f-fumble_base", Input).focus()
        await pilot.press("backspace", "backspace", "1", "0", "1")
        await pilot.pause()
        assert "from 0 to 100" in _error(app, "fumble_base")  # before any enter
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)  # refused: the screen stays
        await pilot.press("backspace")
        await pilot.pause()
        assert _error(app, "fumble_base") == ""  # fixed: the message goes
        _set(app, "name", "  ")
        await pilot.pause()
        assert "needs a name" in _error(app, "name")
        await pilot.press("escape")

    app = play(table_with(*CREW), scenario)
    assert _settings_events(app) == []


def test_settings_from_the_palette_and_undone_with_u(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("ctrl+p", *"Settings")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        app.screen.query_one("#f-language", Choice).focus()
        await pilot.press("space", "space", "enter")  # automatic → English → Spanish, saved
        await pilot.pause()
        assert app.live.state.settings.language == "es"
        assert app.catalog.lang == "es"
        await pilot.press("u", "y")
        await pilot.pause()

    app = play(table_with(*CREW), scenario)
    assert app.live.state.settings.language == ""
    assert len(_settings_events(app)) == 1


def test_the_settings_screen_shows_a_campaigns_text_literally(tmp_path: Path) -> None:
    from gmscreen.campaign.paths import create_campaign

    folder = create_campaign(tmp_path, "[bold]Loud")

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("S")
        assert app.screen.query_one("#f-name", Input).value == "[bold]Loud"
        await pilot.press("enter")  # saving what is there journals nothing

    app = play(folder, scenario)
    assert _settings_events(app) == []


def test_the_settings_screen_fits_80_by_24(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from gmscreen.tui.screenshots import build, sample_campaign

    app = build(sample_campaign(tmp_path))
    assert snap_compare(
        app, press=["S", "tab", "tab", "tab", "backspace", *"101"], terminal_size=(80, 24)
    )
