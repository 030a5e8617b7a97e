"""Ask for a character's MERP profile (spell-user category, race, background points) before
items, or change it (``e``: the form opens with the profile as it stands).

Returns the profile as the campaign's plain field value (``edit_character(merp=...)``); a change
keeps the points spent and the rolls made, which only the journaled rolls change.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from gmscreen.campaign.model import SPELL_USER_CATEGORIES, MerpProfile
from gmscreen.rules.numbers import whole_or_none
from gmscreen.rules.tables_model import Lang
from gmscreen.tui.commands import NO_ROLL, bindings
from gmscreen.tui.i18n import Translate
from gmscreen.tui.screens.dialogs import DIALOG_CSS
from gmscreen.tui.typeahead import dismiss_once
from gmscreen.tui.widgets.item_tree import category_label
from gmscreen.tui.widgets.key_bar import KeyBar
from gmscreen.tui.widgets.text_input import TextInput

MAX_POINTS = 99


class MerpProfileForm(ModalScreen[dict[str, Any] | None]):
    DEFAULT_CSS = (
        DIALOG_CSS.format(name="MerpProfileForm")
        + """
    MerpProfileForm #categories { height: auto; max-height: 8; margin-bottom: 1; }
    MerpProfileForm .label { color: $text-muted; }
    MerpProfileForm #fields { height: auto; }
    MerpProfileForm #fields > Vertical { height: auto; }
    MerpProfileForm #race-field { width: 1fr; margin-right: 2; }
    MerpProfileForm #points-field { width: 28; }
    """
    )
    BINDINGS = bindings("dialog", NO_ROLL)

    def __init__(
        self, name: str, t: Translate, lang: Lang, profile: MerpProfile | None = None
    ) -> None:
        super().__init__()
        self.profile = profile  # the profile to change, or None for a new one
        self.character_name = name
        self.t = t
        self.lang = lang

    def compose(self) -> ComposeResult:
        t = self.t
        with Vertical(id="dialog"):
            yield Static(Content(t("profile.title", name=self.character_name)), id="title")
            yield Static(Content(t("profile.category")), classes="label")
            yield OptionList(
                *[
                    Option(Content(category_label(c, self.lang)), id=c)
                    for c in SPELL_USER_CATEGORIES
                ],
                id="categories",
            )
            profile = self.profile
            # Bordered inputs side by side: a blurred compact input looked like a label, so
            # the race field that enter moves to was not seen to have the focus
            with Horizontal(id="fields"):
                with Vertical(id="race-field"):
                    yield Static(Content(t("profile.race")), classes="label")
                    yield TextInput(profile.race if profile else "", id="race")
                with Vertical(id="points-field"):
                    yield Static(Content(t("profile.points")), classes="label")
                    points = str(profile.points_total) if profile else ""
                    yield TextInput(points, id="points")
            yield Static(id="error")
            yield Static(Content(t("profile.hint")), id="hint")
        yield KeyBar(self.t)

    def on_mount(self) -> None:
        options = self.query_one("#categories", OptionList)
        known = list(SPELL_USER_CATEGORIES)
        category = self.profile.category if self.profile else None
        options.highlighted = known.index(category) if category in known else 0
        options.focus()

    @on(OptionList.OptionSelected, "#categories")
    def _category_chosen(self) -> None:
        self.query_one("#race", TextInput).focus()

    def _points(self) -> int | None:
        points = whole_or_none(self.query_one("#points", TextInput).value)
        return None if points is None or points > MAX_POINTS else points

    @on(TextInput.Changed, "#points")
    def _recheck(self) -> None:
        """The points say what is wrong as typed, and the message goes once they are right."""
        wrong = self._points() is None and bool(self.query_one("#points", TextInput).value)
        message = self.t("profile.error_points", high=MAX_POINTS) if wrong else ""
        self.query_one("#error", Static).update(Content(message))

    @on(TextInput.Submitted)
    def action_confirm(self) -> None:
        points = self._points()
        if points is None:
            self.query_one("#error", Static).update(
                Content(self.t("profile.error_points", high=MAX_POINTS))
            )
            self.query_one("#points", TextInput).focus()
            return
        index = self.query_one("#categories", OptionList).highlighted or 0
        profile = self.profile
        dismiss_once(
            self,
            {
                "category": SPELL_USER_CATEGORIES[index],
                "race": self.query_one("#race", TextInput).value.strip(),
                "points_total": points,
                "points_spent": profile.points_spent if profile else 0,
                "rolls": dict(profile.rolls) if profile else {},
            },
        )

    def action_cancel(self) -> None:
        dismiss_once(self, None)
