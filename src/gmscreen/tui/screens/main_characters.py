"""The GM's screen's characters: a new one (``c``; in a MERP campaign its profile is asked
next), one edited (``e``), one removed (``d``, asks first).

Kept apart from the main screen (which only delegates here) and light: the forms load when
first asked for, not for the first frame.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from textual.screen import Screen

from gmscreen.campaign.fields import get_value
from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.model import Campaign, Character
from gmscreen.tui.i18n import Translate
from gmscreen.tui.typeahead import open_screen


class Host(Protocol):
    """What the character forms need of the screen they open over (the GM's screen is one)."""

    live: LiveCampaign
    t: Translate
    lang: str
    select_last: bool  # a character was added: the screen selects it once it is shown

    @property
    def screen(self) -> Screen[Any]: ...
    @property
    def state(self) -> Campaign: ...
    @property
    def madness_on(self) -> bool: ...
    def do(self, what: Callable[[], object]) -> bool: ...
    def selected_character(self) -> Character | None: ...


def taken(host: Host, except_id: str | None = None) -> list[str]:
    return [c.name for c in host.state.characters if c.id != except_id]


async def new_character(host: Host) -> None:
    from gmscreen.tui.screens.character_form import POW_WITHOUT_MADNESS, CharacterForm

    async def add(values: dict[str, Any] | None) -> None:
        if values is None:
            return
        values = dict(values)
        name, pow_ = values.pop("name"), values.pop("pow", POW_WITHOUT_MADNESS)
        host.select_last = host.do(lambda: host.live.add_character(name, pow_, **values))
        if host.select_last and host.state.characters:
            await ask_merp_profile(host, host.state.characters[-1].id)

    form = CharacterForm(host.t, taken(host), madness=host.madness_on)
    await open_screen(host.screen, form, add)


async def ask_merp_profile(host: Host, character_id: str | None) -> None:
    """In a campaign with the MERP items, the character's profile is asked next, as it
    stands (``esc`` leaves it as it is; a new character's is then asked by the item tables)."""
    from gmscreen.tui.format import as_lang
    from gmscreen.tui.screens.merp_profile import MerpProfileForm
    from gmscreen.tui.widgets.merp_lines import MODULE

    if character_id is None or MODULE not in host.state.settings.modules:
        return
    character = host.state.character(character_id)

    def profiled(values: dict[str, Any] | None) -> None:
        if values is not None:
            host.do(lambda: host.live.edit_character(character_id, merp=values))

    form = MerpProfileForm(character.name, host.t, as_lang(host.lang), character.merp)
    await open_screen(host.screen, form, profiled)


async def edit_character(host: Host) -> None:
    from gmscreen.tui.screens.character_form import CharacterForm, form_fields

    character = host.selected_character()
    if character is None:
        return
    current = {f.key: get_value(character, f.key) for f in form_fields(True, host.madness_on)}
    current["under_care"] = character.sanity.under_care

    async def edit(values: dict[str, Any] | None) -> None:
        if values is not None and host.do(lambda: host.live.edit_character(character.id, **values)):
            await ask_merp_profile(host, character.id)

    form = CharacterForm(host.t, taken(host, character.id), current, host.madness_on)
    await open_screen(host.screen, form, edit)


async def remove_character(host: Host) -> None:
    from gmscreen.tui.screens.dialogs import ConfirmScreen

    character = host.selected_character()
    if character is None:
        return

    def remove(sure: bool | None) -> None:
        if sure:
            host.do(lambda: host.live.remove_character(character.id))

    question = host.t("confirm.remove_question", name=character.name)
    await open_screen(
        host.screen, ConfirmScreen(host.t("confirm.remove_title"), question, host.t), remove
    )
