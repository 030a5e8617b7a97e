"""Replay, jumping: a jump shows what stepping there shows, and a step redraws only what changed
(the log moves its highlight, the roster re-renders only the cards that changed)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from tests.tui.conftest import SIZE
from tests.tui.replay_helpers import build_replay, copy_example
from textual.content import Content
from textual.pilot import Pilot
from textual.strip import Strip
from textual.widgets import Sparkline

from gmscreen.tui.replay_app import ReplayApp
from gmscreen.tui.screens import replay as replay_module
from gmscreen.tui.screens.replay import ReplayScreen
from gmscreen.tui.session import madness_history
from gmscreen.tui.widgets.replay_log import ReplayLog
from gmscreen.tui.widgets.roster import Roster

Scenario = Callable[[ReplayScreen, Pilot[None]], Awaitable[None]]


@pytest.fixture
def example(tmp_path: Path) -> Path:
    return copy_example(tmp_path)


def play(folder: Path, scenario: Scenario) -> None:
    async def run() -> None:
        app: ReplayApp = build_replay(folder)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, ReplayScreen)
            await scenario(app.screen, pilot)

    asyncio.run(run())


def shown(screen: ReplayScreen) -> tuple[object, ...]:
    """Everything the screen shows of a step, as drawn (the roster's and log's lines)."""
    roster = screen.query_one(Roster)
    log = screen.query_one(ReplayLog)
    return (
        screen.step,
        str(screen.query_one("#header").render()),
        [roster.render_line(y).text for y in range(roster.size.height)],
        roster.selected_id,
        str(screen.query_one("#detail-text").render()),
        list(screen.query_one(Sparkline).data or []),
        [log.render_line(y).text for y in range(log.size.height)],
        log.scroll_offset.y,
    )


def test_a_jump_shows_what_stepping_there_shows(example: Path) -> None:
    async def scenario(screen: ReplayScreen, pilot: Pilot[None]) -> None:
        stepped = {screen.step: shown(screen)}
        while screen.step < screen.steps.last:
            await pilot.press("right")
            stepped[screen.step] = shown(screen)
        order = list(stepped)
        random.Random(3).shuffle(order)
        roster = screen.query_one(Roster)
        for step in order:
            screen.go(step)
            await pilot.pause()
            # Who is selected depends on the way there (an event about nobody keeps the last
            # one): select the same one, then the detail pane must show the same too.
            selected = stepped[step][3]
            assert isinstance(selected, str)
            roster.highlighted = roster.ids.index(selected)
            await pilot.pause()
            assert shown(screen) == stepped[step], f"step {step}"

    play(example, scenario)


def test_madness_history_by_chunks_is_the_history_folded_from_the_start(
    example: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(replay_module, "SPARK_POINTS", 3)  # the sparkline keeps the last 3

    async def scenario(screen: ReplayScreen, pilot: Pilot[None]) -> None:
        events = screen.session.events
        ids = {c.id for c in screen.replay.start.characters} | {
            e.character for e in events if e.character
        }
        for chunk in (1, 2, 5, 64):
            screen.history_chunk, screen._histories = chunk, {}
            for step in range(len(events) + 1):
                screen.step = step
                for character_id in sorted(ids):
                    folded = madness_history(
                        screen.replay.start, events[:step], screen.steps.void, character_id
                    )
                    assert screen._history(character_id) == folded[-3:], (chunk, step)

    play(example, scenario)


def test_a_step_moves_the_log_highlight_and_keeps_the_other_lines(example: Path) -> None:
    async def scenario(screen: ReplayScreen, pilot: Pilot[None]) -> None:
        log = screen.query_one(ReplayLog)
        entries = log.entries
        for _ in range(6):
            await pilot.press("right")
        before_current = log.current

        def drawn() -> dict[int, object]:
            top = log.scroll_offset.y
            return {top + y: log.render_line(y) for y in range(log.size.height)}

        before = drawn()
        await pilot.press("right")
        after = drawn()
        assert log.entries is entries  # not loaded again
        moved = set(before_current) | set(log.current)
        kept = [i for i in before.keys() & after.keys() if i not in moved]
        assert kept
        for index in kept:  # the same strip, from the cache: not rendered again
            assert after[index] is before[index]
        for index in log.current:
            assert after[index] is not before.get(index)

    play(example, scenario)


def look(prompt: Content) -> tuple[str, list[object]]:
    return prompt.plain, list(prompt.spans)


def test_a_step_draws_again_only_the_cards_that_changed(example: Path) -> None:
    """The lines of a card that reads as before come from the roster's cache (the very same
    Strip); a card that changed is drawn anew."""

    async def scenario(screen: ReplayScreen, pilot: Pilot[None]) -> None:
        roster = screen.query_one(Roster)
        changed_any = kept_any = False

        def lines() -> dict[tuple[str, int], Strip]:
            """Each line in view, by the card it belongs to and its row in the card."""
            drawn: dict[tuple[str, int], Strip] = {}
            row = 0
            for index in range(roster.option_count):
                for n in range(len(roster.card_at(index).split(allow_blank=True))):
                    if roster.scroll_offset.y <= row < roster.scroll_offset.y + roster.size.height:
                        drawn[roster.ids[index], n] = roster.render_line(
                            row - roster.scroll_offset.y
                        )
                    row += 1
            return drawn

        while screen.step < screen.steps.last:
            cards = {i: look(roster.card_at(n)) for n, i in enumerate(roster.ids)}
            selected = roster.selected_id
            before = lines()
            await pilot.press("right")
            if roster.selected_id != selected:
                continue  # the highlight moved: two cards change their look
            after = lines()
            for n, character in enumerate(roster.ids):
                if character not in cards:
                    continue
                same = cards[character] == look(roster.card_at(n))
                for (who, row), strip in after.items():
                    if who != character or (who, row) not in before:
                        continue
                    if same:
                        assert strip is before[who, row], (screen.step, who, row)
                        kept_any = True
                    elif strip.text != before[who, row].text:
                        assert strip is not before[who, row]
                        changed_any = True
        assert changed_any and kept_any

    play(example, scenario)
