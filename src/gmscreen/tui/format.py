"""Small pure helpers that turn rule values into UI text through the catalog.

Player-typed text (names, players, notes) is never parsed as markup: it goes into
:class:`~textual.content.Content` as plain text, and only our own styles are added around it.
Its control characters are shown visibly: the catalog fills placeholders inert, and text put in
a line as it is goes through :func:`gmscreen.text.inert_line` where the line is built.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from gmscreen.i18n import CatalogError
from gmscreen.rules.dice import Roll
from gmscreen.rules.madness import (
    DAY,
    DEFAULT_ROUND_SECONDS,
    HOUR,
    MINUTE,
    Episode,
    unit_seconds,
)
from gmscreen.rules.madness_data import load_madness_data
from gmscreen.text import inert
from gmscreen.tui.i18n import Translate

if TYPE_CHECKING:
    from gmscreen.rules.tables_model import Lang

INPUT_NAMES = ("points", "pow", "app_dice", "app_lost", "amount")


def as_lang(lang: str) -> Lang:
    return "es" if lang == "es" else "en"


def fumble_range(first_fumble: int, t: Translate) -> str:
    """``none``, ``00`` or ``96–00``: the d100 rolls that fumble."""
    if first_fumble > 100:
        return t("fumble.none")
    if first_fumble == 100:
        return "00"
    return f"{first_fumble:02d}–00"


def _day_and_time(seconds: int) -> tuple[int, str]:
    """The day, counted from 1 for people, and ``hh:mm:ss`` of a game-clock reading."""
    day, rest = divmod(seconds, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes, secs = divmod(rest, MINUTE)
    return day + 1, f"{hours:02d}:{minutes:02d}:{secs:02d}"


def clock_text(seconds: int, t: Translate, round_number: int = 0) -> str:
    """``Day 1 · 08:00:00``, and ``· round 3`` while a fight's rounds are running."""
    day, time = _day_and_time(seconds)
    text = t("clock.text", day=day, time=time)
    return text + t("clock.round", round=round_number) if round_number else text


def when_text(seconds: int, t: Translate) -> str:
    """``D1 08:00:00``: the short form of the clock that the roll log uses."""
    day, time = _day_and_time(seconds)
    return t("log.when", day=day, time=time)


def units_text(amount: int, unit: str, t: Translate) -> str:
    return t(f"unit.{unit}", n=amount) if amount != 1 else t(f"unit.{unit}_one", n=amount)


def episode_left(episode: Episode, now: int, round_seconds: int = DEFAULT_ROUND_SECONDS) -> int:
    """Whole units of the episode's unit still to run (rounded up)."""
    size = unit_seconds(episode.unit, round_seconds)
    return max(0, -(-(episode.ends_at - now) // size))


def kind_label(key: str, lang: str) -> str:
    return load_madness_data().kind(key).label.get(lang)


def preset_label(key: str, lang: str) -> str:
    return load_madness_data().presets[key].label.get(lang)


def band_label(key: str, lang: str) -> str:
    for band in load_madness_data().bands:
        if band.key == key:
            return band.label.get(lang)
    return key


def alignment_label(name: str, t: Translate) -> str:
    return t(f"stat.{name}")


def roll_text(roll: Roll, t: Translate) -> str:
    """``1d6: 4 (typed)``, the source said in the catalog's language."""
    return roll.describe({"typed": t("roll.typed"), "picked": t("roll.picked")})


def _error_values(params: Mapping[str, object], t: Translate) -> dict[str, object]:
    values = dict(params)
    field = values.get("field")
    if isinstance(field, str) and field in INPUT_NAMES:
        values["field"] = t(f"input.{field}")
    return values


def error_text(error: BaseException, t: Translate, lang: str) -> str:
    """What went wrong, in the GM's language when the error has a code (``error.<code>``);
    errors without one are English (``str(error)``). Inert either way: an English message may
    quote a name or a path as it is (:mod:`gmscreen.text`)."""
    # Imported here: the MERP engine behind it is not needed for a madness-only start-up.
    from gmscreen.rules.merp import RollRefused

    if isinstance(error, RollRefused):
        return inert(error.message(as_lang(lang)))
    code = getattr(error, "code", None)
    if isinstance(code, str):
        try:
            return t(f"error.{code}", **_error_values(getattr(error, "params", {}), t))
        except CatalogError:
            pass
    return inert(str(error))
