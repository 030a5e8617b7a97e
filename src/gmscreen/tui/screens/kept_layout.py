"""A screen that is not laid out again when a dialog over it goes.

When a dialog closes, Textual (8.2.8) resumes the screen below, which repaints it whole, and then
takes the dialog down; once the dialog's widgets are gone, it refreshes the app, and so the screen
now shown, *with a layout*, twice (Textual's removal refreshes the parent of what it removed, and
a screen's parent is the app). Nothing the screen's layout depends on changed. On the GM's screen
that cost two more frames after the one that already shows the dialog's result: the layout
(which redraws every ScrollView's scrollbars) and one for the scrollbars it marked, each waiting
for Textual's next frame slot: about a third of the time from the dialog's last key to the last
frame.

:class:`KeptLayout` lays itself out only when what its own layout depends on changed since its
last one: its size, its children (the widgets mounted on the screen itself) or its classes (the
breakpoints' ``-short``, ``-tall``). Its widgets ask for their own layouts through Textual's
layout messages, which this leaves alone, and a resize is laid out by Textual directly. A request
it drops still repaints, except in the moment after a dialog went (``AFTER_DIALOG``: Textual asks
as it takes the dialog down): resumed, the screen was repainted whole, and its widgets tell of
their own changes. A
screen whose own styles change what its layout is (``styles`` set in code, ``loading``) should not
be one.
"""

from __future__ import annotations

from typing import Self, TypeVar

from textual.geometry import Region
from textual.screen import Screen

R = TypeVar("R")


AFTER_DIALOG = 0.5  # seconds after a dialog went in which a dropped request skips its repaint


class KeptLayout(Screen[R]):
    """A screen laid out again only when its size, children or classes changed: see the module."""

    def __init__(self) -> None:
        super().__init__()
        self.resumes = 0  # times shown: the first is its opening, later ones a dialog's going
        self._laid_out: tuple[object, ...] | None = None  # the inputs of the last layout
        self._dialog_went = False  # resumed over a dialog that went, a moment ago

    def on_mount(self) -> None:
        self.screen_layout_refresh_signal.subscribe(self, self._note_layout)

    def on_screen_resume(self) -> None:
        self.resumes += 1
        if self.resumes > 1:  # not its opening: a dialog over it went
            self._dialog_went = True
            self.set_timer(AFTER_DIALOG, self._dialog_gone)

    def on_screen_suspend(self) -> None:
        self._dialog_went = False

    def _layout_inputs(self) -> tuple[object, ...]:
        return (self.size, tuple(self.children), self.classes)

    def _note_layout(self, _: Screen[R]) -> None:
        self._laid_out = self._layout_inputs()

    def refresh(
        self,
        *regions: Region,
        repaint: bool = True,
        layout: bool = False,
        recompose: bool = False,
    ) -> Self:
        if layout and not recompose and self._laid_out == self._layout_inputs():
            layout = False
            if self._dialog_went and not regions:
                return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def _dialog_gone(self) -> None:
        self._dialog_went = False
