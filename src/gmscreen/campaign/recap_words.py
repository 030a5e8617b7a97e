"""The recap's vocabulary: game times and spans, field values, changes and dice in words, in
the language asked for (the catalogs' ``[recap]`` table).

Shared by :mod:`gmscreen.campaign.recap` (events in words), which re-exports the public names,
and what tells a session (the log, the Markdown recap).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from gmscreen.campaign.model import MODULES
from gmscreen.i18n import DEFAULT_LANGUAGE, LANGUAGES, Translate, catalog_for
from gmscreen.rules import merp
from gmscreen.rules.dice import Roll
from gmscreen.rules.madness import DAY, HOUR, MINUTE
from gmscreen.rules.madness_data import load_madness_data

FIELDS = (
    "name",
    "player",
    "notes",
    "episode",
    "merp",
    "pow",
    "app",
    "chaos",
    "law",
    "balance",
    "madness",
    "under_care",
    "last_gain_day",
    "permanent",
    "first_sightings",
    "awaiting_kind",
    "modules",
    "fumble_base",
    "round_seconds",
    "auto_check",
    "language",
)
INPUTS = ("points", "pow", "app_dice", "app_lost", "amount")
OVERRIDES = ("roll_limit", "no_points")


@cache
def words(lang: str = DEFAULT_LANGUAGE) -> Translate:
    """The recap's words in ``lang``: the catalog's ``[recap]`` table (English if unknown)."""
    t = catalog_for(lang).t

    def say(key: str, /, **values: object) -> str:
        return t(f"recap.{key}", **values)

    return say


def game_time(seconds: int, lang: str = DEFAULT_LANGUAGE) -> str:
    """``day 1, 08:00``: days count from 1 for people (day 0 in the rules)."""
    day, rest = divmod(seconds, DAY)
    text = words(lang)("time", day=day + 1, hh=rest // HOUR, mm=rest % HOUR // MINUTE)
    return text + (f":{rest % MINUTE:02d}" if rest % MINUTE else "")


def span(seconds: int, lang: str = DEFAULT_LANGUAGE) -> str:
    w = words(lang)
    parts = []
    for size, word in ((DAY, "day"), (HOUR, "hour"), (MINUTE, "minute"), (1, "second")):
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(w(f"span.{word}" + ("_one" if count == 1 else ""), n=count))
    return ", ".join(parts) or w("span.second", n=0)


def _value(value: Any, w: Translate, key: str = "", lang: str = DEFAULT_LANGUAGE) -> str:
    """A field's value in words: labels for the keys the journal holds (a kind of madness, a
    preset, a module), never the keys themselves."""
    if value is None or value == [] or value == "":
        return w("none")
    worded = _worded(key, value, w, lang)
    if worded is not None:
        return worded
    if isinstance(value, bool):
        return w("yes") if value else w("no")
    if value is None or value == [] or value == "":
        return w("none")
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return str(value.get("kind") or value.get("category") or "…")
    return str(value)


def _worded(key: str, value: Any, w: Translate, lang: str) -> str | None:
    if key in ("permanent", "first_sightings") and isinstance(value, list):
        label = kind_words if key == "permanent" else preset_words
        return ", ".join(label(str(v), lang) for v in value)
    if key == "episode" and isinstance(value, dict):
        return kind_words(str(value.get("kind")), lang)
    if key == "awaiting_kind" and value in ("failure", "fumble"):
        return w(f"outcome.{value}")
    if key == "merp" and isinstance(value, dict):
        return _merp(value, w, lang)
    if key == "modules" and isinstance(value, list):
        return ", ".join(w(f"module.{v}") if v in MODULES else str(v) for v in value)
    if key == "language" and value in LANGUAGES:
        return w(f"language.{value}")
    if key == "round_seconds" and isinstance(value, int):
        return span(value, lang)
    if key == "last_gain_day" and isinstance(value, int):
        return w("undoing.day_number", day=value + 1)
    return None


def _merp(profile: Mapping[str, Any], w: Translate, lang: str) -> str:
    labels = merp.CATEGORY_LABELS.get(str(profile.get("category")))  # type: ignore[call-overload]
    category = str(labels[lang if lang in LANGUAGES else DEFAULT_LANGUAGE]) if labels else "?"
    race = str(profile.get("race") or "")
    points = w(
        "undoing.merp_points",
        spent=profile.get("points_spent", 0),
        total=profile.get("points_total", 0),
    )
    return ", ".join(part for part in (category, race, points) if part)


def field_text(key: str, w: Translate) -> str:
    return w(f"field.{key}") if key in FIELDS else key


def changes_text(
    changes: Mapping[str, list[Any]],
    keys: Iterable[str] | None = None,
    lang: str = DEFAULT_LANGUAGE,
) -> str:
    w = words(lang)
    shown = [k for k in (keys or changes) if k in changes]
    return "; ".join(
        f"{field_text(k, w)} {_value(changes[k][0], w, k, lang)} → {_value(changes[k][1], w, k, lang)}"
        for k in shown
    )


def roll_aside(roll: Roll | None, lang: str) -> str:
    return f" ({roll_text(roll, lang)})" if roll is not None else ""


def roll_text(roll: Roll, lang: str = DEFAULT_LANGUAGE) -> str:
    """``1d6: 4 (typed)`` with the source in ``lang``."""
    w = words(lang)
    return roll.describe({"typed": w("source.typed"), "picked": w("source.picked")})


def fumbles_text(first: int, w: Translate) -> str:
    return w("fumbles_none") if first > 100 else "00" if first == 100 else f"{first}-00"


def preset_words(key: str, lang: str) -> str:
    p = load_madness_data().presets.get(key)
    return p.label.get(lang).lower() if p else key


def kind_words(key: str, lang: str) -> str:
    try:
        return load_madness_data().kind(key).label.get(lang).lower()
    except ValueError:
        return key
