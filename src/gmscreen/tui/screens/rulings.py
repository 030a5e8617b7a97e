"""GM rulings: the small menu (``x``) and the dialog of one ruling, with its reason.

The menu lists the corrections for the selected character, each with its key (the ``rulings``
commands, remappable): those that do not apply now (no episode to end, no permanent madness,
no first sighting) are shown dimmed, with why. Picking one closes the menu and opens its
dialog, which says what the ruling changes, asks what it needs (a kind of madness, a sighting,
a number) and a reason, and hands the ruling to the live campaign: refused, it says why and
stays open; journaled, it closes. Both close through priority bindings
(:class:`~gmscreen.tui.typeahead.InOrderDialog`), so a GM typing ``x s 9⏎`` fast is understood.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import msgspec
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from gmscreen.campaign import rulings as r
from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.model import Character
from gmscreen.campaign.wording import kind_label, preset_label, units_text
from gmscreen.rules.madness import madness_after_episode
from gmscreen.rules.madness_data import load_madness_data
from gmscreen.rules.numbers import NumberError, parse_whole
from gmscreen.text import inert_line
from gmscreen.tui.commands import (
    COMMANDS,
    LIST_MOVES,
    NO_ROLL,
    bindings,
    by_id,
    effective_keys,
    key_label,
)
from gmscreen.tui.format import episode_left, error_text
from gmscreen.tui.i18n import Translate
from gmscreen.tui.screens.dialogs import DIALOG_CSS
from gmscreen.tui.typeahead import InOrderDialog, InOrderInput, close_in_order
from gmscreen.tui.widgets.key_bar import KeyBar

# The menu's rulings, in its order: (command id, ruling), ``ruling_<ruling>`` being the command
# whose action is ``ruling('<ruling>')``.
RULINGS: tuple[tuple[str, str], ...] = tuple(
    (c.id, c.id.removeprefix("ruling_")) for c in COMMANDS if c.scope == "rulings"
)
# Rulings whose dialog asks to choose from a list, and the list's question.
CHOICE_QUESTIONS = {
    "add_permanent": "rulings.pick_kind",
    "remove_permanent": "rulings.pick_kind",
    "forget_sighting": "rulings.pick_sighting",
}


def why_not(which: str, character: Character) -> str | None:
    """The catalog key saying why ruling ``which`` does not apply to ``character`` now (None:
    it does)."""
    s = character.sanity
    if which.startswith("end_episode") and s.episode is None:
        return "rulings.why_no_episode"
    if which == "remove_permanent" and not s.permanent:
        return "rulings.why_no_permanent"
    if which == "forget_sighting" and not s.first_sightings:
        return "rulings.why_no_sightings"
    return None


class RulingsMenu(InOrderDialog[str]):
    """The corrections for one character; dismissed with the ruling picked (None: esc)."""

    DEFAULT_CSS = DIALOG_CSS.format(name="RulingsMenu") + "RulingsMenu #choices { height: auto; }\n"
    BINDINGS = [
        *bindings("rulings", priority=True),
        *bindings("dialog", ("dialog_cancel",), priority=True),
    ]

    def __init__(self, character: Character, t: Translate, keymap: Mapping[str, str]) -> None:
        super().__init__()
        self.character = character
        self.t = t
        self.keymap = keymap

    def compose(self) -> ComposeResult:
        t = self.t
        lines: list[Content] = []
        for command_id, which in RULINGS:
            keys = " ".join(key_label(k, t) for k in effective_keys(by_id(command_id), self.keymap))
            why = why_not(which, self.character)
            line = Content.assemble(
                (f"{inert_line(keys):>3}", "bold $secondary"),
                "  ",
                t(f"rulings.menu.{which}"),
                ("  " + t("rulings.not_now", why=t(why)), "italic") if why else "",
            )
            lines.append(line.stylize("dim") if why else line)
        with Vertical(id="dialog"):
            title = t("rulings.menu_title", name=self.character.name)
            yield Static(Content(title), id="title")
            yield Static(Content("\n").join(lines), id="choices")
            yield Static(id="error")
            yield Static(Content(t("rulings.menu_hint")), id="hint")
        yield KeyBar(self.t)

    async def action_ruling(self, which: str) -> None:
        await close_in_order(self, lambda: self._pick(which))

    def _pick(self, which: str) -> None:
        why = why_not(which, self.character)
        if why is not None:
            self.app.bell()
            self.query_one("#error", Static).update(Content(self.t(why)))
            return
        self.close(which)

    def cancel(self) -> None:
        self.close(None)


# What a ruling's dialog hands on: the ruling and its reason; it raises if the campaign refuses.
ApplyRuling = Callable[[r.Ask, str], object]
ERRORS = (CampaignError, NumberError)


class Clock(msgspec.Struct, frozen=True):
    """The game clock as the dialog needs it: now, and a round's length (for time left)."""

    now: int
    round_seconds: int


class RulingForm(InOrderDialog[bool]):
    """One ruling on one character: what it changes, what it needs, and the reason."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="RulingForm")
        + """
    RulingForm #what { text-style: bold; }
    RulingForm #now { margin-bottom: 1; }
    RulingForm #choices { max-height: 10; }
    RulingForm .label { margin-top: 1; }
    """
    )
    # Not priority bindings, as in the character form: a form typed at once, tab and all,
    # reaches enter only once its text is in (InOrderInput runs tab and enter as they arrive;
    # a priority enter would overtake the text a tab sends on).
    BINDINGS = [*bindings("dialog", NO_ROLL), *bindings("dialog", LIST_MOVES)]

    def __init__(
        self,
        which: str,
        character: Character,
        apply: ApplyRuling,
        t: Translate,
        lang: str,
        clock: Clock,
    ) -> None:
        super().__init__()
        self.which = which
        self.character = character
        self.apply = apply
        self.t = t
        self.lang = lang
        self.clock = clock
        self.applied = False

    # --- what the dialog shows ---------------------------------------------------------------

    def _choices(self) -> list[Option]:
        s = self.character.sanity
        if self.which == "add_permanent":
            return [Option(k.label.get(self.lang), id=k.key) for k in load_madness_data().kinds]
        if self.which == "remove_permanent":
            kinds = dict.fromkeys(s.permanent)  # each kind once, in order
            return [Option(kind_label(k, self.lang), id=k) for k in kinds]
        if self.which == "forget_sighting":
            return [Option(preset_label(k, self.lang), id=k) for k in sorted(s.first_sightings)]
        return []

    def _now(self) -> str:
        s, t = self.character.sanity, self.t
        if self.which.startswith("end_episode") and s.episode is not None:
            left = episode_left(s.episode, self.clock.now, self.clock.round_seconds)
            halved = madness_after_episode(s) if self.which == "end_episode" else s.madness
            return t(
                "rulings.episode_now",
                kind=kind_label(s.episode.kind, self.lang),
                left=units_text(left, s.episode.unit, t),
                before=s.madness,
                after=halved,
            )
        if self.which == "under_care":
            yes, no = t("recap.yes"), t("recap.no")
            was, will = (yes, no) if s.under_care else (no, yes)
            return t("rulings.care_now", before=was, after=will)
        if self.which in ("add_permanent", "remove_permanent"):
            kinds = ", ".join(kind_label(k, self.lang) for k in s.permanent) or t("recap.none")
            return t("rulings.permanent_now", kinds=kinds)
        if self.which == "forget_sighting":
            seen = ", ".join(preset_label(k, self.lang) for k in sorted(s.first_sightings))
            return t("rulings.sightings_now", what=seen)
        return t("rulings.madness_now", madness=s.madness, pow=s.pow)

    def compose(self) -> ComposeResult:
        t = self.t
        with Vertical(id="dialog"):
            yield Static(Content(t("rulings.title", name=self.character.name)), id="title")
            yield Static(Content(t(f"rulings.menu.{self.which}")), id="what")
            yield Static(Content(self._now()), id="now")
            if self.which in CHOICE_QUESTIONS:
                yield Static(Content(t(CHOICE_QUESTIONS[self.which])), classes="label")
                choices = OptionList(*self._choices(), id="choices")
                choices.can_focus = False  # the keys go to the reason: up and down move this
                yield choices
            if self.which == "set_madness":
                yield Static(Content(t("rulings.value")), classes="label")
                yield InOrderInput(placeholder=t("rulings.value_placeholder"), id="value")
            yield Static(Content(t("rulings.reason")), classes="label")
            yield InOrderInput(placeholder=t("rulings.reason_placeholder"), id="reason")
            yield Static(id="error")
            yield Static(Content(t("rulings.hint")), id="hint")
        yield KeyBar(self.t)

    def on_mount(self) -> None:
        if self.which in CHOICE_QUESTIONS:
            self.query_one("#choices", OptionList).highlighted = 0
        first = "#value" if self.which == "set_madness" else "#reason"
        self.set_focus(self.query_one(first, InOrderInput))

    def action_move(self, step: int) -> None:
        if self.which in CHOICE_QUESTIONS:
            choices = self.query_one("#choices", OptionList)
            current = choices.highlighted or 0
            choices.highlighted = max(0, min(choices.option_count - 1, current + step))

    # --- ruling ------------------------------------------------------------------------------

    def _ask(self) -> r.Ask:
        s = self.character.sanity
        match self.which:
            case "end_episode" | "end_episode_keep":
                return r.EndEpisode(halve=self.which == "end_episode")
            case "set_madness":
                text = self.query_one("#value", InOrderInput).value
                return r.SetMadness(parse_whole(text, self.t("rulings.value"), high=r.MAX_MADNESS))
            case "under_care":
                return r.SetUnderCare(not s.under_care)
        option = self.query_one("#choices", OptionList).highlighted_option
        chosen = option.id if option is not None and option.id is not None else ""
        if self.which == "add_permanent":
            return r.AddPermanent(chosen)
        if self.which == "remove_permanent":
            return r.RemovePermanent(chosen)
        return r.ForgetSighting(chosen)

    @on(InOrderInput.Submitted)
    def _submitted(self) -> None:
        self.confirm()

    def confirm(self) -> None:
        if self.applied or not self.is_active:  # an enter and a submit of the same key
            return
        reason = self.query_one("#reason", InOrderInput)
        try:
            self.apply(self._ask(), reason.value)
        except ERRORS as error:
            self.query_one("#error", Static).update(Content(error_text(error, self.t, self.lang)))
            if getattr(error, "code", None) == "ruling.reason":
                self.set_focus(reason)
            return
        self.applied = True
        self.close(True)

    def cancel(self) -> None:
        self.close(None)
