"""The GM's screen's undo (``u``, asks first, saying what in words) and redo (``U``, at once:
``u`` takes it back again). Undo reaches back past a reopen: see :mod:`gmscreen.campaign.undo`."""

from __future__ import annotations

from gmscreen.tui.screens.dialogs import ConfirmScreen
from gmscreen.tui.screens.flow import Flow
from gmscreen.tui.typeahead import open_screen


async def undo(flow: Flow) -> None:
    t, live = flow.t, flow.live
    what = live.describe_last_undoable(flow.lang)
    if what is None:
        flow.say(t("app.nothing_to_undo"), "warning")
        return

    def answered(sure: bool | None) -> None:
        if sure and flow.act(live.undo):
            flow.say(t("app.undone", what=what))

    dialog = ConfirmScreen(t("confirm.undo_title"), t("confirm.undo_question", what=what), t)
    await open_screen(flow.screen, dialog, answered)


def redo(flow: Flow) -> None:
    what = flow.live.describe_last_redoable(flow.lang)
    if what is None:
        flow.say(flow.t("app.nothing_to_redo"), "warning")
    elif flow.act(flow.live.redo):
        flow.say(flow.t("app.redone", what=what))
