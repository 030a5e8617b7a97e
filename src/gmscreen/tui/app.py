"""The app factory shared by the CLI, the tests and the benchmarks (placeholder until issue 5)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Footer, Header, Static


class GMScreenApp(App[None]):
    TITLE = "gmscreen"
    BINDINGS = [("q", "quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("gmscreen: the GM's screen is being built.")
        yield Footer()


def make_app() -> GMScreenApp:
    return GMScreenApp()
