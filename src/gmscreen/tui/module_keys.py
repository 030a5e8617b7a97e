"""Which keys the key bar offers, given the rule modules a campaign uses.

A key whose command only refuses without its module (Mark, Gain and Check without the madness
module) is not offered; the item keys (``t``, ``i``, and ``e`` that edits the profile) are offered where the items are what the
campaign is about (the MERP items on, madness off: with both on, the bar has no room for them,
and help and the palette list them). The keys still work as before: this only says what shows.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import replace

from textual.binding import Binding
from textual.dom import DOMNode

from gmscreen.tui.commands import COMMANDS, set_shown

MADNESS = "madness"
ITEMS = "merp-items"
MADNESS_KEYS = frozenset({"mark", "gain", "check", "check_all"})
ITEM_KEYS = frozenset({"item_tables", "inventory", "edit_character"})  # e: the MERP profile


def shown(binding_id: str | None, default: bool, modules: Collection[str]) -> bool:
    """Whether the key bar offers the command ``binding_id`` in a campaign using ``modules``."""
    if binding_id in MADNESS_KEYS and MADNESS not in modules:
        return False
    if binding_id in ITEM_KEYS:
        return ITEMS in modules and MADNESS not in modules
    return default


# What a character's item keys do; with no character yet they can only refuse, so none is offered.
CHARACTER_ACTIONS = frozenset({"item_tables", "inventory", "edit_character"})


def usable(action: str, has_characters: bool) -> bool:
    """Whether the GM's screen offers ``action`` now (its ``check_action``): not the keys that
    need a character while there is none (the screen says to press c)."""
    return has_characters or action not in CHARACTER_ACTIONS


def for_modules(bindings: Iterable[Binding], modules: Collection[str]) -> list[Binding]:
    """``bindings`` with ``show`` set for the campaign's modules (see :func:`shown`)."""
    return [replace(b, show=shown(b.id, b.show, modules)) for b in bindings]


def reshow(node: DOMNode, modules: Collection[str]) -> None:
    """The key bar of ``node`` (a screen or widget with our bindings) for ``modules``, after the
    GM changed them in the settings: the keys are the same, only what shows changes."""
    footer = {command.id: command.footer for command in COMMANDS}
    set_shown(node, lambda b: shown(b.id, footer[b.id], modules) if b.id in footer else b.show)
