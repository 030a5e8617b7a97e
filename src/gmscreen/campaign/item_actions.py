"""MERP item actions beyond the roll itself: a roll left half way, resumed, and items renamed.

A roll left half way (``esc`` after some dice) is journaled as :class:`~events.ItemAbandoned`
with the resolution so far: every die rolled stays rolled. It counts as a roll on its table
(paid, and against the table's limit: no free reroll of a d100 already seen) unless the GM says
otherwise, explicitly (``counted=False``, journaled on the event). It waits on the character
(``Character.abandoned``, kept in the checkpoint) until it is resumed and finished: the
:class:`~events.ItemRolled` that finishes it names it (``resumes``) and pays nothing more if the
abandoned roll was paid, or is priced as any roll if it was not. Left again half way, the same
roll is abandoned again with its new dice (``resumes`` on the ItemAbandoned), never paid twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gmscreen.campaign import events as ev
from gmscreen.campaign.actions import Draft, merp_character, new_item_id, paid_roll
from gmscreen.campaign.bounds import MAX_NAME
from gmscreen.campaign.errors import InvalidAction
from gmscreen.campaign.fields import encode_item, encode_merp
from gmscreen.campaign.model import Campaign, Character, Item, ItemNames

# The key an abandoned roll's tree keeps its "counted" in (the rest is the Resolution's to_dict)
COUNTED = "counted"


def waiting(character: Character, item_id: str) -> Item:
    """The roll ``item_id`` the character left half way."""
    for item in character.abandoned:
        if item.id == item_id:
            return item
    raise InvalidAction(f"{character.name} has no roll {item_id!r} left half way")


def was_counted(item: Item) -> bool:
    """The abandoned roll was paid and counted against its table's limit."""
    return item.tree.get(COUNTED) is not False


def item_abandoned(
    state: Campaign,
    character_id: str,
    table: str,
    title: str,
    tree: Mapping[str, Any],
    *,
    counted: bool = True,
    override: str | None = None,
    resumes: str | None = None,
    names: ItemNames | None = None,
) -> Draft:
    """The roll ``tree`` (a Resolution's ``to_dict``, not finished) left half way.

    ``counted``: paid and counted against the limit (``override`` as for a roll); False when the
    GM says so. ``resumes``: the abandoned roll this one went on with (paid once, never twice).
    """
    c = merp_character(state, character_id)
    assert c.merp is not None
    if tree.get("done") is True:
        raise InvalidAction("a finished roll is kept or discarded, not abandoned")
    if not tree.get("inputs"):
        raise InvalidAction("nothing is rolled yet: leaving costs nothing and is not journaled")
    before = waiting(c, resumes) if resumes is not None else None
    if before is not None and before.table != table:
        raise InvalidAction(f"roll {resumes!r} is on {before.table}, not {table}")
    paid_before = before is not None and was_counted(before)
    cost, changes = 0, {}
    if counted and not paid_before:
        cost, after = paid_roll(c.merp, table, override)
        changes = {"merp": [encode_merp(c.merp), encode_merp(after)]}
        made = after.rolls[table]
    elif override is not None:
        raise InvalidAction("nothing to override: this abandoned roll is not paid now")
    else:
        made = c.merp.rolls.get(table, 0) + 1
    item_id = before.id if before is not None else new_item_id(c, table, made)
    kept_tree = {**tree, COUNTED: counted or paid_before}
    item = encode_item(Item(item_id, table, title, kept_tree, names=names))
    payload = ev.ItemAbandoned(item, cost, changes, counted or paid_before, override, resumes)
    return character_id, payload, state.clock


def item_resumed(
    state: Campaign,
    character_id: str,
    abandoned_id: str,
    title: str,
    tree: Mapping[str, Any],
    override: str | None = None,
    names: ItemNames | None = None,
) -> Draft:
    """The abandoned roll ``abandoned_id`` finished (``tree`` done): an ItemRolled that names it.

    Paid already if the abandoned roll was counted (it costs nothing more and overrides nothing);
    else priced and limited as any roll, ``override`` as for one."""
    c = merp_character(state, character_id)
    assert c.merp is not None
    before = waiting(c, abandoned_id)
    if tree.get("done") is not True:
        raise InvalidAction("the roll is not finished yet")
    cost, changes = 0, {}
    if not was_counted(before):
        cost, after = paid_roll(c.merp, before.table, override)
        changes = {"merp": [encode_merp(c.merp), encode_merp(after)]}
    elif override is not None:
        raise InvalidAction("nothing to override: the roll was paid when it was left")
    item = encode_item(Item(before.id, before.table, title, dict(tree), names=names))
    payload = ev.ItemRolled(item, cost, changes, override, resumes=before.id)
    return character_id, payload, state.clock


def item_renamed(state: Campaign, character_id: str, item_id: str, name: str) -> Draft | None:
    """The GM's name for an item of the inventory ("" gives back the name read off its dice);
    None if it is the name it has."""
    c = state.character(character_id)
    item = c.item(item_id)
    if item is None:
        raise InvalidAction(f"{c.name} has no item {item_id!r}")
    name = name.strip()
    if "\n" in name or "\r" in name:
        raise InvalidAction("an item's name is one line")
    if name == item.name:
        return None
    if len(name) > MAX_NAME:
        raise InvalidAction(f"a name is at most {MAX_NAME:,} characters, not {len(name):,}")
    return character_id, ev.ItemRenamed(encode_item(item), name), state.clock
