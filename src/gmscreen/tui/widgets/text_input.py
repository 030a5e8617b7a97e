"""An Input whose cursor blinks only if the app says so (tests and screenshots turn it off)."""

from __future__ import annotations

from textual.widgets import Input


class TextInput(Input):
    def on_mount(self) -> None:
        self.cursor_blink = bool(getattr(self.app, "cursor_blink", True))
