"""The roll log: one entry per line of the GM's words, fast with thousands of entries.

It shows :class:`~gmscreen.campaign.gm_words.Line` pieces as they come (the words are
:mod:`gmscreen.campaign.telling`'s): this module only styles them, by their kind of line.

Like toolong's log view it is a ScrollView that renders only the visible rows, from a cache,
rather than a widget per line. An entry wider than the log wraps into rows under its text (past
its time and name); the rows are counted per width, an entry that fits at a glance (its length,
no wrapping done), so the count stays cheap for a long session. It follows new entries while
the view is at the bottom and stays put once the GM scrolls up. ``filter_who`` keeps one
character's entries; ``search`` keeps the entries whose text contains it (case-insensitive).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable

from rich.cells import cell_len
from textual.cache import LRUCache
from textual.content import Content
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.visual import Visual

from gmscreen.campaign.gm_words import Line
from gmscreen.tui.widgets.wrapping import hanging

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


# An undo or a redo is the GM's command, not a happening: marked by its own arrow (in
# monochrome too) and never struck through, which read as an undo undone; what is undone now is
# the happening's own line, struck through and marked with a cross.
COMMAND_MARKS: dict[str, str] = {"undo": "↶ ", "redo": "↷ "}
COMMAND_STYLES: dict[str, str] = {"undo": "italic $text-warning", "redo": "italic $text-success"}
VOID_MARK = "× "


def mark(line: Line) -> str:
    """What goes before the line's words: an undo's or a redo's arrow, an undone line's cross."""
    return COMMAND_MARKS.get(line.style) or (VOID_MARK if line.void else "")


def haystack(line: Line) -> str:
    """What the log's search looks in: the line's texts, any case."""
    return " ".join((line.when, line.who_name, line.what, line.dice, line.outcome)).casefold()


def head_length(line: Line) -> int:
    """Characters before what happened (the time and the name): rows it wraps into go under
    what happened."""
    return len(line.when) + 2 + (len(line.who_name) + 2 if line.who_name else 0)


def cell_length(line: Line) -> int:
    """Cells of :func:`content`, without making it (the log counts rows of every line)."""
    cells = cell_len(line.when) + 2 + cell_len(mark(line)) + cell_len(line.what)
    for part in (line.who_name, line.dice, line.outcome):
        cells += cell_len(part) + 2 if part else 0
    return cells


def content(line: Line) -> Content:
    """The line as both logs show it, styled: the one place a log line is drawn. A line that
    carries on the one above shows no time or name of its own (blanks keep it under its text).

    Each gap goes with the part before it, so that no part starts with spaces: some SVG
    renderers (librsvg) drop a text run's leading spaces, which read as "ArtinarNo recovery"
    in a screenshot."""
    when, name = line.when + "  ", line.who_name + "  " if line.who_name else ""
    if line.carried:
        when, name = " " * len(when), " " * len(name)
    parts: list[str | tuple[str, str]] = [(when, "dim")]
    if name:
        parts.append((name, "bold"))
    command = COMMAND_STYLES.get(line.style)
    parts.append((mark(line) + line.what, command or ""))
    if line.dice:
        parts += ["  ", (line.dice, "$text-muted")]
    if line.outcome:
        if line.dice:
            parts[-1] = (line.dice + "  ", "$text-muted")
        else:
            parts.append("  ")
        parts.append((line.outcome, OUTCOME_STYLES.get(line.style, "")))
    drawn = Content.assemble(*parts)
    return drawn.stylize("strike dim") if line.void and command is None else drawn


def rows(line: Line, width: int) -> list[Content]:
    """The line in rows of ``width`` cells, the later ones under what happened."""
    return hanging(content(line), width, head_length(line))


class RollLog(ScrollView, can_focus=True):
    # A gutter kept for the scrollbar: rows are counted for one width, which the bar coming and
    # going would change (and with it the count, and with that the bar).
    DEFAULT_CSS = """
    RollLog {
        height: 1fr;
        text-wrap: nowrap;
        overflow-x: hidden;
        overflow-y: auto;
        scrollbar-gutter: stable;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.entries: list[Line] = []
        self._visible: list[int] = []
        self._row_starts: list[int] = []  # each visible entry's first row
        self._rows = 0  # rows of every visible entry
        self._rows_width = 0  # the width the rows were counted for
        self.filter_who: str | None = None
        self.search: str = ""
        self._cache: LRUCache[tuple[object, ...], list[Strip]] = LRUCache(1024)
        self._follow = True  # at the bottom: new lines scroll into view

    @property
    def visible_entries(self) -> list[Line]:
        return [self.entries[i] for i in self._visible]

    @property
    def following(self) -> bool:
        return self._follow

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if self.size.height and self.virtual_size.height:
            # The GM scrolled up: stay there; back at the bottom: follow again.
            self._follow = new_value >= self.max_scroll_y

    def _matches(self, entry: Line) -> bool:
        if self.filter_who is not None and entry.who != self.filter_who:
            return False
        return not self.search or self.search.casefold() in haystack(entry)

    def add(self, entries: Iterable[Line]) -> None:
        """Append entries; follow them if the view was at the bottom. An entry with the key of
        the last one takes its place (a run of rounds that grew by one)."""
        follow = self.following
        entries = list(entries)
        if entries and self.entries and entries[0].key == self.entries[-1].key:
            self._drop_last()
        start = len(self.entries)
        self.entries.extend(entries)
        new = [i for i in range(start, len(self.entries)) if self._matches(self.entries[i])]
        self._visible.extend(new)
        if self._text_width == self._rows_width:
            self._count_rows(new)
        else:
            self._recount()
        self._update(follow)

    def _drop_last(self) -> None:
        """Take the last entry away, and its rows if it is shown."""
        last = len(self.entries) - 1
        self.entries.pop()
        if self._visible and self._visible[-1] == last:
            self._visible.pop()
            if self._row_starts and self._rows_width == self._text_width:
                self._rows = self._row_starts.pop()

    def replace(self, entries: Iterable[Line]) -> None:
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
        self._recount()
        self._update(follow)

    # --- rows --------------------------------------------------------------------------------

    def entry_rows(self, index: int, width: int) -> list[Content]:
        """Entry ``index`` as rows of ``width`` cells."""
        return rows(self.entries[index], width)

    def entry_cells(self, index: int) -> int:
        """Cells entry ``index`` takes in one row (as :meth:`entry_rows` would make it)."""
        return cell_length(self.entries[index])

    def _row_count(self, index: int, width: int) -> int:
        if width <= 0 or self.entry_cells(index) <= width:
            return 1  # the common line: no wrapping needed to know it is one row
        return len(self.entry_rows(index, width))

    def _count_rows(self, indices: Iterable[int]) -> None:
        """Add the rows of the visible entries ``indices`` (appended last) to the count."""
        width, rows, starts = self._rows_width, self._rows, self._row_starts
        for index in indices:
            starts.append(rows)
            rows += self._row_count(index, width)
        self._rows = rows

    @property
    def _text_width(self) -> int:
        """The cells a row may fill: the view's width, less the scrollbar's gutter."""
        return self.scrollable_content_region.width

    def _recount(self) -> None:
        self._rows_width = self._text_width
        self._row_starts, self._rows = [], 0
        self._count_rows(self._visible)

    def row_of(self, position: int) -> int:
        """The first row of the ``position``-th visible entry."""
        if position >= len(self._row_starts):
            return self._rows
        return self._row_starts[position]

    def _update(self, follow: bool) -> None:
        self.virtual_size = Size(self.size.width, self._rows)  # the scroll range
        self.refresh()
        if follow:
            # force: before the first layout shows the scrollbar, an unforced scroll is ignored
            # and following would wait for a later frame.
            self.scroll_end(animate=False, immediate=True, x_axis=False, force=True)
            if self.scroll_y < self.max_scroll_y:
                # Before a layout the sizes are not settled: follow again once they are.
                self.call_after_refresh(self.scroll_end, animate=False, x_axis=False)

    # --- drawing -----------------------------------------------------------------------------

    def entry_strips(self, index: int, width: int) -> list[Strip]:
        """Entry ``index`` drawn, one Strip a row (kept in a cache): rows wrapped to the
        text's width, each Strip ``width`` cells."""
        entry = self.entries[index]
        cache_key = (entry, width, self._rows_width, self.visual_style)
        strips = self._cache.get(cache_key)
        if strips is None:
            rows = self.entry_rows(index, self._rows_width)
            strips = [self._strip(row, width) for row in rows]
            self._cache[cache_key] = strips
        return strips

    def _strip(self, row: Content, width: int) -> Strip:
        strips = Visual.to_strips(self, row, width, 1, self.visual_style, pad=True)
        return strips[0] if strips else Strip.blank(width, self.rich_style)

    def render_line(self, y: int) -> Strip:
        row = self.scroll_offset.y + y
        width = self.size.width
        if row >= self._rows:
            return Strip.blank(width, self.rich_style)
        position = bisect_right(self._row_starts, row) - 1
        strips = self.entry_strips(self._visible[position], width)
        strip = strips[min(row - self._row_starts[position], len(strips) - 1)]
        return strip.apply_offsets(0, row)

    def on_resize(self) -> None:
        if self._text_width != self._rows_width:
            self._recount()
        self._update(self._follow)
