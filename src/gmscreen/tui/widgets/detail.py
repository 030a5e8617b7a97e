"""The detail pane: everything about the selected character, and madness over the session."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.css.styles import RulesMap
from textual.widgets import Sparkline, Static

from gmscreen.campaign.wording import fumble_range, kind_label, preset_label, units_text, when_text
from gmscreen.rules.madness import MadnessState, check_target, duration_unit, fumble_from
from gmscreen.rules.madness_data import load_madness_data
from gmscreen.tui.format import alignment_label, episode_left
from gmscreen.tui.i18n import Translate
from gmscreen.tui.widgets import merp_lines
from gmscreen.tui.widgets.meter import fitted_meter
from gmscreen.tui.widgets.roster import CardContext, CharacterLike

SPARK_ROWS = 5  # what the sparkline takes below the text: its title, 3 rows of bars, a margin


def unit_line(s: MadnessState, t: Translate) -> str:
    """Which unit an episode would last in, and the figure that chose it as the rules read it:
    at 0 and below it is rounds, told as Balance not below the higher alignment (a "-41" read
    as a bug)."""
    unit, value = duration_unit(s)
    which, high = check_target(s)
    words = {"unit": t(f"advance.word_{unit}"), "alignment": alignment_label(which, t)}
    key = "detail.unit" if value > 0 else "detail.unit_balanced"
    return t(key, **words, high=high, balance=s.balance, value=value)


def detail_lines(
    character: CharacterLike, notes: str, ctx: CardContext, t: Translate, width: int = 0
) -> list[Content]:
    """The detail pane's text, line by line (a line may hold a newline the GM typed).

    What the GM needs for a check comes first (the meter, POW and the alignments, the target and
    the fumble range, an episode), so that a short pane still shows it; the meter fits
    ``width`` (at 0, its usual length); the pane wraps the rest."""
    s = character.sanity
    lines: list[Content] = [Content.styled(t("detail.title", name=character.name), "bold $accent")]
    if character.player:
        lines.append(Content.styled(t("detail.played_by", player=character.player), "dim"))
    lines.append(Content(""))
    if ctx.madness:
        lines.append(fitted_meter(s, ctx.fumble_base, t, width, widest=16))
        lines.append(
            Content(
                t(
                    "detail.stats",
                    pow=s.pow,
                    app=s.app,
                    chaos=s.chaos,
                    balance=s.balance,
                    law=s.law,
                )
            )
        )
        which, value = check_target(s)
        lines.append(
            Content(
                t(
                    "detail.target",
                    alignment=alignment_label(which, t),
                    value=value,
                    range=fumble_range(fumble_from(s, ctx.fumble_base), t),
                )
            )
        )
        if s.episode is not None:
            left = episode_left(s.episode, ctx.now, ctx.round_seconds)
            lines.append(
                Content.styled(
                    t(
                        "detail.episode",
                        kind=kind_label(s.episode.kind, ctx.lang),
                        detail=_kind_detail(s.episode.kind, ctx.lang),
                        left=units_text(left, s.episode.unit, t),
                        ends=when_text(s.episode.ends_at, t),
                    ),
                    "bold $warning",
                )
            )
        if s.permanent:
            kinds = ", ".join(kind_label(k, ctx.lang) for k in s.permanent)
            lines.append(Content.styled(t("detail.permanent", kinds=kinds), "$error"))
        else:
            lines.append(Content.styled(t("detail.no_permanent"), "dim"))
        lines.append(Content.styled(unit_line(s, t), "dim"))
        if s.first_sightings:
            seen = ", ".join(preset_label(k, ctx.lang) for k in sorted(s.first_sightings))
            lines.append(Content.styled(t("detail.sightings", what=seen), "dim"))
        if s.under_care:
            lines.append(Content.styled(t("detail.under_care"), "$success"))
        if s.last_gain_day is not None:
            lines.append(Content.styled(t("detail.last_gain", day=s.last_gain_day + 1), "dim"))
    if ctx.merp:
        if ctx.madness:
            lines.append(Content(""))
        names = merp_lines.item_names(character.inventory, ctx.lang)
        lines += merp_lines.detail_lines(character, t, ctx.lang, names)
    if notes:
        lines += [Content(""), Content(t("detail.notes", text=notes))]
    return lines


def _kind_detail(key: str, lang: str) -> str:
    return load_madness_data().kind(key).gm.get(lang)


SPARK_POINTS = 120  # how much madness history the detail pane draws


class DetailPane(Vertical):
    """Fixed parts (the text fills, the sparkline sits below), so updates need no new layout."""

    DEFAULT_CSS = """
    DetailPane { padding: 0 1; }
    DetailPane #detail-text { width: 100%; height: 1fr; }
    DetailPane #spark-title { height: 1; color: $text-muted; }
    DetailPane Sparkline { height: 3; margin-bottom: 1; }
    """

    def __init__(self, t: Translate, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.t = t
        self.can_focus = False
        self._text: Content | None = None  # what the text shows
        self._shown: tuple[CharacterLike | None, str, CardContext, Sequence[int]] | None = None

    def compose(self) -> ComposeResult:
        yield Static(Content(self.t("detail.empty")), id="detail-text")
        yield Static(Content(self.t("detail.sparkline")), id="spark-title")
        yield Sparkline([], id="spark")

    def _show_text(self, detail: Static, text: Content) -> None:
        """The text, drawn again only if it reads differently (Content's ``==`` compares the
        text alone, not its styles)."""
        shown = self._text
        if shown is None or shown.plain != text.plain or shown.spans != text.spans:
            self._text = text
            detail.update(text, layout=False)

    @staticmethod
    def _show_spark(spark: Sparkline, title: Static, shown: bool) -> None:
        if spark.display != shown:  # a change of display means a new layout: only when needed
            spark.display = title.display = shown

    def show(
        self,
        character: CharacterLike | None,
        notes: str,
        ctx: CardContext,
        history: Sequence[int],
    ) -> None:
        detail = self.query_one("#detail-text", Static)
        spark = self.query_one("#spark", Sparkline)
        title = self.query_one("#spark-title", Static)
        self._shown = (character, notes, ctx, history)
        if character is None:
            self._show_text(detail, Content(self.t("detail.empty")))
            self._show_spark(spark, title, False)
            return
        lines = detail_lines(character, notes, ctx, self.t, self.size.width)
        text = Content("\n").join(lines)
        self._show_text(detail, text)
        self._show_spark(spark, title, ctx.madness and self._room_for_spark(text, detail))
        spark.data = list(history) if len(history) > 1 else [*history, *history]

    def _room_for_spark(self, text: Content, detail: Static) -> bool:
        """Whether the sparkline fits below the whole text: the character comes first (a
        MERP character's items are at the end of the text), the madness over past events
        only where there is room left for it."""
        width, height = self.content_size
        if not width or not height:  # not laid out yet: shown once it is (on_resize)
            return True
        rules = cast(RulesMap, detail.styles)  # as Textual's own widgets measure their text
        return text.get_height(rules, width) + SPARK_ROWS <= height

    def on_resize(self) -> None:
        if self._shown is not None:  # the meter fits the new width
            self.show(*self._shown)
