"""A screen that is not laid out again when a dialog over it goes.

When a dialog closes, Textual (8.2.8) resumes the screen below, which repaints it whole, and then
takes the dialog down; once the dialog's widgets are gone, it refreshes the app, and so the screen
now shown, *with a layout* (``App._prune`` refreshes the parent of what it removed, and a
screen's parent is the app). Nothing the screen's layout depends on changed: its size is the
app's (a resize meanwhile is laid out by Textual's resume itself, which compares the sizes), and
its widgets ask for their own layouts through Textual's layout messages, which this leaves alone.
On the GM's screen that request cost two more frames after the one that already shows the
dialog's result: the layout (every ScrollView's scrollbars are redrawn by it) and one for the
scrollbars it marked, each waiting for Textual's next frame slot: about a third of the time
from the dialog's last key to the last frame.

:class:`KeptLayout` drops those requests: a ``refresh(layout=True)`` of the screen itself (no
regions), at the app's size, from the moment it is resumed over a dialog that went until the next
frame after the first one dropped. Every other refresh, and every layout its widgets ask for,
goes to Textual unchanged. A screen that may mount or remove widgets of its own (children of the
screen itself) right after a dialog closes should not be one.
"""

from __future__ import annotations

from typing import Self, TypeVar

from textual.geometry import Region
from textual.screen import Screen

R = TypeVar("R")


class KeptLayout(Screen[R]):
    """A screen whose layout is left as it is when a dialog over it goes: see the module."""

    def __init__(self) -> None:
        super().__init__()
        self.resumes = 0  # times shown: the first is its opening, later ones a dialog's going
        self._dialog_went = False  # resumed over a dialog that went, and no frame since
        self._ending = False  # the end of that is asked for, after the next frame

    def on_screen_resume(self) -> None:
        self.resumes += 1
        self._dialog_went = self.resumes > 1

    def on_screen_suspend(self) -> None:
        self._dialog_went = False

    def refresh(
        self,
        *regions: Region,
        repaint: bool = True,
        layout: bool = False,
        recompose: bool = False,
    ) -> Self:
        if layout and not regions and not recompose and self._layout_unchanged():
            # Resumed, the screen was repainted whole, and its widgets tell of their changes
            # themselves: a repaint here would draw the same frame once more.
            if not self._ending:  # Textual asks twice, one right after the other
                self._ending = True
                self.call_after_refresh(self._dialog_gone)
            return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def _layout_unchanged(self) -> bool:
        return self._dialog_went and self.is_attached and self.size == self.app.size

    def _dialog_gone(self) -> None:
        self._dialog_went = self._ending = False
