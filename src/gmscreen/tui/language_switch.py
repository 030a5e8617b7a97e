"""Switching the screen between English and Spanish mid-session, without losing anything.

The campaign journals the choice (``settings_changed``), so the campaign opens in it next time.
The app's one :class:`Catalog` changes language in place, so every ``t`` already handed out
speaks the new one; the GM's screen then redraws its words: bindings (footer, help, palette),
cards, detail, header and the roll log. Selection, marks, the log's filter, search and scroll
position are the widgets' own state and stay as they were.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from textual.app import App
from textual.screen import Screen

from gmscreen.campaign.live import LiveCampaign
from gmscreen.i18n import other_language
from gmscreen.tui.commands import relabel_bindings
from gmscreen.tui.i18n import Catalog, Translate


class Switching(Protocol):
    """What switching needs of the GM's screen (the main screen is one)."""

    live: LiveCampaign
    lang: str
    t: Translate

    @property
    def app(self) -> App[Any]: ...
    @property
    def screen(self) -> Screen[Any]: ...
    def do(self, what: Callable[[], object]) -> bool: ...
    def relabel(self, lang: str) -> None: ...


def switch_language(screen: Switching) -> None:
    """Flip en ↔ es from the GM's screen (only while no other window is open over it)."""
    catalog = getattr(screen.app, "catalog", None)
    if not isinstance(catalog, Catalog):  # pragma: no cover - the GM's screen runs in our app
        return
    if not screen.screen.is_active:
        screen.app.notify(screen.t("app.language_busy"), severity="warning")
        return
    new = other_language(screen.lang)
    if not screen.do(lambda: screen.live.change_settings(language=new)):
        return
    catalog.use(new)
    relabel_bindings(screen.app, catalog.t)
    screen.relabel(new)
    screen.app.notify(screen.t("app.language_changed", language=screen.t(f"language.{new}")))
