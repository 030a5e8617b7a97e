"""The app and its factory, shared by the CLI, the tests, the benchmarks and the screenshots.

``make_app`` takes everything that would otherwise come from the outside world: the campaign
(a folder, or a table already open), the random generator, the wall clock, the user config file
(None: none at all, as in tests), the language, and whether to animate and blink.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from datetime import datetime
from functools import partial
from pathlib import Path

from textual.app import App, SystemCommand
from textual.events import Resize
from textual.screen import Screen

from gmscreen.campaign.table import Table, open_table
from gmscreen.i18n import resolve_language
from gmscreen.tui.commands import add_bindings, bindings, palette_commands, relabel_bindings
from gmscreen.tui.config import UIConfig, load_config
from gmscreen.tui.i18n import Catalog
from gmscreen.tui.screens.help import HelpScreen
from gmscreen.tui.screens.main import MainScreen
from gmscreen.tui.screens.too_small import MIN_HEIGHT, MIN_WIDTH, TooSmallScreen


class GMScreenApp(App[None]):
    TITLE = "gmscreen"
    ENABLE_COMMAND_PALETTE = True

    def __init__(
        self,
        table: Table,
        *,
        rng: random.Random,
        catalog: Catalog,
        config: UIConfig,
        owns_table: bool,
        animations: bool = True,
        cursor_blink: bool = True,
    ) -> None:
        super().__init__()
        self.table = table
        self.rng = rng
        self.catalog = catalog
        self.config = config
        self.owns_table = owns_table
        self.cursor_blink = cursor_blink
        if not animations:
            self.animation_level = "none"
        self.title = catalog.t("app.title")
        add_bindings(self, bindings("app", catalog.t))
        self.main: MainScreen | None = None

    def get_default_screen(self) -> MainScreen:
        # The main screen is the default one: building a blank default screen first and then
        # pushing this one cost a second compose and layout before the first frame.
        self.main = MainScreen(
            self.table, self.catalog.t, self.catalog.lang, self.rng, self.config.keys
        )
        return self.main

    def on_mount(self) -> None:
        t = self.catalog.t
        self.set_keymap(self.config.keys)
        for notice in self.table.notices:
            self.notify(notice, severity="warning", timeout=10)
        for problem in self.config.problems:
            kind, _, detail = problem.partition(":")
            key = {"unknown": "app.config_unknown_key", "bad": "app.config_bad_key"}.get(kind)
            if key:
                self.notify(t(key, id=detail), severity="warning")
            elif kind == "language":
                self.notify(t("app.config_bad_language", value=detail), severity="warning")
            else:
                self.notify(t("app.config_file", problem=detail), severity="warning")
        self._check_size(self.size.width, self.size.height)

    # --- too small ---------------------------------------------------------------------------

    def on_resize(self, event: Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int, height: int) -> None:
        if self.main is None:
            return
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        message = self.catalog.t(
            "app.too_small",
            width=width,
            height=height,
            min_width=MIN_WIDTH,
            min_height=MIN_HEIGHT,
        )
        top = self.screen
        if small and not isinstance(top, TooSmallScreen):
            self.push_screen(TooSmallScreen(message))
        elif small and isinstance(top, TooSmallScreen):
            top.update(message)
        elif not small and isinstance(top, TooSmallScreen):
            self.pop_screen()

    # --- commands ----------------------------------------------------------------------------

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        t = self.catalog.t
        for command in palette_commands(("main", "app")):
            target = self if command.scope == "app" or self.main is None else self.main
            yield SystemCommand(
                t(f"command.{command.id}.name"),
                t(f"command.{command.id}.help"),
                partial(target.run_action, command.action),
            )
        # a screen with commands of its own (the item screens) lists them too, run on it
        own = set(getattr(screen, "PALETTE_COMMANDS", ()))
        for command in palette_commands(("items",)):
            if command.id in own:
                yield SystemCommand(
                    t(f"command.{command.id}.name"),
                    t(f"command.{command.id}.help"),
                    partial(screen.run_action, command.action),
                )

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.catalog.t, self.config.keys))

    async def action_quit(self) -> None:
        self.close_table()
        self.exit()

    def close_table(self) -> None:
        if self.owns_table:
            self.table.close()
        else:
            self.table.checkpoint()

    def on_unmount(self) -> None:
        if self.owns_table:
            self.table.close()


def make_app(
    campaign: Table | Path | str,
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
) -> GMScreenApp:
    """The app for ``campaign``: an open :class:`Table`, or a campaign folder to open (and close).

    ``config_path`` None reads no user config at all; ``strict`` makes a missing catalog key an
    error instead of an English fallback (tests). The language is ``lang`` (``--lang``), else the
    campaign's, else the user config's, else ``system_lang`` (the CLI passes the locale's; tests
    leave it out), else English: :func:`gmscreen.i18n.resolve_language`.
    """
    rng = rng if rng is not None else random.Random()
    owns = not isinstance(campaign, Table)
    table = (
        open_table(campaign, rng=rng, clock=clock) if not isinstance(campaign, Table) else campaign
    )
    config = load_config(config_path)
    language = resolve_language(lang, table.state.settings.language, config.language, system_lang)
    app = GMScreenApp(
        table,
        rng=rng,
        catalog=Catalog(language, strict=strict),
        config=config,
        owns_table=owns,
        animations=animations,
        cursor_blink=cursor_blink,
    )
    relabel_bindings(app, app.catalog.t)  # the palette key's word, in the app's language
    if title:
        app.title = title
    return app
