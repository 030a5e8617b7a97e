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

A dialog that goes also lets go of its drawn lines (``KeptBackground.on_screen_suspend``).
Textual 8.2.8 keeps each widget's line cache alive after the widget is gone: ``StylesCache``'s
``get_inner_outer`` is an ``lru_cache`` on a method, so its 1,024 keys hold the caches of the
last few hundred widgets drawn (Textualize/textual#6665, open). Every gain picker opened left
~6,000 objects (its lines) for the collector to walk at each full pass: over an evening's first
hundred dialogs the passes grew from ~20 to well over 100 ms, and one came every second picker.
"""

from __future__ import annotations

from typing import Any, Protocol, Self, TypeVar, runtime_checkable

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from textual.css.styles import RulesMap
from textual.geometry import Region
from textual.screen import ModalScreen
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual, visualize

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
        # Refreshing a widget clears its line cache (it will be drawn anew), which Textual's
        # lru_cache would otherwise keep for hundreds of dialogs more: see the module. Done as
        # the dialog goes (Textual suspends it first; by its unmount its widgets are gone) or
        # is covered by another screen (it is drawn anew when it comes back).
        for widget in (self, *self.walk_children()):
            widget.refresh()

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
            base = visualize(self, super().render())
            self._kept = (key, Visual.to_strips(self, base, width, height, style))
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
