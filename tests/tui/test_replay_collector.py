"""The replay screen and the collector (gmscreen.gc_policy.ReplayFreeze): the session frozen
while it is shown, the collector left as it was once it is gone."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tests.tui.conftest import SIZE
from tests.tui.replay_helpers import build_replay, copy_example
from textual.pilot import Pilot

from gmscreen import gc_policy
from gmscreen.tui.replay_app import ReplayApp
from gmscreen.tui.screens.replay import ReplayScreen


@pytest.fixture
def example(tmp_path: Path) -> Path:
    return copy_example(tmp_path)


@pytest.fixture(autouse=True)
def collector() -> Iterator[None]:
    threshold = gc.get_threshold()
    gc.unfreeze()
    try:
        yield
    finally:
        gc.unfreeze()  # the rest of the test run freezes nothing
        gc.set_threshold(*threshold)


async def settled(pilot: Pilot[None]) -> None:
    await pilot.pause()
    await pilot.pause()


def run_picker(
    folder: Path,
    start_up_frozen: bool,
    while_shown: Callable[[ReplayScreen], None],
    once_gone: Callable[[ReplayApp], None],
) -> None:
    async def run() -> None:
        app = build_replay(folder, session=None)
        async with app.run_test(size=SIZE) as pilot:
            if start_up_frozen:
                gc.freeze()  # as gmscreen.gc_policy.start_up_done does before the app runs
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, ReplayScreen)
            while_shown(app.screen)
            await pilot.press("escape")
            await settled(pilot)
            assert not isinstance(app.screen, ReplayScreen)
            once_gone(app)

    asyncio.run(run())


def test_the_session_is_frozen_while_shown_and_nothing_once_gone(example: Path) -> None:
    frozen: list[int] = []
    run_picker(
        example,
        start_up_frozen=False,
        while_shown=lambda screen: frozen.append(gc.get_freeze_count()),
        once_gone=lambda app: frozen.append(gc.get_freeze_count()),
    )
    assert frozen[0] > 0 and frozen[1] == 0


def test_leaving_the_replay_keeps_start_ups_freeze(example: Path) -> None:
    """The replay thaws to free its own objects, and must freeze start-up's again once gone,
    or the rest of the evening's full passes walk start-up again."""
    frozen: list[int] = []
    run_picker(
        example,
        start_up_frozen=True,
        while_shown=lambda screen: None,
        once_gone=lambda app: frozen.append(gc.get_freeze_count()),
    )
    assert frozen[0] > 0


def test_a_replay_screen_once_gone_is_collected_not_frozen(example: Path) -> None:
    """With start-up frozen: the screen's objects (cycles: widgets hold their parents) are
    collected before start-up is frozen again, not kept frozen for the rest of the evening."""
    screens: list[weakref.ref[ReplayScreen]] = []
    alive: list[bool] = []

    def once_gone(app: ReplayApp) -> None:
        gc.disable()  # collections of our own only: the freeze must not have caught it
        try:
            gc.collect()
            alive.append(screens[0]() is not None)
        finally:
            gc.enable()

    run_picker(
        example,
        start_up_frozen=True,
        while_shown=lambda screen: screens.append(weakref.ref(screen)),
        once_gone=once_gone,
    )
    assert alive == [False]


def test_full_passes_are_rarer_only_while_the_replay_is_shown(example: Path) -> None:
    young, middle, old = before = gc.get_threshold()
    seen: list[tuple[int, int, int]] = []
    run_picker(
        example,
        start_up_frozen=True,
        while_shown=lambda screen: seen.append(gc.get_threshold()),
        once_gone=lambda app: seen.append(gc.get_threshold()),
    )
    assert seen == [(young, middle, old * gc_policy.FULL_PASS_RARER), before]
