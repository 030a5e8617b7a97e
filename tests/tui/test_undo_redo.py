"""Undo and redo on the GM's screen (#15.3): one u takes back one whole action (a gain with dice
to three marked characters), u reaches back past a reopen into the last session, U redoes, and
the [keys] problems of the user's config are told in one message at start-up."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from tests.tui.conftest import CREW, SIZE, build, fixed_clock, madness, play
from textual.content import Content
from textual.pilot import Pilot

from gmscreen.campaign import events as ev
from gmscreen.campaign.model import Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.replay import Replay
from gmscreen.campaign.store import load
from gmscreen.rules import dice
from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.check import CheckScreen
from gmscreen.tui.screens.dialogs import ConfirmScreen
from gmscreen.tui.screens.main import MainScreen
from gmscreen.tui.widgets.roll_log import RollLog, content

CALM = (*CREW[:2], dict(CREW[2], madness=2))  # nobody's check falls due after the gains below
NAMES = ("Artinar", "Bors", "[bold]Cym[/]")


def test_one_u_undoes_a_gain_with_dice_to_three_marked_characters(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("space", "j", "space", "j", "space", "g", *"friend", "enter", "enter")
        await pilot.press("4", "enter", "5", "enter", "6", "enter")  # each rolls its own d6
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert [madness(app, c) for c in ("artinar", "bors", "bold-cym")] == [4, 10, 8]
        await pilot.press("u")
        assert isinstance(app.screen, ConfirmScreen)
        question = app.screen.question
        assert all(name in question for name in NAMES)  # the whole action, in words
        assert "friend_dies" not in question and "(and" not in question
        await pilot.press("y")
        await pilot.pause()
        assert [madness(app, c) for c in ("artinar", "bors", "bold-cym")] == [0, 5, 2]
        assert not app.live.can_undo() or app.live.describe_last_undoable() != question

    app = play(table_with(*CALM), scenario)
    gains = [e.event for e in app.live.events if isinstance(e.event.data, ev.Gain)]
    assert len(gains) == 3 and len({e.action for e in gains}) == 1
    # each key journaled its gain at once, one line each, all three one action
    assert load(app.live.folder).state == app.live.state


def _last_session(folder: Path) -> None:
    """A session before tonight's: a gain to Artinar with a typed d6, then the app is closed."""
    with open_campaign(folder, rng=random.Random(2), clock=fixed_clock) as live:
        live.gain("artinar", "friend_dies", roll=dice.typed("1d6", 5))


def test_u_after_reopening_undoes_the_last_sessions_action_and_U_redoes_it(table_with) -> None:  # type: ignore[no-untyped-def]
    folder = table_with(*CALM)
    _last_session(folder)
    shown: dict[str, Any] = {}

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        assert madness(app, "artinar") == 5
        await pilot.press("u")
        assert isinstance(app.screen, ConfirmScreen)
        shown["question"] = app.screen.question
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert madness(app, "artinar") == 0
        log = app.screen.query_one(RollLog)
        gain_lines = [e for e in log.entries if e.who == "artinar" and "friend" in e.what.lower()]
        assert gain_lines and all(e.void for e in gain_lines)  # the last session's, struck
        assert any(e.what.startswith("Undone, from the session of") for e in log.entries)
        assert app.screen.histories.of("artinar")[-1] == 0  # the sparkline goes back too
        await pilot.press("U")
        await pilot.pause()
        assert madness(app, "artinar") == 5
        await pilot.press("u", "y")
        await pilot.pause()
        assert madness(app, "artinar") == 0

    app = play(folder, scenario)
    question = shown["question"]
    assert "1 March 2025" in question and "Artinar" in question  # which session, and what
    assert "Sees a friend die" in question and "friend_dies" not in question
    # journaled in tonight's session; the last session's journal is left alone
    kinds = [e.event.kind for e in app.live.events]
    assert kinds == ["undo_earlier", "undo", "undo_earlier"]
    recovered = load(folder)
    assert recovered.state == app.live.state  # checkpoint + journals: the same state
    tonight = recovered.logs[-1]
    replay = Replay.from_log(tonight)
    assert replay.state_at(0).character("artinar").sanity.madness == 5
    assert replay.final().character("artinar").sanity.madness == 0
    words = [line.text for line in replay.lines()]
    assert words[0].startswith("Undone, from the session of 1 March 2025: Artinar")


def test_the_keys_problems_are_one_message_at_start_up(tmp_path: Path, new_campaign: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[keys]\ncheck = "g"\ngian = "x"\nundo = "ctrl+z"\n', encoding="utf-8")
    said: list[str] = []

    async def run() -> GMScreenApp:
        app = build(new_campaign, config_path=config)
        notify = app.notify

        def told(message: str, **options: Any) -> None:
            said.append(message)
            notify(message, **options)

        app.notify = told  # type: ignore[method-assign]
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
        return app

    asyncio.run(run())
    keys = [m for m in said if "[keys]" in m]
    assert len(keys) == 1
    message = keys[0]
    assert "gian is no command" in message
    assert "g is given to gain + check" in message
    assert "gain is left without a key" in message
    assert "ctrl+z" not in message  # a key that clashes with nothing is simply taken


def test_one_u_undoes_a_check_with_its_kind_and_one_more_the_end_of_day(table_with) -> None:  # type: ignore[no-untyped-def]
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press(
            "g", *"demon", "enter", "1", "6", "enter", "enter"
        )  # madness 11 + 3: a check
        await pilot.pause()
        assert isinstance(app.screen, CheckScreen)
        await pilot.press("5", "3", "enter")  # over Law 47: a failure
        await pilot.pause()
        await pilot.press("enter", "r", "enter")  # the kind of madness, rolled
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert app.live.state.character("artinar").sanity.episode is not None
        await pilot.press("u", "y")
        await pilot.pause()
        artinar = app.live.state.character("artinar")
        assert artinar.sanity.episode is None and artinar.awaiting_kind is None
        assert artinar.sanity.madness == 14  # the check is gone, the gain is still there
        await pilot.press("D")
        await pilot.pause()
        assert app.live.state.clock == 86_400
        await pilot.press("u", "y")
        await pilot.pause()
        assert app.live.state.clock == 0 and madness(app, "bors") == 5

    artinar = dict(CREW[0], madness=11)
    play(table_with(artinar, CREW[1], settings=Settings(auto_check=True)), scenario)


def _struck(drawn: Content) -> bool:
    return any("strike" in str(span.style) for span in drawn.spans)


def test_an_undone_line_its_undo_and_its_redo_are_told_apart_without_colour(table_with) -> None:  # type: ignore[no-untyped-def]
    """A chain of undo and redo reads at a glance, in monochrome too: an undo's line starts with
    ↶, a redo's with ↷, neither is struck through (an undo a redo took back read as undone
    twice), and what is undone now is struck through with a × (issue 30)."""

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press(".", "u", "y", "U", "u", "y")  # a round; undone, redone, undone
        await pilot.pause()
        lines = [content(e) for e in app.screen.query_one(RollLog).entries[-4:]]
        shown = [line.plain.split("  ", 1)[1] for line in lines]  # after the time
        assert shown == [
            "× Next round",
            "↶ Undone: Next round",
            "↷ Redone: Next round",
            "↶ Undone: Next round",
        ]
        assert [_struck(line) for line in lines] == [True, False, False, False]

    play(table_with(*CALM), scenario)
