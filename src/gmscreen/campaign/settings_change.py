"""A change of the campaign's settings, as one event: the settings screen's save.

The campaign's name is not one of the rules' :class:`Settings`, but the GM changes it on the
same screen, in the same save: it rides in the same ``settings_changed`` event (``name`` among
its ``changes``), so one undo takes back one save whatever it changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gmscreen.campaign import actions
from gmscreen.campaign import events as ev
from gmscreen.campaign.actions import Draft
from gmscreen.campaign.bounds import MAX_NAME
from gmscreen.campaign.codec import player_words
from gmscreen.campaign.errors import InvalidAction
from gmscreen.campaign.fields import FieldError
from gmscreen.campaign.model import Campaign

NAME = "name"  # the one key of a settings_changed event that is not a Settings field
WORDS = "player_words"


def campaign_name(text: str) -> str:
    """The campaign's name as typed (spaces around it dropped), or why it cannot be one."""
    name = text.strip()
    if not name:
        raise InvalidAction("the campaign needs a name")
    if len(name) > MAX_NAME or not name.isprintable():
        raise InvalidAction(f"a campaign's name is one line of at most {MAX_NAME} characters")
    return name


def settings_saved(state: Campaign, values: Mapping[str, Any]) -> Draft | None:
    """One event for what the GM saved (``name`` and any settings), or None if nothing differs."""
    rest = dict(values)
    name = campaign_name(str(rest.pop(NAME))) if NAME in rest else state.name
    words = dict(state.settings.player_words)
    if WORDS in rest:  # left out of settings_to_dict while empty: compared here
        try:
            words = player_words(rest.pop(WORDS))
        except FieldError as error:
            raise InvalidAction(f"{error.key}: {error.message}") from None
    draft = actions.settings_changed(state, rest) if rest else None
    changes: dict[str, list[Any]] = {}
    if name != state.name:
        changes[NAME] = [state.name, name]
    if words != dict(state.settings.player_words):
        changes[WORDS] = [dict(state.settings.player_words), words]
    if draft is not None and isinstance(draft[1], ev.SettingsChanged):
        changes.update(draft[1].changes)
    if not changes:
        return None
    return None, ev.SettingsChanged(changes), state.clock
