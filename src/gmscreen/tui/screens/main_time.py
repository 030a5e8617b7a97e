"""The GM's screen's clock: advance by an amount typed (``a``), asking first across more than
``actions.ASK_ABOVE_DAYS`` midnights.

Kept apart from the main screen (which only delegates here) and light: the dialogs load when
first asked for, not for the first frame.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from textual.screen import Screen

from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.model import Campaign
from gmscreen.tui.i18n import Translate
from gmscreen.tui.typeahead import open_screen


class Host(Protocol):
    """What advancing the clock needs of the screen it opens over (the GM's screen is one)."""

    live: LiveCampaign
    t: Translate

    @property
    def screen(self) -> Screen[Any]: ...
    @property
    def state(self) -> Campaign: ...
    def do(self, what: Callable[[], object]) -> bool: ...


async def ask_advance(host: Host) -> None:
    from gmscreen.tui.screens.dialogs import AdvanceScreen

    async def advance_by(seconds: int | None) -> None:
        if seconds:
            await advance(host, seconds)

    dialog = AdvanceScreen(host.t, host.state.settings.round_seconds)
    await open_screen(host.screen, dialog, advance_by)


async def advance(host: Host, seconds: int) -> None:
    """Advance the clock; across more than ASK_ABOVE_DAYS midnights, once the GM says yes."""
    from gmscreen.campaign.actions import ASK_ABOVE_DAYS
    from gmscreen.rules.nights import midnights
    from gmscreen.tui.screens.dialogs import ConfirmScreen

    days = midnights(host.state.clock, host.state.clock + seconds)
    if days <= ASK_ABOVE_DAYS:
        host.do(lambda: host.live.advance(seconds))
        return

    def answered(sure: bool | None) -> None:
        if sure:
            host.do(lambda: host.live.advance(seconds, confirmed=True))

    title = host.t("advance.long_title", days=days)
    dialog = ConfirmScreen(title, host.t("advance.long_question"), host.t)
    await open_screen(host.screen, dialog, answered)
