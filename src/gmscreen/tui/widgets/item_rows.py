"""The rows of an item table and the search line over them.

The search line (``#search``, a :class:`TypedLine`) never takes the focus: the rows
(``#rows``, :class:`ItemRows`) keep it, and while searching the screen hands the search line
the letters typed and pasted, then fills its rows again, filtered by what the line holds.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable

from gmscreen.tui.widgets.typed_line import TypedLine


class ItemRows(DataTable[Text]):
    """The rows of a table. They keep the focus while the GM searches (the screen puts the
    letters in the search line), so meanwhile they claim the printable keys as an Input does,
    which hides the letter keys from the key bar, and they look unfocused: the screen looks as
    it did when the search was an Input that took the focus."""

    DEFAULT_CSS = """
    ItemRows.-searching {
        background-tint: $foreground 0%;
        & > .datatable--header { background-tint: $foreground 0%; }
        & > .datatable--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
    }
    """

    def check_consume_key(self, key: str, character: str | None) -> bool:
        searching = self.has_class("-searching")
        return searching and character is not None and character.isprintable()

    # Enter is the screen's confirm (it picks the row, or takes the digits typed), run as the
    # key reaches the screen: the RowSelected message a DataTable's enter posts would come
    # after the keys typed next. A click on a row still posts it.
    BINDINGS = [Binding("enter", "screen.confirm", show=False)]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return action != "select_cursor"  # (DataTable's enter: see BINDINGS)


class RowSearch(Screen[None]):
    """A screen with a search line (``#search``) over its rows (``#rows``). It sets
    ``searching`` and ``query_text`` in its ``__init__`` and fills its rows in ``fill_rows``."""

    searching: bool  # the search line takes the letters typed
    query_text: str  # the rows shown contain it

    def fill_rows(self) -> None:
        """Show the rows again, filtered by ``query_text``."""
        raise NotImplementedError

    def _open_search(self) -> None:
        search = self.query_one("#search", TypedLine)
        search.add_class("shown")
        self._searching(True)

    def _searching(self, searching: bool) -> None:
        """The search line takes the letters typed (or no longer: enter keeps its filter)."""
        self.searching = searching
        self.query_one("#rows", ItemRows).set_class(searching, "-searching")
        self.query_one("#search", TypedLine).set_class(not searching, "-idle").refresh()
        self.refresh_bindings()

    def _search_typed(self, event: events.Key) -> bool:
        """A letter or a backspace for the search line, while it takes them."""
        search = self.query_one("#search", TypedLine)
        if event.is_printable and event.character is not None:
            search.insert(event.character)
        elif event.key == "backspace":
            search.delete_left()
        else:
            return False
        event.stop()
        event.prevent_default()
        self.query_text = search.value
        self.fill_rows()
        return True

    def on_paste(self, event: events.Paste) -> None:
        if self.searching:
            event.stop()
            search = self.query_one("#search", TypedLine)
            search.insert("".join(c for c in event.text.split("\n")[0] if c.isprintable()))
            self.query_text = search.value
            self.fill_rows()

    def _close_search(self) -> bool:
        search = self.query_one("#search", TypedLine)
        if not search.has_class("shown"):
            return False
        search.set("")
        search.remove_class("shown")
        self._searching(False)
        self.query_text = ""
        self.fill_rows()
        return True
