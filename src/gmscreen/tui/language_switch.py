"""Switching the screen between English and Spanish mid-session, without losing anything.

The campaign journals the choice (``settings_changed``), so the campaign opens in it next time.
The app's one :class:`Catalog` changes language in place, so every ``t`` already handed out
speaks the new one; the GM's screen then redraws its words: bindings (footer, help, palette),
cards, detail, header and the roll log. Selection, marks, the log's filter, search and scroll
position are the widgets' own state and stay as they were.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content
from textual.widgets import Static

from gmscreen.i18n import other_language
from gmscreen.tui.commands import relabel_bindings
from gmscreen.tui.i18n import Catalog
from gmscreen.tui.widgets.roll_log import RollLog
from gmscreen.tui.widgets.roster import Roster

if TYPE_CHECKING:
    from gmscreen.tui.screens.main import MainScreen


def switch_language(screen: MainScreen) -> None:
    """Flip en ↔ es from the GM's screen (only while no other window is open over it)."""
    catalog = getattr(screen.app, "catalog", None)
    if not isinstance(catalog, Catalog):  # pragma: no cover - the GM's screen runs in our app
        return
    if screen.app.screen is not screen:
        screen.notify(screen.t("app.language_busy"), severity="warning")
        return
    new = other_language(screen.lang)
    if not screen._do(lambda: screen.live.change_settings(language=new)):
        return
    catalog.use(new)
    relabel_bindings(screen.app, catalog.t)
    relabel(screen, new)
    screen.notify(screen.t("app.language_changed", language=screen.t(f"language.{new}")))


def relabel(screen: MainScreen, lang: str) -> None:
    """Redraw every word of the GM's screen in ``lang`` (its ``t`` already speaks it)."""
    t = screen.t
    screen.lang = lang
    relabel_bindings(screen, t)
    relabel_bindings(screen.query_one(Roster), t)
    screen.query_one(RollLog).border_title = t("log.title")
    screen.query_one("#empty", Static).update(Content(t("app.no_character")))
    screen.query_one("#spark-title", Static).update(Content(t("detail.sparkline")))
    screen.past_lines = screen.past_log_lines()
    screen.refresh_all(rebuild_log=True)  # cards redraw: their context carries the language
    screen.refresh_bindings()
