"""Gain madness: pick a preset (type to filter), answer its question, roll or type the dice.

The gain goes to every target (the marked characters, or the selected one), each rolling
separately (its own dice, rolled or typed by the GM, then adjusted if the preset allows), or to
every target at once for a fixed amount. Each gain is journaled as soon as its dice are known;
every target's is one action (one undo).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

import msgspec
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.undo import ActionGroup
from gmscreen.campaign.wording import roll_text
from gmscreen.rules import dice
from gmscreen.rules.dice import DiceError, Roll
from gmscreen.rules.madness import MadnessError, gain_dice
from gmscreen.rules.madness_data import Preset, load_madness_data
from gmscreen.rules.numbers import whole_or_none
from gmscreen.text import inert
from gmscreen.tui.commands import DIALOG_KEYS, LIST_MOVES, bindings
from gmscreen.tui.format import error_text
from gmscreen.tui.i18n import Translate
from gmscreen.tui.session import GainDone, apply_gain, apply_gain_all
from gmscreen.tui.typeahead import InOrderDialog, run_binding_now
from gmscreen.tui.widgets.key_bar import KeyBar
from gmscreen.tui.widgets.typed_line import TypedLine

TYPED_CHARACTERS = "0123456789, "
Stage = Literal["pick", "question", "happened", "dice", "adjust"]
ERRORS = (DiceError, MadnessError, CampaignError)


class Target(msgspec.Struct, frozen=True):
    id: str
    name: str


def preset_hint(preset: Preset, t: Translate) -> str:
    if preset.dice:
        return preset.dice + (" " + t("gain.hint.adjust") if preset.adjust else "")
    if preset.amount is not None:
        return str(preset.amount)
    if preset.first is not None:
        return t("gain.hint.first", first=preset.first, after=preset.after)
    if preset.input is not None:
        what = t(f"input.{preset.input}")
        if preset.divisor:
            return t("gain.hint.divisor", input=what, divisor=preset.divisor)
        return t("gain.hint.per", input=what, per=preset.per)
    return t("gain.hint.entered")


class GainScreen(InOrderDialog[list[GainDone] | None]):
    DEFAULT_CSS = """
    GainScreen { align: center middle; }
    GainScreen > #dialog {
        width: 84; height: auto; max-height: 90%;
        border: thick $accent; background: $surface; padding: 1 2;
    }
    GainScreen #title { text-style: bold; color: $accent; margin-bottom: 1; }
    GainScreen #presets { max-height: 22; }
    GainScreen #question { text-style: bold; margin-top: 1; }
    GainScreen #prompt { color: $accent; text-style: bold; margin-top: 1; }
    GainScreen #done { height: auto; }
    GainScreen #error { color: $error; height: auto; }
    """
    # its keys may close it, then open the checks due: see gmscreen.tui.typeahead
    BINDINGS = [*bindings("dialog", DIALOG_KEYS, priority=True), *bindings("dialog", LIST_MOVES)]

    def __init__(
        self,
        targets: Sequence[Target],
        live: LiveCampaign,
        t: Translate,
        lang: str,
        rng: random.Random,
    ) -> None:
        super().__init__()
        self.t = t
        self.lang = lang
        self.rng = rng
        self.presets = load_madness_data().presets
        self.targets = list(targets)
        self.live = live
        self.group = ActionGroup()  # every target's gain, each with its own dice: one action
        self.stage: Stage = "pick"
        self.preset: Preset | None = None
        self.inputs: dict[str, int | str] = {}
        self.expression: str | None = None
        self.turn = 0  # index into targets
        self.pending: Roll | None = None  # the roll awaiting an adjustment
        self.typed = ""
        self.happened = ""  # the GM's line on what happened, asked before any gain is applied
        self.results: list[GainDone] = []
        self.done_lines: list[Content] = []

    def _show(self, *selectors: str) -> None:
        for selector in selectors:
            self.query_one(selector).display = True

    def _hide(self, *selectors: str) -> None:
        for selector in selectors:
            self.query_one(selector).display = False

    def _title(self) -> str:
        return self.t("gain.title", names=", ".join(target.name for target in self.targets))

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Content(self._title()), id="title")
            yield TypedLine(self.t("gain.filter"), id="filter")
            presets = OptionList(*self._options(self._matching("")), id="presets")
            presets.can_focus = False  # its keys are the dialog's: see on_key
            # Room for every preset, kept while the GM filters (like fzf): the dialog does not
            # change size under the GM's eyes as the list shortens.
            presets.styles.height = len(self.presets) + 2  # and its border; max-height caps it
            yield presets
            question = Static(id="question")
            answer = TypedLine(id="answer")
            question.display = answer.display = False
            yield question
            yield answer
            yield Static(id="done")
            yield Static(id="prompt")
            yield Static(id="error")
        yield KeyBar(self.t)

    def on_mount(self) -> None:
        self.query_one("#presets", OptionList).highlighted = 0
        self._show_prompt()

    def _options(self, keys: Sequence[str]) -> list[Option]:
        """The presets ``keys`` as the list shows them: the words, and the hint of the amount."""
        return [
            Option(
                Content.assemble(
                    inert(self.presets[key].label.get(self.lang)),
                    "  ",
                    (inert(preset_hint(self.presets[key], self.t)), "dim"),
                ),
                id=key,
            )
            for key in keys
        ]

    def _matching(self, text: str) -> list[str]:
        """The presets (their keys, in order) whose words or key hold ``text``."""
        needle = text.casefold().strip()
        return [
            key
            for key, preset in self.presets.items()
            if not needle or needle in preset.label.get(self.lang).casefold() or needle in key
        ]

    # --- stages ------------------------------------------------------------------------------

    def _filter(self, text: str) -> None:
        presets = self.query_one("#presets", OptionList)
        presets.set_options(self._options(self._matching(text)))
        presets.highlighted = 0
        if presets.option_count:
            self._error("")  # "nothing matches" was true of the text before

    def action_move(self, step: int) -> None:
        if self.stage == "pick":
            presets = self.query_one("#presets", OptionList)
            if presets.highlighted is not None:
                presets.highlighted += step

    def _pick_highlighted(self) -> None:
        option = self.query_one("#presets", OptionList).highlighted_option
        if option is None or option.id is None:
            self._error(self.t("gain.nothing_matches"))
            return
        self._pick(option.id)

    @on(OptionList.OptionSelected)
    def _pick_clicked(self, event: OptionList.OptionSelected) -> None:
        if self.stage == "pick" and event.option.id is not None:
            self._pick(event.option.id)

    def _pick(self, key: str) -> None:
        self.preset = self.presets[key]
        self._hide("#filter", "#presets")
        self._error("")
        self.done_lines.append(Content.styled(self.preset.label.get(self.lang), "bold"))
        if self.preset.needs_input:
            self.stage = "question"
            self._ask(self.preset.question.get(self.lang) if self.preset.question else "")
        else:
            self._ask_happened()
        self._show_prompt()

    def _answer(self) -> None:
        assert self.preset is not None
        answer = self.query_one("#answer", TypedLine)
        value = answer.value.strip()
        if self.stage == "adjust":
            self._adjust(value)
            return
        if self.stage == "happened":
            self._take_happened(value)
            return
        name = self.preset.needs_input or "amount"
        if not value:
            self._error(self.t("gain.answer_required"))
            return
        whole = whole_or_none(value)  # ASCII digits only: "²" or "٣" is not a number here
        inputs: dict[str, int | str] = {name: value if whole is None else whole}
        try:
            self.expression = gain_dice(self.preset.key, inputs)
        except (DiceError, MadnessError) as error:
            self._error(error_text(error, self.t, self.lang))
            return
        if self.expression is None and whole is None:
            self._error(self.t("gain.whole_number", field=self.t(f"input.{name}")))
            return
        self.inputs = inputs
        self.done_lines.append(
            Content(
                f"{self.preset.question.get(self.lang) if self.preset.question else ''} {value}"
            )
        )
        answer.set("")
        self._error("")
        self._ask_happened()
        self._show_prompt()

    def _ask_happened(self) -> None:
        """The optional line on what happened (the demon's name, the friend who died): asked
        once, before any gain is applied, and kept in every target's Gain event."""
        self.stage = "happened"
        self._ask(self.t("notes.gain.question"))

    def _ask(self, question: str, answer: str = "", *, replace_on_type: bool = False) -> None:
        """Show ``question`` and the line that answers it (with ``answer`` typed in)."""
        self.query_one("#question", Static).update(Content(question))
        self.query_one("#answer", TypedLine).set(answer, replace_on_type=replace_on_type)
        self._show("#question", "#answer")

    def _take_happened(self, value: str) -> None:
        self.happened = value
        if value:
            self.done_lines.append(Content(self.t("notes.gain.done", text=value)))
        self.query_one("#answer", TypedLine).set("")
        self._error("")
        self._start_rolls()

    def focus_dialog(self) -> None:
        self.set_focus(None)

    # --- dice --------------------------------------------------------------------------------

    async def on_key(self, event: events.Key) -> None:
        # Every key of this dialog is handled here, in the order typed: the text lines never
        # take the focus, and the list moves run here rather than as bindings (Textual runs a
        # key's binding only after it has handed the next key on); roll, confirm and cancel are
        # priority bindings (InOrderDialog). So "demon enter 16 enter" typed at once still
        # picks the demon, then answers 16.
        line = self._line()
        if line is not None and event.is_printable and event.character is not None:
            self._done_with(event)
            line.insert(event.character)
            self._typed_into(line)
            return
        if await run_binding_now(self, event):
            return
        if event.key == "backspace" and line is not None:
            self._done_with(event)
            line.delete_left()
            self._typed_into(line)
        elif self.stage == "dice":
            if event.character is not None and event.character in TYPED_CHARACTERS:
                self._done_with(event)
                self.typed += event.character
                self._show_prompt()
            elif event.key == "backspace" and self.typed:
                self._done_with(event)
                self.typed = self.typed[:-1]
                self._show_prompt()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``r`` rolls only while dice are awaited: before that it is a letter of the text."""
        if action == "roll":
            return self.stage == "dice"
        return True

    @staticmethod
    def _done_with(event: events.Key) -> None:
        event.stop()
        event.prevent_default()

    def _line(self) -> TypedLine | None:
        """The line the GM is typing into now, if any."""
        if self.stage == "pick":
            return self.query_one("#filter", TypedLine)
        if self.stage in ("question", "happened", "adjust"):
            return self.query_one("#answer", TypedLine)
        return None

    def _typed_into(self, line: TypedLine) -> None:
        if line.id == "filter":
            self._filter(line.value)

    def confirm(self) -> None:
        if self.stage == "pick":
            self._pick_highlighted()
            return
        if self.stage in ("question", "happened", "adjust"):
            self._answer()
            return
        self.take_typed()

    def _finish(self) -> None:
        self.close(self.results)

    def cancel(self) -> None:
        self.close(self.results or None)

    # --- text --------------------------------------------------------------------------------

    def _error(self, message: str) -> None:
        self.query_one("#error", Static).update(Content(message))

    def _show_prompt(self) -> None:
        self.query_one("#done", Static).update(Content("\n").join(self.done_lines))
        prompt = ""
        if self.stage == "pick":
            prompt = self.t("gain.prompt_pick")
        elif self.stage == "question":
            prompt = self.t("gain.prompt_answer")
        elif self.stage == "happened":
            prompt = self.t("notes.gain.prompt")
        elif self.stage == "dice" and self.turn < len(self.targets):
            prompt = self.t(
                "gain.prompt_dice", name=self.targets[self.turn].name, dice=self.expression or ""
            )
            if self.typed:
                prompt += "\n" + self.t("gain.typed", value=self.typed)
        elif self.stage == "adjust":
            prompt = self.t("gain.prompt_adjust")
        self.query_one("#prompt", Static).update(Content(prompt))
        self.refresh_bindings()  # the stage decides whether r rolls (check_action)

    # --- the rolls, once the preset and its answers are known -----------------------------

    def _start_rolls(self) -> None:
        assert self.preset is not None
        if self.expression is None and self.preset.dice is None:
            # A fixed amount: apply it to everyone at once (one action, if it can be).
            # The question and its line stay until then: a gain refused (a write fault) leaves
            # the GM where enter tries again.
            if len(self.targets) > 1:
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
        assert self.preset is not None
        ids = [target.id for target in self.targets]
        try:
            results = apply_gain_all(self.live, ids, self.preset.key, self.inputs, self.happened)
        except ERRORS as error:
            self._error(error_text(error, self.t, self.lang))
            return False
        for target, result in zip(self.targets, results, strict=True):
            self._done(target, result)
        return True

    def _apply(self, target: Target, roll: Roll | None, adjustment: int) -> bool:
        assert self.preset is not None
        preset, inputs, happened = self.preset.key, self.inputs, self.happened
        try:
            result = apply_gain(
                self.live, target.id, preset, inputs, roll, adjustment, self.group, happened
            )
        except ERRORS as error:
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
