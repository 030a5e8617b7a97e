"""Small pure helpers that turn rule values into UI text through the catalog (times, dice and
the kinds of madness are :mod:`gmscreen.campaign.wording`'s, said alike everywhere).

Player-typed text (names, players, notes) is never parsed as markup: it goes into
:class:`~textual.content.Content` as plain text, and only our own styles are added around it.
Its control characters are shown visibly: the catalog fills placeholders inert, and text put in
a line as it is goes through :func:`gmscreen.text.inert_line` where the line is built.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from gmscreen.i18n import CatalogError
from gmscreen.rules.madness import DEFAULT_ROUND_SECONDS, Episode, unit_seconds
from gmscreen.rules.madness_data import load_madness_data
from gmscreen.text import inert
from gmscreen.tui.i18n import Translate

if TYPE_CHECKING:
    from gmscreen.rules.tables_model import Lang

INPUT_NAMES = ("points", "pow", "app_dice", "app_lost", "amount")


def as_lang(lang: str) -> Lang:
    return "es" if lang == "es" else "en"


def episode_left(episode: Episode, now: int, round_seconds: int = DEFAULT_ROUND_SECONDS) -> int:
    """Whole units of the episode's unit still to run (rounded up)."""
    size = unit_seconds(episode.unit, round_seconds)
    return max(0, -(-(episode.ends_at - now) // size))


def band_label(key: str, lang: str) -> str:
    for band in load_madness_data().bands:
        if band.key == key:
            return band.label.get(lang)
    return key


def alignment_label(name: str, t: Translate) -> str:
    return t(f"stat.{name}")


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
