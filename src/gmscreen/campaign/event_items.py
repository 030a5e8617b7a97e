"""The MERP special-item events (docs/RULES.md "Part 2: MERP special items"): rolls, kept or
let go, noted, removed, left half way, renamed.

Part of the union of :mod:`gmscreen.campaign.events`, which re-exports every name here: import
them from there (``from gmscreen.campaign import events as ev``; ``ev.ItemRolled``).
"""

from __future__ import annotations

from typing import Any

from gmscreen.campaign.event_json import Changes, check_changes, check_plain
from gmscreen.campaign.event_record import Int, Name, Record, Text


class ItemRolled(Record, frozen=True):
    """A roll on a MERP special-item table (docs/RULES.md "Resolution"), paid in background points.

    ``item`` is the result in plain form (``fields.encode_item``); it joins the inventory only if
    an :class:`ItemKept` follows, but the points are spent either way.
    """

    item: dict[str, Any]  # fields.encode_item
    cost: Int  # the points paid
    changes: Changes  # the MERP profile: points spent and rolls per table
    # The rule the GM overrode to allow this roll ("roll_limit" or "no_points", the key of
    # merp.RollRefused); None for a roll within the rules. Absent in older journals.
    override: Name | None = None
    # The id of the abandoned roll (ItemAbandoned) this one finished; None for a fresh roll.
    resumes: Name | None = None

    def __post_init__(self) -> None:
        check_changes(self.changes)
        check_plain(self.item, "item")


class ItemKept(Record, frozen=True):
    """A rolled item the GM kept: it goes into the character's inventory."""

    item: dict[str, Any]

    def __post_init__(self) -> None:
        check_plain(self.item, "item")


class ItemDiscarded(Record, frozen=True):
    """A rolled item the GM let go; it changes nothing (the points stay spent)."""

    item: dict[str, Any]

    def __post_init__(self) -> None:
        check_plain(self.item, "item")


class ItemNoted(Record, frozen=True):
    """The notes of an item in the character's inventory changed from ``before`` to ``after``."""

    item_id: Name
    before: Text
    after: Text


class ItemRemoved(Record, frozen=True):
    """An item taken out of the character's inventory; ``item`` is what it was."""

    item: dict[str, Any]

    def __post_init__(self) -> None:
        check_plain(self.item, "item")


# --- items: rolls left half way, names the GM gives (issue #16) ------------------------------


class ItemAbandoned(Record, frozen=True):
    """A roll on a MERP table left half way (``esc`` after some dice): ``item`` holds the
    resolution so far, every die already rolled, so that resuming it later rolls none again.

    ``counted``: the roll counts against the table's limit and is paid as a roll (the rule);
    False only when the GM said so. ``changes`` holds the MERP profile when counted, else
    nothing; ``override`` is the rule the GM overrode to start the roll, as on ItemRolled.
    """

    item: dict[str, Any]  # fields.encode_item: the tree is the Resolution's to_dict, not done
    cost: Int
    changes: Changes
    counted: bool = True
    override: Name | None = None
    # The abandoned roll this one went on with before it was left again (paid once, not twice)
    resumes: Name | None = None

    def __post_init__(self) -> None:
        check_changes(self.changes)
        check_plain(self.item, "item")


class ItemRenamed(Record, frozen=True):
    """The GM named an item of the inventory ``after`` ("" gives back the name read off its
    dice); ``item`` is the item before, so the log and the recaps can say which one it was."""

    item: dict[str, Any]  # fields.encode_item
    after: Text

    def __post_init__(self) -> None:
        check_plain(self.item, "item")
