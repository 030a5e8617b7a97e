"""What the GM's app, the replay app and the players' screen (``show``) share: the settings, the
words, the app's own commands, help, the screen shown when the terminal is too small, and the one
rule for pop-ups (none over a players' screen).

Nothing here opens a campaign's table: the replay app builds on it and must never take the
campaign's lock.
"""

from __future__ import annotations

import asyncio
import gc
import signal
import sys
from collections.abc import Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

from textual import on
from textual.app import App, SystemCommand
from textual.await_complete import AwaitComplete
from textual.events import Mount, Resize
from textual.notifications import Notification, Notify, SeverityLevel
from textual.screen import Screen
from textual.widget import Widget

from gmscreen.i18n import resolve_language
from gmscreen.text import inert, inert_line
from gmscreen.tui.commands import Command, bindings, palette_commands
from gmscreen.tui.config import UIConfig, load_config
from gmscreen.tui.i18n import Catalog
from gmscreen.tui.screens.help import HelpScreen
from gmscreen.tui.screens.players import PlayersScreen
from gmscreen.tui.screens.too_small import TooSmallScreen

MIN_WIDTH = 80  # below this the layout does not fit: a message is shown instead
MIN_HEIGHT = 24


def load_settings(
    config_path: Path | None,
    lang: str | None,
    campaign_lang: str | None,
    system_lang: str | None,
    *,
    strict: bool,
) -> tuple[Catalog, UIConfig]:
    """The user config (None: none at all) and the catalog in the language chosen by
    :func:`gmscreen.i18n.resolve_language`; ``strict`` makes a missing key an error (tests)."""
    config = load_config(config_path)
    language = resolve_language(lang, campaign_lang, config.language, system_lang)
    return Catalog(language, strict=strict), config


class BaseApp(App[None]):
    TITLE = "gmscreen"
    ENABLE_COMMAND_PALETTE = True
    BINDINGS = bindings("app")

    def __init__(
        self,
        *,
        catalog: Catalog,
        config: UIConfig,
        animations: bool = True,
        cursor_blink: bool = True,
        title: str | None = None,
    ) -> None:
        super().__init__()
        self.catalog = catalog
        self.config = config
        self.cursor_blink = cursor_blink  # read by our text inputs
        self._too_small: TooSmallScreen | None = None  # the one shown while the terminal is small
        # Pop-ups drawn on the GM's screens (as Textual keeps them: until their time is up), and
        # those that wait while the players look (see "pop-ups and the players' screens" below)
        self._pop_ups: list[Notification] = []
        self._waiting_pop_ups: list[Notification] = []
        self._players_looked = False
        if not animations:
            self.animation_level = "none"
        self.title = inert_line(title or catalog.t("app.title"))
        self.set_keymap(config.keys)  # the GM's [keys]: Textual remaps the bindings by id

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Every pop-up of the app, our own and the widgets' (``widget.notify`` comes here,
        passing ``markup=True``, its default): shown literally, whatever ``markup`` says. Our
        messages carry names, notes and paths, so they are never read as markup (``Bad[/]``
        raised MarkupError, ``[bold]x[/]`` turned bold, ``Elric [PC]`` lost its ``[PC]``), and
        no control character in them reaches the terminal (:func:`gmscreen.text.inert`)."""
        del markup  # no pop-up of gmscreen uses markup: a caller's text is never parsed
        super().notify(
            inert(message), title=inert(title), severity=severity, timeout=timeout, markup=False
        )

    # --- pop-ups and the players' screens ----------------------------------------------------
    #
    # One rule: no pop-up is drawn while the players look (a players' screen is in the stack: the
    # player view, or show's screen). Opening one clears the pop-ups on screen first; those and
    # any raised while the players look wait, and are shown again, each for its whole time, once
    # the GM's screen is back. ``show`` has no GM's screen: it never draws one (ShowApp).
    # Decided as Textual handles the Notify message (Textual draws a pop-up there) and as the
    # screen changes (its public screen_change_signal, published as the stack changes), so the
    # order in which a pop-up and ``p`` arrive does not matter.

    @on(Mount)
    def follow_the_screens(self) -> None:
        self.screen_change_signal.subscribe(self, self.screen_changed, immediate=True)

    def players_look(self) -> bool:
        """Whether a players' screen is up: shown, or under what the GM opened over it."""
        return any(isinstance(screen, PlayersScreen) for screen in self.screen_stack)

    @on(Notify)
    def pop_up_or_wait(self, event: Notify) -> None:
        if self.players_look():
            event.prevent_default()  # Textual's own handler, which draws it, does not run
            self.wait_for_the_gm(event.notification)
        else:
            self._pop_ups = [*self.pop_ups_shown(), event.notification]

    def pop_ups_shown(self) -> list[Notification]:
        """The pop-ups on the GM's screen now (Textual keeps no public list of them), oldest
        first: those whose time is not up and that no players' screen has cleared."""
        self._pop_ups = [n for n in self._pop_ups if not n.has_expired]
        return list(self._pop_ups)

    def clear_notifications(self) -> None:
        self._pop_ups = []
        super().clear_notifications()

    def wait_for_the_gm(self, notification: Notification) -> None:
        """Keep ``notification`` for the GM's screen (once: a notice repeated while the players
        look is shown once)."""
        said = (notification.message, notification.title, notification.severity)
        if all((n.message, n.title, n.severity) != said for n in self._waiting_pop_ups):
            self._waiting_pop_ups.append(notification)

    def screen_changed(self, screen: Screen[Any]) -> None:
        looking = self.players_look()
        if looking and not self._players_looked:
            for notification in self.pop_ups_shown():
                self.wait_for_the_gm(notification)
            self.clear_notifications()  # before the players' screen draws its first frame
        elif self._players_looked and not looking:
            waiting, self._waiting_pop_ups = self._waiting_pop_ups, []
            for n in waiting:  # made inert as they were first raised
                super().notify(
                    n.message, title=n.title, severity=n.severity, timeout=n.timeout, markup=False
                )
        self._players_looked = looking

    def pop_screen(self) -> AwaitComplete:
        leaving = self.screen
        popped = super().pop_screen()
        let_go_of_lines(leaving)
        return popped

    def on_ready(self) -> None:
        # What start-up made (modules, classes, styles, the first screen) lives as long as the
        # app: frozen once the first frame is up, the collector's full passes no longer walk it
        # (they walked ~100,000 objects, ~50,000 after this; benchmarks/bench_tui.py).
        gc.freeze()

    def journal_path(self) -> Path | None:
        """The journal this app writes (None: it writes none), for a crash report to name."""
        return None

    def on_mount(self) -> None:
        # A terminal that closes sends SIGHUP: the app ends as its quit key ends it (the GM's
        # screen writes its checkpoint and lets go of the lock first), whatever the parent left
        # the signal as (one that ignores it, as nohup does, left a screen running with no
        # terminal). Windows has no SIGHUP; a headless app (tests) has no terminal to lose.
        if sys.platform != "win32" and not self.is_headless:
            asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, self.hang_up)

    def hang_up(self) -> None:
        """The terminal is gone: quit."""
        self.call_next(self.run_action, "quit")

    # --- too small ---------------------------------------------------------------------------

    def on_resize(self, event: Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int, height: int) -> None:
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        message = self.catalog.t(
            "app.too_small", width=width, height=height, min_width=MIN_WIDTH, min_height=MIN_HEIGHT
        )
        shown = self._too_small if self._too_small is self.screen else None
        if small and shown is None:
            self._too_small = TooSmallScreen(message)
            self.push_screen(self._too_small)
        elif small and shown is not None:
            shown.update(message)
        elif not small and shown is not None:
            self.pop_screen()
            self._too_small = None

    # --- commands ----------------------------------------------------------------------------

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The app's own commands, always; a screen's own commands (its ``PALETTE_COMMANDS``,
        as the item and replay screens have) when the palette is opened over it, run on it."""
        yield from self.system_commands(palette_commands(("app",)), self)
        own = set(getattr(screen, "PALETTE_COMMANDS", ()))
        mine = (c for c in palette_commands(("items", "replay")) if c.id in own)
        yield from self.system_commands(mine, screen)

    def system_commands(
        self, commands: Iterable[Command], target: App[None] | Widget
    ) -> Iterator[SystemCommand]:
        t = self.catalog.t
        for command in commands:
            yield SystemCommand(
                t(f"command.{command.id}.name"),
                t(f"command.{command.id}.help"),
                partial(target.run_action, command.action),
            )

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.catalog.t, self.config.keys))

    async def action_quit(self) -> None:
        self.exit()


def let_go_of_lines(screen: Screen[Any]) -> None:
    """Empty the line caches of a screen that is going, as it leaves the stack (before its
    unmount: by then its widgets are gone). Refreshing a widget clears them.

    Textual 8.2.8 keeps each widget's line cache alive after the widget is gone: ``StylesCache``'s
    ``get_inner_outer`` is an ``lru_cache`` on a method, whose 1,024 keys hold the caches of the
    last few hundred widgets drawn (https://github.com/Textualize/textual/issues/6665, open).
    Remove this once a Textual release fixes it."""
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
