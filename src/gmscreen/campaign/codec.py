"""Campaigns as plain dicts, TOML text and back, with every problem found and located.

The TOML is for people too: characters are flat (``pow = 13`` under ``[[characters]]``), values
that are unset are left out (TOML has no null), and an item's rolled tree is kept as JSON text.
Reading collects every problem with its line (the line of the offending key, found in the text)
so that ``gmscreen validate`` can list them all; nothing is ever written while reading.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import msgspec
import tomli_w

from gmscreen.campaign.bounds import MAX_CLOCK, MAX_INT, MAX_NAME
from gmscreen.campaign.errors import CampaignFileError, Problem
from gmscreen.campaign.fields import (
    EDITABLE,
    ITEM_LISTS,
    FieldError,
    character_to_dict,
    decode_item,
    flag,
    text,
    whole,
    with_values,
)
from gmscreen.campaign.handouts import handout_from_dict, handout_to_dict
from gmscreen.campaign.horrors import horror_from_dict, horror_to_dict
from gmscreen.campaign.model import (
    DEFAULT_EVENING_HOURS,
    MAX_EVENING_HOURS,
    MODULES,
    SCHEMA,
    Campaign,
    Character,
    Handout,
    Horror,
    Item,
    Settings,
)
from gmscreen.campaign.toml_read import load_toml
from gmscreen.i18n import LANGUAGES
from gmscreen.rules.madness import MAX_STAT, MadnessState
from gmscreen.rules.madness_data import load_madness_data

TOP_KEYS = (
    "schema",
    "name",
    "last_event",
    "clock",
    "settings",
    "characters",
    "horrors",
    "handouts",
)
SETTINGS_KEYS = (
    "modules",
    "fumble_base",
    "round_seconds",
    "auto_check",
    "language",
    "player_words",
    "evening_hours",
)
HEADER = "# A gmscreen campaign. Edit it between sessions, not while gmscreen has it open.\n"


def settings_to_dict(s: Settings, *, full: bool = False) -> dict[str, Any]:
    """Plain values; the player view's own words only when the campaign has some, and the
    evening's hours only when not the default (journals and checkpoints written before these
    settings existed read, and re-encode, as they were). ``full``: every setting, to compare."""
    values = {
        "modules": list(s.modules),
        "fumble_base": s.fumble_base,
        "round_seconds": s.round_seconds,
        "auto_check": s.auto_check,
        "language": s.language,
    }
    if s.player_words:
        values["player_words"] = dict(s.player_words)
    if full or s.evening_hours != DEFAULT_EVENING_HOURS:
        values["evening_hours"] = s.evening_hours
    return values


def campaign_to_dict(c: Campaign) -> dict[str, Any]:
    """Plain values (JSON-ready, ``None`` kept) in the checkpoint's layout. The horrors and
    handouts only when the campaign has some: files and journal headers written before them
    read, and write back, as they were."""
    values = {
        "schema": c.schema,
        "name": c.name,
        "last_event": c.last_event,
        "clock": c.clock,
        "settings": settings_to_dict(c.settings),
        "characters": [character_to_dict(ch) for ch in c.characters],
    }
    if c.horrors:
        values["horrors"] = [horror_to_dict(h) for h in c.horrors]
    if c.handouts:
        values["handouts"] = [handout_to_dict(h) for h in c.handouts]
    return values


def _drop_none(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _drop_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_drop_none(v) for v in value]
    return value


def checkpoint_values(c: Campaign) -> dict[str, Any]:
    """The campaign as campaign.toml holds it: plain values, TOML-ready (no None, trees as text)."""
    raw = campaign_to_dict(c)
    for ch in raw["characters"]:
        for item in (*ch["inventory"], *ch.get("abandoned", ())):
            item["tree"] = json.dumps(item["tree"], ensure_ascii=False, sort_keys=True)
    if not raw["settings"]["language"]:
        del raw["settings"]["language"]  # not chosen: the GM's config or locale decides
    values: dict[str, Any] = _drop_none(raw)
    return values


def to_toml(c: Campaign) -> str:
    return HEADER + tomli_w.dumps(checkpoint_values(c))


# --- reading ---------------------------------------------------------------------------------


class _Reader(msgspec.Struct):
    """Collects (key path, message) problems while decoding."""

    problems: list[tuple[tuple[str | int, ...], str]]

    def add(self, path: tuple[str | int, ...], message: str) -> None:
        self.problems.append((path, message))


def _settings(raw: Any, r: _Reader) -> Settings:
    if raw is None:
        return Settings()
    if not isinstance(raw, dict):
        r.add(("settings",), "expected a [settings] table")
        return Settings()
    for key in raw:
        if key not in SETTINGS_KEYS:
            r.add(
                ("settings", key),
                f"unknown setting {key!r}: expected one of {', '.join(SETTINGS_KEYS)}",
            )
    defaults = Settings()
    values: dict[str, Any] = {}
    checks: dict[str, Callable[[Any], Any]] = {
        "fumble_base": lambda v: whole(v, "fumble_base", 0, 100),
        "round_seconds": lambda v: whole(v, "round_seconds", 1, 3600),
        "auto_check": lambda v: flag(v, "auto_check"),
        "language": lambda v: v if v == "" else _choice(text(v, "language"), LANGUAGES, "language"),
        "modules": lambda v: _modules(v),
        "player_words": lambda v: player_words(v),
        "evening_hours": lambda v: whole(v, "evening_hours", 0, MAX_EVENING_HOURS),
    }
    for key, check in checks.items():
        if key in raw:
            try:
                values[key] = check(raw[key])
            except FieldError as error:
                r.add(("settings", key), error.message)
    return Settings(
        modules=values.get("modules", defaults.modules),
        fumble_base=values.get("fumble_base", defaults.fumble_base),
        round_seconds=values.get("round_seconds", defaults.round_seconds),
        auto_check=values.get("auto_check", defaults.auto_check),
        language=values.get("language", defaults.language),
        player_words=values.get("player_words", defaults.player_words),
        evening_hours=values.get("evening_hours", defaults.evening_hours),
    )


def validate_settings(raw: Mapping[str, Any]) -> Settings:
    """Settings from plain values; raises ``ValueError`` naming every bad one."""
    r = _Reader([])
    settings = _settings(dict(raw), r)
    if r.problems:
        raise ValueError("; ".join(f"{_dotted(p)}: {m}" for p, m in r.problems))
    return settings


def _choice(value: str, allowed: tuple[str, ...], key: str) -> str:
    if value not in allowed:
        raise FieldError(key, f"expected one of {', '.join(allowed)}, not {value!r}")
    return value


def _modules(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        raise FieldError("modules", f"expected a list with one or more of {', '.join(MODULES)}")
    for v in value:
        _choice(text(v, "modules"), MODULES, "modules")
    return tuple(value)


def player_words(value: Any) -> dict[str, str]:
    """The player view's own words: band key -> one line of text, the bands the rules know."""
    if not isinstance(value, dict):
        raise FieldError("player_words", "expected a table of band = words")
    bands = tuple(b.key for b in load_madness_data().bands)
    words: dict[str, str] = {}
    for key, said in value.items():
        _choice(text(key, "player_words"), bands, "player_words")
        line = text(said, f"player_words.{key}").strip()
        if not line or "\n" in line:
            raise FieldError(f"player_words.{key}", "expected words on one line")
        words[key] = line
    return words


def _character(raw: Any, n: int, r: _Reader) -> Character | None:
    where: tuple[str | int, ...] = ("characters", n)
    if not isinstance(raw, dict):
        r.add(where, "a character is a [[characters]] table")
        return None
    before = len(r.problems)
    for key in sorted(set(raw) - {"id", *ITEM_LISTS, *EDITABLE}):
        r.add((*where, key), f"unknown character field {key!r}")
    cid = raw.get("id")
    if not isinstance(cid, str) or not cid.strip():
        r.add((*where, "id"), "every character needs an id (text)")
    elif len(cid) > MAX_NAME:
        r.add((*where, "id"), f"too long: more than {MAX_NAME:,} characters")
        cid = cid[:MAX_NAME]
    pow_ = raw.get("pow")
    try:
        base = Character(
            id=str(cid), name=str(cid), sanity=MadnessState(pow=whole(pow_, "pow", 1, MAX_STAT))
        )
    except FieldError as error:
        r.add((*where, "pow"), error.message if pow_ is not None else "POW is missing")
        base = Character(id=str(cid), name=str(cid), sanity=MadnessState(pow=1))
    character = base
    for key in EDITABLE:
        if key in raw and key != "pow":
            try:
                character = with_values(character, {key: raw[key]})
            except FieldError as error:
                sub = error.key.split(".")[1:] if error.key.startswith(key + ".") else []
                r.add((*where, key, *sub), error.message)
    lists: dict[str, list[Item]] = {}
    for list_key in ITEM_LISTS:
        items = lists[list_key] = []
        raw_items = raw.get(list_key, [])
        if not isinstance(raw_items, list):
            r.add((*where, list_key), f"expected [[characters.{list_key}]] tables")
            raw_items = []
        for m, item in enumerate(raw_items):
            try:
                items.append(decode_item(item, "item"))
            except FieldError as error:
                r.add((*where, list_key, m, error.key.split(".")[-1]), error.message)
    if len(r.problems) > before:
        return None
    return Character(
        id=character.id,
        name=character.name,
        sanity=character.sanity,
        player=character.player,
        merp=character.merp,
        inventory=tuple(lists["inventory"]),
        notes=character.notes,
        awaiting_kind=character.awaiting_kind,
        abandoned=tuple(lists["abandoned"]),
    )


def _listed(raw: Any, key: str, r: _Reader) -> list[Any]:
    """The tables of ``[[key]]`` (none if absent), or none and a problem."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        r.add((key,), f"expected [[{key}]] tables")
        return []
    return raw


def _field_path(error: FieldError) -> list[str]:
    """A field error's key past its first part (``horror.pow`` -> ``pow``), for the file's path."""
    return error.key.split(".")[1:2]


def _horrors(raw: Any, r: _Reader) -> tuple[Horror, ...]:
    horrors: list[Horror] = []
    ids: set[str] = set()
    names: set[str] = set()
    for n, item in enumerate(_listed(raw, "horrors", r)):
        try:
            horror = horror_from_dict(item)
        except FieldError as error:
            r.add(("horrors", n, *_field_path(error)), error.message)
            continue
        if horror.id in ids:
            r.add(("horrors", n, "id"), f"duplicate horror id {horror.id!r}")
        elif horror.name.strip().casefold() in names:
            r.add(("horrors", n, "name"), f"another horror is named {horror.name!r}")
        ids.add(horror.id)
        names.add(horror.name.strip().casefold())
        horrors.append(horror)
    return tuple(horrors)


def _handouts(raw: Any, r: _Reader) -> tuple[Handout, ...]:
    handouts: dict[int, Handout] = {}
    for n, item in enumerate(_listed(raw, "handouts", r)):
        try:
            handout = handout_from_dict(item)
        except FieldError as error:
            r.add(("handouts", n, *_field_path(error)), error.message)
            continue
        if handout.id in handouts:
            r.add(("handouts", n, "id"), f"duplicate handout id {handout.id}")
        handouts[handout.id] = handout
    return tuple(handouts[k] for k in sorted(handouts))


def decode_campaign(
    raw: Mapping[str, Any],
) -> tuple[Campaign | None, list[tuple[tuple[str | int, ...], str]]]:
    """The campaign in ``raw`` and every problem found (key path, message)."""
    r = _Reader([])
    for key in raw:
        if key not in TOP_KEYS:
            r.add((key,), f"unknown key {key!r}: expected one of {', '.join(TOP_KEYS)}")
    schema = raw.get("schema")
    if schema is None:
        r.add(("schema",), f"schema is missing: expected schema = {SCHEMA}")
    elif schema != SCHEMA or isinstance(schema, bool):
        r.add(("schema",), f"unknown schema {schema!r}: this gmscreen reads schema {SCHEMA}")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        r.add(("name",), "the campaign needs a name (text)")
    elif len(name) > MAX_NAME:
        r.add(("name",), f"too long: more than {MAX_NAME:,} characters")
    numbers = {}
    for key, high in (("last_event", MAX_INT), ("clock", MAX_CLOCK)):
        try:
            numbers[key] = whole(raw.get(key, 0), key, 0, high)
        except FieldError as error:
            r.add((key,), error.message)
    settings = _settings(raw.get("settings"), r)
    chars_raw = raw.get("characters", [])
    if not isinstance(chars_raw, list):
        r.add(("characters",), "expected [[characters]] tables")
        chars_raw = []
    characters = []
    seen: set[str] = set()
    for n, item in enumerate(chars_raw):
        character = _character(item, n, r)
        if character is None:
            continue
        if character.id in seen:
            r.add(("characters", n, "id"), f"duplicate character id {character.id!r}")
        seen.add(character.id)
        characters.append(character)
    horrors = _horrors(raw.get("horrors"), r)
    handouts = _handouts(raw.get("handouts"), r)
    if r.problems:
        return None, r.problems
    campaign = Campaign(
        name=str(name),
        settings=settings,
        clock=numbers["clock"],
        characters=tuple(characters),
        last_event=numbers["last_event"],
        schema=SCHEMA,
        horrors=horrors,
        handouts=handouts,
    )
    return campaign, []


def campaign_from_dict(raw: Any) -> Campaign:
    """A campaign from plain values (a session header); raises ``ValueError`` with every problem."""
    if not isinstance(raw, dict):
        raise ValueError("the state is not an object")
    campaign, problems = decode_campaign(raw)
    if campaign is None:
        raise ValueError("; ".join(f"{_dotted(p)}: {m}" for p, m in problems))
    return campaign


def _dotted(path: tuple[str | int, ...]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + part
    return out


_LISTS = ("characters", "horrors", "handouts")  # the arrays of tables, found by their headers


def locate(text_: str, path: tuple[str | int, ...]) -> int:
    """The line (from 1) where the key at ``path`` is written, or the best enclosing line."""
    # TOML's lines end at a line feed; str.splitlines() would also break at NEL (U+0085), the
    # separators U+001C-U+001E and U+2028, which a string may hold as they are.
    lines = text_.split("\n")
    start, end = 0, len(lines)
    found = 0
    if path and path[0] in _LISTS and len(path) > 1 and isinstance(path[1], int):
        # the n-th [[characters]] (or [[horrors]], [[handouts]]) and its own sub-tables, up
        # to the next table that is not one of them
        name = re.escape(str(path[0]))
        own = re.compile(rf"\s*\[\[\s*{name}\s*\]\]")
        inside = re.compile(rf"\s*\[\[?\s*{name}\s*\.")
        headers = [n for n, line in enumerate(lines) if own.match(line)]
        if path[1] < len(headers):
            start = found = headers[path[1]] + 1
            end = next(
                (
                    n
                    for n in range(start, len(lines))
                    if lines[n].lstrip().startswith("[") and not inside.match(lines[n])
                ),
                len(lines),
            )
            start -= 1
        keys = [p for p in path[2:] if isinstance(p, str)]
    elif path and path[0] == "settings":
        for n, line in enumerate(lines):
            if re.match(r"\s*\[\s*settings\s*\]", line):
                start, found = n, n + 1
                break
        keys = [p for p in path[1:] if isinstance(p, str)]
    else:
        first_table = next(
            (n for n, line in enumerate(lines) if line.lstrip().startswith("[")), end
        )
        end = first_table
        keys = [p for p in path if isinstance(p, str)]
    if keys:
        pattern = re.compile(rf"\s*(?:\w+\.)*\"?{re.escape(keys[-1])}\"?\s*=")
        for n in range(start, end):
            if pattern.match(lines[n]):
                return n + 1
    return found or (start + 1 if lines else 1)


def parse_toml(text_: str, path: Path) -> Campaign:
    """The campaign in ``text_`` (read from ``path``); raises :class:`CampaignFileError`.

    Its size is bounded where the file is read (``store.read_checkpoint``: ``bounds.MAX_FILE``
    bytes, before any of it is decoded), not again here.
    """
    raw = load_toml(text_, path)
    campaign, problems = decode_campaign(raw)
    if campaign is None:
        raise CampaignFileError(
            [Problem(path, locate(text_, p), f"{_dotted(p)}: {m}") for p, m in problems]
        )
    return campaign
