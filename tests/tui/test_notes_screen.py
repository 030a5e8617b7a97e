"""Notes by keys (#15 Build 1): ``n`` writes one (GM-only, or shared; about the session or the
selected character), ``N`` lists them to rewrite or take back, ``u`` undoes each like any other
action; a gain's what-happened line reaches the log. Pilot, 120×40."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.tui.conftest import ARTINAR, CREW, play
from textual.pilot import Pilot
from textual.widgets import Checkbox, OptionList

from gmscreen.campaign import events as ev
from gmscreen.campaign.notes import settled
from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.dialogs import ConfirmScreen
from gmscreen.tui.screens.main import MainScreen
from gmscreen.tui.screens.notes import NoteForm, NotesScreen
from gmscreen.tui.screens.player_view import PlayerView
from gmscreen.tui.widgets.roll_log import RollLog, content


def journal(app: GMScreenApp) -> list[ev.Event]:
    return [entry.event for entry in app.live.events]


def notes_now(app: GMScreenApp) -> list[tuple[str | None, str, bool]]:
    return [(n.character, n.text, n.shared) for n in settled(journal(app)).values()]


def screen_text(app: GMScreenApp) -> str:
    return app.export_screenshot().replace("&#160;", " ")


def log_text(app: GMScreenApp) -> str:
    assert app.main is not None
    log = app.main.query_one(RollLog)
    return "\n".join(content(entry).plain for entry in log.entries)


def test_a_note_not_shared_stays_the_gms(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("n")
        assert isinstance(app.screen, NoteForm)
        await pilot.press(*"The innkeeper lies", "enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert "Note: The innkeeper lies" in log_text(app)
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, PlayerView)
        assert "innkeeper" not in screen_text(app)

    app = play(table_with(*CREW), scenario)
    # about the session (the box "About Artinar" left unticked), the GM's alone
    assert notes_now(app) == [(None, "The innkeeper lies", False)]


def test_a_shared_note_about_the_selected_character(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("j", "n")  # Bors selected
        assert isinstance(app.screen, NoteForm)
        # tab to "About Bors", tick it; tab to "share", tick it; enter saves from anywhere
        await pilot.press(*"hears the bells", "tab", "space", "tab", "space")
        assert app.screen.query_one("#about", Checkbox).value
        assert app.screen.query_one("#shared", Checkbox).value
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, PlayerView)
        assert "About Bors: hears the bells" in screen_text(app)

    app = play(table_with(*CREW), scenario)
    assert notes_now(app) == [("bors", "hears the bells", True)]


def test_esc_writes_nothing_and_an_empty_note_is_refused(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("n", *"never mind", "escape")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        await pilot.press("n", "space", "enter")
        await pilot.pause()
        assert isinstance(app.screen, NoteForm)  # still open, saying why
        assert "empty" in str(app.screen.query_one("#error").render())
        await pilot.press("escape")

    app = play(table_with(ARTINAR), scenario)
    assert journal(app) == []


def test_a_note_rewritten_shared_taken_back_and_brought_back_by_undo(
    table_with: Callable[..., Path],
) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("n", *"a black ship", "enter")
        await pilot.pause()
        await pilot.press("N")
        await pilot.pause()
        assert isinstance(app.screen, NotesScreen)
        assert "a black ship" in screen_text(app)
        # e: rewrite it (the line holds the text: add to it) and share it
        await pilot.press("e")
        assert isinstance(app.screen, NoteForm)
        await pilot.press(*" at the quay", "tab", "space", "enter")
        await pilot.pause()
        assert isinstance(app.screen, NotesScreen)
        assert notes_now(app) == [(None, "a black ship at the quay", True)]
        assert "a black ship at the quay" in screen_text(app)
        # delete: take it back, once the GM says yes
        await pilot.press("delete")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, NotesScreen)
        assert notes_now(app) == []
        assert app.screen.query_one("#notes", OptionList).option_count == 0
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert "Note taken back: a black ship at the quay" in log_text(app)
        # u undoes the removal (as any action: the confirm says what), then the rewrite
        await pilot.press("u")
        assert isinstance(app.screen, ConfirmScreen)
        assert "taken back" in app.screen.question
        await pilot.press("y")
        await pilot.pause()
        assert notes_now(app) == [(None, "a black ship at the quay", True)]
        await pilot.press("u", "y")
        await pilot.pause()
        assert notes_now(app) == [(None, "a black ship", False)]
        await pilot.press("u", "y")  # and the note itself
        await pilot.pause()
        assert notes_now(app) == []

    app = play(table_with(ARTINAR), scenario)
    kinds = [e.kind for e in journal(app)]
    assert kinds == ["note", "note_edited", "note_removed", "undo", "undo", "undo"]


def test_a_gains_what_happened_line_in_the_log(table_with: Callable[..., Path]) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("g", *"elemental", "enter")
        assert "What happened?" in screen_text(app)
        await pilot.press(*"a salamander in the forge", "enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert "“a salamander in the forge”" in log_text(app)

    app = play(table_with(ARTINAR), scenario)
    [gain] = [e.data for e in journal(app)]
    assert isinstance(gain, ev.Gain) and gain.happened == "a salamander in the forge"


def test_a_tick_box_reads_ticked_or_not_without_colour(table_with: Callable[..., Path]) -> None:
    """The box's characters themselves say ticked or not (Textual's draw an X either way, told
    apart by colour only); the settings' boxes too (issue 30)."""

    def shown(box: Checkbox) -> str:
        return box.render().plain  # the characters alone, as a monochrome terminal shows them

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("j", "n")
        about, shared = (app.screen.query_one(f"#{i}", Checkbox) for i in ("about", "shared"))
        assert "X" not in shown(about) and "X" not in shown(shared)
        await pilot.press("tab", "space")
        assert about.value and shown(about).startswith("▐X▌")
        await pilot.press("space")
        assert not about.value and "X" not in shown(about)
        await pilot.press("escape", "S")
        boxes = list(app.screen.query(Checkbox))
        assert {box.value for box in boxes} == {True, False}  # the MERP module is off
        assert all(("X" in shown(box)) == box.value for box in boxes)

    play(table_with(*CREW), scenario)
