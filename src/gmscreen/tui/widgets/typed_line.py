"""A line the GM types into, that the dialog around it fills key by key.

Textual gives keys to the focused widget, and a dialog that moves the focus from one Input to
the next (filter, then answer) does so a message later: keys typed ahead (a fast GM, a pasted
"demon⏎16⏎") went into the box that had the focus when they arrived. This widget never takes
the focus; the dialog handles every key itself, in the order typed, and puts text here. It
looks like a focused Input: a cursor at the end, a dim placeholder while empty. With the class
``-idle`` (its dialog has stopped feeding it, the text still in use) it looks like an Input
without the focus: no cursor, the dimmer border.
"""

from __future__ import annotations

from textual.content import Content
from textual.widget import Widget


class TypedLine(Widget, can_focus=False):
    COMPONENT_CLASSES = {"typed-line--cursor", "typed-line--placeholder"}
    DEFAULT_CSS = """
    TypedLine {
        height: 3; width: 100%; padding: 0 2;
        background: $surface; color: $foreground; background-tint: $foreground 5%;
        border: tall $border;
        & > .typed-line--cursor {
            background: $input-cursor-background; color: $input-cursor-foreground;
            text-style: $input-cursor-text-style;
        }
        & > .typed-line--placeholder { color: $text-disabled; }
        &.-idle { border: tall $border-blurred; background-tint: $foreground 0%; }
    }
    """

    def __init__(self, placeholder: str = "", *, id: str | None = None, classes: str = "") -> None:
        super().__init__(id=id, classes=classes)
        self.placeholder = placeholder
        self.value = ""
        self._replace_next = False  # a value put there for the GM: the first key replaces it

    def set(self, value: str, *, replace_on_type: bool = False) -> None:
        self.value = value
        self._replace_next = replace_on_type
        self.refresh()

    def insert(self, text: str) -> None:
        self.value = text if self._replace_next else self.value + text
        self._replace_next = False
        self.refresh()

    def delete_left(self) -> None:
        self.value = "" if self._replace_next else self.value[:-1]
        self._replace_next = False
        self.refresh()

    def render(self) -> Content:
        placeholder = self.get_visual_style("typed-line--placeholder")
        if self.has_class("-idle"):
            return (
                Content(self.value)
                if self.value
                else Content.assemble((self.placeholder, placeholder))
            )
        cursor = self.get_visual_style("typed-line--cursor")
        if self.value:
            return Content.assemble(self.value, (" ", cursor))
        first, rest = self.placeholder[:1] or " ", self.placeholder[1:]
        return Content.assemble((first, cursor), (rest, placeholder))
