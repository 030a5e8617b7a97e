"""Issue 15 Build 7: the small things a GM hit, one test each (Pilot, 120×40)."""

from __future__ import annotations

from tests.tui.conftest import CREW, play
from textual.pilot import Pilot
from textual.widgets import Input, Static

from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.character_form import CharacterForm
from gmscreen.tui.screens.check import CheckScreen
from gmscreen.tui.screens.dialogs import AdvanceScreen
from gmscreen.tui.screens.gain import GainScreen
from gmscreen.tui.widgets.form_controls import SpaceCheckbox
from gmscreen.tui.widgets.roll_log import RollLog
from gmscreen.tui.widgets.roster import Roster


def _on_main(app: GMScreenApp) -> bool:
    """The GM's screen is shown (a function: no narrowing left over from an isinstance)."""
    return app.screen is app.main


def _roster(app: GMScreenApp) -> Roster:
    return app.screen.query_one(Roster)


def test_marks_are_cleared_once_the_gain_is_given(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("space", "j", "space")
        assert _roster(app).marked == {"artinar", "bors"}
        await pilot.press("g", *"friend", "enter")
        assert isinstance(app.screen, GainScreen)
        await pilot.press("3", "enter", "4", "enter")
        await pilot.pause()
        while not _on_main(app):  # the checks the gain made due
            await pilot.press("escape")
            await pilot.pause()
        assert _roster(app).marked == set()
        assert "marked" not in str(app.screen.query_one("#header").render())

    play(table_with(*CREW), scenario, config_path=None)


def test_esc_clears_the_marks(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("space", "j", "space")
        assert len(_roster(app).marked) == 2
        await pilot.press("escape")
        await pilot.pause()
        assert _roster(app).marked == set()

    play(table_with(*CREW), scenario)


def test_j_and_k_stop_at_the_ends(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        roster = _roster(app)
        await pilot.press("k")
        assert roster.highlighted == 0  # not the last
        await pilot.press("j", "j", "j", "j")
        assert roster.highlighted == 2  # the last, not back to the first
        await pilot.press("up")
        assert roster.highlighted == 1

    play(table_with(*CREW), scenario)


def _message(app: GMScreenApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def test_enter_on_the_checkbox_saves_the_form_and_space_toggles_it(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("e")
        assert isinstance(app.screen, CharacterForm)
        app.screen.query_one("#f-under_care", SpaceCheckbox).focus()
        await pilot.press("space", "enter")
        await pilot.pause()
        assert _on_main(app)  # saved, not toggled back

    app = play(table_with(*CREW), scenario)
    assert app.live.state.character("artinar").sanity.under_care is True


def test_an_out_of_range_alignment_is_flagged_as_typed_and_the_message_goes(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("e")
        app.screen.query_one("#f-law", Input).focus()
        await pilot.press("end", "backspace", "backspace", *"300")
        await pilot.pause()
        assert "0 to 200" in _message(app, "#e-law")  # no enter yet
        assert _message(app, "#e-name") == ""  # fields not typed in wait for enter
        await pilot.press("backspace")
        await pilot.pause()
        assert _message(app, "#e-law") == ""  # 30: fixed, and the stale line is gone
        await pilot.press("escape")

    play(table_with(*CREW), scenario)


def test_the_advance_dialogs_error_goes_once_the_text_changes(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("a", "x", "enter")
        await pilot.pause()
        assert isinstance(app.screen, AdvanceScreen)
        assert _message(app, "#error") != ""
        await pilot.press("backspace", "2")
        await pilot.pause()
        assert _message(app, "#error") == ""
        await pilot.press("escape")

    play(table_with(*CREW), scenario)


def test_the_gains_nothing_matches_goes_once_something_does(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("g", *"zzz", "enter")
        await pilot.pause()
        assert _message(app, "#error") != ""
        await pilot.press("backspace", "backspace", "backspace")
        await pilot.pause()
        assert _message(app, "#error") == ""
        await pilot.press("escape")

    play(table_with(*CREW), scenario)


def test_a_check_rolled_00_reads_00_in_the_log_as_in_the_check(table_with) -> None:  # type: ignore[no-untyped-def]
    due = {"name": "Artinar", "pow": 13, "chaos": 43, "balance": 32, "law": 47, "madness": 14}

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("m", "0", "0", "enter")
        await pilot.pause()
        assert isinstance(app.screen, CheckScreen)
        shown = str(app.screen.query_one("#steps", Static).render())
        assert "1d100: 00" in shown
        await pilot.press("enter", "r", "enter")  # on to the kind of madness (a fumble), rolled
        await pilot.pause()
        assert _on_main(app)
        log = [e.dice for e in app.screen.query_one(RollLog).entries if e.dice]
        assert log and log[0].startswith("1d100: 00") and ": 100" not in log[0]

    play(table_with(due), scenario)


def test_the_header_keeps_a_gap_between_the_campaign_and_the_day(table_with) -> None:  # type: ignore[no-untyped-def]
    # What the terminal is sent, as drawn (a snapshot viewed through librsvg loses the gap:
    # it drops the spaces a text run starts with; see CONTRIBUTING).
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        for size in ((80, 24), (120, 40)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            header = app.screen.query_one("#header", Static)
            drawn = header.render_line(0).text
            assert "Melniboné   Day 1 · 00:00:00   characters: 3" in drawn, (size, drawn)

    play(table_with(*CREW), scenario)
