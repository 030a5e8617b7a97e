"""What the keys do, asserted on the campaign state and its journal (Pilot, 120×40)."""

from __future__ import annotations

from pathlib import Path

from tests.tui.conftest import ARTINAR, CREW, SIZE, madness, play
from textual import events
from textual.pilot import Pilot
from textual.widgets import OptionList

from gmscreen.campaign import events as ev
from gmscreen.campaign.model import Settings
from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.commands import COMMANDS
from gmscreen.tui.screens.character_form import CharacterForm
from gmscreen.tui.screens.check import CheckScreen
from gmscreen.tui.screens.dialogs import ConfirmScreen
from gmscreen.tui.screens.gain import GainScreen
from gmscreen.tui.screens.help import HelpScreen, help_text
from gmscreen.tui.screens.main import MainScreen
from gmscreen.tui.screens.player_view import PlayerView
from gmscreen.tui.screens.too_small import TooSmallScreen
from gmscreen.tui.widgets.roll_log import RollLog, haystack
from gmscreen.tui.widgets.roster import Roster


def main_screen(app: GMScreenApp) -> MainScreen:
    assert app.main is not None
    return app.main


def journal(app: GMScreenApp) -> list[ev.Event]:
    return [entry.event for entry in app.live.events]


def texts(app: GMScreenApp) -> list[str]:
    return [str(n.message) for n in app.pop_ups_shown()]


def test_a_gain_goes_to_every_marked_character_each_rolling(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("space", "j", "space", "g", *"friend", "enter", "enter")  # no line
        assert isinstance(app.screen, GainScreen)
        await pilot.press("3", "enter", "r")
        await pilot.pause()
        assert madness(app, "artinar") == 3
        assert madness(app, "bors") > 5

    app = play(table_with(*CREW), scenario)
    gains = [e for e in journal(app) if isinstance(e.data, ev.Gain)]
    assert [e.character for e in gains] == ["artinar", "bors"]
    assert [g.data.roll.source for g in gains if isinstance(g.data, ev.Gain) and g.data.roll] == [
        "typed",
        "rolled",
    ]


def test_player_typed_markup_stays_literal(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        roster = main_screen(app).query_one(Roster)
        prompt = roster.card_at(2)
        assert "[bold]Cym[/]" in str(prompt)
        await pilot.press("p")
        assert isinstance(app.screen, PlayerView)
        svg = app.export_screenshot()
        assert "[bold]Cym[/]" in svg.replace("&#160;", " ")
        await pilot.press("escape")

    play(table_with(*CREW), scenario)


def test_form_validates_inline_and_adds_nothing_until_valid(new_campaign: Path) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("c", "tab", "tab", "1", "0", "1", "tab", "tab", "2", "0", "1", "enter")
        form = app.screen
        assert isinstance(form, CharacterForm)
        errors = {w.id: str(w.render()) for w in form.query(".error") if not w.has_class("empty")}
        assert errors == {
            "e-name": "A name is required.",
            "e-pow": "Enter a whole number from 1 to 100.",
            "e-chaos": "Enter a whole number from 0 to 200.",
        }
        assert app.live.state.characters == ()
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)

    play(new_campaign, scenario)


def test_undo_says_what_it_undoes(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("g", *"elemental", "enter", "enter")  # what happened: left out
        await pilot.pause()
        assert madness(app, "artinar") == 2
        await pilot.press("u")
        assert isinstance(app.screen, ConfirmScreen)
        assert app.screen.question.startswith("Undo this? ")
        assert len(app.screen.question) > len("Undo this? ")
        await pilot.press("y")
        await pilot.pause()
        assert madness(app, "artinar") == 0
        log = main_screen(app).query_one(RollLog)
        assert any(entry.void for entry in log.entries)

    app = play(table_with(ARTINAR), scenario)
    assert any(isinstance(e.data, ev.Undo) for e in journal(app))


def test_check_cancels_before_the_first_roll_only(table_with) -> None:  # type: ignore[no-untyped-def]
    due = dict(ARTINAR, madness=14)

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("m")
        assert isinstance(app.screen, CheckScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)
        assert journal(app) == []
        await pilot.press("m", "9", "9", "enter", "escape")
        assert isinstance(app.screen, CheckScreen)  # 99: a failure, on record; no way out
        await pilot.press("enter", "2", "enter")
        assert isinstance(app.screen, MainScreen)

    app = play(table_with(due), scenario)
    assert [e.kind for e in journal(app)] == ["check_roll", "episode_started"]


def test_check_all_due_runs_one_after_another(table_with) -> None:  # type: ignore[no-untyped-def]
    crew = (dict(ARTINAR, madness=14), CREW[1], dict(CREW[2], name="Cym"))

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("M")
        assert isinstance(app.screen, CheckScreen)
        assert app.screen.character_name == "Artinar"
        await pilot.press("5", "3", "enter", "enter", "1", "enter")
        await pilot.pause()
        assert isinstance(app.screen, CheckScreen)
        assert app.screen.character_name == "Cym"
        await pilot.press("9", "0", "enter", "enter", "1", "enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)

    app = play(table_with(*crew), scenario)
    rolls = [e.character for e in journal(app) if isinstance(e.data, ev.CheckRoll)]
    assert rolls == ["artinar", "cym"]


def test_time_keys(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("full_stop")
        assert app.live.state.clock == 12
        await pilot.press("a", "1", "0", "space", "m", "enter")
        await pilot.pause()
        assert app.live.state.clock == 612
        await pilot.press("a", "x", "enter")
        assert isinstance(app.screen, MainScreen) is False  # the dialog stays, with its error
        await pilot.press("escape", "D")
        await pilot.pause()
        assert app.live.state.clock == 86400
        assert madness(app, "bors") < 5  # no gain that day: recovery (under care: 1d6)
        assert any(
            "recovery" in e.what.casefold() for e in main_screen(app).query_one(RollLog).entries
        )

    bors = dict(CREW[1], under_care=True)
    play(table_with(ARTINAR, bors), scenario)


def test_log_filter_and_search(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        log = main_screen(app).query_one(RollLog)
        everyone = len(log.visible_entries)
        await pilot.press("f")
        assert {e.who for e in log.visible_entries} == {"artinar"}
        await pilot.press("f")
        assert len(log.visible_entries) == everyone
        await pilot.press("slash", *"bors", "enter")
        assert log.visible_entries and all("bors" in haystack(e) for e in log.visible_entries)

    play(table_with(*CREW), scenario)


def test_help_lists_every_key_and_too_small(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        shown = help_text(app.catalog.t, app.config.keys).plain
        await pilot.press("escape")
        for command in COMMANDS:
            assert app.catalog.t(f"command.{command.id}.name") in shown
            assert app.catalog.t(f"command.{command.id}.help") in shown
        await pilot.resize_terminal(79, 30)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(120, 23)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)

    play(table_with(ARTINAR), scenario)


def test_keys_remap_from_the_config(table_with, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    config = tmp_path / "config.toml"
    config.write_text('[keys]\ngain = "G"\nno_such_command = "x"\n', encoding="utf-8")

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        assert any("no_such_command" in text for text in texts(app))
        await pilot.press("g")
        assert isinstance(app.screen, MainScreen)
        await pilot.press("G")
        assert isinstance(app.screen, GainScreen)

    play(table_with(ARTINAR), scenario, config_path=config)


def test_palette_lists_every_command(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        titles = {c.title for c in app.get_system_commands(app.screen)}
        for command in COMMANDS:
            if command.palette and command.scope in ("main", "app"):
                assert app.catalog.t(f"command.{command.id}.name") in titles

    play(table_with(ARTINAR), scenario)


def test_merp_only_campaign_has_no_meters(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        prompt = str(main_screen(app).query_one(Roster).card_at(0))
        assert "Artinar" in prompt and "Madness" not in prompt
        await pilot.press("g")
        assert isinstance(app.screen, MainScreen)
        assert any("does not use the madness rules" in text for text in texts(app))

    play(table_with(ARTINAR, settings=Settings(modules=("merp-items",))), scenario)


def test_the_header_counts_the_rounds_of_a_fight(table_with) -> None:  # type: ignore[no-untyped-def]
    def header(app: GMScreenApp) -> str:
        return str(main_screen(app).query_one("#header").render())

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        assert "round" not in header(app)  # no fight yet: no round number
        await pilot.press("full_stop", "full_stop", "full_stop")
        assert "Day 1 · 00:00:36 · round 3" in header(app)
        await pilot.press("u", "enter")  # undo the third round
        assert "· round 2 " in header(app)
        await pilot.press("D")  # the day ends: the fight is long over
        assert "round" not in header(app)

    play(table_with(ARTINAR), scenario)


def type_ahead(app: GMScreenApp, *keys: str) -> None:
    """Keys arriving together, as from a fast typist or a terminal's buffer: each is queued
    before any is handled (Pilot's press waits between keys, which hides races)."""
    for key in keys:
        app.post_message(events.Key(key, key if len(key) == 1 else None))


def test_keys_typed_ahead_in_a_check_are_not_lost(table_with) -> None:  # type: ignore[no-untyped-def]
    due = dict(ARTINAR, madness=14)

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("m")
        type_ahead(app, "5", "3", "enter", "enter", "4", "enter")
        for _ in range(4):
            await pilot.pause()
        assert isinstance(app.screen, MainScreen)

    app = play(table_with(due), scenario)
    kinds = [(e.kind, e.data) for e in journal(app)]
    assert [k for k, _ in kinds] == ["check_roll", "episode_started"]
    started = kinds[1][1]
    assert isinstance(started, ev.EpisodeStarted)
    assert started.kind == "phobia" and started.amount == 14 and started.unit == "rounds"


def test_keys_typed_ahead_in_a_gain_are_not_lost(table_with) -> None:  # type: ignore[no-untyped-def]
    """ "demon, enter, 16, enter, Arioch, enter" arriving at once: the filter gets "demon",
    the question gets 16 (it used to get into the filter box, which still had the focus), the
    what-happened line "Arioch" (its r is a letter there, not a roll)."""

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("g")
        type_ahead(app, *"demon", "enter", "1", "6", "enter", *"Arioch", "enter")
        for _ in range(4):
            await pilot.pause()
        assert isinstance(app.screen, MainScreen)

    app = play(table_with(ARTINAR), scenario)
    [gain] = [e.data for e in journal(app)]
    assert isinstance(gain, ev.Gain)
    assert gain.preset == "demon" and gain.inputs == {"pow": 16} and gain.amount == 3
    assert gain.happened == "Arioch"


def test_r_is_a_letter_in_the_gain_filter_and_rolls_only_at_the_dice(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("g", *"friend", "enter")  # a friend dies: 1d6 to roll
        await pilot.press("r", "enter")  # r is a letter of the what-happened line too
        assert journal(app) == []
        await pilot.press("r")
        await pilot.pause()

    app = play(table_with(ARTINAR), scenario)
    [gain] = [e.data for e in journal(app)]
    assert isinstance(gain, ev.Gain) and gain.preset == "friend_dies" and gain.roll is not None


def test_dialog_keys_remap_too_and_show_in_help(table_with, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The yes/no keys and the list keys of the dialogs have ids like every other key."""
    config = tmp_path / "config.toml"
    config.write_text('[keys]\ndialog_yes = "o"\ndialog_down = "ctrl+n"\n', encoding="utf-8")

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        text = str(help_text(app.catalog.t, app.config.keys))
        assert "Yes" in text and "Previous in list" in text and "ctrl+n" in text
        assert "On the item tables, type the d100" in text
        await pilot.press("g")
        await pilot.pause()
        first = app.screen.query_one("#presets", OptionList).highlighted
        await pilot.press("ctrl+n")
        assert app.screen.query_one("#presets", OptionList).highlighted == (first or 0) + 1
        await pilot.press("escape")
        await pilot.press("delete")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")  # no longer yes: remapped
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("o")
        await pilot.pause()
        assert app.live.state.characters == ()

    play(table_with(ARTINAR), scenario, config_path=config)


def test_the_sparkline_follows_gains_and_undo_across_cursor_moves(table_with) -> None:  # type: ignore[no-untyped-def]
    """The session's history is folded once per change of the journal (cached between cursor
    moves): a gain and its undo must still show at once."""
    from textual.widgets import Sparkline

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        spark = main_screen(app).query_one("#spark", Sparkline)
        await pilot.press("j", "k")  # folded and cached for both characters
        await pilot.press("g", *"elemental", "enter", "enter")
        await pilot.pause()
        await pilot.press("j", "k")
        assert list(spark.data or [])[-1] == 2
        await pilot.press("u", "y")
        await pilot.pause()
        await pilot.press("j", "k")
        assert list(spark.data or [])[-1] == 0

    play(table_with(ARTINAR, {"name": "Bors", "pow": 12}), scenario)
