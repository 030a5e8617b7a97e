"""The question when the GM leaves an item roll half way (``esc`` with dice already rolled).

``y`` or ``enter`` leaves it as the rules say: journaled with its dice, paid and counted against
the table's limit, to be resumed later. ``f`` leaves it without counting it: the GM's word,
journaled as such (campaign/item_actions.py). ``n`` or ``esc`` goes on with the roll.
"""

from __future__ import annotations

from typing import Literal

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from gmscreen.campaign.wording import roll_text
from gmscreen.i18n import plural
from gmscreen.tui.commands import YES_NO, bindings
from gmscreen.tui.i18n import Translate
from gmscreen.tui.item_roll import ItemRoll
from gmscreen.tui.screens.dialogs import DIALOG_CSS, ConfirmScreen
from gmscreen.tui.typeahead import InOrderDialog, close_in_order
from gmscreen.tui.widgets.key_bar import KeyBar

Leave = Literal["counted", "free"]


class AbandonScreen(InOrderDialog[Leave]):
    """Leave the roll (counted), leave it uncounted, or go on: None."""

    DEFAULT_CSS = DIALOG_CSS.format(name="AbandonScreen")
    BINDINGS = bindings("dialog", (*YES_NO, "dialog_free"), priority=True)
    # enter leaves the roll and esc goes on with it: the key bar says so, not "Go on"/"Cancel"
    KEY_WORDS = {"confirm": "item_abandon.key_leave", "cancel": "item_abandon.key_go_on"}

    def __init__(self, question: str, t: Translate, free: bool = True) -> None:
        """``free``: the GM may leave it uncounted (not for a roll paid when first left)."""
        super().__init__()
        self.free = free
        self.question = question
        self.t = t

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Content(self.t("items.abandon_title")), id="title")
            yield Static(Content(self.question), id="question")
            hint = "item_abandon.hint" if self.free else "item_abandon.hint_paid"
            yield Static(Content(self.t(hint)), id="hint")
        yield KeyBar(self.t)

    def confirm(self) -> None:
        self.close("counted")

    def cancel(self) -> None:
        self.close(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.free or action != "free"  # f is no key here for a roll already paid

    async def action_free(self) -> None:
        await close_in_order(self, lambda: self.close("free"))


def dice_so_far(roll: ItemRoll, t: Translate) -> str:
    """``1d100: 64 (typed), 1d10: 7``: the dice a roll has had (its choices are no dice)."""
    rolls = [a for a in roll.resolution.inputs if not isinstance(a, int)]
    return ", ".join(roll_text(r, t) for r in rolls)


def leave_question(roll: ItemRoll, table: str, t: Translate) -> AbandonScreen:
    """What esc half way asks: what leaving costs (nothing more for a roll paid when first left)."""
    values = {"table": table, "dice": dice_so_far(roll, t)}
    if roll.paid:
        return AbandonScreen(t("item_abandon.question_paid", **values), t, free=False)
    return AbandonScreen(
        t(
            "items.abandon_question",
            cost=roll.cost(),
            points=plural(t, "points", roll.cost()),
            **values,
        ),
        t,
    )


def resume_question(roll: ItemRoll, table: str, waiting: int, t: Translate) -> ConfirmScreen:
    """The offer to go on with a roll left half way, its dice as they were."""
    question = t("item_abandon.resume_question", table=table, dice=dice_so_far(roll, t), n=waiting)
    return ConfirmScreen(t("item_abandon.resume_title"), question, t)
