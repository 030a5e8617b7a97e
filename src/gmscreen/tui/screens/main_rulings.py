"""The GM's screen's rulings: ``x`` opens the menu for the selected character, the palette
opens one ruling's dialog at once; a ruling that makes a check due opens it, as a gain does
(when checks open by themselves)."""

from __future__ import annotations

from gmscreen.campaign import rulings
from gmscreen.campaign.model import Character
from gmscreen.tui.screens import main_madness
from gmscreen.tui.screens.flow import Flow
from gmscreen.tui.screens.rulings import Clock, RulingForm, RulingsMenu, why_not
from gmscreen.tui.typeahead import open_screen


async def open_menu(flow: Flow, character: Character) -> None:
    async def picked(which: str | None) -> None:
        if which is not None:
            await open_ruling(flow, which, character.id)

    await open_screen(flow.screen, RulingsMenu(character, flow.t, flow.keymap), picked)


async def open_ruling(flow: Flow, which: str, character_id: str) -> None:
    """The dialog of ruling ``which`` (a ``ruling_<which>`` command) for ``character_id``."""
    live = flow.live
    character = live.character(character_id)
    why = why_not(which, character)
    if why is not None:  # from the palette: the menu shows these dimmed
        flow.say(flow.t(why), "warning")
        return

    def apply(ask: rulings.Ask, reason: str) -> object:
        return live.ruling(character_id, ask, reason)

    async def ruled(done: bool | None) -> None:
        if done and live.state.settings.auto_check and main_madness.is_due(flow, character_id):
            await main_madness.run_checks(flow, [character_id])

    settings = live.state.settings
    clock = Clock(live.state.clock, settings.round_seconds)
    form = RulingForm(which, character, apply, flow.t, flow.lang, clock)
    await open_screen(flow.screen, form, ruled)
