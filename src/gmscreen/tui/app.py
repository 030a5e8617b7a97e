"""The app and its factory, shared by the CLI, the tests, the benchmarks and the screenshots.

``make_app`` takes everything that would otherwise come from the outside world: the campaign
(a folder, or a table already open), the random generator, the wall clock, the user config file
(None: none at all, as in tests), the language, and whether to animate and blink.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import SystemCommand
from textual.screen import Screen

from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.opening import open_campaign
from gmscreen.tui.app_base import BaseApp, load_settings
from gmscreen.tui.commands import palette_commands
from gmscreen.tui.config import KEY_PROBLEMS, UIConfig, keys_message
from gmscreen.tui.i18n import Catalog
from gmscreen.tui.screens.main import MainScreen

if TYPE_CHECKING:
    from gmscreen.tui.serving import PlayersServing


class GMScreenApp(BaseApp):
    def __init__(
        self,
        live: LiveCampaign,
        *,
        rng: random.Random,
        catalog: Catalog,
        config: UIConfig,
        owns_campaign: bool,
        animations: bool = True,
        cursor_blink: bool = True,
        title: str | None = None,
    ) -> None:
        super().__init__(
            catalog=catalog,
            config=config,
            animations=animations,
            cursor_blink=cursor_blink,
            title=title,
        )
        self.live = live
        self.rng = rng
        self.owns_campaign = owns_campaign
        self.main: MainScreen | None = None
        self.quit_problem: str | None = None  # set on quit if campaign.toml was not written
        self.serving: PlayersServing | None = None  # the players' screen served from the palette
        self.throwaway = False  # a temporary copy (the demo, an example): the header says so

    def journal_path(self) -> Path | None:
        # before the session's first event there is no journal file yet: its campaign folder
        return self.live.session_path or self.live.folder

    def get_default_screen(self) -> MainScreen:
        # The main screen is the default one: building a blank default screen first and then
        # pushing this one cost a second compose and layout before the first frame.
        self.main = MainScreen(self.live, self.catalog, self.rng, self.config.keys)
        self.main.throwaway = self.throwaway
        return self.main

    def on_mount(self) -> None:
        t = self.catalog.t
        for notice in self.live.notices:
            self.notify(notice, severity="warning", timeout=10)
        # What the campaign must tell the GM later (a journal written anew, a checkpoint that
        # failed): said on screen as it happens.
        self.live.notice_listeners.append(
            lambda text: self.notify(text, severity="warning", timeout=20)
        )
        keys = keys_message(self.config.problems, t)
        if keys is not None:
            self.notify(keys, severity="warning", timeout=20)
        # The periodic checkpoint runs after the frame, off the key that crossed the threshold.
        self.live.defer_checkpoint = self.call_after_refresh
        for problem in self.config.problems:
            kind, _, detail = problem.partition(":")
            if kind in KEY_PROBLEMS:
                continue
            if kind == "language":
                self.notify(t("app.config_bad_language", value=detail), severity="warning")
            else:
                self.notify(t("app.config_file", problem=detail), severity="warning")
        self._check_size(self.size.width, self.size.height)

    def on_ready(self) -> None:
        # The session index, brought up to date once the GM's screen is up (in a thread: with
        # years of sessions, or none indexed yet, it reads what the index lacks).
        self.run_worker(self.live.refresh_index, thread=True)

    def _check_size(self, width: int, height: int) -> None:
        if self.main is not None:
            super()._check_size(width, height)

    # --- commands ----------------------------------------------------------------------------

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        # ``screen`` is the one the palette was opened over: the main screen's commands act on
        # the main screen, so over any other (replay, item tables, dialogs) they are left out.
        if self.main is not None and screen is self.main:
            yield from self.system_commands(palette_commands(("main", "rulings")), self.main)
            if self.serving is None:  # loaded when the palette first opens, not at start-up
                from gmscreen.tui.serving import PlayersServing

                self.serving = PlayersServing(self.live.folder, self.catalog)
            yield from self.serving.commands(self)
        yield from super().get_system_commands(screen)

    async def action_quit(self) -> None:
        if self.serving is not None:  # the players' screens end with the GM's
            self.serving.stop()
        self.close_table()
        # campaign.toml could not be written: the command says what was kept, and exits 1
        self.quit_problem = self.live.close_problem
        await super().action_quit()

    def close_table(self) -> None:
        if self.owns_campaign:
            self.live.close()
        else:
            try:
                self.live.checkpoint()
            except CampaignError as error:  # said at exit, as close() would
                self.live.close_problem = str(error)

    def on_unmount(self) -> None:
        self.live.notice_listeners.clear()  # the screen that told them is gone
        self.live.defer_checkpoint = None
        if self.owns_campaign:
            self.live.close()


def make_app(
    campaign: LiveCampaign | Path | str,
    *,
    rng: random.Random | None = None,
    clock: Callable[[], datetime] | None = None,
    config_path: Path | None = None,
    lang: str | None = None,
    system_lang: str | None = None,
    strict: bool = False,
    animations: bool = True,
    cursor_blink: bool = True,
    title: str | None = None,
    take_over: bool = False,
    throwaway: bool = False,
) -> GMScreenApp:
    """The app for ``campaign``: an open :class:`LiveCampaign`, or a campaign folder to open (and close).

    ``config_path`` None reads no user config at all; ``strict`` makes a missing catalog key an
    error instead of an English fallback (tests). The language is ``lang`` (``--lang``), else the
    campaign's, else the user config's, else ``system_lang`` (the CLI passes the locale's; tests
    leave it out), else English: :func:`gmscreen.i18n.resolve_language`. ``take_over``: see
    :func:`~gmscreen.campaign.lock.acquire` (``--take-over``). ``throwaway``: the campaign is a
    temporary copy (the demo, an example of the repository), which the header says.
    """
    rng = rng if rng is not None else random.Random()
    owns = not isinstance(campaign, LiveCampaign)
    live = (
        open_campaign(campaign, rng=rng, clock=clock, take_over=take_over)
        if not isinstance(campaign, LiveCampaign)
        else campaign
    )
    catalog, config = load_settings(
        config_path, lang, live.state.settings.language, system_lang, strict=strict
    )
    app = GMScreenApp(
        live,
        rng=rng,
        catalog=catalog,
        config=config,
        owns_campaign=owns,
        animations=animations,
        cursor_blink=cursor_blink,
        title=title,
    )
    app.throwaway = throwaway
    return app
