"""The session picker's rows: a campaign's sessions, one line each, drawn by the line API.

A DataTable measured and styled every cell of every row as they were added: 0.2-0.9 s before
the first frame with 1,000 sessions. Here the rows are plain text (made inert by the picker),
the column widths one pass of ``cell_len``, and only the lines on the screen are drawn
(``render_line``, as the roll log does), so opening costs the same for 10 sessions or 10,000.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

GAP = 2  # columns between two columns


class SessionTable(ScrollView, can_focus=True):
    """Rows of text cells under a header line; ``enter`` (or a click) selects the cursor's row.

    ``right``: the columns whose cells are right-aligned (numbers); ``marked``: a row whose
    first cell ends in an italic note (the session being played), with the note's length.
    """

    COMPONENT_CLASSES = {
        "session-table--header",
        "session-table--cursor",
        "session-table--odd",
        "session-table--note",
    }
    DEFAULT_CSS = """
    SessionTable { height: 1fr; overflow-x: auto; overflow-y: auto; background: $surface; }
    SessionTable > .session-table--header { text-style: bold; background: $panel; }
    SessionTable > .session-table--cursor { background: $block-cursor-background;
        color: $block-cursor-foreground; text-style: bold; }
    SessionTable:blur > .session-table--cursor { background: $block-cursor-blurred-background; }
    SessionTable > .session-table--odd { background: $surface-lighten-1; }
    SessionTable > .session-table--note { text-style: italic; }
    """
    BINDINGS = [
        Binding("up", "cursor(-1)", show=False),
        Binding("down", "cursor(1)", show=False),
        Binding("pageup", "page(-1)", show=False),
        Binding("pagedown", "page(1)", show=False),
        Binding("home", "to(0)", show=False),
        Binding("end", "to(-1)", show=False),
        Binding("enter", "select", show=False),
    ]

    cursor = reactive(0, repaint=False)

    class Selected(Message):
        def __init__(self, row: int) -> None:
            super().__init__()
            self.row = row

    def __init__(
        self,
        headers: Sequence[str],
        rows: Sequence[Sequence[str]],
        *,
        right: frozenset[int] = frozenset(),
        marked: tuple[int, int] | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.headers = list(headers)
        self.rows = [list(row) for row in rows]
        self.right = right
        self.marked = marked
        self.widths = [cell_len(h) for h in self.headers]
        for row in self.rows:
            for n, cell in enumerate(row):
                self.widths[n] = max(self.widths[n], cell_len(cell))
        width = sum(self.widths) + GAP * (len(self.widths) - 1) + 2
        self.virtual_size = Size(width, len(self.rows) + 1)

    @property
    def row_count(self) -> int:
        return len(self.rows)

    def get_row_at(self, row: int) -> list[str]:
        return self.rows[row]

    # --- moving -------------------------------------------------------------------------------

    def validate_cursor(self, value: int) -> int:
        return max(0, min(value, len(self.rows) - 1))

    def watch_cursor(self, old: int, new: int) -> None:
        self.refresh_lines(old + 1)  # row n is virtual line n + 1, under the header
        self.refresh_lines(new + 1)
        # The header always takes the top line: row n shows when lines n and n + 1 do.
        self.scroll_to_region(Region(0, new, 1, 2), animate=False, force=True, immediate=True)

    def action_cursor(self, by: int) -> None:
        self.cursor += by

    def action_page(self, by: int) -> None:
        self.cursor += by * max(1, self.scrollable_content_region.height - 2)

    def action_to(self, row: int) -> None:
        self.cursor = row if row >= 0 else len(self.rows) - 1

    def action_select(self) -> None:
        if self.rows:
            self.post_message(self.Selected(self.cursor))

    def on_click(self, event: events.Click) -> None:
        row = event.y + int(self.scroll_offset.y) - 1
        if 0 <= row < len(self.rows):
            self.cursor = row
            self.post_message(self.Selected(row))

    # --- drawing ------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        scroll_x, scroll_y = self.scroll_offset
        if y == 0:  # the header stays at the top
            style = self.get_component_rich_style("session-table--header")
            line = self._line(self.headers, style)
        else:
            row = y - 1 + int(scroll_y)
            if row >= len(self.rows):
                return Strip.blank(width, self.rich_style)
            if row == self.cursor:
                style = self.get_component_rich_style("session-table--cursor")
            elif row % 2:
                style = self.get_component_rich_style("session-table--odd")
            else:
                style = self.rich_style
            note = self.marked[1] if self.marked and self.marked[0] == row else 0
            line = self._line(self.rows[row], style, note)
        return line.crop(int(scroll_x), int(scroll_x) + width).extend_cell_length(width, style)

    def _line(self, cells: Sequence[str], style: Style, note: int = 0) -> Strip:
        segments = [Segment(" ", style)]
        for n, (cell, width) in enumerate(zip(cells, self.widths, strict=False)):
            pad = " " * (width - cell_len(cell))
            if n == 0 and note:
                italic = style + self.get_component_rich_style("session-table--note", partial=True)
                segments += [Segment(cell[:-note], style), Segment(cell[-note:], italic)]
                segments.append(Segment(pad, style))
            elif n in self.right:
                segments.append(Segment(pad + cell, style))
            else:
                segments.append(Segment(cell + pad, style))
            segments.append(Segment(" " * GAP, style))
        return Strip(segments).simplify()
