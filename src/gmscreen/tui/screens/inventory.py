"""A character's special items: every rolled detail, notes on an item, a name the GM gives it,
and removal (asks first).

Notes and names are the GM's own words and are shown exactly as typed (never read as markup).
"""

from __future__ import annotations

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.item_names import item_name
from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.model import Item
from gmscreen.i18n import plural
from gmscreen.rules.merp import table_name
from gmscreen.rules.tables_model import Lang, TableSet
from gmscreen.text import inert, inert_line
from gmscreen.tui.commands import bindings
from gmscreen.tui.format import error_text
from gmscreen.tui.i18n import Translate
from gmscreen.tui.screens.dialogs import ConfirmScreen, TextPrompt
from gmscreen.tui.typeahead import dismiss_once, open_screen, opener, run_binding_now
from gmscreen.tui.widgets.item_tree import budget_content, sources, stored_tree, tree_content
from gmscreen.tui.widgets.key_bar import KeyBar

KEYS = ("inventory_note", "inventory_rename", "inventory_remove", "items_back")


class InventoryScreen(Screen[None]):
    DEFAULT_CSS = """
    InventoryScreen #title { dock: top; height: 1; background: $primary; padding: 0 1; }
    InventoryScreen #budget { height: auto; padding: 0 1; border: round $secondary; }
    InventoryScreen #items { width: 40; height: 1fr; border: round $primary; }
    InventoryScreen #detail { width: 1fr; border: round $accent; padding: 0 1; }
    InventoryScreen #notes { margin-top: 1; }
    InventoryScreen #dice { margin-top: 1; color: $text-muted; }
    InventoryScreen #empty { padding: 1 2; color: $text-muted; }
    """

    PALETTE_COMMANDS = ("inventory_note", "inventory_rename", "inventory_remove")
    # n, e and delete open a dialog (@opener): priority bindings, see gmscreen.tui.typeahead
    BINDINGS = bindings("items", KEYS)

    def __init__(
        self,
        live: LiveCampaign,
        tables: TableSet,
        character_id: str,
        t: Translate,
        lang: Lang,
    ) -> None:
        super().__init__()
        self.live = live
        self.tables = tables
        self.character_id = character_id
        self.t = t
        self.lang = lang

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="budget")
        with Horizontal():
            yield OptionList(id="items")
            with VerticalScroll(id="detail"):
                yield Static(id="tree")
                yield Static(id="notes")
                yield Static(id="dice")
        yield KeyBar(self.t)

    async def on_key(self, event: events.Key) -> None:
        await run_binding_now(self, event)  # in the order typed: see gmscreen.tui.typeahead

    def on_mount(self) -> None:
        self.refresh_view()
        self.query_one("#items", OptionList).focus()

    def _title(self, item: Item) -> str:
        return inert_line(item_name(item, self.lang))

    @property
    def items(self) -> tuple[Item, ...]:
        return self.live.character(self.character_id).inventory

    def refresh_view(self, keep: int | None = None) -> None:
        t = self.t
        character = self.live.character(self.character_id)
        self.query_one("#title", Static).update(
            Content(
                t(
                    "inventory.title",
                    name=character.name,
                    items=plural(t, "items", len(character.inventory)),
                )
            )
        )
        if character.merp is not None:
            self.query_one("#budget", Static).update(
                budget_content(character.merp, self.tables, t, self.lang)
            )
        lang = self.lang
        items = self.query_one("#items", OptionList)
        highlighted = items.highlighted if keep is None else keep
        items.clear_options()
        items.add_options(
            [
                # under the name, the table it came from as the GM reads it (never its id)
                Option(
                    Content.assemble((self._title(i), "bold"), "\n", (_source(i, lang), "dim")),
                    id=i.id,
                )
                for i in character.inventory
            ]
        )
        if character.inventory:
            items.highlighted = min(highlighted or 0, len(character.inventory) - 1)
        self._show_item()
        self.refresh_bindings()

    def _selected(self) -> Item | None:
        index = self.query_one("#items", OptionList).highlighted
        items = self.items
        if index is None or not 0 <= index < len(items):
            return None
        return items[index]

    @on(OptionList.OptionHighlighted, "#items")
    def _show_item(self) -> None:
        item = self._selected()
        tree = self.query_one("#tree", Static)
        notes = self.query_one("#notes", Static)
        dice = self.query_one("#dice", Static)
        if item is None:
            tree.update(Content(self.t("inventory.empty")))
            notes.update("")
            dice.update("")
            return
        node = stored_tree(item.tree)
        if node is None:
            tree.update(Content(self._title(item)))
        elif item.name:  # the GM's name over what the dice gave
            named = Content.styled(inert_line(item.name), "bold $accent")
            body = tree_content(node, self.tables, self.t, self.lang)
            tree.update(Content.assemble(named, "\n", body))
        else:
            tree.update(tree_content(node, self.tables, self.t, self.lang))
        label = Content.styled(self.t("inventory.notes"), "bold")
        body = (
            Content(inert(item.notes))
            if item.notes
            else Content.styled(self.t("inventory.no_notes"), "dim")
        )
        notes.update(Content.assemble(label, (" ", "dim"), body))
        dice.update(
            Content.assemble(self.t("inventory.dice"), (" ", "dim"), sources(item.tree, self.t))
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("note", "rename", "remove"):
            return self._selected() is not None
        return True

    @opener
    async def action_note(self) -> None:
        item = self._selected()
        if item is None:
            return

        def noted(text: str) -> None:
            try:
                self.live.item_note(self.character_id, item.id, text)
            except CampaignError as error:
                self.notify(error_text(error, self.t, self.lang), severity="error")
            self.refresh_view()

        prompt = TextPrompt(
            self.t("inventory.note_title", title=self._title(item)),
            self.t("inventory.note_hint"),
            inert_line(item.notes),  # an Input draws its value raw
            self.t,
        )
        await prompt.open(self, noted)

    @opener
    async def action_rename(self) -> None:
        item = self._selected()
        if item is None:
            return

        def named(text: str) -> None:
            try:
                self.live.item_renamed(self.character_id, item.id, text)
            except CampaignError as error:
                self.notify(error_text(error, self.t, self.lang), severity="error")
            self.refresh_view()

        prompt = TextPrompt(
            self.t("item_abandon.rename_title", title=self._title(item)),
            self.t("item_abandon.rename_hint"),
            inert_line(item.name),  # an Input draws its value raw
            self.t,
        )
        await prompt.open(self, named)

    @opener
    async def action_remove(self) -> None:
        item = self._selected()
        if item is None:
            return
        name = self.live.character(self.character_id).name

        def remove(sure: bool | None) -> None:
            if not sure:
                return
            index = self.query_one("#items", OptionList).highlighted
            try:
                self.live.item_removed(self.character_id, item.id)
            except CampaignError as error:
                self.notify(error_text(error, self.t, self.lang), severity="error")
            self.refresh_view(keep=index)

        question = self.t("inventory.remove_question", title=self._title(item), name=name)
        dialog = ConfirmScreen(self.t("inventory.remove_title"), question, self.t)
        await open_screen(self, dialog, remove)

    def action_back(self) -> None:
        dismiss_once(self, None)


def _source(item: Item, lang: str) -> str:
    # a table id we do not know is shown as the file has it: inert
    return inert_line(table_name(item.table, lang))
