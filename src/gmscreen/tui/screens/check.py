"""The madness check, one key at a time: roll (or type the die), see the outcome, go on.

The screen drives a :class:`CheckDriver`: the rules' :class:`CheckSequence` itself in tests, or
the campaign's check, which journals each roll the moment it is made. ``escape`` cancels only
before the first roll; after that every roll is on record and the check goes to its end.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.wording import fumble_range, kind_label, roll_text, units_text
from gmscreen.rules import dice
from gmscreen.rules.dice import DiceError, Roll
from gmscreen.rules.madness import MadnessError, MadnessState, Odds
from gmscreen.rules.madness_check import Phase
from gmscreen.rules.numbers import whole_or_none
from gmscreen.tui.commands import DIALOG_KEYS, bindings
from gmscreen.tui.format import alignment_label, error_text
from gmscreen.tui.i18n import Translate
from gmscreen.tui.session import CheckResult, EpisodeShown, StepShown
from gmscreen.tui.typeahead import InOrderDialog
from gmscreen.tui.widgets.key_bar import KeyBar
from gmscreen.tui.widgets.meter import meter

MAX_TYPED = 3


class CheckDriver(Protocol):
    """One character's check, step by step; each step is journaled before it returns."""

    @property
    def state(self) -> MadnessState: ...
    @property
    def phase(self) -> Phase: ...
    def odds(self) -> Odds: ...
    def target(self) -> tuple[str, int]: ...
    def fumble_chance(self) -> int: ...
    def roll(self, d100: Roll) -> StepShown: ...
    def choose_kind(self, d6: Roll) -> EpisodeShown: ...


class CheckScreen(InOrderDialog[CheckResult | None]):
    DEFAULT_CSS = """
    CheckScreen { align: center middle; }
    CheckScreen > #dialog {
        width: 84; height: auto; max-height: 90%;
        border: thick $error 70%; background: $surface; padding: 1 2;
    }
    CheckScreen #title { text-style: bold; color: $error; margin-bottom: 1; }
    CheckScreen #steps { margin-top: 1; height: auto; }
    CheckScreen #prompt { margin-top: 1; color: $accent; text-style: bold; }
    CheckScreen #typed { height: 1; }
    CheckScreen #error { color: $error; height: auto; }
    """
    # its keys may close it, then open the next check: see gmscreen.tui.typeahead
    BINDINGS = bindings("dialog", DIALOG_KEYS, priority=True)

    def __init__(
        self,
        driver: CheckDriver,
        name: str,
        t: Translate,
        lang: str,
        rng: random.Random,
        fumble_base: int,
    ) -> None:
        super().__init__()
        self.driver = driver
        self.character_name = name
        self.t = t
        self.lang = lang
        self.rng = rng
        self.fumble_base = fumble_base
        self.steps: list[StepShown] = []
        self.episode: EpisodeShown | None = None
        self.typed = ""
        self.showing = False  # an outcome is on screen; enter goes on

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Content(self.t("check.title", name=self.character_name)), id="title")
            yield Static(id="facts")
            yield Static(id="steps")
            yield Static(id="prompt")
            yield Static(id="typed")
            yield Static(id="error")
        yield KeyBar(self.t)

    def on_mount(self) -> None:
        self.refresh_view()

    # --- what is shown -----------------------------------------------------------------------

    def _facts(self) -> Content:
        t = self.t
        state = self.driver.state
        which, value = self.driver.target()
        odds = self.driver.odds()
        chance = self.driver.fumble_chance()
        return Content("\n").join(
            [
                Content.styled(
                    t("check.madness_vs_pow", madness=state.madness, pow=state.pow), "bold"
                ),
                meter(state, self.fumble_base, t, 40),
                Content(
                    t(
                        "check.target",
                        alignment=alignment_label(which, t),
                        value=value,
                        chaos=state.chaos,
                        law=state.law,
                    )
                ),
                Content(t("check.fumble", range=fumble_range(101 - chance, t), chance=chance)),
                Content.assemble(
                    t("check.odds"),
                    " ",
                    (t("check.odds_success", n=odds.success), "bold $success"),
                    " · ",
                    (t("check.odds_failure", n=odds.failure), "bold $warning"),
                    " · ",
                    (t("check.odds_fumble", n=odds.fumble), "bold $error"),
                ),
            ]
        )

    def _step_line(self, n: int, step: StepShown) -> Content:
        t = self.t
        style = {"success": "$success", "failure": "$warning", "fumble": "reverse $error"}
        return Content.assemble(
            t("check.step", n=n, roll=roll_text(step.roll, t)),
            " → ",
            (t(f"outcome.{step.outcome}"), f"bold {style[step.outcome]}"),
            "  ",
            (
                t("check.madness_change", before=step.before, after=step.after),
                "dim",
            ),
        )

    def _episode_line(self, episode: EpisodeShown) -> Content:
        t = self.t
        text = t(
            "check.episode",
            kind=kind_label(episode.kind, self.lang),
            roll=roll_text(episode.kind_roll, t),
            duration=units_text(episode.amount, episode.unit, t),
            after=episode.madness_after,
        )
        lines = [Content.styled(text, "bold $warning")]
        if episode.permanent:
            lines.append(Content.styled(t("check.permanent"), "bold $error"))
        return Content("\n").join(lines)

    def _prompt(self) -> str:
        t = self.t
        phase = self.driver.phase
        if self.episode is not None:
            return t("check.prompt_confirm")
        if self.showing:
            if phase == "roll":
                return t("check.prompt_again")
            if phase == "kind":
                return t("check.prompt_to_kind")
            return t("check.prompt_done")
        if phase == "kind":
            return t("check.prompt_kind")
        return t("check.prompt_roll") if not self.steps else t("check.prompt_roll_again")

    def refresh_view(self) -> None:
        self.query_one("#facts", Static).update(self._facts())
        lines = [self._step_line(n, s) for n, s in enumerate(self.steps, 1)]
        if self.episode is not None:
            lines.append(self._episode_line(self.episode))
        self.query_one("#steps", Static).update(Content("\n").join(lines))
        self.query_one("#prompt", Static).update(Content(self._prompt()))
        typed = self.t("check.typed", value=self.typed) if self.typed else ""
        self.query_one("#typed", Static).update(Content(typed))
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show ``r`` only while a die is awaited, and ``escape`` only before the first roll."""
        if action == "roll":
            return self._awaiting() is not None
        if action == "cancel":
            return not self.steps
        return True

    def _error(self, message: str) -> None:
        self.query_one("#error", Static).update(Content(message))

    # --- keys -------------------------------------------------------------------------------

    def _awaiting(self) -> Phase | None:
        """The die the screen waits for (roll or kind), or None while an outcome is shown."""
        if self.showing or self.episode is not None:
            return None
        phase = self.driver.phase
        return phase if phase != "done" else None

    def on_key(self, event: events.Key) -> None:
        # roll, confirm and cancel are priority bindings (InOrderDialog): they never get here.
        waiting = self._awaiting()
        digit = whole_or_none(event.character, max_digits=1) if event.character else None
        if waiting is None or digit is None:  # an ASCII digit: "²" types nothing
            if event.key == "backspace" and self.typed:
                self.typed = self.typed[:-1]
                self.refresh_view()
                event.stop()
            return
        event.stop()
        if waiting == "kind":
            self._take_kind(lambda: dice.picked("1d6", digit))
            return
        if len(self.typed) < MAX_TYPED:
            self.typed += str(digit)
        self._error("")
        self.refresh_view()

    def roll(self) -> None:
        waiting = self._awaiting()
        if waiting == "roll":
            self._take_roll(lambda: dice.roll("d100", self.rng))
        elif waiting == "kind":
            self._take_kind(lambda: dice.roll("1d6", self.rng))

    def confirm(self) -> None:
        waiting = self._awaiting()
        if waiting == "roll":
            if not self.typed:
                self._error(self.t("check.type_first"))
                return
            typed = self.typed
            self._take_roll(lambda: dice.typed("d100", typed))
            return
        if waiting == "kind":
            return
        if self.episode is not None or self.driver.phase == "done":
            self._finish()
            return
        self.showing = False  # go on: another roll, or the kind
        self.refresh_view()

    def cancel(self) -> None:
        if not self.steps:
            self.close(None)
        else:
            self._error(self.t("check.cannot_cancel"))

    def _take_roll(self, make: Callable[[], Roll]) -> None:
        try:
            roll = make()
            step = self.driver.roll(roll)
        except (DiceError, MadnessError, CampaignError) as error:
            self.typed = ""
            self._error(error_text(error, self.t, self.lang))
            self.refresh_view()
            return
        self.typed = ""
        self._error("")
        self.steps.append(step)
        self.showing = True
        self.refresh_view()

    def _take_kind(self, make: Callable[[], Roll]) -> None:
        try:
            roll = make()
            self.episode = self.driver.choose_kind(roll)
        except (DiceError, MadnessError, CampaignError) as error:
            self._error(error_text(error, self.t, self.lang))
            return
        self._error("")
        self.refresh_view()

    def _finish(self) -> None:
        outcome = self.steps[-1].outcome if self.steps else "success"
        self.close(CheckResult(outcome, tuple(self.steps), self.episode))
