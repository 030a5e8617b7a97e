"""An Input whose cursor blinks only if the app says so (tests and screenshots turn it off)."""

from __future__ import annotations

from textual.widgets import Input

from gmscreen.text import inert_line


class TextInput(Input):
    def insert(self, text: str, index: int) -> None:
        # Typed or pasted: a pasted ESC or BEL would be drawn raw by the line (Input draws its
        # value as it is), so control characters come in visible (see gmscreen.text).
        super().insert(inert_line(text), index)

    def on_mount(self) -> None:
        self.cursor_blink = bool(getattr(self.app, "cursor_blink", True))
