"""``S`` on the GM's screen: open the settings, save what the GM saved as one event, and show it.

After a save the screen follows the new settings at once: the key bar offers the keys of the
modules now in use, and a language the GM picked is spoken from then on (as ``L`` does).
"""

from __future__ import annotations

from typing import Any, Protocol

from textual.app import App
from textual.screen import Screen

from gmscreen.campaign.live import LiveCampaign
from gmscreen.tui.commands import relabel_bindings
from gmscreen.tui.i18n import Catalog, Translate
from gmscreen.tui.module_keys import reshow
from gmscreen.tui.typeahead import open_screen


class Host(Protocol):
    """What the settings need of the GM's screen (the main screen is one)."""

    live: LiveCampaign
    lang: str
    t: Translate

    @property
    def app(self) -> App[Any]: ...
    def do(self, what: Any) -> bool: ...
    def relabel(self, lang: str) -> None: ...
    def refresh_all(self, rebuild_log: bool = False) -> None: ...


async def open_settings(screen: Host, below: Screen[Any]) -> None:
    from gmscreen.tui.screens.settings import SettingsScreen

    state = screen.live.state
    form = SettingsScreen(state.name, state.settings, screen.t, screen.lang)

    def saved(values: dict[str, Any] | None) -> None:
        if values is not None:
            save(screen, below, values)

    await open_screen(below, form, saved)


def save(screen: Host, shown: Screen[Any], values: dict[str, Any]) -> None:
    """Journal ``values`` as one change; then show what changed on the GM's screen (``shown``,
    the same screen as ``screen``)."""
    before = screen.live.state.settings
    changed: list[Any] = []
    if not screen.do(lambda: changed.append(screen.live.change_settings(**values))):
        return
    if changed[0] is None:
        screen.app.notify(screen.t("settings.unchanged"))
        return
    after = screen.live.state.settings
    if after.modules != before.modules:
        from gmscreen.tui.widgets.roster import Roster

        reshow(shown, after.modules)
        reshow(shown.query_one(Roster), after.modules)
        shown.refresh_bindings()
    catalog = getattr(screen.app, "catalog", None)
    if after.language and after.language != screen.lang and isinstance(catalog, Catalog):
        catalog.use(after.language)
        relabel_bindings(screen.app, catalog.t)
        screen.relabel(after.language)
    else:
        screen.refresh_all(rebuild_log=True)  # the player words, the header's name
    screen.app.notify(screen.t("settings.saved"))
