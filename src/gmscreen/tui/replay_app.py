"""``gmscreen replay``: the session picker and the replay screen, without the GM's screen.

A separate app because it must not open the campaign's table: no lock, no checkpoint, no
journal, so it runs even while another gmscreen has the campaign open. ``make_replay_app`` is
its factory, shared by the CLI, the tests, the benchmark and the screenshots; it takes the same
outside-world settings as :func:`gmscreen.tui.app.make_app`.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from pathlib import Path

from textual.app import App, SystemCommand
from textual.events import Resize
from textual.screen import Screen

from gmscreen.campaign.journal import SessionLog
from gmscreen.campaign.store import read_checkpoint
from gmscreen.i18n import resolve_language
from gmscreen.tui.commands import add_bindings, bindings, palette_commands, relabel_bindings
from gmscreen.tui.config import UIConfig, load_config
from gmscreen.tui.i18n import Catalog
from gmscreen.tui.screens.help import HelpScreen
from gmscreen.tui.screens.replay_picker import SessionPicker
from gmscreen.tui.screens.too_small import MIN_HEIGHT, MIN_WIDTH, TooSmallScreen


class ReplayApp(App[None]):
    ENABLE_COMMAND_PALETTE = True

    def __init__(
        self,
        folder: Path,
        campaign_name: str,
        session: str | None,
        *,
        catalog: Catalog,
        config: UIConfig,
        animations: bool = True,
    ) -> None:
        super().__init__()
        self.folder = folder
        self.campaign_name = campaign_name
        self.session = session
        self.catalog = catalog
        self.config = config
        if not animations:
            self.animation_level = "none"
        self.title = catalog.t("app.title")
        add_bindings(self, bindings("app", catalog.t))
        self.picker: SessionPicker | None = None

    def on_mount(self) -> None:
        t = self.catalog.t
        self.set_keymap(self.config.keys)
        self.picker = SessionPicker(self.folder, self.campaign_name, t, self.catalog.lang)
        self.push_screen(self.picker, lambda _: self.exit())
        log = self._session(self.picker.logs)
        if log is not None:
            self.picker.open(log)
        self._check_size(self.size.width, self.size.height)

    def _session(self, logs: list[SessionLog]) -> SessionLog | None:
        for log in logs:
            if self.session in (log.header.id, log.path.name):
                return log
        return None

    def on_resize(self, event: Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int, height: int) -> None:
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        message = self.catalog.t(
            "app.too_small", width=width, height=height, min_width=MIN_WIDTH, min_height=MIN_HEIGHT
        )
        top = self.screen
        if small and not isinstance(top, TooSmallScreen):
            self.push_screen(TooSmallScreen(message))
        elif small and isinstance(top, TooSmallScreen):
            top.update(message)
        elif not small and isinstance(top, TooSmallScreen):
            self.pop_screen()

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        t = self.catalog.t
        for command in palette_commands(("app",)):  # the replay screen adds its own
            yield SystemCommand(
                t(f"command.{command.id}.name"),
                t(f"command.{command.id}.help"),
                partial(self.run_action, command.action),
            )

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.catalog.t, self.config.keys))

    async def action_quit(self) -> None:
        self.exit()


def make_replay_app(
    folder: Path,
    session: str | None = None,
    *,
    config_path: Path | None = None,
    lang: str | None = None,
    system_lang: str | None = None,
    strict: bool = False,
    animations: bool = True,
    title: str | None = None,
) -> ReplayApp:
    """The replay app for the campaign in ``folder``, on ``session`` (an id) or the picker.

    Reads ``campaign.toml`` for the name and language; raises ``CampaignFileError`` if it cannot.
    The language is chosen as in :func:`gmscreen.tui.app.make_app`.
    """
    checkpoint, _ = read_checkpoint(folder)
    config = load_config(config_path)
    language = resolve_language(lang, checkpoint.settings.language, config.language, system_lang)
    app = ReplayApp(
        folder,
        checkpoint.name,
        session,
        catalog=Catalog(language, strict=strict),
        config=config,
        animations=animations,
    )
    relabel_bindings(app, app.catalog.t)  # the palette key's word, in the app's language
    if title:
        app.title = title
    return app
