"""The life of one roll on the item tables' screen: started (the budget checked, the GM's
override asked), answered die by die and choice by choice, journaled once resolved, kept or
discarded, left half way, and resumed later with its dice (see :mod:`.item_tables`).

A mixin: :class:`~gmscreen.tui.screens.item_tables.ItemTableScreen` inherits these; the rules
(cost, limits, what is journaled) are the campaign layer's, reached through :class:`ItemRoll`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from gmscreen.campaign.errors import CampaignError
from gmscreen.rules.dice import DiceError
from gmscreen.rules.merp import RollRefused
from gmscreen.tui.format import error_text
from gmscreen.tui.item_roll import ItemRoll, refusal
from gmscreen.tui.screens.dialogs import ConfirmScreen
from gmscreen.tui.screens.item_abandon import Leave, leave_question, resume_question

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel
    from textual.screen import Screen

    from gmscreen.campaign.live import LiveCampaign
    from gmscreen.rules.tables_model import Lang, TableSet
    from gmscreen.tui.i18n import Translate
    from gmscreen.tui.typeahead import Done, R

ERRORS = (CampaignError, DiceError, ValueError)


class RollSteps:
    """ItemTableScreen's roll, from its first answer to kept, discarded, left or resumed."""

    live: LiveCampaign
    tables: TableSet
    character_id: str
    t: Translate
    lang: Lang
    current: str
    roll: ItemRoll | None
    typed: str

    if TYPE_CHECKING:  # the screen's, which these steps use

        @property
        def profile_name(self) -> str: ...
        def _error(self, message: str) -> None: ...
        def _label(self, table_id: str) -> str: ...
        def fill_rows(self) -> None: ...
        def refresh_view(self) -> None: ...
        def focus_result(self) -> None: ...
        def focus_rows(self) -> None: ...
        async def ask(self, question: Screen[R], answered: Done[R]) -> None: ...
        def notify(
            self,
            message: str,
            *,
            title: str = "",
            severity: SeverityLevel = "information",
            timeout: float | None = None,
            markup: bool = True,
        ) -> None: ...

    async def _start(self, first: Callable[[ItemRoll], None]) -> None:
        """Check the budget (the GM may override a refusal), then give the first answer.

        With nothing refused the roll starts now, so the dice typed next answer it."""
        self.typed = ""
        character = self.live.character(self.character_id)
        if character.merp is None:
            return
        refused: RollRefused | None = refusal(character.merp, self.current)
        if refused is None:
            self._begin(first, None)
        else:
            self._error(self.t("items.refused", message=refused.message(self.lang)))
            self.refresh_view()
            await self._ask_override(lambda key: self._begin(first, key), refused)

    async def _ask_override(self, then: Callable[[str], None], refused: RollRefused) -> None:
        def answered(sure: bool | None) -> None:
            if sure:
                then(refused.key)

        message = refused.message(self.lang)
        question = ConfirmScreen(
            self.t("items.override_title"),
            self.t("items.override_question", message=message),
            self.t,
        )
        await self.ask(question, answered)

    def _begin(self, first: Callable[[ItemRoll], None], override: str | None) -> None:
        self._error("")
        self.roll = ItemRoll(
            self.live, self.tables, self.character_id, self.current, self.lang, override
        )
        if not self._answer(first):
            self.roll = None
            self.refresh_view()

    def _answer(self, step: Callable[[ItemRoll], None]) -> bool:
        roll = self.roll
        if roll is None:
            return False
        self.typed = ""
        try:
            step(roll)
            if roll.done:
                roll.journal()
        except ERRORS as error:
            self._error(error_text(error, self.t, self.lang))
            self.refresh_view()
            return False
        self._error("")
        self.refresh_view()
        self.focus_result()
        return True

    def _settle(self, keep: bool) -> None:
        roll = self.roll
        if roll is None:
            return
        try:
            roll.keep() if keep else roll.discard()
        except ERRORS as error:
            self._error(error_text(error, self.t, self.lang))
            return
        self.roll = None
        key = "items.kept" if keep else "items.discarded"
        self.notify(self.t(key, title=roll.title(), name=self.profile_name))
        self.refresh_view()
        self.focus_rows()

    async def _abandon(self) -> None:
        """esc half way: leave the roll, journaled with its dice (see AbandonScreen)."""
        roll = self.roll
        if roll is None:
            return

        def answered(leave: Leave | None) -> None:
            if leave is None or self.roll is not roll or roll.done:
                return
            try:
                roll.abandon(counted=leave == "counted")
            except ERRORS as error:
                self._error(error_text(error, self.t, self.lang))
                return
            self.roll = None
            key = "item_abandon.left" if leave == "counted" else "item_abandon.left_free"
            self.notify(self.t(key, table=self._label(roll.table_id), name=self.profile_name))
            self.refresh_view()
            self.focus_rows()

        await self.ask(leave_question(roll, self._label(roll.table_id), self.t), answered)

    async def offer_resume(self) -> None:
        """A roll this character left half way: offer to go on with it, its dice as they were
        (n leaves it waiting for another time)."""
        left = self.live.character(self.character_id).abandoned
        if self.roll is not None or not left:
            return
        roll = ItemRoll.resumed(self.live, self.tables, self.character_id, left[-1], self.lang)

        async def answered(sure: bool | None) -> None:
            if sure and self.roll is None:
                await self._resume(roll)

        question = resume_question(roll, self._label(roll.table_id), len(left), self.t)
        await self.ask(question, answered)

    async def _resume(self, roll: ItemRoll) -> None:
        profile = self.live.character(self.character_id).merp
        refused = None if roll.paid or profile is None else refusal(profile, roll.table_id)

        def take(override: str | None) -> None:
            roll.override = override
            self.roll = roll
            self.current = roll.table_id
            self._error("")
            self.fill_rows()
            self.refresh_view()
            self.focus_result()

        if refused is None:
            take(None)
            return
        self._error(self.t("items.refused", message=refused.message(self.lang)))
        self.refresh_view()
        await self._ask_override(take, refused)
