"""What the GM's screen's flows share: a key's dialogs and what follows them (a gain and the
checks it makes due, a ruling, a character's forms, undo, the settings).

The screen hands each flow a :class:`Flow` (the campaign, the words, the dice, and the screen the
dialogs open over) and the characters it acts on. A flow changes the campaign only through the
live campaign, which tells the screen of each action it journals (:class:`CampaignChanged`, the
one way the screen learns of a change); what else the screen must do, it is told by message
(:class:`MarksUsed`, :class:`SpeakLanguage`), handled with ``@on``. No flow calls the screen's methods.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from textual.message import Message
from textual.notifications import SeverityLevel
from textual.screen import Screen

from gmscreen.campaign import events as ev
from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.live import LiveCampaign
from gmscreen.rules.dice import DiceError
from gmscreen.rules.madness import MadnessError
from gmscreen.tui.format import error_text
from gmscreen.tui.i18n import Translate

ERRORS = (CampaignError, DiceError, MadnessError)


class CampaignChanged(Message):
    """The live campaign journaled an action (``new``, its events), or refused one (no events:
    a write that failed shows as READ-ONLY)."""

    def __init__(self, new: Sequence[ev.Event]) -> None:
        super().__init__()
        self.new = new


class MarksUsed(Message):
    """A gain went to the marked characters: the next one starts from no marks."""


class SpeakLanguage(Message):
    """Speak ``lang`` now: the campaign keeps it already (the screen was opened in another)."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang


@dataclass(frozen=True)
class Flow:
    """What a flow works with, made by the GM's screen as a key starts one."""

    screen: Screen[Any]  # the GM's screen: the dialogs open over it, the messages go to it
    live: LiveCampaign
    t: Translate
    lang: str
    rng: random.Random = field(default_factory=random.Random)
    keymap: Mapping[str, str] = field(default_factory=dict)

    def act(self, what: Callable[[], object]) -> bool:
        """Run one action of the live campaign: True if it was done. A rule or campaign error
        becomes a notification (and the screen is told: a write that failed shows)."""
        try:
            what()
        except ERRORS as error:
            self.say(error_text(error, self.t, self.lang), "error")
            self.screen.post_message(CampaignChanged(()))
            return False
        return True

    def say(self, text: str, severity: SeverityLevel = "information") -> None:
        self.screen.notify(text, severity=severity)

    def name(self, character_id: str) -> str:
        return self.live.state.character(character_id).name
