"""A form's controls that leave ``enter`` to the form: ``enter`` saves any form, ``space``
toggles a checkbox or moves a choice on.

Textual's Checkbox toggles on enter as well as space, so enter on a checkbox changed it instead
of saving the form it is in: :class:`SpaceCheckbox` keeps only space (the key then goes on to
the form's own enter binding). It also draws its box empty when not ticked: Textual's draws an
``X`` either way, told apart by colour only, unreadable in monochrome.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Checkbox, Static

TICKED, UNTICKED = "X", " "


class SpaceCheckbox(Checkbox, inherit_bindings=False):
    """A checkbox that toggles with space (and a click) only, its box empty when not ticked."""

    BINDINGS = [Binding("space", "toggle_button", show=False)]

    def __init__(
        self,
        label: str | Content,
        value: bool = False,
        *,
        id: str | None = None,
        compact: bool = False,
    ) -> None:
        super().__init__(label, value, id=id, compact=compact)
        self.BUTTON_INNER = TICKED if value else UNTICKED  # this box's, not the class's

    def watch_value(self) -> None:
        self.BUTTON_INNER = TICKED if self.value else UNTICKED
        super().watch_value()


class Choice(Static, can_focus=True):
    """One of a few values, shown as ``‹ English ›``: space or → takes the next, ← the one before.

    ``options`` are (value, label) pairs; the label is plain text, never markup.
    """

    DEFAULT_CSS = """
    Choice { width: auto; height: 1; padding: 0 1; }
    Choice:focus { background: $accent 40%; text-style: bold; }
    """
    BINDINGS = [
        Binding("space,right", "step(1)", show=False),
        Binding("left", "step(-1)", show=False),
    ]

    class Changed(Message):
        def __init__(self, choice: Choice) -> None:
            super().__init__()
            self.choice = choice

        @property
        def control(self) -> Widget:
            return self.choice

    def __init__(
        self, options: Sequence[tuple[str, str]], value: str, *, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.options = list(options)
        values = [v for v, _ in self.options]
        self.index = values.index(value) if value in values else 0

    @property
    def value(self) -> str:
        return self.options[self.index][0]

    def on_mount(self) -> None:
        self._show()

    def action_step(self, by: int) -> None:
        self.index = (self.index + by) % len(self.options)
        self._show()
        self.post_message(self.Changed(self))

    def _show(self) -> None:
        self.update(Content(f"‹ {self.options[self.index][1]} ›"))
