"""The roll log: one line per entry, fast with thousands of entries.

Like toolong's log view it is a ScrollView that renders only the visible lines, from a cache,
rather than a widget per line. It follows new entries while the view is at the bottom and stays
put once the GM scrolls up. ``filter_who`` keeps one character's entries; ``search`` keeps the
entries whose text contains it (case-insensitive).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from textual.cache import LRUCache
from textual.content import Content
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.visual import Visual

from gmscreen.tui.widgets.scrolling import set_line_count

OUTCOME_STYLES: dict[str, str] = {
    "success": "bold $success",
    "failure": "bold $warning",
    "fumble": "bold reverse $error",
    "gain": "$error",
    "recovery": "$success",
    "episode": "bold $warning",
    "time": "$secondary",
    "info": "$foreground 70%",
}


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line: time, character, what happened, the dice and the outcome (all plain text)."""

    key: str  # unique (the event's sequence number, and a suffix when one event makes lines)
    when: str
    who: str | None  # character id, for the filter
    who_name: str
    what: str
    dice: str = ""
    outcome: str = ""
    style: str = "info"  # a key of OUTCOME_STYLES
    void: bool = False  # undone: still shown, struck through

    @property
    def haystack(self) -> str:
        return " ".join((self.when, self.who_name, self.what, self.dice, self.outcome)).casefold()

    def content(self) -> Content:
        """The line as both logs show it: the one place a log line is made."""
        parts: list[str | tuple[str, str]] = [(self.when, "dim"), "  "]
        if self.who_name:
            parts += [(self.who_name, "bold"), "  "]
        parts.append(self.what)
        if self.dice:
            parts += ["  ", (self.dice, "$text-muted")]
        if self.outcome:
            parts += ["  ", (self.outcome, OUTCOME_STYLES.get(self.style, ""))]
        line = Content.assemble(*parts)
        return line.stylize("strike dim") if self.void else line


class RollLog(ScrollView, can_focus=True):
    DEFAULT_CSS = """
    RollLog {
        height: 1fr;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        overflow-x: hidden;
        overflow-y: auto;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.entries: list[LogEntry] = []
        self._visible: list[int] = []
        self.filter_who: str | None = None
        self.search: str = ""
        self._cache: LRUCache[tuple[object, ...], Strip] = LRUCache(1024)
        self._follow = True  # at the bottom: new lines scroll into view

    @property
    def visible_entries(self) -> list[LogEntry]:
        return [self.entries[i] for i in self._visible]

    @property
    def following(self) -> bool:
        return self._follow

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if self.size.height and self.virtual_size.height:
            # The GM scrolled up: stay there; back at the bottom: follow again.
            self._follow = new_value >= self.max_scroll_y

    def _matches(self, entry: LogEntry) -> bool:
        if self.filter_who is not None and entry.who != self.filter_who:
            return False
        return not self.search or self.search.casefold() in entry.haystack

    def add(self, entries: Iterable[LogEntry]) -> None:
        """Append entries; follow them if the view was at the bottom."""
        follow = self.following
        start = len(self.entries)
        self.entries.extend(entries)
        self._visible.extend(
            i for i in range(start, len(self.entries)) if self._matches(self.entries[i])
        )
        self._update(follow)

    def replace(self, entries: Iterable[LogEntry]) -> None:
        """Show ``entries`` instead (after an undo voids earlier lines, say)."""
        follow = self.following
        self.entries = list(entries)
        self._cache.clear()
        self._refilter(follow)

    def set_filter(self, who: str | None, search: str | None = None) -> None:
        self.filter_who = who
        if search is not None:
            self.search = search
        self._refilter(True)

    def _refilter(self, follow: bool) -> None:
        self._visible = [i for i, e in enumerate(self.entries) if self._matches(e)]
        self._update(follow)

    def _update(self, follow: bool) -> None:
        set_line_count(self, len(self._visible))
        self.refresh()
        if follow:
            # force: before the first layout shows the scrollbar, an unforced scroll is ignored
            # and following would wait for a later frame.
            self.scroll_end(animate=False, immediate=True, x_axis=False, force=True)
            if self.scroll_y < self.max_scroll_y:
                # Before a layout the sizes are not settled: follow again once they are.
                self.call_after_refresh(self.scroll_end, animate=False, x_axis=False)

    def render_line(self, y: int) -> Strip:
        index = self.scroll_offset.y + y
        width = self.size.width
        if index >= len(self._visible):
            return Strip.blank(width, self.rich_style)
        entry = self.entries[self._visible[index]]
        cache_key = (entry.key, entry.void, width, self.visual_style)
        strip = self._cache.get(cache_key)
        if strip is None:
            strips = Visual.to_strips(self, entry.content(), width, 1, self.visual_style, pad=True)
            strip = strips[0] if strips else Strip.blank(width, self.rich_style)
            self._cache[cache_key] = strip
        return strip.apply_offsets(0, index)

    def on_resize(self) -> None:
        self._update(self._follow)
