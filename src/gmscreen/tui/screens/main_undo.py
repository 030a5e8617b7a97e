"""The GM's screen's undo (``u``, asks first, saying what in words) and redo (``U``, at once:
``u`` takes it back again). Undo reaches back past a reopen: see :mod:`gmscreen.campaign.undo`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from textual.notifications import SeverityLevel
from textual.screen import Screen

from gmscreen.campaign.live import LiveCampaign
from gmscreen.tui.i18n import Translate
from gmscreen.tui.typeahead import open_screen


class Host(Protocol):
    """What undo and redo need of the screen they act from (the GM's screen is one)."""

    live: LiveCampaign
    t: Translate
    lang: str

    @property
    def screen(self) -> Screen[Any]: ...
    def do(self, what: Callable[[], object]) -> bool: ...
    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...


async def undo(host: Host) -> None:
    from gmscreen.tui.screens.dialogs import ConfirmScreen

    what = host.live.describe_last_undoable(host.lang)
    if what is None:
        host.notify(host.t("app.nothing_to_undo"), severity="warning")
        return

    def answered(sure: bool | None) -> None:
        if sure and host.do(host.live.undo):
            host.notify(host.t("app.undone", what=what))

    question = host.t("confirm.undo_question", what=what)
    dialog = ConfirmScreen(host.t("confirm.undo_title"), question, host.t)
    await open_screen(host.screen, dialog, answered)


def redo(host: Host) -> None:
    what = host.live.describe_last_redoable(host.lang)
    if what is None:
        host.notify(host.t("app.nothing_to_redo"), severity="warning")
    elif host.do(host.live.redo):
        host.notify(host.t("app.redone", what=what))
