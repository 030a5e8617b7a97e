"""The message catalog covers every key the UI asks for; the roll log follows and filters fast."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from textual.app import App, ComposeResult

from gmscreen.campaign.gm_words import Line
from gmscreen.campaign.model import Campaign, Character
from gmscreen.campaign.player_safe import player_safe
from gmscreen.rules.madness import Episode, MadnessState
from gmscreen.tui.commands import COMMANDS
from gmscreen.tui.i18n import Catalog, CatalogError, placeholders
from gmscreen.tui.screens.player_view import player_lines
from gmscreen.tui.widgets.roll_log import RollLog

TUI = Path(__file__).parents[2] / "src" / "gmscreen" / "tui"
LITERAL_KEY = re.compile(r"""\bt\(\s*["']([a-z_]+(?:\.[a-z_]+)+)["']""")


def test_every_literal_key_in_the_ui_is_in_the_catalog() -> None:
    catalog = Catalog(strict=True)
    used = {key for path in TUI.rglob("*.py") for key in LITERAL_KEY.findall(path.read_text())}
    assert len(used) > 80
    assert used - catalog.keys() == set()


def test_every_command_has_a_name_and_help() -> None:
    catalog = Catalog(strict=True)
    for command in COMMANDS:
        assert catalog.t(f"command.{command.id}.name")
        assert catalog.t(f"command.{command.id}.help")


def test_strict_catalog_fails_loudly() -> None:
    catalog = Catalog(strict=True)
    with pytest.raises(CatalogError):
        catalog.t("no.such.key")
    with pytest.raises(CatalogError):
        catalog.t("check.title")  # needs {name}
    assert placeholders(catalog._messages["check.title"]) == {"name"}
    with pytest.raises(CatalogError):
        Catalog("xx")


def test_player_view_has_no_numbers() -> None:
    catalog = Catalog(strict=True)
    episode = Episode("phobia", 14, "rounds", 0, 168)
    people = (
        Character(
            "artinar",
            "Artinar",
            MadnessState(pow=13, madness=14, chaos=43, law=47, episode=episode),
            player="Ann",
        ),
        Character("bors", "Bors", MadnessState(pow=12, madness=2), player="Ann"),
    )
    view = player_safe(Campaign("Test", characters=people))
    text = player_lines(view, catalog.t).plain
    assert not re.search(r"\d", text)
    assert "breaking" in text and "calm" in text and "Phobia" in text


def _entries(start: int, count: int, who: str = "a") -> list[Line]:
    return [
        Line(str(n), 0, "D1 00:00:00", who, who.upper(), f"entry {n}")
        for n in range(start, start + count)
    ]


class LogApp(App[None]):
    def compose(self) -> ComposeResult:
        yield RollLog()


def test_roll_log_follows_unless_scrolled_up() -> None:
    async def run() -> None:
        app = LogApp()
        async with app.run_test(size=(80, 24)) as pilot:
            log = app.query_one(RollLog)
            log.add(_entries(0, 5000))
            await pilot.pause()
            assert log.scroll_y == log.max_scroll_y > 0
            log.add(_entries(5000, 10, who="b"))
            await pilot.pause()
            assert log.scroll_y == log.max_scroll_y
            log.scroll_to(y=100, animate=False, immediate=True)
            log.add(_entries(5010, 10))
            await pilot.pause()
            assert log.scroll_y == 100  # the GM scrolled up: stay there
            log.set_filter("b")
            assert len(log.visible_entries) == 10
            log.set_filter(None, "entry 42")
            assert [e.key for e in log.visible_entries] == ["42"] + [
                str(n) for n in range(420, 430)
            ] + [str(n) for n in range(4200, 4300)]

    asyncio.run(run())
