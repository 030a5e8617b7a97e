"""Gain madness: pick a preset (type to filter), answer its question, roll or type the dice.

The gain goes to every target (the marked characters, or the selected one), each rolling
separately. Each gain is applied, and so journaled, as soon as its dice are known: those
steps are :mod:`.gain_rolls`; this screen keeps the layout, the keys and the stages up to them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from gmscreen.rules.dice import DiceError, Roll
from gmscreen.rules.madness import MadnessError, gain_dice
from gmscreen.rules.madness_data import Preset, load_madness_data
from gmscreen.rules.numbers import whole_or_none
from gmscreen.tui.commands import DIALOG_KEYS, LIST_MOVES, add_bindings, bindings
from gmscreen.tui.format import error_text
from gmscreen.tui.i18n import Translate
from gmscreen.tui.screens.gain_rolls import ApplyGain, ApplyGainAll, GainRolls, Stage, Target
from gmscreen.tui.session import GainDone
from gmscreen.tui.typeahead import InOrderDialog, priority, run_binding_now
from gmscreen.tui.widgets.key_bar import KeyBar
from gmscreen.tui.widgets.preset_rows import PresetRow, PresetRows
from gmscreen.tui.widgets.typed_line import TypedLine

TYPED_CHARACTERS = "0123456789, "


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


class GainScreen(GainRolls, InOrderDialog[list[GainDone] | None]):
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

    def __init__(
        self,
        targets: Sequence[Target],
        apply: ApplyGain,
        t: Translate,
        lang: str,
        rng: random.Random,
        apply_all: ApplyGainAll | None = None,
    ) -> None:
        super().__init__()
        add_bindings(
            self,
            # its keys may close it, then open the checks due: see gmscreen.tui.typeahead
            [*priority(bindings("dialog", t, DIALOG_KEYS)), *bindings("dialog", t, LIST_MOVES)],
        )
        self.t = t
        self.lang = lang
        self.rng = rng
        self.presets = load_madness_data().presets
        self.filtered = False  # whether the list shows fewer presets than all
        self._start(targets, apply, apply_all)

    def _start(
        self, targets: Sequence[Target], apply: ApplyGain, apply_all: ApplyGainAll | None
    ) -> None:
        self.targets = list(targets)
        self.apply = apply
        self.apply_all = apply_all
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

    def reopen(
        self, targets: Sequence[Target], apply: ApplyGain, apply_all: ApplyGainAll | None = None
    ) -> None:
        """Start a new gain in this picker (it was closed): the same as a new one for ``targets``.

        The GM's screen keeps one picker and opens it again (``screens/gain_kept.py``): a new
        one costs its widgets' mounting and styling, its first layout (and the relayout of the
        screen below that its first size causes) and drawing every preset again."""
        self._start(targets, apply, apply_all)
        if self.is_mounted:  # else it was prepared and never shown: it composes from the above
            self.query_one("#title", Static).update(Content(self._title()))
            self._back_to_pick()  # done as it closed, unless it closed some other way

    def _back_to_pick(self) -> None:
        """Show the picker as it opens: every preset, the first highlighted, nothing typed.

        Done as soon as the picker closes (it is no longer shown: nothing of it is drawn), so
        that when it opens again its widgets have the sizes they were last laid out with: a
        widget whose size changed asks Textual for a second layout, and that one comes a frame
        (~17 ms) or more later."""
        self.stage = "pick"
        self.done_lines = []
        self.query_one("#filter", TypedLine).set("")
        if self.filtered:
            self._filter("")
        self.query_one("#presets", PresetRows).highlighted = 0
        self._show("#filter", "#presets")
        self._hide("#question", "#answer")
        self._error("")
        self._show_prompt()

    def _show(self, *selectors: str) -> None:
        # display, not a CSS class: a class change restyles the widget (~4 ms each, here).
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
            rows = [
                PresetRow(key, preset.label.get(self.lang), preset_hint(preset, self.t))
                for key, preset in self.presets.items()
            ]
            presets = PresetRows(rows, id="presets")  # its keys are the dialog's: see on_key
            # Room for every preset, kept while the GM filters, like fzf: a list that changes
            # size resizes the dialog a frame later, so each key would cost two frames.
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
        yield KeyBar()

    def on_mount(self) -> None:
        self._show_prompt()

    def _matching(self, text: str) -> list[int]:
        """The presets (by their place in the list) whose words or key hold ``text``."""
        needle = text.casefold().strip()
        return [
            n
            for n, (key, preset) in enumerate(self.presets.items())
            if not needle or needle in preset.label.get(self.lang).casefold() or needle in key
        ]

    # --- stages ------------------------------------------------------------------------------

    def _filter(self, text: str) -> None:
        presets = self.query_one("#presets", PresetRows)
        presets.show_only(self._matching(text))
        self.filtered = presets.option_count < len(self.presets)
        if presets.option_count:
            self._error("")  # "nothing matches" was true of the text before

    def action_move(self, step: int) -> None:
        if self.stage == "pick":
            presets = self.query_one("#presets", PresetRows)
            if presets.option_count:
                presets.highlighted += step

    def _pick_highlighted(self) -> None:
        key = self.query_one("#presets", PresetRows).highlighted_key
        if key is None:
            self._error(self.t("gain.nothing_matches"))
            return
        self._pick(key)

    @on(PresetRows.Picked)
    def _pick_clicked(self, event: PresetRows.Picked) -> None:
        if self.stage == "pick":
            self._pick(event.key)

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

    def close(self, result: list[GainDone] | None) -> None:
        was_open = self.is_active
        super().close(result)
        if was_open:
            self._back_to_pick()

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
