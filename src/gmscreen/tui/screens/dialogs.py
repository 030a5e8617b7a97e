"""Small dialogs: yes/no, one line of text, and an amount of game time."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from gmscreen.rules.madness import DAY, HOUR, MINUTE
from gmscreen.tui.commands import NO_ROLL, YES_NO, bindings
from gmscreen.tui.i18n import Translate
from gmscreen.tui.typeahead import InOrderDialog, InOrderInput, dismiss_once, open_screen
from gmscreen.tui.widgets.key_bar import KeyBar
from gmscreen.tui.widgets.text_input import TextInput as Input

DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > #dialog {{
    width: 72; height: auto; border: thick $accent; background: $surface; padding: 1 2;
}}
{name} #title {{ text-style: bold; color: $accent; margin-bottom: 1; }}
{name} #error {{ color: $error; height: auto; }}
{name} #hint {{ color: $text-muted; margin-top: 1; }}
"""


class ConfirmScreen(InOrderDialog[bool]):
    """``y`` (or ``s``, sí) or ``enter`` confirms; ``n`` or ``escape`` does not. The keys typed
    after the answer go to what its callback opens, or to the screen below (priority bindings:
    see :class:`InOrderDialog`)."""

    DEFAULT_CSS = DIALOG_CSS.format(name="ConfirmScreen")
    BINDINGS = bindings("dialog", YES_NO, priority=True)

    def __init__(self, title: str, question: str, t: Translate) -> None:
        super().__init__()
        self.title_text = title
        self.question = question
        self.t = t

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Content(self.title_text), id="title")
            yield Static(Content(self.question), id="question")
            yield Static(Content(self.t("confirm.hint")), id="hint")
        yield KeyBar(self.t)

    def confirm(self) -> None:
        self.close(True)

    def cancel(self) -> None:
        self.close(False)


class TextPrompt(ModalScreen[str | None]):
    """One line of text (the log search, an item's note); an empty line clears.

    Open it with :meth:`open`, from a priority binding: the keys typed right after the one that
    opens it (a fast GM) then go into its line, in the order typed (its line is an
    :class:`InOrderInput`: backspace, the cursor moves and enter keep their place too).
    """

    DEFAULT_CSS = DIALOG_CSS.format(name="TextPrompt")
    BINDINGS = bindings("dialog", NO_ROLL)

    def __init__(self, title: str, hint: str, value: str, t: Translate) -> None:
        super().__init__()
        self.t = t
        self.title_text = title
        self.hint = hint
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Content(self.title_text), id="title")
            yield InOrderInput(self.value, id="text")
            yield Static(Content(self.hint), id="hint")
        yield KeyBar(self.t)

    async def open(self, below: Screen[Any], done: Callable[[str], None]) -> None:
        """Show the prompt over ``below``; ``done`` gets the text the GM confirms (esc: it is
        not called). From a priority binding: see :func:`gmscreen.tui.typeahead.open_screen`."""

        def answered(text: str | None) -> None:
            if text is not None:
                done(text)

        await open_screen(below, self, answered)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self._close(event.value)  # the text as submitted, not with what was typed after enter

    def action_confirm(self) -> None:
        self._close(self.query_one("#text", Input).value)

    def action_cancel(self) -> None:
        self._close(None)

    def _close(self, text: str | None) -> None:
        dismiss_once(self, text)


UNIT_SECONDS = {"r": 0, "m": MINUTE, "h": HOUR, "d": DAY}
# ASCII digits ([0-9]: \d is any script's), six at most: no int() of a huge number
_AMOUNT = re.compile(r"^\s*([0-9]{1,6})\s*([a-zA-Z]*)\s*$")


def parse_amount(text: str, round_seconds: int, units: dict[str, str]) -> int | None:
    """``"10 m"`` → 600; ``units`` maps each word the GM may type (any prefix of it) to r/m/h/d."""
    match = _AMOUNT.match(text)
    if match is None:
        return None
    number, word = int(match.group(1)), match.group(2).casefold()
    unit = "r" if not word else None
    for name, letter in units.items():
        if word and name.casefold().startswith(word):
            unit = letter
            break
    if unit is None:
        return None
    size = round_seconds if unit == "r" else UNIT_SECONDS[unit]
    return number * size


class AdvanceScreen(InOrderDialog[int | None]):
    """How much game time passes: ``10`` (rounds), ``10 m``, ``2 h``, ``1 d``.

    The amount is typed in order (an :class:`InOrderInput`), and enter and esc are priority
    bindings (:class:`InOrderDialog`): the keys typed after enter go to the screen below, not
    into the amount."""

    DEFAULT_CSS = DIALOG_CSS.format(name="AdvanceScreen")
    BINDINGS = bindings("dialog", NO_ROLL, priority=True)

    def __init__(self, t: Translate, round_seconds: int) -> None:
        super().__init__()
        self.t = t
        self.round_seconds = round_seconds
        self.units = {
            t("advance.word_rounds"): "r",
            t("advance.word_minutes"): "m",
            t("advance.word_hours"): "h",
            t("advance.word_days"): "d",
        }

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Content(self.t("advance.title")), id="title")
            yield InOrderInput(placeholder=self.t("advance.placeholder"), id="amount")
            yield Static(id="error")
            yield Static(Content(self.t("advance.hint")), id="hint")
        yield KeyBar(self.t)

    @on(Input.Changed)
    def _typed(self) -> None:
        self.query_one("#error", Static).update(Content(""))  # it was said of the text before

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self._advance(event.value)  # the text as submitted, not with what was typed after enter

    def confirm(self) -> None:
        self._advance(self.query_one("#amount", Input).value)

    def _advance(self, text: str) -> None:
        if not self.is_active:  # closed already (an enter and an esc typed at once)
            return
        seconds = parse_amount(text, self.round_seconds, self.units)
        if seconds is None or seconds <= 0:
            self.query_one("#error", Static).update(Content(self.t("advance.error")))
            return
        self.close(seconds)

    def cancel(self) -> None:
        self.close(None)
