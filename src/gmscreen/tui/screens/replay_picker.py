"""The session picker: a campaign's sessions (date, events, characters), enter replays one.

Lists the sessions from the session index (:mod:`session_index`: only journals it does not
describe as they are now are read), or from the listing it is given (as ``gmscreen replay``
gives the one it made); reads a session's journal when it is opened, and writes nothing.
``escape`` leaves (back to the GM's screen, or out of ``gmscreen replay``).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import DataTable, Static

from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.session_index import SessionEntry, SessionListing, list_entries
from gmscreen.campaign.store import sessions_dir
from gmscreen.text import inert, inert_line
from gmscreen.tui.commands import add_bindings, bindings
from gmscreen.tui.i18n import Translate
from gmscreen.tui.screens.replay import ReplayScreen
from gmscreen.tui.widgets.key_bar import KeyBar


class SessionPicker(Screen[None]):
    DEFAULT_CSS = """
    SessionPicker #header {
        dock: top; height: 1; background: $secondary; color: $text; padding: 0 1;
    }
    SessionPicker #box { border: round $secondary; padding: 0 1; }
    SessionPicker #hint { color: $text-muted; height: auto; margin-bottom: 1; }
    SessionPicker #none { color: $text-muted; padding: 1 2; }
    SessionPicker DataTable { height: 1fr; }
    """

    def __init__(
        self,
        folder: Path,
        campaign_name: str,
        t: Translate,
        lang: str,
        live_session: Path | None = None,
        *,
        listing: SessionListing | None = None,
    ) -> None:
        super().__init__()
        add_bindings(
            self,
            [replace(b, priority=True) for b in bindings("replay", t, only=("replay_close",))],
        )
        self.folder = folder
        self.campaign_name = campaign_name
        self.t = t
        self.lang = lang
        self.live_session = live_session  # the session being played right now, if any
        self.listing = listing or SessionListing(folder, [])
        self.problem: str | None = None
        if listing is None:
            try:
                self.listing = list_entries(sessions_dir(folder))
            except CampaignError as error:
                self.problem = str(error)

    @property
    def entries(self) -> list[SessionEntry]:
        return self.listing.entries

    def compose(self) -> ComposeResult:
        t = self.t
        yield Static(
            Content.assemble(
                (t("replay.banner"), "bold"), "   ", (inert_line(self.campaign_name), "bold")
            ),
            id="header",
        )
        with Vertical(id="box") as box:
            box.border_title = t("replay.picker_title")
            yield Static(Content(t("replay.picker_hint")), id="hint")
            table: DataTable[Text] = DataTable(cursor_type="row", zebra_stripes=True)
            yield table
            yield Static(Content(inert(self.problem or t("replay.no_sessions"))), id="none")
        yield KeyBar()

    def on_mount(self) -> None:
        t = self.t
        table: DataTable[Text] = self.query_one(DataTable)
        table.add_column(t("replay.col_session"), key="session")
        table.add_column(t("replay.col_started"), key="started")
        table.add_column(t("replay.col_events"), key="events")
        table.add_column(t("replay.col_checks"), key="checks")
        table.add_column(t("replay.col_undone"), key="undone")
        table.add_column(t("replay.col_characters"), key="characters")
        for s in self.entries:
            # Rich Text, not str: a DataTable reads a str as markup, and names are typed by players.
            session = Text(inert_line(s.id))
            if self.live_session is not None and s.path == self.live_session:
                session.append(f"  {t('replay.live')}", style="italic")
            table.add_row(
                session,
                Text(inert_line(s.started_at[:16].replace("T", " "))),
                Text(str(s.events), justify="right"),
                Text(str(s.checks), justify="right"),
                Text(str(s.undone), justify="right"),
                Text(inert_line(", ".join(s.characters)) or t("replay.nobody_involved")),
                key=str(s.path),
            )
        self.query_one("#none").display = not self.entries
        table.display = bool(self.entries)
        if self.entries:
            table.move_cursor(row=len(self.entries) - 1)  # the latest session
            table.focus()

    def entry_for(self, key: str) -> SessionEntry:
        return next(entry for entry in self.entries if str(entry.path) == key)

    @on(DataTable.RowSelected)
    def _open(self, message: DataTable.RowSelected) -> None:
        if message.row_key.value is not None:
            self.open(self.entry_for(message.row_key.value))

    def open(self, entry: SessionEntry) -> None:
        """Replay the session (its journal read now, unless read to list it)."""
        try:
            log = self.listing.log(entry)
        except CampaignError as error:  # changed or damaged since it was listed
            self.notify(str(error), severity="error", markup=False)
            return
        self.app.push_screen(ReplayScreen(self.folder, self.campaign_name, log, self.t, self.lang))

    def action_close(self) -> None:
        self.dismiss(None)
