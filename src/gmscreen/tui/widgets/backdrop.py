"""A dialog's dimmed background, drawn again only when the screen below changes.

A modal screen with a translucent background shows the GM's screen through it: Textual draws the
whole screen below, tints every cell and splits it into lines (``BackgroundScreen``) each time
the dialog's own background is drawn, and opening a dialog draws it three times (when the dialog
resumes, when it gets its size, and when the screen below redraws its scrollbars). Over a
200-character roster that is ~60% of the time to open the gain picker. :class:`KeptBackground`
keeps the lines drawn, for the same size and style, until the screen below tells the dialog that
part of it changed (Textual passes the regions below that were redrawn to the top screen's
``refresh``): the dialog's own resizes and resumes reuse them, anything new below is drawn.

A screen below may also say what it shows: a :class:`ShowsRevision` screen (the GM's screen)
bumps ``shown_revision`` whenever it draws something new (its state, selection, marks, log
filter or search, language, a write fault) and sets ``settled_revision`` once that is on the
screen. While the revision is the settled one the dialog first drew over, repaints below
(Textual repaints the whole screen below as a dialog opens: focus, scrollbars) change nothing
it shows and cost nothing; once it moves (a check's roll shows in the log below), every
repaint below is drawn again, as for any other screen.

Every screen that goes lets go of its drawn lines (:func:`let_go_of_lines`, from the app's
``pop_screen``). Textual 8.2.8 keeps each widget's line cache alive after the widget is gone:
``StylesCache``'s ``get_inner_outer`` is an ``lru_cache`` on a method, so its 1,024 keys hold
the caches of the last few hundred widgets drawn (Textualize/textual#6665, open). Every gain
picker opened left ~6,000 objects (its lines) for the collector to walk at each full pass: over
an evening's first hundred dialogs the passes grew from ~20 to well over 100 ms, and one came
every second picker.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import islice
from typing import Any, Protocol, Self, TypeVar, runtime_checkable

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.app import App
from textual.color import Color
from textual.css.styles import RulesMap
from textual.geometry import Region
from textual.renderables.background_screen import BackgroundScreen
from textual.screen import ModalScreen, Screen
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual, visualize
from textual.widget import Widget

R = TypeVar("R")


@runtime_checkable
class ShowsRevision(Protocol):
    """A screen that counts what it draws: see the module."""

    shown_revision: int  # bumped each time it draws something new
    settled_revision: int  # the revision last on the screen (its layout done)


class KeptBackground(ModalScreen[R]):
    """A ModalScreen whose translucent background is drawn once per change below it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.below_changes = 0  # how often the screen below told us part of it changed
        self._kept: tuple[object, list[Strip]] | None = None
        self._opened_over: int | None = None  # the settled revision below at the first draw

    def on_screen_suspend(self) -> None:
        # What is below will have changed by the time the dialog is shown again.
        self._kept = None
        self._opened_over = None

    def render(self) -> RenderableType:
        if self.styles.background.a >= 1:
            return super().render()  # opaque: nothing below shows
        return _KeptLines(self)

    def background_lines(self, width: int, height: int | None, style: Style) -> list[Strip]:
        """The background's lines, drawn by Textual (the screen below, tinted) when the size,
        the style or what is below changed since they were last drawn."""
        if self._opened_over is None:
            below = self._revision_below()
            if below is not None and below.settled_revision == below.shown_revision:
                self._opened_over = below.shown_revision
                if self._kept is not None:  # drawn while the screen below was still changing
                    self.below_changes += 1
        key = (width, height, style, self.styles.background, self.below_changes)
        if self._kept is None or self._kept[0] != key:
            drawn = super().render()
            if isinstance(drawn, BackgroundScreen):
                lines = tinted_lines(self.app, drawn, width, height, style)
            else:  # nothing below to show (no screen under it): what Textual draws
                lines = Visual.to_strips(self, visualize(self, drawn), width, height, style)
            self._kept = (key, lines)
        return self._kept[1]

    def refresh(
        self,
        *regions: Region,
        repaint: bool = True,
        layout: bool = False,
        recompose: bool = False,
    ) -> Self:
        if regions and not self._below_unchanged():
            self.below_changes += 1  # parts of the screen below were redrawn: draw anew
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def _revision_below(self) -> ShowsRevision | None:
        stack = self.app.screen_stack
        if self not in stack or stack.index(self) == 0:
            return None
        below = stack[stack.index(self) - 1]
        return below if isinstance(below, ShowsRevision) else None

    def _below_unchanged(self) -> bool:
        """Whether the screen below still shows what it showed when this dialog first drew."""
        if self._opened_over is None:
            return False
        below = self._revision_below()
        return below is not None and below.shown_revision == self._opened_over


def tinted_lines(
    app: App[Any], below: BackgroundScreen, width: int, height: int | None, style: Style
) -> list[Strip]:
    """The screen below a dialog, tinted, as lines on the dialog's ``style``: what Textual
    draws (``Visual.to_strips`` of its BackgroundScreen), in about half the time: each style
    is tinted once, not once per piece of text, and the lines, the screen's width, are not
    cropped or padded again."""
    options = app.console_options.update(highlight=False, width=width, height=height)
    segments = app.console.render(_TintOnce(below, style.rich_style), options)
    lines = Segment.split_and_crop_lines(segments, width, include_new_lines=False, pad=False)
    return [Strip(line, width) for line in islice(lines, height)]


def let_go_of_lines(screen: Screen[Any]) -> None:
    """Empty the line caches of a screen that is going (see the module): refreshing a widget
    clears them (it would be drawn anew), which Textual's ``lru_cache`` would otherwise keep
    for hundreds of screens more. Done as the screen leaves the stack, before its unmount (by
    then its widgets are gone). A screen kept to be shown again (installed) keeps them: its
    widgets live on, and their lines are what makes showing it again cheap."""
    for widget in (screen, *screen.walk_children(Widget)):
        widget.refresh()
        # Its scroll bars are drawn (and cached) too, but are not among its children.
        vertical, horizontal = widget.show_vertical_scrollbar, widget.show_horizontal_scrollbar
        if vertical:
            widget.vertical_scrollbar.refresh()
        if horizontal:
            widget.horizontal_scrollbar.refresh()
        if vertical and horizontal:
            widget.scrollbar_corner.refresh()


class _TintOnce(BackgroundScreen):
    """Textual's tinted screen below, on the dialog's base style, each style tinted once."""

    def __init__(self, below: BackgroundScreen, base: RichStyle) -> None:
        super().__init__(below.screen, below.color)
        self.base = base

    def process_segments(  # type: ignore[override]  # Textual calls it on the instance
        self, segments: Iterable[Segment], color: Color
    ) -> Iterable[Segment]:
        base = self.base
        for text, style, control in segments:
            if control:
                yield Segment(text, style, control)
            else:
                yield Segment(text, _tinted(style, color, base))


@lru_cache(maxsize=2048)
def _tinted(style: RichStyle | None, color: Color, base: RichStyle) -> RichStyle:
    """``style`` as Textual draws it below a dialog: its links and meta dropped, its colours
    blended with ``color`` (BackgroundScreen), on the dialog's ``base`` style (the renderable's
    post-render styling). A screen has a few dozen styles, each on many pieces of text."""
    if style is None:
        return base + _PLAIN
    style = style.clear_meta_and_links()
    if color.a == 0:
        return base + style
    foreground = None if style.color is None else (Color.from_rich_color(style.color) + color)
    background = None if style.bgcolor is None else (Color.from_rich_color(style.bgcolor) + color)
    return base + (
        style
        + RichStyle.from_color(
            None if foreground is None else foreground.rich_color,
            None if background is None else background.rich_color,
        )
    )


_PLAIN = RichStyle()


class _KeptLines(Visual):
    """The background of a :class:`KeptBackground` as a Visual; as a Rich renderable (for
    anything that asks), what Textual's own background renders."""

    def __init__(self, screen: KeptBackground[Any]) -> None:
        self.screen = screen

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        return self.screen.background_lines(width, height, style)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return container_width

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self.screen.size.height

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield ModalScreen.render(self.screen)
