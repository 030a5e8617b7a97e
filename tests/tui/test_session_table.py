"""The session picker's table (drawn by the line API): keys move the cursor, which stays on
screen; enter and a click select; text is drawn as given."""

from __future__ import annotations

import asyncio

from textual.app import App, ComposeResult

from gmscreen.tui.widgets.session_table import SessionTable

ROWS = [[f"2007-01-{n:04d}", str(n), "[bold]x[/]"] for n in range(300)]


class TableApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.selected: list[int] = []

    def compose(self) -> ComposeResult:
        yield SessionTable(["Session", "Events", "Who"], ROWS, right=frozenset({1}))

    def on_session_table_selected(self, message: SessionTable.Selected) -> None:
        self.selected.append(message.row)


def test_keys_move_the_cursor_it_stays_in_view_and_enter_selects() -> None:
    async def run() -> tuple[list[int], list[int], list[bool], list[str]]:
        app = TableApp()
        cursors: list[int] = []
        shown: list[bool] = []
        async with app.run_test(size=(60, 20)) as pilot:
            table = app.query_one(SessionTable)
            table.focus()
            for keys in (["down", "down"], ["end"], ["up"], ["pageup"], ["home"], ["up"]):
                await pilot.press(*keys)
                cursors.append(table.cursor)
                top = int(table.scroll_offset.y)
                shown.append(top <= table.cursor < top + table.size.height - 1)
            await pilot.press("down", "enter")
            await pilot.click(SessionTable, offset=(3, 3))  # the header, then rows 0, 1, 2
            drawn = [strip.text for strip in (table.render_line(y) for y in range(2))]
        return cursors, app.selected, shown, drawn

    cursors, selected, shown, drawn = asyncio.run(run())
    page = cursors[2] - cursors[3]
    assert cursors[:3] == [2, 299, 298] and page > 5 and cursors[4:] == [0, 0]
    assert all(shown)
    assert selected == [1, 2]
    assert drawn[0].split() == ["Session", "Events", "Who"]
    assert drawn[1].split() == ["2007-01-0000", "0", "[bold]x[/]"]  # literal text
