"""The roster: one card per character, in an OptionList so that hundreds of cards stay fast."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol, cast

from textual.binding import Binding
from textual.cache import LRUCache
from textual.content import Content
from textual.css.styles import RulesMap
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import Reactive, reactive
from textual.strip import Strip
from textual.style import Style
from textual.visual import VisualType
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from gmscreen.campaign.model import Campaign
from gmscreen.rules.madness import MadnessState, check_due
from gmscreen.tui.commands import add_bindings
from gmscreen.tui.format import episode_left, kind_label, units_text
from gmscreen.tui.i18n import Translate
from gmscreen.tui.widgets.fast_lines import KEEP_LINES, LineStyles
from gmscreen.tui.widgets.meter import meter


class CharacterLike(Protocol):
    """What the screen reads of a character (the campaign's ``Character`` has all of it)."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def player(self) -> str: ...
    @property
    def sanity(self) -> MadnessState: ...


@dataclass(frozen=True, slots=True)
class CardContext:
    """What a card needs besides the character: the clock, the settings and the language."""

    now: int
    round_seconds: int
    fumble_base: int
    madness: bool  # the campaign uses the madness module
    lang: str

    @classmethod
    def of(cls, state: Campaign, lang: str) -> CardContext:
        """The context of a campaign as it stands (live, or at a replay's step)."""
        settings = state.settings
        return cls(
            now=state.clock,
            round_seconds=settings.round_seconds,
            fumble_base=settings.fumble_base,
            madness="madness" in settings.modules,
            lang=lang,
        )


def card(
    character: CharacterLike, marked: bool, ctx: CardContext, t: Translate, width: int = 24
) -> Content:
    """A character's card, as plain text for what players typed and styles for what we add."""
    state = character.sanity
    head: list[str | Content | tuple[str, str]] = [
        ("◆ " if marked else "  ", "bold $accent"),
        (character.name, "bold"),
    ]
    if character.player:
        head.append((" " + t("card.player", player=character.player), "dim"))
    if ctx.madness and check_due(state) and state.episode is None:
        head += ["  ", (t("card.check_due"), "bold $text on $error")]
    lines = [Content.assemble(*head)]
    if ctx.madness:
        lines.append(Content("  ") + meter(state, ctx.fumble_base, t, width))
        extra: list[str | Content | tuple[str, str]] = [
            "  ",
            (
                t("card.alignments", chaos=state.chaos, balance=state.balance, law=state.law),
                "dim",
            ),
        ]
        if state.under_care:
            extra.append(("  " + t("card.under_care"), "$success"))
        lines.append(Content.assemble(*extra))
        status: list[str | Content | tuple[str, str]] = ["  "]
        if state.episode is not None:
            left = episode_left(state.episode, ctx.now, ctx.round_seconds)
            status.append(
                (
                    t(
                        "card.episode",
                        kind=kind_label(state.episode.kind, ctx.lang),
                        left=units_text(left, state.episode.unit, t),
                    ),
                    "bold $warning",
                )
            )
        if state.permanent:
            if len(status) > 1:
                status.append("  ")
            names = ", ".join(kind_label(k, ctx.lang) for k in state.permanent)
            status.append((t("card.permanent", kinds=names), "$error"))
        if len(status) > 1:
            lines.append(Content.assemble(*status))
    lines.append(Content(""))  # a gap between cards (options take no vertical padding)
    return Content("\n").join(lines)


def _same_look(old: object, new: Content) -> bool:
    """Same text and styles (Content's ``==`` compares the text only): the card as drawn is
    still right, as when the clock moved but an episode's time left reads the same."""
    return isinstance(old, Content) and old.plain == new.plain and old.spans == new.spans


class Roster(OptionList):
    """Cards of every character; ``space`` marks several for a gain."""

    DEFAULT_CSS = """
    Roster, Roster:focus {
        height: 1fr; border: none; background: transparent; text-wrap: nowrap;
    }
    """

    class MarksChanged(Message):
        def __init__(self, marked: frozenset[str]) -> None:
            self.marked = marked
            super().__init__()

    def __init__(self, t: Translate, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._t = t
        self.marked: set[str] = set()
        self._characters: dict[str, CharacterLike] = {}
        self._ctx: CardContext | None = None
        self._rendered: dict[str, tuple[object, ...]] = {}
        self.on_highlight: Callable[[], None] | None = None
        self._styles = LineStyles(KEEP_LINES)  # cards read as at other steps, mostly
        self._was_highlighted: int | None = None  # the card to redraw when the highlight moves
        self._frame_styles: tuple[Style, Style] | None = None  # while render_lines draws
        # Card lines as OptionList shows them (padded, with the option's meta), by the line
        # LineStyles drew (kept alongside: an id is only unique while its object lives).
        self._finished: LRUCache[tuple[object, ...], tuple[Strip, Strip]] = LRUCache(KEEP_LINES)

    def bind_keys(self, bindings: Iterable[Binding]) -> None:

        add_bindings(self, [*bindings])

    @property
    def selected_id(self) -> str | None:
        option = self.highlighted_option
        return option.id if option is not None else None

    def show(self, characters: Sequence[CharacterLike], ctx: CardContext) -> None:
        """Show ``characters``; only cards that changed are rendered again."""
        self.marked &= {c.id for c in characters}
        ids = [c.id for c in characters]
        selected = self.selected_id
        if ids != [o.id for o in self.options]:
            self._rendered.clear()
            self.set_options(self._option(c, ctx) for c in characters)
            if ids:
                self.highlighted = ids.index(selected) if selected in ids else 0
        else:
            for index, character in enumerate(characters):
                key = self._key(character, ctx)
                if self._rendered.get(character.id) != key:
                    self._rendered[character.id] = key
                    marked = character.id in self.marked
                    prompt = card(character, marked, ctx, self._t)
                    if not _same_look(self.options[index].prompt, prompt):
                        self.replace_option_prompt_at_index(index, prompt)
            if not self._line_cache.lines:
                # A card's height changed: count the lines now (OptionList._update_lines,
                # private in Textual 8.2.8), not while drawing, whose new virtual size asked
                # for a layout and a second frame after the jump's.
                self._update_lines()
        self._characters = {c.id: c for c in characters}
        self._ctx = ctx

    def _replace_option_prompt(self, index: int, prompt: VisualType) -> None:
        # OptionList's own version drops every card's rendering and every line count when one
        # card changes; a step changes a card or two: drop only that card's, and the line
        # counts only if its height changed (Textual 8.2.8's caches, keyed by the Option), and
        # redraw only its lines.
        option = self.get_option_at_index(index)
        option._set_prompt(prompt)
        cache = self._option_render_cache
        for key in [key for key in cache.keys() if key[0] is option]:  # noqa: SIM118 (no __iter__)
            cache.discard(key)
        height = self._line_cache.heights.get(index)
        width = self.scrollable_content_region.width - self._get_left_gutter_width()
        width -= self.get_component_styles("option-list--option").padding.width
        rules = cast(RulesMap, self.styles)
        if height is None or height != self._get_visual(option).get_height(rules, width) + (
            option._divider
        ):
            self._line_cache.clear()
            self.refresh()
        else:
            self._refresh_option(index)  # only its lines: the rest is not drawn again

    def _refresh_option(self, index: int | None) -> None:
        """Redraw one card's lines (all of the roster if they are not counted yet)."""
        if index is None:
            return
        start = self._line_cache.index_to_line.get(index)
        height = self._line_cache.heights.get(index)
        if start is None or height is None:
            self.refresh()
        else:
            self.refresh_lines(start, height)

    def _get_option_render(self, option: Option, style: Style) -> list[Strip]:
        # OptionList's (Textual 8.2.8, private) with the card's lines drawn by LineStyles: a
        # jump changes three or four cards, ~1 ms each through Visual.to_strips. The same
        # strips, the same cache; anything LineStyles declines is drawn Textual's way.
        padding = self.get_component_styles("option-list--option").padding
        cache_key = (option, style, padding)
        strips = self._option_render_cache.get(cache_key)
        if strips is not None:
            return strips
        width = self.scrollable_content_region.width - self._get_left_gutter_width()
        prompt = option.prompt
        if (
            padding
            or option._divider
            or not isinstance(prompt, Content)
            or not self._styles.ready(self)
            or (lines := self._styles.block(self, prompt, style, width)) is None
        ):
            return super()._get_option_render(option, style)
        index = self._option_to_index[option]
        meta = {"option": index}
        pad = style.rich_style
        strips = []
        for line in lines:
            # A line LineStyles kept (the same Strip) was padded and given this meta before.
            key = (id(line), width, pad, index)
            done = self._finished.get(key)
            if done is None or done[0] is not line:
                done = (line, line.extend_cell_length(width, pad).apply_meta(meta))
                self._finished[key] = done
            strips.append(done[1])
        self._option_render_cache[cache_key] = strips
        return strips

    def render_lines(self, crop: Region) -> list[Strip]:
        # A card's two styles looked up once a frame, not once a line (see render_line).
        self._frame_styles = (
            self.get_visual_style("option-list--option"),
            self.get_visual_style("option-list--option", "option-list--option-highlighted"),
        )
        try:
            return super().render_lines(crop)  # OptionList's counts the lines first
        finally:
            self._frame_styles = None

    def render_line(self, y: int) -> Strip:
        # OptionList.render_line (Textual 8.2.8) reading the line counts it has just made
        # (_line_cache, private; its _lines property counts them again, every line) and the
        # styles of render_lines: the same lines (tested against it). Anything unusual (a
        # disabled option, the one under the mouse: _mouse_hovering_over, private) is left to it.
        lines = self._line_cache.lines
        line_number = self.scroll_offset.y + y
        if self._frame_styles is None or line_number >= len(lines):
            return super().render_line(y)
        option_index, line_offset = lines[line_number]
        option = self.options[option_index]
        if option.disabled or self._mouse_hovering_over == option_index:
            return super().render_line(y)
        style = self._frame_styles[self.highlighted == option_index]
        strips = self._get_option_render(option, style)
        if line_offset >= len(strips):
            return super().render_line(y)
        return strips[line_offset]

    def _key(self, character: CharacterLike, ctx: CardContext) -> tuple[object, ...]:
        """What a card depends on: the clock only matters while an episode runs."""
        now = ctx.now if character.sanity.episode is not None else None
        return (character, character.id in self.marked, replace(ctx, now=0), now)

    def _option(self, character: CharacterLike, ctx: CardContext) -> Option:
        marked = character.id in self.marked
        self._rendered[character.id] = self._key(character, ctx)
        return Option(card(character, marked, ctx, self._t), id=character.id)

    # Widget's reactive without its layout. A card whose height changed gives the roster a new
    # virtual size, and Widget's virtual_size asks for a layout of the whole screen (~15 ms,
    # in the frame of one jump in six in a long replay). The roster's own size never depends on
    # it (height: 1fr here, and both screens keep it): only its scrollbar does, and
    # OptionList._update_lines (private, Textual 8.2.8) calls _scroll_update right after
    # setting it, which resizes the scrollbar or, through show_vertical_scrollbar (a reactive
    # with layout), asks for the layout that showing or hiding it needs.
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    # OptionList's reactive without its repaint of the whole roster: a new highlight redraws
    # only the two cards it moves between (a jump follows the character it is about).
    highlighted: reactive[int | None] = reactive(None, repaint=False)

    def watch_highlighted(self, highlighted: int | None) -> None:
        super().watch_highlighted(highlighted)
        self._refresh_option(self._was_highlighted)
        self._refresh_option(highlighted)
        self._was_highlighted = highlighted
        # Told at once rather than by message, so the detail pane is drawn in the same frame.
        if self.on_highlight is not None:
            self.on_highlight()

    def action_toggle_mark(self) -> None:
        selected = self.selected_id
        if selected is None:
            return
        self.marked ^= {selected}
        if self._ctx is not None:
            self.show(list(self._characters.values()), self._ctx)
        self.post_message(self.MarksChanged(frozenset(self.marked)))

    def targets(self) -> list[str]:
        """The marked characters in roster order, or the selected one if none is marked."""
        if self.marked:
            return [o.id for o in self.options if o.id in self.marked]
        selected = self.selected_id
        return [selected] if selected else []
