"""The gain picker's presets: one line each, filtered as the GM types, drawn by the line API.

Textual's OptionList drew every preset anew each time the picker opened, and twice: filtering
replaces its options (which empties its drawn lines), and the new number of lines changes its
virtual size, which resizes it once laid out, which empties them again. Here the presets are
fixed at the start; a filter only says which of them show, in what rows, and each preset's line
is kept (an ``LRUCache`` of ``Strip``s by preset, highlight, width and style), so a line is drawn
once per look for the whole evening, however often the picker opens or the GM filters.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.segment import Segment
from textual import events
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from gmscreen.text import inert


class PresetRow:
    """One preset as the picker lists it: its key, its words and the hint of its amount."""

    __slots__ = ("hint", "key", "label")

    def __init__(self, key: str, label: str, hint: str) -> None:
        self.key = key
        self.label = inert(label)
        self.hint = inert(hint)


class PresetRows(ScrollView, can_focus=False):
    """The presets shown (all, or those the filter matches), one of them highlighted; a click
    picks one (:class:`Picked`). The keys are the dialog's: it moves the highlight."""

    COMPONENT_CLASSES = {"preset-rows--highlighted", "preset-rows--hint"}
    # As Textual's OptionList looks unfocused, which the picker used before.
    DEFAULT_CSS = """
    PresetRows {
        height: auto; max-height: 100%; overflow-x: hidden; overflow-y: auto;
        color: $foreground; background: $surface;
        border: tall $border-blurred; padding: 0 1;
    }
    PresetRows > .preset-rows--highlighted {
        color: $foreground; background: $block-cursor-blurred-background;
        text-style: $block-cursor-blurred-text-style;
    }
    PresetRows > .preset-rows--hint { text-style: dim; }
    """

    highlighted = reactive(0, repaint=False)

    class Picked(Message):
        """The GM clicked a preset."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    def __init__(self, rows: Sequence[PresetRow], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows = list(rows)
        self.shown = list(range(len(self.rows)))  # the rows listed, by index into rows
        self._lines: LRUCache[tuple[object, ...], Strip] = LRUCache(4 * len(self.rows) + 8)
        self.virtual_size = Size(0, len(self.shown))

    @property
    def option_count(self) -> int:
        """How many presets are listed now."""
        return len(self.shown)

    @property
    def highlighted_key(self) -> str | None:
        if not self.shown:
            return None
        return self.rows[self.shown[self.highlighted]].key

    def show_only(self, shown: Sequence[int]) -> None:
        """List the rows ``shown`` (indices into the rows, in order), the first highlighted."""
        shown = list(shown)
        if shown != self.shown:
            self.shown = shown
            self.virtual_size = Size(0, len(shown))
            self.refresh()
        self.highlighted = 0

    def validate_highlighted(self, value: int) -> int:
        return max(0, min(value, len(self.shown) - 1))

    def watch_highlighted(self, old: int, new: int) -> None:
        self.refresh_lines(old)
        self.refresh_lines(new)
        self.scroll_to_region(Region(0, new, 1, 1), animate=False, force=True, immediate=True)

    def on_click(self, event: events.Click) -> None:
        inside = event.get_content_offset(self)  # None on the border
        if inside is None:
            return
        row = inside.y + int(self.scroll_offset.y)
        if 0 <= row < len(self.shown):
            self.highlighted = row
            self.post_message(self.Picked(self.rows[self.shown[row]].key))

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        row = y + int(self.scroll_offset.y)
        if row >= len(self.shown):
            return Strip.blank(width, self.rich_style)
        lit = row == self.highlighted
        base = self.rich_style
        if lit:
            base += self.get_component_rich_style("preset-rows--highlighted")
        hint = base + self.get_component_rich_style("preset-rows--hint", partial=True)
        index = self.shown[row]
        key = (index, width, base, hint)
        line = self._lines.get(key)
        if line is None:
            preset = self.rows[index]
            segments = [
                Segment(preset.label, base),
                Segment("  ", base),
                Segment(preset.hint, hint),
            ]
            line = Strip(segments).crop_extend(0, width, base)
            self._lines[key] = line
        return line
