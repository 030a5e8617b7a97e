"""Shown instead of the layout while the terminal is smaller than the screen needs."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static


class TooSmallScreen(Screen[None]):
    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; }
    TooSmallScreen Static { width: auto; max-width: 100%; text-style: bold; color: $warning; }
    """

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message

    def compose(self) -> ComposeResult:
        yield Static(Content(self.message), id="message")

    def update(self, message: str) -> None:
        self.query_one("#message", Static).update(Content(message))
