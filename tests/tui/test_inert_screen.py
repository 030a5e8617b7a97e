"""Text is inert on the screen (#13.2): a character or campaign named with markup, escape
sequences, right-to-left or zero-width characters goes through the roster, the log, the filter's
pop-up, undo's confirm question and its pop-up, a new character typed with ``c``, the replay
picker and replay's recap pop-up: no exception (``Bad[/]`` raised MarkupError after ``u``,
``y``), the name shown as typed in the pop-ups and dialogs, no control character drawn.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path

import pytest
from tests.hostile_text import forbidden_in, hostile_campaign, shown_as_typed
from tests.tui.conftest import SIZE, build, fixed_clock
from tests.tui.test_items import IORETH, settle, text_of
from textual.widget import Widget
from textual.widgets import Static

from gmscreen.campaign.model import Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.item_tables import ItemTableScreen


def _toasts(app: GMScreenApp) -> list[str]:
    return [str(toast.render()) for toast in app.screen.query("Toast")]


def _shown(widget: Widget) -> str:
    return str(widget.render())


async def _through_the_screen(folder: Path, name: str) -> list[str]:
    """What the screen showed (pop-ups, dialog texts, the whole screen's SVG) on the way."""
    shown: list[str] = []
    app = build(folder)
    async with app.run_test(size=SIZE, notifications=True) as pilot:  # pop-ups shown
        await pilot.pause()
        shown.append(app.export_screenshot())  # roster, detail, log, header
        await pilot.press("f")  # the log filtered to the selected character: a pop-up names it
        await pilot.pause()
        toasts = _toasts(app)
        assert any(shown_as_typed(name, text) for text in toasts), toasts
        shown += toasts
        await pilot.press("f", "g", *"demon", "enter", "1", "6", "enter", "enter")
        await pilot.pause()
        await pilot.press("u")  # the confirm question says what it undoes, with the name
        await pilot.pause()
        question = app.screen.query_one("#question", Static)
        shown.append(_shown(question))
        assert shown_as_typed(name, shown[-1])
        await pilot.press("y")
        await pilot.pause()
        toasts = _toasts(app)
        assert any(shown_as_typed(name, text) for text in toasts), toasts
        shown += toasts
        shown.append(app.export_screenshot())
        await pilot.press("R")  # the replay picker lists the sessions and who was involved
        await pilot.pause()
        shown.append(app.export_screenshot())
        await pilot.press("enter", "end", "E")  # the last session; the players' recap saved
        await pilot.pause()
        shown += _toasts(app)
        shown.append(app.export_screenshot())
        assert app.is_running
    return shown


# A few fixed names say what a Hypothesis loop over the whole app said (each run is a whole
# evening, seconds long): markup, an OSC title, and the bidi, zero-width and one-byte CSI pieces.
# gmscreen.text's own properties are Hypothesis tests (tests/test_inert_text.py).
HOSTILE_NAMES = [
    "Bad[/]",  # raised MarkupError after u, y
    "[bold]Elric[/] [PC]",  # markup read (bold) or eaten ([PC])
    "\x1b]0;PWNED\x07\u202eمرحبا\u200bEl\x9b2Jric\x7f",  # OSC, bidi, zero width, CSI, DEL
]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_hostile_name_on_the_screen(name: str) -> None:
    with tempfile.TemporaryDirectory() as root:
        folder = hostile_campaign(Path(root), name)
        shown = asyncio.run(_through_the_screen(folder, name))
    for text in shown:
        assert forbidden_in(text) == []


async def _new_character_then_undo(folder: Path) -> tuple[list[str], list[str]]:
    app = build(folder)
    async with app.run_test(size=SIZE, notifications=True) as pilot:  # pop-ups shown
        await pilot.press("c", *"Bad[/]", "tab", "tab", "1", "3", "enter")
        await pilot.pause()
        await pilot.press("u")
        await pilot.pause()
        question = [_shown(app.screen.query_one("#question", Static))]
        await pilot.press("y")
        await pilot.pause()
        assert app.is_running
        return question, _toasts(app)


def test_bad_markup_typed_as_a_name_keeps_the_app_running(new_campaign: Path) -> None:
    """The acceptance's case: ``Bad[/]`` typed with ``c``, then ``u``, ``y``."""
    question, toasts = asyncio.run(_new_character_then_undo(new_campaign))
    assert "Bad[/]" in question[0]
    assert any("Bad[/]" in text for text in toasts), toasts


def test_a_kept_item_tree_from_the_journal_is_drawn_inert() -> None:
    """An item's tree is stored in the journal with its texts as written: a file may hold an
    escape sequence in any of them (the entry, the choices, the table id, the markers)."""
    import random

    from gmscreen.rules.tables import load_tables, roll_table
    from gmscreen.rules.tables_nodes import Node
    from gmscreen.tui.i18n import Catalog
    from gmscreen.tui.widgets.item_tree import tree_content

    tables = load_tables()
    stored = roll_table(tables, "merp-1", random.Random(3), force=14).tree.to_dict()
    hostile = "Bad\x1b]0;PWNED\x07[/]"
    stored |= {"text": hostile, "text_es": hostile, "markers": [hostile]}
    for option in stored["choices"]:
        option |= {"label": hostile, "text": hostile}
    shown = str(tree_content(Node.from_dict(stored), tables, Catalog("en").t, "en"))
    assert forbidden_in(shown) == []
    assert shown.count("Bad␛]0;PWNED␇[/]") >= 4


async def _keep_an_item(folder: Path) -> list[str]:
    app = build(folder)
    async with app.run_test(size=SIZE, notifications=True) as pilot:  # pop-ups shown
        await pilot.press("t")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, ItemTableScreen)
        await pilot.press("r")
        await settle(app, pilot)
        while screen.roll is not None and not screen.roll.done:
            await pilot.press("a" if "a rolls" in text_of(app, "#prompt") else "1")
            await settle(app, pilot)
        await pilot.press("enter")  # kept: the pop-up names the item and the character
        await settle(app, pilot)
        assert app.is_running
        return _toasts(app)


@pytest.mark.parametrize("name", ["Bad[/]", "[bold]x[/]", "Elric [PC]", "\x1b]0;PWNED\x07"])
def test_the_item_kept_pop_up_names_a_hostile_character_as_typed(name: str) -> None:
    with tempfile.TemporaryDirectory() as root:
        folder = create_campaign(Path(root), "Wardens", Settings(modules=("merp-items",)))
        with open_campaign(folder, rng=random.Random(1), clock=fixed_clock) as live:
            live.add_character(name, 10, merp=IORETH)
        toasts = asyncio.run(_keep_an_item(folder))
    assert any(shown_as_typed(name, text) for text in toasts), toasts
    assert all(forbidden_in(text) == [] for text in toasts)
