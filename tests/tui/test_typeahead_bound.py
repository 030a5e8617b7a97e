"""close_in_order holds the keys typed after a dialog's closing key only while the callback it
was opened with runs, and not for ever: a slow callback must not stop the app taking keys."""

from __future__ import annotations

import asyncio

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from gmscreen.tui import typeahead
from gmscreen.tui.typeahead import InOrderDialog, open_screen


class Dialog(InOrderDialog[str]):
    BINDINGS = [Binding("enter", "confirm", priority=True)]

    def compose(self) -> ComposeResult:
        yield Static("a dialog")

    async def action_confirm(self) -> None:
        self.dismiss("done")


class Below(Screen[None]):
    BINDINGS = [Binding("o", "open", priority=True)]

    def __init__(self, release: asyncio.Event, seen: list[str]) -> None:
        super().__init__()
        self.release = release
        self.seen = seen

    def compose(self) -> ComposeResult:
        yield Static("below")

    async def action_open(self) -> None:
        await open_screen(self, Dialog(), self.slow)

    async def slow(self, result: str | None) -> None:
        await self.release.wait()  # a callback that takes its time (released by the test)
        self.seen.append(f"callback {result}")


class Host(App[None]):
    BINDINGS = [Binding("x", "mark", priority=True)]

    def __init__(self) -> None:
        super().__init__()
        self.release = asyncio.Event()
        self.seen: list[str] = []

    def on_mount(self) -> None:
        self.push_screen(Below(self.release, self.seen))

    def action_mark(self) -> None:
        self.seen.append("x")


def test_a_slow_callback_holds_the_keys_only_for_a_while(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(typeahead, "CALLBACK_WAIT", 0.05)

    async def scenario() -> list[str]:
        app = Host()
        async with app.run_test(size=(60, 10)) as pilot:
            await pilot.pause()
            await pilot.press("o")
            assert isinstance(app.screen, Dialog)
            # The callback ends in 1 s; the bound (0.05 s) lets "x" in long before.
            asyncio.get_running_loop().call_later(1.0, app.release.set)
            await pilot.press("enter", "x")
            await app.release.wait()
            await pilot.pause()
            return app.seen

    assert asyncio.run(asyncio.wait_for(scenario(), 20)) == ["x", "callback done"]
