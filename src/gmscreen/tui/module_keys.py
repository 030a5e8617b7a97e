"""Which keys the GM's screen's key bar offers, given the campaign's rule modules and the campaign
now (the screen's ``offers(action)``, asked by :class:`~gmscreen.tui.widgets.key_bar.KeyBar`).

A key whose command only refuses without its module (Mark, Gain and Check without the madness
module) is not offered; the item keys (``t``, ``i``, and ``e`` that edits the profile) are offered
where the items are what the campaign is about (the MERP items on, madness off: with both on,
the bar has no room for them, and help and the palette list them). Nor does the bar offer a key
that could only refuse tonight: Undo with nothing to undo, Check when the selected character has
none due, Mark and Gain with no one to mark. The keys still work: pressed anyway, such a key says
why it does nothing. This only says what shows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.model import Campaign, Character
from gmscreen.rules.madness import check_due

MADNESS = "madness"
ITEMS = "merp-items"
MADNESS_ACTIONS = frozenset({"toggle_mark", "gain", "check", "check_all"})
# What a character's item keys do; with no character yet they can only refuse.
CHARACTER_ACTIONS = frozenset({"item_tables", "inventory", "edit_character"})


def usable(action: str, has_characters: bool) -> bool:
    """Whether the GM's screen offers ``action`` now (its ``check_action``): not the keys that
    need a character while there is none (the screen says to press c)."""
    return has_characters or action not in CHARACTER_ACTIONS


def due(character: Character) -> bool:
    """Whether a check of ``character`` would start now (as ``m`` starts it): a kind still to
    roll, or madness at POW or above with no episode under way."""
    return character.awaiting_kind is not None or (
        check_due(character.sanity) and character.sanity.episode is None
    )


class Offers:
    """Which of the GM's screen's actions the key bar shows now. Worked out once per change of
    the campaign (and, for Check, of the selected character), as the bar asks for every key
    each time the bindings refresh."""

    def __init__(self, live: LiveCampaign, selected: Callable[[], str | None]) -> None:
        self.live = live
        self.selected = selected  # the id of the character the GM's screen has selected
        self._state: Campaign | None = None
        self._events = -1
        self._for_state: dict[str, bool] = {}
        # the selected character's id, and every answer with Check's for it
        self._selected: tuple[str | None, Mapping[str, bool]] | None = None
        self._told: Mapping[str, bool] = {}  # what the bar was last told

    def offers(self, action: str) -> bool:
        """Whether the key bar shows ``action``; actions not named here always show."""
        return self.now().get(action, True)

    def now(self) -> Mapping[str, bool]:
        live, state = self.live, self.live.state
        if state is not self._state or len(live.events) != self._events:
            has_characters = bool(state.characters)
            modules = state.settings.modules
            items_only = ITEMS in modules and MADNESS not in modules
            self._for_state = {
                **dict.fromkeys(CHARACTER_ACTIONS, items_only),
                "toggle_mark": has_characters,
                "gain": has_characters,
                "check_all": any(due(c) for c in state.characters),
                "undo": live.can_undo(),
                "redo": live.can_redo(),
            }
            if MADNESS not in modules:
                self._for_state.update(dict.fromkeys(MADNESS_ACTIONS, False))
            self._state, self._events = state, len(live.events)
            self._selected = None
        selected = self.selected()
        if self._selected is None or selected != self._selected[0]:
            ready = selected is not None and state.has_character(selected)
            madness = MADNESS in state.settings.modules
            check = ready and madness and due(state.character(selected or ""))
            self._selected = (selected, {**self._for_state, "check": check})
        return self._selected[1]

    def changed(self) -> bool:
        """Whether what the bar should offer changed since the last call (so its bindings need
        a refresh): after an action, or when the selection moves."""
        now = self.now()
        if now == self._told:
            return False
        self._told = now
        return True
