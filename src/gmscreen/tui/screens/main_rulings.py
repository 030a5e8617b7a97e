"""The GM's screen's rulings: ``x`` opens the menu for the selected character, the palette
opens one ruling's dialog at once; a ruling that makes a check due opens it, as a gain does
(when checks open by themselves).

Kept apart from the main screen (which only delegates here) and light: the dialogs load when
first asked for, not for the first frame.
"""

from __future__ import annotations

from typing import Protocol

from gmscreen.tui.screens import main_madness
from gmscreen.tui.typeahead import open_screen


class Host(main_madness.Host, Protocol):
    """What the rulings need of the screen they open over: the madness dialogs' needs, and the
    GM's keymap (the menu shows each ruling's key as remapped)."""

    keymap: dict[str, str]


async def open_menu(host: Host) -> None:
    from gmscreen.tui.screens.rulings import RulingsMenu

    if not host.need_madness():
        return
    character = host.selected_character()
    if character is None:
        return

    async def picked(which: str | None) -> None:
        if which is not None:
            await open_ruling(host, which)

    await open_screen(host.screen, RulingsMenu(character, host.t, host.keymap), picked)


async def open_ruling(host: Host, which: str) -> None:
    """The dialog of ruling ``which`` (a ``ruling_<which>`` command) for the selected character."""
    from gmscreen.campaign import rulings
    from gmscreen.tui.screens.rulings import Clock, RulingForm, why_not

    if not host.need_madness():
        return
    character = host.selected_character()
    if character is None:
        return
    why = why_not(which, character)
    if why is not None:  # from the palette: the menu shows these dimmed
        host.notify(host.t(why), severity="warning")
        return
    character_id = character.id

    def apply(ask: rulings.Ask, reason: str) -> object:
        return host.live.ruling(character_id, ask, reason)

    async def ruled(done: bool | None) -> None:
        if done and host.state.settings.auto_check and main_madness.is_due(host, character_id):
            await main_madness.run_checks(host, [character_id])

    settings = host.state.settings
    clock = Clock(host.state.clock, settings.round_seconds)
    form = RulingForm(which, character, apply, host.t, host.lang, clock)
    await open_screen(host.screen, form, ruled)
