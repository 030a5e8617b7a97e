"""The vocabulary every telling of the game shares: game time, dice, kinds and presets of
madness, fields and their changes, in the catalog's words.

One place for each: the GM's screen (clock, log, detail pane, dialogs), the GM's recap and the
players' words (:mod:`gmscreen.campaign.telling`) all say a time or a roll through these, so
they say it alike. Each function takes the catalog to speak through (``t``: the screen's own,
or :func:`gmscreen.i18n.catalog_for`'s for a language) or the language itself; the journal holds
keys and numbers only, so any session can be told in either language.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from functools import cache
from typing import Any, Literal

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
    "evening_hours",
)
INPUTS = ("points", "pow", "app_dice", "app_lost", "amount")
OVERRIDES = ("roll_limit", "no_points")


def say(lang: str = DEFAULT_LANGUAGE) -> Translate:
    """The catalog of ``lang`` (English for a language gmscreen does not speak)."""
    return catalog_for(lang).t


@cache
def words(lang: str = DEFAULT_LANGUAGE) -> Translate:
    """The recap's vocabulary in ``lang``: the catalog's ``[recap]`` table."""
    t = catalog_for(lang).t

    def recap_word(key: str, /, **values: object) -> str:
        return t(f"recap.{key}", **values)

    return recap_word


# --- game time ----------------------------------------------------------------------------------
# Days count from 1 for people (day 0 in the rules). The GM reads the clock to the second; the
# players to the minute (to the second, an episode's start and end would count its rounds).


def _day_and_time(seconds: int) -> tuple[int, str]:
    day, rest = divmod(seconds, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes, secs = divmod(rest, MINUTE)
    return day + 1, f"{hours:02d}:{minutes:02d}:{secs:02d}"


def when_text(seconds: int, t: Translate) -> str:
    """``D1 08:00:00``: a log line's time, short."""
    day, time = _day_and_time(seconds)
    return t("time.stamp", day=day, time=time)


def clock_text(seconds: int, t: Translate, round_number: int = 0) -> str:
    """``Day 1 · 08:00:00``, and ``· round 3`` while a fight's rounds are running."""
    day, time = _day_and_time(seconds)
    text = t("time.clock", day=day, time=time)
    return text + t("time.round", round=round_number) if round_number else text


def game_time(seconds: int, lang: str = DEFAULT_LANGUAGE, *, to_minute: bool = False) -> str:
    """``day 1, 08:00`` (``:12`` after it when the seconds are not 0, unless ``to_minute``)."""
    day, rest = divmod(seconds, DAY)
    text = say(lang)("time.game", day=day + 1, hh=rest // HOUR, mm=rest % HOUR // MINUTE)
    return text + (f":{rest % MINUTE:02d}" if rest % MINUTE and not to_minute else "")


def span(seconds: int, lang: str = DEFAULT_LANGUAGE, *, to_minute: bool = False) -> str:
    """``1 hour, 4 minutes, 12 seconds``; ``to_minute``: the seconds dropped, and ``a few
    moments`` for less than a minute."""
    t = say(lang)
    if to_minute:
        if seconds < MINUTE:
            return t("time.moments")
        seconds -= seconds % MINUTE
    parts = []
    for size, word in ((DAY, "day"), (HOUR, "hour"), (MINUTE, "minute"), (1, "second")):
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(t(f"time.span.{word}" + ("_one" if count == 1 else ""), n=count))
    return ", ".join(parts) or t("time.span.second", n=0)


Rough = Literal["moments", "minutes", "hours", "days"]  # a length, coarsely: never a count


def rough(seconds: int) -> Rough:
    """How long, coarsely: an episode's length in numbers would tell its madness."""
    if seconds >= DAY:
        return "days"
    return "moments" if seconds < MINUTE else "minutes" if seconds < HOUR else "hours"


def rough_span(seconds: int, lang: str, key: str = "left") -> str:
    """A stretch of game time, coarsely (moments, minutes, hours, days): never a count. ``key``:
    ``left`` (``for some minutes yet``) or ``lasts`` (``for some minutes``)."""
    return say(lang)(f"time.{key}.{rough(seconds)}")


def units_text(amount: int, unit: str, t: Translate) -> str:
    """``3 rounds``, ``1 day``: an episode's length in its unit."""
    return t(f"unit.{unit}", n=amount) if amount != 1 else t(f"unit.{unit}_one", n=amount)


def session_date(started_at: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """The day a session was played, in words (``20 November 2026``); the text as it is if it
    is not a date (a journal someone else wrote)."""
    try:
        day = datetime.fromisoformat(started_at)
    except ValueError:
        return started_at
    t = say(lang)
    return t("time.date", day=day.day, month=t(f"time.month.{day.month}"), year=day.year)


# --- dice ---------------------------------------------------------------------------------------


def roll_text(roll: Roll, t: Translate) -> str:
    """``1d6: 4 (typed)``, the source said in the catalog's language."""
    return roll.describe({"typed": t("roll.typed"), "picked": t("roll.picked")})


def fumble_range(first_fumble: int, t: Translate) -> str:
    """``none``, ``00`` or ``96–00``: the d100 rolls that fumble."""
    if first_fumble > 100:
        return t("fumble.none")
    if first_fumble == 100:
        return "00"
    return f"{first_fumble:02d}–00"


# --- madness: kinds and presets -----------------------------------------------------------------


def kind_label(key: str, lang: str) -> str:
    """``Phobia``; a key the data does not know, as it is."""
    try:
        return load_madness_data().kind(key).label.get(lang)
    except ValueError:
        return key


def kind_words(key: str, lang: str) -> str:
    """``phobia``: a kind inside a sentence."""
    return kind_label(key, lang).lower()


def preset_label(key: str, lang: str) -> str:
    """``A friend dies``; a key the data does not know, as it is."""
    preset = load_madness_data().presets.get(key)
    return preset.label.get(lang) if preset else key


def preset_words(key: str, lang: str) -> str:
    return preset_label(key, lang).lower()


# --- fields and their changes -------------------------------------------------------------------


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
    if key == "evening_hours" and isinstance(value, int):
        return span(value * HOUR, lang) if value else say(lang)("time.span.hour", n=0)
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


def value_text(key: str, value: Any, lang: str) -> str:
    """The value of field ``key`` in words (``Spanish`` for ``es``, a kind's label, yes or no)."""
    return _value(value, words(lang), key, lang)


def field_text(key: str, w: Translate) -> str:
    return w(f"field.{key}") if key in FIELDS else key


def changes_text(
    changes: Mapping[str, list[Any]],
    keys: Iterable[str] | None = None,
    lang: str = DEFAULT_LANGUAGE,
) -> str:
    """``madness 3 → 5; Chaos 20 → 23``: the fields ``keys`` (all by default) before and after."""
    w = words(lang)
    shown = [k for k in (keys or changes) if k in changes]
    return "; ".join(
        f"{field_text(k, w)} {_value(changes[k][0], w, k, lang)} → {_value(changes[k][1], w, k, lang)}"
        for k in shown
    )


def kind_seen(key: str, lang: str) -> tuple[str, str]:
    """A kind by its label and its *player* text (what the others see of it; never the GM's
    advice); a key the data does not know: the key itself, and no text."""
    try:
        kind = load_madness_data().kind(key)
    except ValueError:
        return key, ""
    return kind.label.get(lang), kind.player.get(lang)
