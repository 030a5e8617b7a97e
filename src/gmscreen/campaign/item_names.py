"""An item's name in a language, for every place that names one: the log, the detail pane,
the inventory, the recaps, the players' surfaces, undo's questions.

The one way to name an item: :func:`item_name` (the whole name) and :func:`item_summary` (the
detail pane's few words). Each takes the item as the state holds it (:class:`Item`) or as an
event holds it (``fields.encode_item``'s plain form), and a language. What it says, first
found first:

1. the name the GM gave the item (``name``), in every language, as typed;
2. the names its roll gave it, stored with it (``names``: the tables' English and Spanish;
   another language reads the English);
3. for an item written before names were stored: its name read off its rolled tree with the
   MERP tables, loaded (whole, once per process) the first time such an item is named
   (:func:`gmscreen.rules.merp.merp_tables`); a tree that no longer fits the tables, or none,
   gives its stored English ``title`` without dice or pointers to tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from gmscreen.campaign.model import Item, ItemNames
from gmscreen.rules.merp import merp_tables


def _tables_language(lang: str) -> Literal["en", "es"]:
    # The tables carry English and Spanish; another language reads the English
    return "es" if lang == "es" else "en"


def _plain(item: Item | Mapping[str, Any]) -> Mapping[str, Any]:
    """The fields naming reads, from either form of an item."""
    if isinstance(item, Item):
        return {"name": item.name, "names": item.names, "title": item.title, "tree": item.tree}
    return item


def _stored(names: Any, part: Literal["full", "short"], lang: str) -> str | None:
    """The stored name of that part and language; None when the item has none (an event's
    item is plain JSON that only its decoding checked: anything else is as good as none)."""
    if isinstance(names, ItemNames):
        by_lang: Any = names.full if part == "full" else names.short
    elif isinstance(names, Mapping):
        by_lang = names.get(part)
    else:
        return None
    found = by_lang.get(_tables_language(lang)) if isinstance(by_lang, Mapping) else None
    return found if isinstance(found, str) and found else None


def _from_tables(item: Mapping[str, Any], lang: str, short: bool) -> str:
    """An item with no stored names (written before they were), named from the tables."""
    # The MERP engine (its modules and the 76 KB tables file, 40-60 ms together) is loaded
    # only here: items rolled since names were stored never need it.
    from gmscreen.rules.tables_names import stored_name, stored_summary

    named = stored_summary if short else stored_name
    return named(item, _tables_language(lang), merp_tables())


def item_name(item: Item | Mapping[str, Any], lang: str) -> str:
    """The item's whole name in ``lang``, never cut (see the module for where it comes from)."""
    fields = _plain(item)
    given = fields.get("name")
    if isinstance(given, str) and given:
        return given  # the GM's words, as typed
    stored = _stored(fields.get("names"), "full", lang)
    return stored if stored is not None else _from_tables(fields, lang, short=False)


def item_summary(item: Item | Mapping[str, Any], lang: str) -> str:
    """The item's name in few words ("Magic item (+5); lock picks"); a renamed item says the
    GM's name, then that: "Narsil: Magic item (+5); lock picks"."""
    fields = _plain(item)
    stored = _stored(fields.get("names"), "short", lang)
    short = stored if stored is not None else _from_tables(fields, lang, short=True)
    given = fields.get("name")
    return f"{given}: {short}" if isinstance(given, str) and given else short
