"""The session picker: a campaign's sessions (date, events, characters), enter replays one.

Lists the sessions as played (:mod:`evenings`: the journals of one evening, however many times
the campaign was opened, are one session) from the session index (:mod:`session_index`: only
journals it does not describe as they are now are read), or from the listing it is given (as
``gmscreen replay`` gives the one it made); reads a session's journals when it is opened, and
writes nothing. ``escape`` leaves (back to the GM's screen, or out of ``gmscreen replay``).
"""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.evenings import Evening, Evenings
from gmscreen.campaign.model import DEFAULT_EVENING_HOURS
from gmscreen.campaign.session_index import SessionListing, list_entries
from gmscreen.campaign.store import sessions_dir
from gmscreen.text import inert, inert_line
from gmscreen.tui.commands import bindings
from gmscreen.tui.i18n import Translate
from gmscreen.tui.screens.replay import ReplayScreen
from gmscreen.tui.widgets.key_bar import KeyBar
from gmscreen.tui.widgets.session_table import SessionTable


class SessionPicker(Screen[None]):
    DEFAULT_CSS = """
    SessionPicker #header {
        dock: top; height: 1; background: $secondary; color: $text; padding: 0 1;
    }
    SessionPicker #box { border: round $secondary; padding: 0 1; }
    SessionPicker #hint { color: $text-muted; height: auto; margin-bottom: 1; }
    SessionPicker #none { color: $text-muted; padding: 1 2; }
    SessionPicker SessionTable { height: 1fr; }
    """
    BINDINGS = bindings("replay", ("replay_close",), priority=True)

    def __init__(
        self,
        folder: Path,
        campaign_name: str,
        t: Translate,
        lang: str,
        live_session: Path | None = None,
        *,
        listing: SessionListing | None = None,
        evening_hours: int = DEFAULT_EVENING_HOURS,
    ) -> None:
        super().__init__()
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
        self.played = Evenings.of(self.listing, evening_hours)

    @property
    def entries(self) -> list[Evening]:
        """The sessions as played, oldest first."""
        return self.played.sessions

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
            yield self._table()
            yield Static(Content(inert(self.problem or t("replay.no_sessions"))), id="none")
        yield KeyBar(self.t)

    def _table(self) -> SessionTable:
        t = self.t
        headers = [
            t(f"replay.col_{name}")
            for name in ("session", "started", "events", "checks", "undone", "characters")
        ]
        live = f"  {t('replay.live')}"
        rows: list[list[str]] = []
        marked: tuple[int, int] | None = None
        for n, s in enumerate(self.entries):
            # Inert text: names are typed by players, journals come from anywhere.
            session = inert_line(s.id)
            if self.live_session is not None and any(
                j.path == self.live_session for j in s.journals
            ):
                session += live
                marked = (n, len(live))
            rows.append(
                [
                    session,
                    inert_line(s.started_at[:16].replace("T", " ")),
                    str(s.events),
                    str(s.checks),
                    str(s.undone),
                    inert_line(", ".join(s.characters)) or t("replay.nobody_involved"),
                ]
            )
        return SessionTable(headers, rows, right=frozenset({2, 3, 4}), marked=marked)

    def on_mount(self) -> None:
        table = self.query_one(SessionTable)
        self.query_one("#none").display = not self.entries
        table.display = bool(self.entries)
        if self.entries:
            table.cursor = len(self.entries) - 1  # the latest session
            table.focus()

    @on(SessionTable.Selected)
    def _open(self, message: SessionTable.Selected) -> None:
        self.open(self.entries[message.row])

    def open(self, entry: Evening) -> None:
        """Replay the session (its journals read now, unless read to list them)."""
        try:
            played = self.played.log(entry)
        except CampaignError as error:  # changed or damaged since it was listed
            self.notify(str(error), severity="error", markup=False)
            return
        screen = ReplayScreen(
            self.folder,
            self.campaign_name,
            played.log,
            self.t,
            self.lang,
            replay=played.replay(),
        )
        self.app.push_screen(screen)

    def action_close(self) -> None:
        self.dismiss(None)
