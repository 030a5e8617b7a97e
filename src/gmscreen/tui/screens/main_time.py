"""The GM's screen's clock: advance by an amount typed (``a``), asking first across more than
``actions.ASK_ABOVE_DAYS`` midnights."""

from __future__ import annotations

from gmscreen.campaign.actions import ASK_ABOVE_DAYS
from gmscreen.rules.nights import midnights
from gmscreen.tui.screens.dialogs import AdvanceScreen, ConfirmScreen
from gmscreen.tui.screens.flow import Flow
from gmscreen.tui.typeahead import open_screen


async def ask_advance(flow: Flow) -> None:
    async def advance_by(seconds: int | None) -> None:
        if seconds:
            await advance(flow, seconds)

    dialog = AdvanceScreen(flow.t, flow.live.state.settings.round_seconds)
    await open_screen(flow.screen, dialog, advance_by)


async def advance(flow: Flow, seconds: int) -> None:
    """Advance the clock; across more than ASK_ABOVE_DAYS midnights, once the GM says yes."""
    live, t = flow.live, flow.t
    days = midnights(live.state.clock, live.state.clock + seconds)
    if days <= ASK_ABOVE_DAYS:
        flow.act(lambda: live.advance(seconds))
        return

    def answered(sure: bool | None) -> None:
        if sure:
            flow.act(lambda: live.advance(seconds, confirmed=True))

    dialog = ConfirmScreen(t("advance.long_title", days=days), t("advance.long_question"), t)
    await open_screen(flow.screen, dialog, answered)
