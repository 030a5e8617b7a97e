"""``S`` on the GM's screen: open the settings and save what the GM saved as one event; ``L``:
the other language, saved the same way.

The GM's screen follows what was saved as it shows the change (see ``MainScreen``): the key bar
offers the keys of the modules now in use, and a new language is spoken from then on, whether
it came from here, from ``L`` or from an undo. Selection, marks, the log's filter, search and
scroll position are the widgets' own state and stay as they were.
"""

from __future__ import annotations

from typing import Any

from gmscreen.i18n import other_language
from gmscreen.tui.screens.flow import Flow, SpeakLanguage
from gmscreen.tui.screens.settings import SettingsScreen
from gmscreen.tui.typeahead import open_screen


async def open_settings(flow: Flow) -> None:
    state = flow.live.state
    form = SettingsScreen(state.name, state.settings, flow.t, flow.lang)

    def saved(values: dict[str, Any] | None) -> None:
        if values is not None:
            save(flow, values)

    await open_screen(flow.screen, form, saved)


def save(flow: Flow, values: dict[str, Any]) -> None:
    """Journal ``values`` (the settings and the campaign's name) as one change."""
    changed: list[object] = []
    if flow.act(lambda: changed.append(flow.live.change_settings(**values))):
        flow.say(flow.t("settings.unchanged" if changed[0] is None else "settings.saved"))


def switch_language(flow: Flow) -> None:
    """Flip en ↔ es from the GM's screen (only while no other window is open over it): the
    campaign journals the choice, so it opens in it next time."""
    if not flow.screen.is_active:
        flow.say(flow.t("app.language_busy"), "warning")
        return
    new = other_language(flow.lang)
    if flow.live.state.settings.language == new:  # kept already: the screen was opened in another
        flow.screen.post_message(SpeakLanguage(new))
    else:
        flow.act(lambda: flow.live.change_settings(language=new))
