"""What the roster's cards and the detail pane say of a character's MERP standing: category,
race, background points left, rolls left per table and the items carried.

Shown when the campaign uses the MERP items; the card shows it only when the madness module is
off (with madness on, a card's lines are the madness meter's).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from textual.content import Content

from gmscreen.campaign.item_names import item_summary
from gmscreen.campaign.model import Item, MerpProfile
from gmscreen.i18n import plural
from gmscreen.rules import merp
from gmscreen.text import inert_line
from gmscreen.tui.i18n import Translate

MODULE = "merp-items"


class MerpCharacter(Protocol):
    """What these lines read of a character (the campaign's ``Character`` has it)."""

    @property
    def merp(self) -> MerpProfile | None: ...
    @property
    def inventory(self) -> tuple[Item, ...]: ...


def category_text(profile: MerpProfile, lang: str) -> str:
    labels = merp.CATEGORY_LABELS.get(profile.category)  # type: ignore[call-overload]
    return str(labels["es" if lang == "es" else "en"]) if labels else profile.category


def _budget(profile: MerpProfile) -> merp.Budget | None:
    """The character's standing, or None for a category the rules do not know (a hand-edited
    campaign.toml: the rest of its card still shows)."""
    rolls = {k: v for k, v in profile.rolls.items() if k in merp.TOP_TABLES}
    try:
        return merp.budget(profile.category, profile.points_total, rolls)  # type: ignore[arg-type]
    except merp.RollRefused:
        return None


def _who(profile: MerpProfile, lang: str) -> str:
    race = f" · {profile.race}" if profile.race else ""
    return inert_line(
        category_text(profile, lang) + race
    )  # a file's text: control characters shown


def card_lines(character: MerpCharacter, t: Translate, lang: str) -> list[Content]:
    """The card's MERP lines, each indented as the card's other lines."""
    profile = character.merp
    if profile is None:
        return [Content.styled("  " + t("card.no_merp"), "dim")]
    lines = [Content("  " + _who(profile, lang))]
    budget = _budget(profile)
    points = t("card.merp_points", left=profile.points_left, total=profile.points_total)
    lines.append(Content.styled("  " + points, "dim"))
    if budget is not None:
        tables = " · ".join(
            t("card.merp_table", table=merp.table_name(row.table, lang), left=row.rolls_left)
            for row in budget.tables.values()
        )
        lines.append(Content.styled("  " + t("card.merp_rolls", tables=tables), "dim"))
    if character.inventory:
        lines.append(
            Content("  " + t("card.merp_items", items=plural(t, "items", len(character.inventory))))
        )
    return lines


def detail_lines(
    character: MerpCharacter, t: Translate, lang: str, names: Sequence[str]
) -> list[Content]:
    """The detail pane's MERP section; ``names`` are the short names of the items carried."""
    profile = character.merp
    if profile is None:
        return [Content.styled(t("detail.merp_no_profile"), "dim")]
    lines = [Content.styled(_who(profile, lang), "bold")]
    lines.append(
        Content(
            t(
                "detail.merp_points",
                left=profile.points_left,
                total=profile.points_total,
                spent=profile.points_spent,
            )
        )
    )
    budget = _budget(profile)
    if budget is not None:
        for row in budget.tables.values():
            text = t(
                "detail.merp_table",
                table=merp.table_name(row.table, lang),
                cost=plural(t, "points", row.cost),
                left=row.rolls_left,
                limit=plural(t, "rolls", row.max_rolls),
            )
            lines.append(Content.styled(text, "" if row.allowed else "dim"))
    if names:
        lines.append(Content(t("detail.merp_items", count=len(names))))
        lines += [Content("  • " + inert_line(name)) for name in names]
    else:
        lines.append(Content.styled(t("detail.merp_no_items"), "dim"))
    return lines


def item_names(items: Sequence[Item], lang: str) -> list[str]:
    """The items' short names (:func:`gmscreen.campaign.item_names.item_summary`)."""
    return [item_summary(i, lang) for i in items]
