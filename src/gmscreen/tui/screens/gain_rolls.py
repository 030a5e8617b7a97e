"""The gain picker's rolls: once the preset and its answers are known, the gain goes to each
target in turn, with its own dice (rolled, or typed by the GM, then adjusted if the preset
allows), or to every target at once for a fixed amount; each is journaled as it is known.

A mixin: :class:`~gmscreen.tui.screens.gain.GainScreen` inherits these and keeps the layout,
the keys and the stages before them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal

import msgspec
from textual.content import Content

from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.wording import roll_text
from gmscreen.rules import dice
from gmscreen.rules.dice import DiceError, Roll
from gmscreen.rules.madness import MadnessError
from gmscreen.rules.madness_data import Preset
from gmscreen.rules.numbers import whole_or_none
from gmscreen.tui.format import error_text
from gmscreen.tui.i18n import Translate
from gmscreen.tui.session import GainDone

Stage = Literal["pick", "question", "happened", "dice", "adjust"]

# apply(character id, preset key, inputs, roll, adjustment, what happened) -> what it did; it
# journals.
ApplyGain = Callable[[str, str, Mapping[str, int | str], Roll | None, int, str], GainDone]
# apply_all(character ids, preset key, inputs, what happened) -> what it did to each: a gain
# without dice to every target, journaled as one action (one line, one undo).
ApplyGainAll = Callable[[Sequence[str], str, Mapping[str, int | str], str], list[GainDone]]


class Target(msgspec.Struct, frozen=True):
    id: str
    name: str


class GainRolls:
    """GainScreen's steps from the first roll to the last target's gain."""

    t: Translate
    lang: str
    rng: random.Random
    targets: list[Target]
    apply: ApplyGain
    apply_all: ApplyGainAll | None
    stage: Stage
    preset: Preset | None
    inputs: dict[str, int | str]
    expression: str | None
    turn: int
    pending: Roll | None
    typed: str
    happened: str
    results: list[GainDone]
    done_lines: list[Content]

    if TYPE_CHECKING:  # the screen's, which these steps use

        def _ask(
            self, question: str, answer: str = "", *, replace_on_type: bool = False
        ) -> None: ...
        def _show(self, *selectors: str) -> None: ...
        def _hide(self, *selectors: str) -> None: ...
        def _error(self, message: str) -> None: ...
        def _show_prompt(self) -> None: ...
        def _finish(self) -> None: ...
        def focus_dialog(self) -> None: ...

    def _start_rolls(self) -> None:
        assert self.preset is not None
        if self.expression is None and self.preset.dice is None:
            # A fixed amount: apply it to everyone at once (one action, if it can be).
            # The question and its line stay until then: a gain refused (a write fault) leaves
            # the GM where enter tries again.
            if self.apply_all is not None and len(self.targets) > 1:
                if self._apply_all():
                    self._finish()
                return
            for target in self.targets:
                if not self._apply(target, None, 0):
                    self._show_prompt()
                    return
            self._finish()
            return
        self._hide("#question", "#answer")
        self.expression = self.expression or self.preset.dice
        self.stage = "dice"
        self.turn = 0
        self.focus_dialog()
        self._show_prompt()

    def roll(self) -> None:
        if self.stage == "dice" and self.expression:
            self._take(dice.roll(self.expression, self.rng))

    def take_typed(self) -> None:
        """Enter at the dice: the dice the GM typed, read, for the target whose turn it is."""
        if self.stage != "dice" or not self.expression:
            return
        if not self.typed.strip():
            self._error(self.t("gain.type_first"))
            return
        try:
            roll = dice.typed(self.expression, self.typed)
        except DiceError as error:
            self.typed = ""
            self._error(error_text(error, self.t, self.lang))
            self._show_prompt()
            return
        self._take(roll)

    def _take(self, roll: Roll) -> None:
        assert self.preset is not None
        self.typed = ""
        self._error("")
        if self.preset.adjust:
            self.pending = roll
            self.stage = "adjust"
            question = self.t("gain.adjust_question", roll=roll_text(roll, self.t))
            self._ask(question, "0", replace_on_type=True)
            self._show_prompt()
            return
        self._next_turn(roll, 0)

    def _adjust(self, value: str) -> None:
        adjustment = whole_or_none(value.replace(" ", "") or "0", signed=True)  # "+-5": no
        if adjustment is None:
            self._error(self.t("gain.adjust_number"))
            return
        roll = self.pending
        self.pending = None
        self._hide("#question", "#answer")
        self.stage = "dice"
        self.focus_dialog()
        self._next_turn(roll, adjustment)

    def _next_turn(self, roll: Roll | None, adjustment: int) -> None:
        if not self._apply(self.targets[self.turn], roll, adjustment):
            return
        self.turn += 1
        if self.turn >= len(self.targets):
            self._finish()
        else:
            self._show_prompt()

    def _apply_all(self) -> bool:
        assert self.preset is not None and self.apply_all is not None
        ids = [target.id for target in self.targets]
        try:
            results = self.apply_all(ids, self.preset.key, self.inputs, self.happened)
        except (DiceError, MadnessError, CampaignError) as error:
            self._error(error_text(error, self.t, self.lang))
            return False
        for target, result in zip(self.targets, results, strict=True):
            self._done(target, result)
        return True

    def _apply(self, target: Target, roll: Roll | None, adjustment: int) -> bool:
        assert self.preset is not None
        try:
            result = self.apply(
                target.id, self.preset.key, self.inputs, roll, adjustment, self.happened
            )
        except (DiceError, MadnessError, CampaignError) as error:
            self._error(error_text(error, self.t, self.lang))
            return False
        self._done(target, result)
        return True

    def _done(self, target: Target, result: GainDone) -> None:
        self.results.append(result)
        line = self.t(
            "gain.applied",
            name=target.name,
            amount=result.amount,
            before=result.before,
            after=result.after,
        )
        if result.roll is not None:
            line += f"  ({roll_text(result.roll, self.t)})"
        self.done_lines.append(Content(line))
