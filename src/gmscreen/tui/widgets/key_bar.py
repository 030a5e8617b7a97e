"""The key bar at the bottom of every screen: the keys that work here, on one line.

Textual's ``Footer`` builds a widget per key and rebuilds them all (compose, CSS, layout) every
time the bindings change, which is on every focus change and every screen switch: on the GM's
screen that was most of the time a gain took to show. This is one widget that repaints one line;
it looks the same, and a click on a key still presses it.

Each key is named in the catalog's words by its command's id (``gmscreen.tui.commands``), so a
change of language only needs a repaint; a screen can name a key its own way (``KEY_WORDS``:
action to catalog key). A screen can leave off keys that would only refuse now (the GM's
screen: nothing to undo, no check due) by having an ``offers(action)`` method
(see :class:`OffersKeys`); it calls ``refresh_bindings()`` when its answer changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, Protocol

from textual import events
from textual.content import Content
from textual.screen import Screen
from textual.widget import Widget

from gmscreen.text import inert_line
from gmscreen.tui.commands import binding_name
from gmscreen.tui.i18n import Translate


class KeySpan(NamedTuple):
    start: int  # cells from the left edge
    end: int
    key: str
    enabled: bool


class ShownKey(NamedTuple):
    key: str  # as Textual names it
    shown: str  # as the bar shows it
    description: str
    enabled: bool
    id: str | None  # the command's


class OffersKeys(Protocol):
    def offers(self, action: str) -> bool:
        """Whether the bar shows the key of ``action`` now (False: it could only refuse)."""
        ...


class KeyBar(Widget, can_focus=False):
    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"key-bar--key", "key-bar--description", "key-bar--disabled"}
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom; height: 1; width: 1fr;
        color: $footer-foreground; background: $footer-background;
        .key-bar--key {
            color: $footer-key-foreground; background: $footer-key-background; text-style: bold;
        }
        .key-bar--description {
            color: $footer-description-foreground; background: $footer-description-background;
        }
        .key-bar--disabled { text-style: dim; }
    }
    """

    def __init__(self, t: Translate) -> None:
        super().__init__()
        self.t = t
        self._spans: list[KeySpan] = []
        self._shown: tuple[list[ShownKey], ShownKey | None] | None = None  # the keys to paint

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen[object]) -> None:
        # The signal comes on every focus change; most change nothing here, and a repaint
        # that changes nothing would still cost the GM a frame.
        if screen is self.screen:
            keys = self._keys()
            if keys != self._shown:
                self._shown = keys
                self.refresh()  # the same one line: no layout

    def _keys(self) -> tuple[list[ShownKey], ShownKey | None]:
        """Each action the bar shows, and the palette's key."""
        app, screen = self.app, self.screen
        active = screen.active_bindings
        offers: Callable[[str], bool] | None = getattr(screen, "offers", None)
        words: dict[str, str] = getattr(screen, "KEY_WORDS", {})
        seen: set[str] = set()
        keys: list[ShownKey] = []
        for _node, binding, enabled, _tooltip in active.values():
            if not binding.show or binding.action in seen:
                continue  # one entry per action, as Footer does: its first key
            seen.add(binding.action)
            if offers is not None and not offers(binding.action):
                continue
            shown = inert_line(app.get_key_display(binding))  # a key of the GM's config file
            word = words.get(binding.action)
            description = self.t(word) if word else binding_name(binding, self.t)
            keys.append(ShownKey(binding.key, shown, description, enabled, binding.id))
        palette = None
        if app.ENABLE_COMMAND_PALETTE and app.COMMAND_PALETTE_BINDING in active:
            _node, binding, enabled, _tooltip = active[app.COMMAND_PALETTE_BINDING]
            shown = inert_line(app.get_key_display(binding))
            palette = ShownKey(binding.key, shown, self.t("help.palette_key"), enabled, None)
        return keys, palette

    def shown_keys(self) -> list[str]:
        """The keys the bar shows now, as Textual names them (``u``, ``full_stop``), but the
        palette's."""
        return [shown.key for shown in self._keys()[0]]

    def shown_commands(self) -> set[str]:
        """The ids of the commands whose keys the bar shows now (``gain``, ``dialog_free``)."""
        return {shown.id for shown in self._keys()[0] if shown.id is not None}

    def render(self) -> Content:
        key_style = self.get_visual_style("key-bar--key", partial=True)
        description_style = self.get_visual_style("key-bar--description", partial=True)
        disabled_style = self.get_visual_style("key-bar--disabled", partial=True)
        if self._shown is None:
            self._shown = self._keys()
        keys, palette = self._shown
        parts: list[Content] = []
        spans: list[KeySpan] = []
        width = 0
        for key, shown, description, enabled, _id in keys:
            part = Content.assemble(
                (f" {shown} ", key_style), (f"{description} ", description_style)
            )
            if not enabled:
                part = part.stylize(disabled_style)
            spans.append(KeySpan(width, width + part.cell_length, key, enabled))
            width += part.cell_length
            parts.append(part)
        line = Content("").join(parts)
        if palette is not None:
            key, shown, description, enabled, _id = palette
            tail = Content.assemble(
                ("▏", disabled_style), (shown, key_style), (f" {description}", description_style)
            )
            start = max(width, self.size.width - tail.cell_length)
            line = line.pad_right(start - width) + tail
            spans.append(KeySpan(start, start + tail.cell_length, key, enabled))
        self._spans = spans
        return line

    def on_click(self, event: events.Click) -> None:
        for span in self._spans:
            if span.start <= event.x < span.end:
                if span.enabled:
                    self.app.simulate_key(span.key)
                else:
                    self.app.bell()
                return
