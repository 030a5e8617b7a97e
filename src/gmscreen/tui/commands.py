"""Every command of the screens, defined once, as data.

A :class:`Command` gives the binding id (the name users remap in ``[keys]``, applied by Textual's
own keymap: ``App.set_keymap``), the default keys, the action and the scope it belongs to. Each
screen's ``BINDINGS`` are made from these records (:func:`bindings`); the key bar, the command
palette and the help screen read the same records, with their words taken from the catalog by
id (``command.<id>.name`` and ``command.<id>.help``) as they draw, so a change of language needs
no new bindings.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Literal

import msgspec
from textual.binding import Binding, BindingType

from gmscreen.tui.i18n import Translate

Scope = Literal["app", "main", "roster", "dialog", "items", "replay", "rulings", "notes"]


class Command(msgspec.Struct, frozen=True):
    """One command of the screen: its binding id, default keys, action and where it applies.

    ``footer`` and ``palette`` say whether it shows in the key bar and in the command palette;
    ``opens``, that its key opens a screen: a priority binding, so that the keys typed after it
    go to that screen (its action is an ``@opener``: see :mod:`gmscreen.tui.typeahead`).
    """

    id: str
    keys: str  # Textual key names, comma separated: the defaults a [keys] table can replace
    action: str
    scope: Scope
    footer: bool = False
    palette: bool = True
    opens: bool = False


COMMANDS: tuple[Command, ...] = (
    Command("select_down", "down,j", "cursor_down", "roster", palette=False),
    Command("select_up", "up,k", "cursor_up", "roster", palette=False),
    Command("mark", "space", "toggle_mark", "roster", footer=True, palette=False),
    Command("clear_marks", "escape", "clear_marks", "roster", palette=False),
    Command("gain", "g", "gain", "main", footer=True, opens=True),
    Command("check", "m", "check", "main", footer=True, opens=True),
    Command("check_all", "M", "check_all", "main", opens=True),
    Command("next_round", "full_stop", "next_round", "main", footer=True),
    Command("advance", "a", "advance", "main", footer=True, opens=True),
    Command("end_day", "D", "end_day", "main"),
    Command("new_character", "c", "new_character", "main", footer=True, opens=True),
    Command("edit_character", "e", "edit_character", "main", footer=True, opens=True),
    Command("remove_character", "delete", "remove_character", "main", opens=True),
    Command("note", "n", "note", "main", opens=True),  # the GM's notes: screens/notes.py
    Command("notes", "N", "notes", "main", opens=True),
    Command("undo", "u", "undo", "main", footer=True, opens=True),
    Command("redo", "U", "redo", "main"),
    Command("log_filter", "f", "log_filter", "main"),
    Command("log_search", "slash", "log_search", "main", opens=True),
    Command("player_view", "p", "player_view", "main", footer=True, opens=True),
    Command("item_tables", "t", "item_tables", "main", footer=True, opens=True),
    Command("inventory", "i", "inventory", "main", footer=True, opens=True),
    Command("replay", "R", "replay", "main", opens=True),
    Command("language", "L", "switch_language", "main"),
    Command("settings", "S", "settings", "main", opens=True),
    Command("help", "question_mark,f1", "help", "app", footer=True),
    Command("dialog_roll", "r", "roll", "dialog", footer=True, palette=False),
    Command("dialog_confirm", "enter", "confirm", "dialog", footer=True, palette=False),
    Command("dialog_cancel", "escape", "cancel", "dialog", footer=True, palette=False),
    # a yes/no question (s: sí), and a list inside a dialog (the gain presets)
    Command("dialog_yes", "y,s", "confirm", "dialog", palette=False),
    Command("dialog_no", "n", "cancel", "dialog", palette=False),
    Command("dialog_free", "f", "free", "dialog", footer=True, palette=False),  # item roll left
    Command("dialog_down", "down", "move(1)", "dialog", palette=False),
    Command("dialog_up", "up", "move(-1)", "dialog", palette=False),
    Command("quit", "q", "quit", "app", footer=True),
    # the item tables and the inventory (screens/item_tables.py, screens/inventory.py)
    Command("items_roll", "r", "roll", "items", footer=True),
    Command("items_roll_rest", "a", "roll_rest", "items", footer=True),
    Command("items_confirm", "enter", "confirm", "items", footer=True, palette=False),
    Command("items_back", "escape", "back", "items", footer=True, palette=False),
    Command("items_prev", "left_square_bracket", "prev_table", "items"),
    Command("items_next", "right_square_bracket", "next_table", "items", footer=True),
    Command("items_search", "slash", "search", "items", footer=True),
    Command("items_inventory", "i", "inventory", "items", footer=True),
    Command("inventory_note", "n", "note", "items", footer=True, opens=True),
    Command("inventory_remove", "delete", "remove", "items", footer=True, opens=True),
    Command("inventory_rename", "e", "rename", "items", footer=True, opens=True),
    # the replay screen and its session picker (screens/replay.py, screens/replay_picker.py)
    Command("replay_back", "left", "step_back", "replay", footer=True),
    Command("replay_forward", "right", "step_forward", "replay", footer=True),
    Command("replay_previous_check", "shift+left", "previous_check", "replay", footer=True),
    Command("replay_next_check", "shift+right", "next_check", "replay", footer=True),
    Command("replay_first", "home", "first", "replay"),
    Command("replay_last", "end", "last", "replay"),
    Command("replay_play", "space", "toggle_play", "replay", footer=True),
    Command("replay_faster", "plus,equals_sign", "faster", "replay"),
    Command("replay_slower", "minus", "slower", "replay"),
    Command("replay_export", "e", "export", "replay", footer=True),
    Command("replay_export_players", "E", "export_players", "replay"),
    Command("replay_close", "escape", "close", "replay", footer=True),
    # GM rulings: x opens the menu for the selected character, whose keys pick one; the palette
    # offers each over the GM's screen (screens/rulings.py, screens/main_rulings.py)
    Command("rulings", "x", "rulings", "main", opens=True),
    Command("ruling_end_episode", "e", "ruling('end_episode')", "rulings"),
    Command("ruling_end_episode_keep", "E", "ruling('end_episode_keep')", "rulings"),
    Command("ruling_add_permanent", "a", "ruling('add_permanent')", "rulings"),
    Command("ruling_remove_permanent", "r", "ruling('remove_permanent')", "rulings"),
    Command("ruling_forget_sighting", "f", "ruling('forget_sighting')", "rulings"),
    Command("ruling_set_madness", "s", "ruling('set_madness')", "rulings"),
    Command("ruling_under_care", "c", "ruling('under_care')", "rulings"),
    # in the notes (screens/notes.py)
    Command("notes_new", "n", "new", "notes", footer=True, palette=False, opens=True),
    Command("notes_edit", "e,enter", "edit", "notes", footer=True, palette=False, opens=True),
    Command("notes_remove", "delete", "remove", "notes", footer=True, palette=False, opens=True),
    Command("notes_close", "escape", "close", "notes", footer=True, palette=False),
)

PALETTE_KEY = "ctrl+p"
DIALOG_KEYS = ("dialog_roll", "dialog_confirm", "dialog_cancel")  # a dialog with dice
NO_ROLL = ("dialog_confirm", "dialog_cancel")  # dialogs with nothing to roll
YES_NO = (*NO_ROLL, "dialog_yes", "dialog_no")  # a yes/no question
LIST_MOVES = ("dialog_down", "dialog_up")  # a dialog with a list to choose from


def by_id(command_id: str) -> Command:
    for command in COMMANDS:
        if command.id == command_id:
            return command
    raise KeyError(command_id)


def bindings(
    scope: Scope, only: Iterable[str] | None = None, *, priority: bool = False
) -> list[BindingType]:
    """The Textual bindings of one scope (or only some ids), for a class's ``BINDINGS``: each
    with its command's id (what a keymap remaps and the key bar names) and, as its
    description, the id too (the key bar and help say it in the catalog's words). ``priority``
    makes them all priority bindings (a dialog's closing keys); an opener's is one anyway."""
    wanted = None if only is None else set(only)
    made: list[BindingType] = [
        Binding(
            command.keys,
            command.action,
            command.id,
            show=command.footer,
            priority=priority or command.opens,
            id=command.id,
        )
        for command in COMMANDS
        if command.scope == scope and (wanted is None or command.id in wanted)
    ]
    return made


KNOWN = frozenset(command.id for command in COMMANDS)


def binding_name(binding: Binding, t: Translate) -> str:
    """The words for ``binding`` in the key bar: its command's name in the catalog's language."""
    if binding.id in KNOWN:
        return t(f"command.{binding.id}.name")
    return binding.description


def effective_keys(command: Command, keymap: Mapping[str, str]) -> list[str]:
    return [k.strip() for k in keymap.get(command.id, command.keys).split(",") if k.strip()]


def palette_commands(scopes: Iterable[Scope]) -> Iterator[Command]:
    wanted = set(scopes)
    return (c for c in COMMANDS if c.palette and c.scope in wanted)


SYMBOLS = {
    "full_stop": ".",
    "question_mark": "?",
    "slash": "/",
    "down": "↓",
    "up": "↑",
    "left": "←",
    "right": "→",
    "shift+left": "⇧←",
    "shift+right": "⇧→",
    "plus": "+",
    "minus": "-",
    "equals_sign": "=",
    "left_square_bracket": "[",
    "right_square_bracket": "]",
}
NAMED = {"space", "escape", "enter", "delete", "backspace", "tab"}


def key_label(key: str, t: Translate) -> str:
    """How a key is shown to the GM: ``.``, ``?``, ``↓``, ``space``, ``ctrl+p``."""
    if key in SYMBOLS:
        return SYMBOLS[key]
    if key in NAMED:
        return t(f"key.{key}")
    return key
