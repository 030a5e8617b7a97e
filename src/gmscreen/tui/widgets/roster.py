"""The roster: one card per character, drawn line by line so that hundreds of cards stay fast.

Like the roll log (and toolong's log view) it is a ScrollView that draws only the lines in view,
each from a cache of Strips: a card is made for the roster's width (its meter as long as the
width leaves room for, its longer lines wrapped under their start), so its lines are counted
from its text; hundreds of cards cost nothing until they scroll into view, and a change of focus
or of the highlight redraws the lines on screen, not every card. A new width makes every card
again.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import ClassVar, Protocol

import msgspec
import msgspec.structs
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.content import Content, Span
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.visual import Visual

from gmscreen.campaign.model import Campaign, Item, MerpProfile
from gmscreen.campaign.wording import kind_label, units_text
from gmscreen.rules.madness import MadnessState, check_due
from gmscreen.text import inert_line
from gmscreen.tui.commands import bindings
from gmscreen.tui.format import episode_left
from gmscreen.tui.i18n import Translate
from gmscreen.tui.widgets import merp_lines
from gmscreen.tui.widgets.meter import fitted_meter
from gmscreen.tui.widgets.wrapping import hanging


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
    @property
    def merp(self) -> MerpProfile | None: ...
    @property
    def inventory(self) -> tuple[Item, ...]: ...


class CardContext(msgspec.Struct, frozen=True):
    """What a card needs besides the character: the clock, the settings and the language."""

    now: int
    round_seconds: int
    fumble_base: int
    madness: bool  # the campaign uses the madness module
    lang: str
    merp: bool = False  # the campaign uses the MERP special items

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
            merp=merp_lines.MODULE in settings.modules,
        )


CARD_INDENT = 2  # a card's lines start under its name
WRAP_INDENT = 4  # and the rows a long line wraps into, a little further in


def card(
    character: CharacterLike, marked: bool, ctx: CardContext, t: Translate, width: int = 0
) -> Content:
    """A character's card, as plain text for what players typed and styles for what we add.

    ``width`` is the card's in cells: the meter shortens to fit it and longer lines wrap (at 0,
    the widest meter and no wrapping)."""
    state = character.sanity
    head: list[str | Content | tuple[str, str]] = [
        ("◆ " if marked else "  ", "bold $accent"),
        (inert_line(character.name), "bold"),  # a file's text: control characters shown
    ]
    if character.player:
        head.append((" " + t("card.player", player=character.player), "dim"))
    if ctx.madness and check_due(state) and state.episode is None:
        head += ["  ", (t("card.check_due"), "bold $text on $error")]
    lines = [Content.assemble(*head)]
    if ctx.madness:
        bar_room = width - CARD_INDENT if width else 0
        lines.append(Content("  ") + fitted_meter(state, ctx.fumble_base, t, bar_room))
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
    elif ctx.merp:
        lines += merp_lines.card_lines(character, t, ctx.lang)
    if width:
        lines = [row for line in lines for row in hanging(line, width, CARD_INDENT, WRAP_INDENT)]
    lines.append(Content(""))  # a gap between cards (options take no vertical padding)
    return Content("\n").join(lines)


KEEP_LINES = 512  # card lines kept drawn: a few screens of them, in both looks


class Roster(ScrollView, can_focus=True):
    """Cards of every character; ``space`` marks several for a gain.

    :meth:`show` is the one way in ("show these characters"); the highlighted card is
    ``highlighted`` (an index) and ``selected_id``; ``on_highlight`` is told when it moves.
    """

    # The look of Textual's OptionList, which the roster was (the snapshots keep it).
    DEFAULT_CSS = """
    Roster {
        height: 1fr;
        color: $foreground;
        overflow-x: hidden;
        padding: 0 1;
        background: transparent;
        text-wrap: nowrap;
        scrollbar-gutter: stable;  /* the bar coming and going would change the cards' width */
        & > .roster--card-highlighted {
            color: $foreground;
            background: $block-cursor-blurred-background;
            text-style: $block-cursor-blurred-text-style;
        }
        & > .roster--card-hover {
            background: $block-hover-background;
        }
        &:focus {
            background-tint: $foreground 5%;
            & > .roster--card-highlighted {
                color: $block-cursor-foreground;
                background: $block-cursor-background;
                text-style: $block-cursor-text-style;
            }
        }
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "roster--card",
        "roster--card-highlighted",
        "roster--card-hover",
    }
    BINDINGS: ClassVar[list[BindingType]] = [  # OptionList's moves, and the roster's commands
        Binding("down", "cursor_down", "Down", show=False),
        Binding("up", "cursor_up", "Up", show=False),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
        Binding("pageup", "page_up", "Page Up", show=False),
        Binding("pagedown", "page_down", "Page Down", show=False),
        *bindings("roster"),
    ]
    MARKING = frozenset({"toggle_mark", "clear_marks"})

    class MarksChanged(Message):
        def __init__(self, marked: frozenset[str]) -> None:
            self.marked = marked
            super().__init__()

    highlighted: reactive[int | None] = reactive(None, repaint=False)

    def __init__(self, t: Translate, *, marking: bool = True, id: str | None = None) -> None:
        """``marking``: the GM marks characters here (space, esc); a replay's roster only moves."""
        super().__init__(id=id)
        self._t = t
        self.marking = marking
        self.marked: set[str] = set()
        self.on_highlight: Callable[[], None] | None = None
        self._characters: list[CharacterLike] = []
        self._ctx: CardContext | None = None
        self._ids: list[str] = []
        self._keys: list[tuple[object, ...]] = []  # what each card was made from (see _key)
        self._cards: list[Content] = []
        self._card_lines: list[list[Content]] = []
        self._starts: list[int] = []  # each card's first line
        self._line_count = 0
        self._width = 0  # the cards' width (0 until the roster has a size)
        self._was_highlighted: int | None = None
        self._hovered: int | None = None  # the card under the mouse
        self._strips: LRUCache[tuple[object, ...], Strip] = LRUCache(KEEP_LINES)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.marking or action not in self.MARKING

    # --- what is shown -----------------------------------------------------------------------

    @property
    def option_count(self) -> int:
        """How many cards there are."""
        return len(self._ids)

    @property
    def ids(self) -> list[str]:
        """The characters' ids, in roster order."""
        return list(self._ids)

    def card_at(self, index: int) -> Content:
        """The card at ``index``, as shown."""
        return self._cards[index]

    @property
    def selected_id(self) -> str | None:
        index = self.highlighted
        return self._ids[index] if index is not None else None

    def show(
        self, characters: Sequence[CharacterLike], ctx: CardContext, *, remake: bool = False
    ) -> None:
        """Show ``characters``; only the lines of cards that changed are drawn again (all of
        them with ``remake``)."""
        self.marked &= {c.id for c in characters}
        selected = self.selected_id
        ids = [c.id for c in characters]
        self._characters = list(characters)
        self._ctx = ctx
        if ids != self._ids or remake:
            self._ids = ids
            self._keys = [self._key(c, ctx) for c in characters]
            self._cards = [
                card(c, c.id in self.marked, ctx, self._t, self._width) for c in characters
            ]
            self._card_lines = [_lines(c) for c in self._cards]
            self._count_lines()
            self.refresh()
            index = ids.index(selected) if selected in ids else 0
            self.highlighted = index if ids else None
            return
        recount = False
        for index, character in enumerate(characters):
            key = self._key(character, ctx)
            if self._keys[index] == key:
                continue
            self._keys[index] = key
            prompt = card(character, character.id in self.marked, ctx, self._t, self._width)
            if _same_look(self._cards[index], prompt):
                continue
            lines = _lines(prompt)
            recount |= len(lines) != len(self._card_lines[index])
            self._cards[index], self._card_lines[index] = prompt, lines
            if not recount:
                self._refresh_card(index)
        if recount:
            self._count_lines()
            self.refresh()

    def _count_lines(self) -> None:
        starts, total = [], 0
        for lines in self._card_lines:
            starts.append(total)
            total += len(lines)
        self._starts, self._line_count = starts, total
        self.virtual_size = Size(self.size.width, total)  # the scroll range: Textual lays out

    def _key(self, character: CharacterLike, ctx: CardContext) -> tuple[object, ...]:
        """What a card depends on: the clock only matters while an episode runs."""
        now = ctx.now if character.sanity.episode is not None else None
        return (character, character.id in self.marked, msgspec.structs.replace(ctx, now=0), now)

    # --- drawing -----------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        line_number = self.scroll_offset.y + y
        width = self.scrollable_content_region.width
        if line_number >= self._line_count:
            return Strip.blank(width, self.get_visual_style("roster--card").rich_style)
        index = bisect_right(self._starts, line_number) - 1
        line = self._card_lines[index][line_number - self._starts[index]]
        if index == self.highlighted:
            style = self.get_visual_style("roster--card", "roster--card-highlighted")
        elif index == self._hovered:
            style = self.get_visual_style("roster--card", "roster--card-hover")
        else:
            style = self.get_visual_style("roster--card")
        spans: tuple[Span, ...] = tuple(line.spans)
        key = (line.plain, spans, style, width)
        strip = self._strips.get(key)
        if strip is None:
            strips = Visual.to_strips(self, line, width, 1, style)
            strip = strips[0] if strips else Strip.blank(0)
            strip = strip.extend_cell_length(width, style.rich_style)
            self._strips[key] = strip
        return strip

    def _refresh_card(self, index: int | None) -> None:
        """Draw one card's lines again."""
        if index is None or index >= len(self._starts):
            return
        self.refresh_lines(self._starts[index], len(self._card_lines[index]))

    @property
    def card_width(self) -> int:
        """The width the cards are made for."""
        return self._width

    def on_resize(self) -> None:
        width = self.scrollable_content_region.width
        if width != self._width:
            self._width = width
            if self._ctx is not None:  # every card again, for the new width
                self.show(self._characters, self._ctx, remake=True)
        self._count_lines()
        self.scroll_to_highlight()

    # --- the highlight -----------------------------------------------------------------------

    def validate_highlighted(self, highlighted: int | None) -> int | None:
        if highlighted is None or not self._ids:
            return None
        return max(0, min(highlighted, len(self._ids) - 1))

    def watch_highlighted(self, highlighted: int | None) -> None:
        if highlighted != self._was_highlighted:
            self._refresh_card(self._was_highlighted)
            self._refresh_card(highlighted)
            self._was_highlighted = highlighted
        self.scroll_to_highlight()
        # Told at once rather than by message, so the detail pane is drawn in the same frame.
        if self.on_highlight is not None:
            self.on_highlight()

    def scroll_to_highlight(self) -> None:
        """Bring the highlighted card into view."""
        index = self.highlighted
        if index is None or not self.is_mounted or index >= len(self._starts):
            return
        region = Region(0, self._starts[index], self.size.width, len(self._card_lines[index]))
        self.scroll_to_region(region, animate=False, force=True, immediate=True)

    def _move(self, index: int) -> None:
        if self._ids:
            self.highlighted = index % len(self._ids)

    def action_cursor_down(self) -> None:
        """The next card; the last stays (wrapping round to the top lost the GM's place)."""
        if self._ids:
            self._move(
                0 if self.highlighted is None else min(self.highlighted + 1, len(self._ids) - 1)
            )

    def action_cursor_up(self) -> None:
        """The previous card; the first stays."""
        self._move(0 if self.highlighted is None else max(self.highlighted - 1, 0))

    def action_first(self) -> None:
        self._move(0)

    def action_last(self) -> None:
        self._move(-1)

    def _page(self, direction: int) -> None:
        if not self._ids:
            return
        line = (
            self._starts[self.highlighted or 0] + direction * self.scrollable_content_region.height
        )
        line = max(0, min(line, self._line_count - 1))
        self.highlighted = bisect_right(self._starts, line) - 1

    def action_page_down(self) -> None:
        self._page(1)

    def action_page_up(self) -> None:
        self._page(-1)

    def _card_under(self, event: events.MouseEvent) -> int | None:
        offset = event.get_content_offset(self)
        if offset is None:
            return None
        line = self.scroll_offset.y + offset.y
        return bisect_right(self._starts, line) - 1 if line < self._line_count else None

    def on_click(self, event: events.Click) -> None:
        index = self._card_under(event)
        if index is not None:
            self.highlighted = index

    def _hover(self, index: int | None) -> None:
        if index != self._hovered:
            self._refresh_card(self._hovered)
            self._hovered = index
            self._refresh_card(index)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._hover(self._card_under(event))

    def on_leave(self) -> None:
        self._hover(None)

    # --- marks -------------------------------------------------------------------------------

    def action_toggle_mark(self) -> None:
        selected = self.selected_id
        if selected is None:
            return
        self.marked ^= {selected}
        if self._ctx is not None:
            self.show(self._characters, self._ctx)
        self.post_message(self.MarksChanged(frozenset(self.marked)))

    def clear_marks(self) -> None:
        """No character marked (after a gain went to them, or on ``esc``)."""
        if not self.marked:
            return
        self.marked.clear()
        if self._ctx is not None:
            self.show(self._characters, self._ctx)
        self.post_message(self.MarksChanged(frozenset()))

    def action_clear_marks(self) -> None:
        self.clear_marks()

    def targets(self) -> list[str]:
        """The marked characters in roster order, or the selected one if none is marked."""
        if self.marked:
            return [i for i in self._ids if i in self.marked]
        selected = self.selected_id
        return [selected] if selected else []


def _lines(prompt: Content) -> list[Content]:
    return prompt.split(allow_blank=True)


def _same_look(old: Content, new: Content) -> bool:
    """Same text and styles (Content's ``==`` compares the text only): the card as drawn is
    still right, as when the clock moved but an episode's time left reads the same."""
    return old.plain == new.plain and old.spans == new.spans
