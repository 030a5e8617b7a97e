"""Characters as plain values (JSON- and TOML-ready) and back, one field at a time.

The same field names serve the TOML checkpoint (flattened, so a GM can edit ``pow = 13`` under
``[[characters]]``), the ``changes`` that events record (field -> [before, after]) and the
reducer that applies them. Decoding checks every value and names the field that is wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

import msgspec
from msgspec.structs import replace

from gmscreen.campaign.bounds import MAX_CLOCK, MAX_DEPTH, MAX_NAME, MAX_TEXT
from gmscreen.campaign.event_json import error_text, plain_problem
from gmscreen.campaign.model import SPELL_USER_CATEGORIES, Character, Item, ItemNames, MerpProfile
from gmscreen.i18n import LANGUAGES
from gmscreen.rules.madness import MAX_STAT, UNITS, Episode, MadnessError, MadnessState

SANITY_INTS: tuple[str, ...] = ("pow", "app", "chaos", "balance", "law", "madness")
SANITY_FIELDS: tuple[str, ...] = (
    *SANITY_INTS,
    "episode",
    "permanent",
    "first_sightings",
    "under_care",
    "last_gain_day",
    "horrors_seen",
)
PERSON_FIELDS: tuple[str, ...] = ("name", "player", "notes", "awaiting_kind", "merp")
# Every field an edit (or an event's ``changes``) may set; ``id`` and ``inventory`` have events.
EDITABLE: tuple[str, ...] = (*PERSON_FIELDS, *SANITY_FIELDS)


class FieldError(ValueError):
    """A value that does not fit its field; ``key`` is the field's path, e.g. ``merp.race``."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message


def _type_name(value: Any) -> str:
    return {bool: "true/false", int: "a whole number", str: "text", list: "a list"}.get(
        type(value), "a table" if isinstance(value, dict) else type(value).__name__
    )


def whole(value: Any, key: str, low: int = 0, high: int = MAX_STAT * 10) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FieldError(key, f"expected a whole number, found {_type_name(value)}")
    if not low <= value <= high:
        raise FieldError(key, f"must be from {low} to {high}, not {value}")
    return value


def text(value: Any, key: str, limit: int = MAX_NAME) -> str:
    """Text of at most ``limit`` characters: a name by default (``MAX_TEXT`` for notes)."""
    if not isinstance(value, str):
        raise FieldError(key, f"expected text, found {_type_name(value)}")
    if len(value) > limit:
        raise FieldError(key, f"too long: more than {limit:,} characters")
    return value


def notes(value: Any, key: str) -> str:
    return text(value, key, MAX_TEXT)


def flag(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise FieldError(key, f"expected true or false, found {_type_name(value)}")
    return value


def texts(value: Any, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise FieldError(key, "expected a list of text")
    for n, v in enumerate(value):
        text(v, f"{key}[{n}]")
    return tuple(value)


def table(value: Any, key: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise FieldError(key, f"expected a table, found {_type_name(value)}")
    return cast(Mapping[str, Any], value)


# --- parts -----------------------------------------------------------------------------------


def encode_episode(episode: Episode | None) -> dict[str, Any] | None:
    if episode is None:
        return None
    return {
        "kind": episode.kind,
        "amount": episode.amount,
        "unit": episode.unit,
        "started_at": episode.started_at,
        "ends_at": episode.ends_at,
        "permanent": episode.permanent,
    }


def decode_episode(raw: Any, key: str = "episode") -> Episode | None:
    if raw is None:
        return None
    raw = table(raw, key)
    unit = text(raw.get("unit"), f"{key}.unit")
    if unit not in UNITS:
        raise FieldError(f"{key}.unit", f"expected one of {', '.join(UNITS)}, not {unit!r}")
    return Episode(
        kind=text(raw.get("kind"), f"{key}.kind"),
        amount=whole(raw.get("amount"), f"{key}.amount"),
        unit=cast(Any, unit),
        started_at=whole(raw.get("started_at"), f"{key}.started_at", 0, MAX_CLOCK),
        ends_at=whole(raw.get("ends_at"), f"{key}.ends_at", 0, MAX_CLOCK),
        permanent=flag(raw.get("permanent", False), f"{key}.permanent"),
    )


def encode_merp(merp: MerpProfile | None) -> dict[str, Any] | None:
    if merp is None:
        return None
    return {
        "category": merp.category,
        "race": merp.race,
        "points_total": merp.points_total,
        "points_spent": merp.points_spent,
        "rolls": dict(merp.rolls),
    }


def decode_merp(raw: Any, key: str = "merp") -> MerpProfile | None:
    if raw is None:
        return None
    raw = table(raw, key)
    category = text(raw.get("category"), f"{key}.category")
    if category not in SPELL_USER_CATEGORIES:
        raise FieldError(
            f"{key}.category",
            f"expected one of {', '.join(SPELL_USER_CATEGORIES)}, not {category!r}",
        )
    rolls = table(raw.get("rolls", {}), f"{key}.rolls")
    total = whole(raw.get("points_total", 0), f"{key}.points_total")
    spent = whole(raw.get("points_spent", 0), f"{key}.points_spent")
    if spent > total:
        raise FieldError(f"{key}.points_spent", f"{spent} spent is more than the {total} there are")
    return MerpProfile(
        category=category,
        race=text(raw.get("race", ""), f"{key}.race"),
        points_total=total,
        points_spent=spent,
        rolls={str(k): whole(v, f"{key}.rolls.{k}") for k, v in rolls.items()},
    )


# A character's lists of items: those carried, and rolls left half way (their dice kept).
ITEM_LISTS = ("inventory", "abandoned")


def encode_item(item: Item) -> dict[str, Any]:
    out = {
        "id": item.id,
        "table": item.table,
        "title": item.title,
        "tree": dict(item.tree),
        "notes": item.notes,
    }
    if item.name:  # left out unset: items written before names existed encode as they were
        out["name"] = item.name
    if item.names is not None:  # the same, for items rolled before their names were stored
        out["names"] = {"full": dict(item.names.full), "short": dict(item.names.short)}
    return out


def decode_item(raw: Any, key: str = "item") -> Item:
    raw = table(raw, key)
    tree = raw.get("tree", {})
    if isinstance(tree, str):  # TOML keeps the tree as JSON text (TOML has no null)
        tree = _json_tree(tree, f"{key}.tree")
    problem = plain_problem(tree, "tree")
    if problem is not None:
        raise FieldError(f"{key}.tree", f"{problem[0]}: {problem[1]}")
    return Item(
        id=text(raw.get("id"), f"{key}.id"),
        table=text(raw.get("table"), f"{key}.table"),
        # a full name carries every sub-roll's result and is never cut: longer than a name
        title=text(raw.get("title"), f"{key}.title", MAX_TEXT),
        tree=dict(table(tree, f"{key}.tree")),
        notes=notes(raw.get("notes", ""), f"{key}.notes"),
        name=text(raw.get("name", ""), f"{key}.name"),
        names=item_names(raw["names"], f"{key}.names") if "names" in raw else None,
    )


def item_names(raw: Any, key: str) -> ItemNames:
    """``{full = {en = ..., es = ...}, short = {...}}``: a roll's names by language."""
    raw = table(raw, key)
    for part in raw:
        if part not in ("full", "short"):
            raise FieldError(f"{key}.{part}", "unknown: expected full or short")
    found: dict[str, dict[str, str]] = {}
    for part in ("full", "short"):
        by_lang = table(raw.get(part, {}), f"{key}.{part}")
        for lang in by_lang:
            if lang not in LANGUAGES:
                raise FieldError(f"{key}.{part}.{lang}", f"expected one of {', '.join(LANGUAGES)}")
        found[part] = {
            lang: text(value, f"{key}.{part}.{lang}", MAX_TEXT) for lang, value in by_lang.items()
        }
    return ItemNames(full=found["full"], short=found["short"])


def _json_tree(raw: str, key: str) -> Any:
    try:
        return msgspec.json.decode(raw)
    except msgspec.MsgspecError as error:
        message = error_text(error, "tree")
        raise FieldError(
            key, f"is {message}" if message.startswith("not valid") else message
        ) from None
    except RecursionError:
        raise FieldError(key, f"nested more than {MAX_DEPTH} deep") from None


# --- one field at a time ---------------------------------------------------------------------


def get_value(character: Character, name: str) -> Any:
    """The plain value of one editable field."""
    s = character.sanity
    if name in SANITY_INTS or name in ("under_care", "last_gain_day"):
        return getattr(s, name)
    if name == "episode":
        return encode_episode(s.episode)
    if name == "permanent":
        return list(s.permanent)
    if name == "first_sightings":
        return sorted(s.first_sightings)
    if name == "horrors_seen":
        return sorted(s.horrors_seen)
    if name == "merp":
        return encode_merp(character.merp)
    if name in PERSON_FIELDS:
        return getattr(character, name)
    raise FieldError(name, "is not a character field")


def _pow(value: Any, name: str) -> int:
    return whole(value, name, 1, MAX_STAT)


def _last_gain_day(value: Any, name: str) -> int | None:
    return None if value is None else whole(value, name, 0, 2**40)


def _episode(value: Any, name: str) -> Episode | None:
    return decode_episode(value)


def _seen(value: Any, name: str) -> frozenset[str]:
    return frozenset(texts(value, name))


def _merp(value: Any, name: str) -> MerpProfile | None:
    return decode_merp(value)


def _awaiting_kind(value: Any, name: str) -> str | None:
    if value not in (None, "failure", "fumble"):
        raise FieldError(name, f"expected failure or fumble, not {value!r}")
    return cast(str | None, value)


# field -> its decoder (value, field) -> value; a dict, not a chain of ifs: replay decodes a
# field or two for every event.
_DECODERS: dict[str, Callable[[Any, str], Any]] = {
    "pow": _pow,
    **{name: whole for name in SANITY_INTS if name != "pow"},
    "episode": _episode,
    "permanent": texts,
    "first_sightings": _seen,
    "horrors_seen": _seen,
    "under_care": flag,
    "last_gain_day": _last_gain_day,
    "merp": _merp,
    "awaiting_kind": _awaiting_kind,
    "name": text,
    "player": text,
    "notes": notes,
}
_SANITY = frozenset(SANITY_FIELDS)


def _decode(name: str, value: Any) -> Any:
    decode = _DECODERS.get(name)
    if decode is None:
        raise FieldError(name, "is not a character field")
    return decode(value, name)


def with_values(character: Character, values: Mapping[str, Any]) -> Character:
    """``character`` with plain ``values`` decoded into their fields (checked)."""
    sanity: dict[str, Any] = {}
    person: dict[str, Any] = {}
    for name, value in values.items():
        (sanity if name in _SANITY else person)[name] = _decode(name, value)
    if sanity:
        try:
            person["sanity"] = replace(character.sanity, **sanity)
        except MadnessError as error:
            raise FieldError(", ".join(sanity), str(error)) from None
    return replace(character, **person) if person else character


def diff(before: Character, after: Character) -> dict[str, list[Any]]:
    """field -> [before, after] for every editable field that differs."""
    changes: dict[str, list[Any]] = {}
    for name in EDITABLE:
        old, new = get_value(before, name), get_value(after, name)
        if old != new:
            changes[name] = [old, new]
    return changes


def character_to_dict(character: Character) -> dict[str, Any]:
    out: dict[str, Any] = {"id": character.id}
    out.update((name, get_value(character, name)) for name in EDITABLE)
    if not character.sanity.horrors_seen:  # left out when none, as every file before them has it
        del out["horrors_seen"]
    out["inventory"] = [encode_item(i) for i in character.inventory]
    if character.abandoned:  # left out when none, as every file before them has it
        out["abandoned"] = [encode_item(i) for i in character.abandoned]
    return out


def character_from_dict(raw: Mapping[str, Any]) -> Character:
    """A character from its plain dict; raises :class:`FieldError` naming the first bad key."""
    unknown = sorted(set(raw) - {"id", *ITEM_LISTS, *EDITABLE})
    if unknown:
        raise FieldError(unknown[0], "is not a character field")
    cid = text(raw.get("id"), "id")
    if not cid.strip():
        raise FieldError("id", "must not be empty")
    name = text(raw.get("name", cid), "name")
    pow_ = whole(raw.get("pow"), "pow", 1, MAX_STAT)
    base = Character(id=cid, name=name, sanity=MadnessState(pow=pow_))
    values = {k: v for k, v in raw.items() if k in EDITABLE and k not in ("name", "pow")}
    character = with_values(base, values)
    lists: dict[str, tuple[Item, ...]] = {}
    for key in ITEM_LISTS:
        raw_items = raw.get(key, [])
        if not isinstance(raw_items, list):
            raise FieldError(key, "expected a list of items")
        lists[key] = tuple(decode_item(v, f"{key}[{n}]") for n, v in enumerate(raw_items))
    return replace(character, inventory=lists["inventory"], abandoned=lists["abandoned"])
