"""Every command of the screen, defined once.

A :class:`Command` gives the binding id (the name users remap in ``[keys]``), the default keys and
the action. The footer binding, the command palette entry and the help line are all derived from
it, with their words taken from the catalog (``command.<id>.name`` and ``command.<id>.help``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from typing import Literal

import msgspec
from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode

from gmscreen.tui.i18n import Translate

Scope = Literal["app", "main", "roster", "dialog", "items", "replay", "rulings", "notes"]


class Command(msgspec.Struct, frozen=True):
    """One command of the screen: its binding id, default keys, action and where it applies.

    ``footer`` and ``palette`` say whether it shows in the footer and in the command palette.
    """

    id: str
    keys: str  # Textual key names, comma separated: the defaults a [keys] table can replace
    action: str
    scope: Scope
    footer: bool = False
    palette: bool = True


COMMANDS: tuple[Command, ...] = (
    Command("select_down", "down,j", "cursor_down", "roster", palette=False),
    Command("select_up", "up,k", "cursor_up", "roster", palette=False),
    Command("mark", "space", "toggle_mark", "roster", footer=True, palette=False),
    Command("clear_marks", "escape", "clear_marks", "roster", palette=False),
    Command("gain", "g", "gain", "main", footer=True),
    Command("check", "m", "check", "main", footer=True),
    Command("check_all", "M", "check_all", "main"),
    Command("next_round", "full_stop", "next_round", "main", footer=True),
    Command("advance", "a", "advance", "main", footer=True),
    Command("end_day", "D", "end_day", "main"),
    Command("new_character", "c", "new_character", "main", footer=True),
    Command("edit_character", "e", "edit_character", "main"),
    Command("remove_character", "delete", "remove_character", "main"),
    Command("note", "n", "note", "main"),  # the GM's notes: screens/notes.py
    Command("notes", "N", "notes", "main"),
    Command("undo", "u", "undo", "main", footer=True),
    Command("redo", "U", "redo", "main"),
    Command("log_filter", "f", "log_filter", "main"),
    Command("log_search", "slash", "log_search", "main"),
    Command("player_view", "p", "player_view", "main", footer=True),
    Command("item_tables", "t", "item_tables", "main"),
    Command("inventory", "i", "inventory", "main"),
    Command("replay", "R", "replay", "main"),
    Command("language", "L", "switch_language", "main"),
    Command("settings", "S", "settings", "main"),
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
    Command("inventory_note", "n", "note", "items", footer=True),
    Command("inventory_remove", "delete", "remove", "items", footer=True),
    Command("inventory_rename", "e", "rename", "items", footer=True),
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
    Command("rulings", "x", "rulings", "main"),
    Command("ruling_end_episode", "e", "ruling('end_episode')", "rulings"),
    Command("ruling_end_episode_keep", "E", "ruling('end_episode_keep')", "rulings"),
    Command("ruling_add_permanent", "a", "ruling('add_permanent')", "rulings"),
    Command("ruling_remove_permanent", "r", "ruling('remove_permanent')", "rulings"),
    Command("ruling_forget_sighting", "f", "ruling('forget_sighting')", "rulings"),
    Command("ruling_set_madness", "s", "ruling('set_madness')", "rulings"),
    Command("ruling_under_care", "c", "ruling('under_care')", "rulings"),
    # in the notes (screens/notes.py)
    Command("notes_new", "n", "new", "notes", footer=True, palette=False),
    Command("notes_edit", "e,enter", "edit", "notes", footer=True, palette=False),
    Command("notes_remove", "delete", "remove", "notes", footer=True, palette=False),
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


def bindings(scope: Scope, t: Translate, only: Iterable[str] | None = None) -> list[Binding]:
    """The Textual bindings of one scope (or only some ids), with ids that a keymap remaps."""
    wanted = None if only is None else set(only)
    return [
        Binding(
            command.keys,
            command.action,
            t(f"command.{command.id}.name"),
            show=command.footer,
            id=command.id,
            tooltip=t(f"command.{command.id}.help"),
        )
        for command in COMMANDS
        if command.scope == scope and (wanted is None or command.id in wanted)
    ]


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


def add_bindings(node: DOMNode, extra: Iterable[Binding]) -> None:
    """Give one screen or widget instance more bindings.

    Bindings are usually a class attribute, but ours carry catalog words, which belong to the
    app's catalog (its language), so each instance gets its own map. Textual has no public way
    to give one instance its own bindings: ``DOMNode._bindings`` is the one private name we use
    for it (harlequin and posting do the same), on the scanned allowlist.
    """
    node._bindings = BindingsMap([*(binding for _, binding in node._bindings), *extra])


def set_shown(node: DOMNode, shown: Callable[[Binding], bool]) -> None:
    """The same bindings with ``show`` (in the key bar) as ``shown`` says: after the GM changed
    the campaign's modules (see :func:`add_bindings` for the one private name)."""
    node._bindings = BindingsMap(
        [replace(binding, show=shown(binding)) for _, binding in node._bindings]
    )


def relabel_bindings(node: DOMNode, t: Translate) -> None:
    """The same bindings (keys, ids, actions) with the catalog's words: after a change of
    language, and once at start for the palette binding Textual adds in English."""
    known = {command.id for command in COMMANDS}
    node._bindings = BindingsMap(
        [
            replace(
                binding,
                description=t(f"command.{binding.id}.name"),
                tooltip=t(f"command.{binding.id}.help"),
            )
            if binding.id in known
            else replace(binding, description=t("help.palette_key"), tooltip=t("help.palette_help"))
            if binding.action == "command_palette"  # Textual's own binding, named in our words
            else binding
            for _, binding in node._bindings
        ]
    )
