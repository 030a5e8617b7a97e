"""The MERP special-item tables for one character: browse, roll, keep or discard.

Browse: the rows of one table (``[`` and ``]`` move between tables, ``/`` searches). On Table 1
or 2, ``r`` rolls, digits and ``enter`` take the player's d100, and ``enter`` on a row picks it.
The budget is checked first; a refusal is shown and the GM may override it (journaled as such).
Then the result tree grows one answer at a time: ``r`` or a typed die for the die awaited, ``a``
for every die left, ``1``–``9`` for a choice. Once resolved the roll is journaled; ``enter``
keeps the item, ``esc`` discards it (the journal keeps the roll, marked discarded). ``esc`` half
way leaves the roll, journaled with its dice; the next opening offers to resume it (item_abandon).
The rules (cost, limits, what is journaled) are the campaign layer's, reached through
:class:`~gmscreen.tui.item_roll.ItemRoll`; what the screen draws is :mod:`..widgets.item_tree`.

Keys typed ahead keep their order (see :mod:`gmscreen.tui.typeahead`): every key of this screen
runs as it reaches the screen (``run_binding_now``), the rows' enter too (see ``ItemRows``), and
none is a priority binding, so none can overtake the others. What a key opens (the inventory,
the question about a refused or abandoned roll) opens at once, and the keys typed after it,
which reach this screen after that, go on to it (``pass_on``) in the order typed. The search
line never takes the focus: the screen puts the letters in it. So "/rune", "97 enter 3 enter"
or "97 enter y 3 enter" (a refused roll overridden, then its next die) typed at once do what
they say.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import DataTable, Static

from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.live import LiveCampaign
from gmscreen.rules import merp
from gmscreen.rules.dice import DiceError
from gmscreen.rules.merp import RollRefused
from gmscreen.rules.numbers import whole_or_none
from gmscreen.rules.tables import PendingChoice, PendingDie
from gmscreen.rules.tables_model import Lang, TableSet
from gmscreen.tui.commands import bindings
from gmscreen.tui.format import error_text
from gmscreen.tui.i18n import Translate
from gmscreen.tui.item_legend import legend
from gmscreen.tui.item_roll import ItemRoll, refusal
from gmscreen.tui.screens.dialogs import ConfirmScreen
from gmscreen.tui.screens.inventory import InventoryScreen
from gmscreen.tui.screens.item_abandon import Leave, leave_question, resume_question
from gmscreen.tui.typeahead import (
    dismiss_once,
    open_screen,
    pass_on,
    run_binding_now,
)
from gmscreen.tui.widgets.item_rows import ItemRows, RowSearch
from gmscreen.tui.widgets.item_tree import (
    budget_content,
    matching_rows,
    prompt_text,
    table_label,
    table_tabs,
    tree_content,
)
from gmscreen.tui.widgets.key_bar import KeyBar
from gmscreen.tui.widgets.typed_line import TypedLine

MAX_TYPED = 3
ERRORS = (CampaignError, DiceError, ValueError)
BROWSE_KEYS = ("items_confirm", "items_back", "items_roll", "items_prev", "items_next")
PALETTE = (
    "items_roll",
    "items_roll_rest",
    "items_prev",
    "items_next",
    "items_search",
    "items_inventory",
)


class ItemTableScreen(RowSearch):
    DEFAULT_CSS = """
    ItemTableScreen #title { dock: top; height: 1; background: $primary; padding: 0 1; }
    ItemTableScreen #budget { height: auto; padding: 0 1; border: round $secondary; }
    ItemTableScreen #tabs { height: 1; padding: 0 1; }
    ItemTableScreen #search { display: none; }
    ItemTableScreen #search.shown { display: block; }
    ItemTableScreen #rows { height: 1fr; }
    ItemTableScreen #legend { height: auto; padding: 0 1; color: $text-muted; }
    ItemTableScreen #legend.empty, ItemTableScreen.rolling #legend { display: none; }
    ItemTableScreen #result { height: 1fr; border: round $accent; padding: 0 1; display: none; }
    ItemTableScreen.rolling #rows { display: none; }
    ItemTableScreen.rolling #result { display: block; }
    ItemTableScreen #prompt { height: auto; padding: 0 1; color: $accent; text-style: bold; }
    ItemTableScreen #typed { height: auto; padding: 0 1; }
    ItemTableScreen #error { height: auto; padding: 0 1; color: $error; text-style: bold; }
    """

    PALETTE_COMMANDS = PALETTE
    BINDINGS = bindings("items", (*BROWSE_KEYS, *PALETTE))
    AUTO_FOCUS = "#rows"

    def __init__(
        self,
        live: LiveCampaign,
        tables: TableSet,
        character_id: str,
        t: Translate,
        lang: Lang,
        rng: random.Random,
        pending: ItemRoll | None = None,
    ) -> None:
        super().__init__()
        self.live = live
        self.tables = tables
        self.character_id = character_id
        self.t = t
        self.lang = lang
        self.rng = rng
        self.browsable = [tb.id for tb in tables.main()]
        self.current = self._cheapest()
        self.roll: ItemRoll | None = pending
        if pending is not None:
            self.current = pending.table_id
        self.typed = ""
        self.query_text = ""
        self.searching = False  # the search line takes the letters typed

    def _cheapest(self) -> str:
        profile = self.live.character(self.character_id).merp
        if profile is None:
            return merp.TABLE_1
        costs = merp.COSTS.get(profile.category)  # type: ignore[call-overload]
        if not costs:
            return merp.TABLE_1
        return str(min(merp.TOP_TABLES, key=lambda tid: costs[tid].points))

    # --- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="budget")
        yield Static(id="tabs")
        yield TypedLine(self.t("items.search_hint"), id="search")
        yield ItemRows(id="rows", cursor_type="row", zebra_stripes=True)
        yield Static(id="legend")  # what the markers mean (tui/item_legend.py)
        with VerticalScroll(id="result"):
            yield Static(id="tree")
        yield Static(id="prompt")
        yield Static(id="typed")
        yield Static(id="error")
        yield KeyBar(self.t)

    def on_mount(self) -> None:
        rows = self.query_one("#rows", DataTable)
        rows.add_column(self.t("items.col_range"), width=7, key="range")
        rows.add_column(self.t("items.col_markers"), width=8, key="markers")
        rows.add_column(self.t("items.col_text"), width=96, key="text")
        self.fill_rows()
        self.refresh_view()
        if self.roll is not None:
            self.notify(self.t("items.pending_found", title=self.roll.title()))

    @property
    def profile_name(self) -> str:
        return self.live.character(self.character_id).name

    def fill_rows(self) -> None:
        rows = self.query_one("#rows", DataTable)
        rows.clear()
        text = legend((row.markers for row in self.tables[self.current].rows), self.t)
        shown = self.query_one("#legend", Static)
        shown.update(Content(text))
        shown.set_class(not text, "empty")
        for row in matching_rows(self.tables[self.current].rows, self.query_text, self.lang):
            rows.add_row(
                Text(row.range_text),
                Text(" ".join(row.markers)),
                Text(row.short(self.lang)),
                key=str(row.index),
                height=None,
            )

    def refresh_view(self) -> None:
        t = self.t
        character = self.live.character(self.character_id)
        title = t("items.title", name=character.name)
        self.query_one("#title", Static).update(Content(title))
        budget = self.query_one("#budget", Static)
        if character.merp is not None:
            budget.update(budget_content(character.merp, self.tables, t, self.lang))
        tabs = table_tabs(self.tables, self.browsable, self.current, t, self.lang)
        self.query_one("#tabs", Static).update(tabs)
        roll = self.roll
        self.set_class(roll is not None, "rolling")
        if roll is not None:
            res = roll.resolution
            self.query_one("#tree", Static).update(
                tree_content(res.tree, self.tables, t, self.lang, res.pending)
            )
            self.query_one("#result", VerticalScroll).scroll_end(animate=False)
        prompt = prompt_text(roll, self.current in merp.TOP_TABLES, t, self.lang)
        self.query_one("#prompt", Static).update(Content(prompt))
        typed = t("items.typed", value=self.typed) if self.typed else ""
        self.query_one("#typed", Static).update(Content(typed))
        self.refresh_bindings()

    def focus_result(self) -> None:
        self.query_one("#result", VerticalScroll).focus()

    def focus_rows(self) -> None:
        self.query_one("#rows", DataTable).focus()

    def _error(self, message: str) -> None:
        self.query_one("#error", Static).update(Content(message))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        roll = self.roll
        if self.searching:  # the letters go into the search: enter and esc stay keys
            return action in ("confirm", "back", "search")  # (search: shown, as it was)
        if action in ("roll",):
            if roll is None:
                return self.current in merp.TOP_TABLES
            return isinstance(roll.resolution.pending, PendingDie)
        if action == "roll_rest":
            return roll is not None and isinstance(roll.resolution.pending, PendingDie)
        if action in ("prev_table", "next_table", "search", "inventory"):
            return roll is None
        if action == "confirm":  # a choice is made with its number, not with enter
            return roll is None or not isinstance(roll.resolution.pending, PendingChoice)
        return True

    # --- browsing ----------------------------------------------------------------------------

    def _move(self, step: int) -> None:
        if self.roll is not None:
            return
        n = self.browsable.index(self.current)
        self.current = self.browsable[(n + step) % len(self.browsable)]
        self.typed = ""
        self._error("")
        self.fill_rows()
        self.refresh_view()

    def action_prev_table(self) -> None:
        self._move(-1)

    def action_next_table(self) -> None:
        self._move(1)

    def action_search(self) -> None:
        if self.roll is None:
            self._open_search()

    async def action_inventory(self) -> None:
        if self.roll is None:
            screen = InventoryScreen(self.live, self.tables, self.character_id, self.t, self.lang)
            await open_screen(self, screen)

    # --- keys ---------------------------------------------------------------------------------

    async def on_key(self, event: events.Key) -> None:
        if pass_on(self, event) or (self.searching and self._search_typed(event)):
            return
        if await run_binding_now(self, event):
            return
        if event.character is None or self.searching:
            if event.key == "backspace" and self.typed:
                self.typed = self.typed[:-1]
                self.refresh_view()
                event.stop()
            return
        digit = whole_or_none(event.character, max_digits=1)
        if digit is None:  # "²" is no digit here
            return
        pending = self.roll.resolution.pending if self.roll is not None else None
        if self.roll is not None and isinstance(pending, PendingChoice):
            event.stop()
            index = digit - 1
            if 0 <= index < len(pending.options):
                self._answer(lambda roll: roll.choose(index))
            return
        if self.roll is None and self.current not in merp.TOP_TABLES:
            return
        if self.roll is not None and not isinstance(pending, PendingDie):
            return
        event.stop()
        if len(self.typed) < MAX_TYPED:
            self.typed += event.character
        self._error("")
        self.refresh_view()

    @on(DataTable.RowSelected, "#rows")
    async def _row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()  # a click on a row (enter is the screen's: see ItemRows)
        if self.typed:
            await self.action_confirm()
            return
        if event.row_key.value is not None:
            await self._pick_row(int(event.row_key.value))

    async def _pick_row(self, index: int) -> None:
        if self.current not in merp.TOP_TABLES:
            self._error(self.t("items.sub_table", table=self._label(self.current)))
            return
        await self._start(lambda roll: roll.pick_row(index))

    def _label(self, table_id: str) -> str:
        return table_label(self.tables, table_id, self.lang)

    async def action_roll(self) -> None:
        if self.roll is None:
            if self.current not in merp.TOP_TABLES:
                self._error(self.t("items.sub_table", table=self._label(self.current)))
                return
            await self._start(lambda roll: roll.roll(self.rng))
        elif isinstance(self.roll.resolution.pending, PendingDie):
            self._answer(lambda roll: roll.roll(self.rng))

    def action_roll_rest(self) -> None:
        if self.roll is not None and isinstance(self.roll.resolution.pending, PendingDie):
            self._answer(lambda roll: roll.roll_rest(self.rng))

    async def action_confirm(self) -> None:
        roll = self.roll
        if self.searching:  # enter leaves the search, its filter kept
            self._searching(False)
            return
        if self.typed:
            typed = self.typed
            if roll is None:
                await self._start(lambda r: r.typed(typed))
            elif isinstance(roll.resolution.pending, PendingDie):
                self._answer(lambda r: r.typed(typed))
            return
        if roll is None:
            rows = self.query_one("#rows", DataTable)
            if rows.row_count:
                key = rows.ordered_rows[rows.cursor_row].key.value
                if key is not None:
                    await self._pick_row(int(key))
            return
        if roll.done and roll.settled is None:
            self._settle(keep=True)
        elif isinstance(roll.resolution.pending, PendingDie):
            self._error(self.t("items.type_first"))

    async def action_back(self) -> None:
        if self._close_search():
            return
        if self.typed:
            self.typed = ""
            self._error("")
            self.refresh_view()
            return
        roll = self.roll
        if roll is None:
            dismiss_once(self, None)
        elif roll.done:
            self._settle(keep=False)
        else:
            await self._abandon()

    # --- a roll's steps: started, answered, kept or discarded, left, resumed ---------------------

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
        await open_screen(self, question, answered)

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

        await open_screen(self, leave_question(roll, self._label(roll.table_id), self.t), answered)

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
        await open_screen(self, question, answered)

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
