"""The GM's screen's characters: a new one (``c``; in a MERP campaign its profile is asked
next), one edited (``e``), one removed (``delete``, asks first). The screen selects a character
added once it shows it (it sees the ``character_added`` event)."""

from __future__ import annotations

from typing import Any

from gmscreen.campaign.fields import get_value
from gmscreen.campaign.model import Character
from gmscreen.tui.format import as_lang
from gmscreen.tui.screens.character_form import POW_WITHOUT_MADNESS, CharacterForm, form_fields
from gmscreen.tui.screens.dialogs import ConfirmScreen
from gmscreen.tui.screens.flow import Flow
from gmscreen.tui.typeahead import open_screen
from gmscreen.tui.widgets.merp_lines import MODULE


def taken(flow: Flow, except_id: str | None = None) -> list[str]:
    return [c.name for c in flow.live.state.characters if c.id != except_id]


def madness_on(flow: Flow) -> bool:
    return "madness" in flow.live.state.settings.modules


async def new_character(flow: Flow) -> None:
    live = flow.live

    async def add(values: dict[str, Any] | None) -> None:
        if values is None:
            return
        values = dict(values)
        name, pow_ = values.pop("name"), values.pop("pow", POW_WITHOUT_MADNESS)
        added: list[str | None] = []
        if flow.act(lambda: added.append(live.add_character(name, pow_, **values).character)):
            await ask_merp_profile(flow, added[0])

    form = CharacterForm(flow.t, taken(flow), madness=madness_on(flow))
    await open_screen(flow.screen, form, add)


async def ask_merp_profile(flow: Flow, character_id: str | None) -> None:
    """In a campaign with the MERP items, the character's profile is asked next, as it
    stands (``esc`` leaves it as it is; a new character's is then asked by the item tables)."""
    # Imported here: the profile form brings the MERP tables engine, which a madness-only
    # evening never loads (~15 ms of start-up).
    from gmscreen.tui.screens.merp_profile import MerpProfileForm

    live = flow.live
    if character_id is None or MODULE not in live.state.settings.modules:
        return
    character = live.character(character_id)

    def profiled(values: dict[str, Any] | None) -> None:
        if values is not None:
            flow.act(lambda: live.edit_character(character_id, merp=values))

    form = MerpProfileForm(character.name, flow.t, as_lang(flow.lang), character.merp)
    await open_screen(flow.screen, form, profiled)


async def edit_character(flow: Flow, character: Character) -> None:
    live = flow.live
    current = {f.key: get_value(character, f.key) for f in form_fields(True, madness_on(flow))}
    current["under_care"] = character.sanity.under_care

    async def edit(values: dict[str, Any] | None) -> None:
        if values is not None and flow.act(lambda: live.edit_character(character.id, **values)):
            await ask_merp_profile(flow, character.id)

    form = CharacterForm(flow.t, taken(flow, character.id), current, madness_on(flow))
    await open_screen(flow.screen, form, edit)


async def remove_character(flow: Flow, character: Character) -> None:
    def remove(sure: bool | None) -> None:
        if sure:
            flow.act(lambda: flow.live.remove_character(character.id))

    t = flow.t
    question = t("confirm.remove_question", name=character.name)
    await open_screen(flow.screen, ConfirmScreen(t("confirm.remove_title"), question, t), remove)
