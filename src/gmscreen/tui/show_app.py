"""``gmscreen show``: the players' screen on a second display, following the GM's table live.

A separate app, like replay's, because it must never open the campaign's table: no lock, no
checkpoint, no journal, no session index. It looks at the campaign's files on an interval
(:class:`gmscreen.campaign.follow.CampaignFollower`: a few ``lstat`` calls when nothing changed)
and lays out what :func:`gmscreen.campaign.player_safe.player_safe` says the players may see,
with the GM's own player view's layout (:mod:`gmscreen.tui.screens.player_view`), in the
campaign's language as journaled (``L`` on the GM's screen shows here within a poll; ``--lang``
wins). It has no command that writes, so ``gmscreen serve`` can hand it to any browser, and it
draws no pop-up: nobody but the players sits at it.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.notifications import Notification
from textual.widgets import Static

from gmscreen.campaign.follow import CampaignFollower
from gmscreen.campaign.model import Campaign
from gmscreen.campaign.player_safe import player_safe
from gmscreen.campaign.store import read_checkpoint
from gmscreen.i18n import resolve_language
from gmscreen.tui.app_base import BaseApp, load_settings
from gmscreen.tui.config import UIConfig
from gmscreen.tui.i18n import Catalog
from gmscreen.tui.screens.player_view import said, show_players
from gmscreen.tui.screens.players import PlayersScreen

# How often the files are looked at: an event the GM makes shows within this and a frame.
POLL_SECONDS = 0.25


class Languages(msgspec.Struct, frozen=True):
    """The language the players' screen speaks: chosen as the GM's screen chooses it
    (:func:`gmscreen.i18n.resolve_language`: ``--lang``, the campaign's, the user's config's,
    the system's), with the campaign's setting as the follower last read it, so that ``L`` on
    the GM's screen (journaled at once, while the checkpoint waits) is followed."""

    flag: str | None
    user: str | None
    system: str | None

    def of(self, state: Campaign) -> str:
        return resolve_language(self.flag, state.settings.language, self.user, self.system)


class ShowScreen(PlayersScreen):
    """The players' view, large and calm: who is at the table and how each seems, the time,
    the notes the GM shared; a quiet line when the campaign cannot be read just now."""

    DEFAULT_CSS = """
    ShowScreen { background: $background; }
    ShowScreen #title {
        dock: top; height: 3; content-align: center middle; text-style: bold;
        background: $primary-muted; color: $text;
    }
    ShowScreen VerticalScroll { padding: 2 6; }
    ShowScreen #now { color: $text-muted; margin-bottom: 2; text-style: bold; }
    ShowScreen #players { width: 1fr; }
    ShowScreen #notes { margin-top: 2; }
    ShowScreen #status { dock: bottom; height: 1; color: $text-muted; content-align: center middle; }
    """

    def __init__(self, follower: CampaignFollower, catalog: Catalog, languages: Languages) -> None:
        super().__init__()
        self.follower = follower
        self.catalog = catalog
        self.languages = languages

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with VerticalScroll():
            yield Static(id="now")
            yield Static(id="players")
            yield Static(id="notes")
        yield Static(id="status")

    def on_mount(self) -> None:
        self.follower.poll()
        self.show_followed()
        self.set_interval(POLL_SECONDS, self.follow)

    def follow(self) -> None:
        if self.follower.poll():
            self.show_followed()

    def show_followed(self) -> None:
        """Lay out the follower's last reading (kept on screen while a reading fails), in the
        language it says (or ``--lang``'s)."""
        followed = self.follower.current
        if followed is not None:
            self.catalog.use(self.languages.of(followed.state))
        t = self.catalog.t
        status = self.query_one("#status", Static)
        # That it waits, never why: a file's problem may quote a value (a madness among them);
        # the GM's own gmscreen, or `gmscreen validate`, says what it is.
        status.update(said(t("show.waiting") if self.follower.problem else t("show.following")))
        if followed is None:
            return
        view = player_safe(followed.state, self.catalog.lang, followed.events)
        title = t("show.title", campaign=view.campaign)
        self.query_one("#title", Static).update(said(title))
        self.app.title = title
        show_players(self, view, t)


class ShowApp(BaseApp):
    """The players' screen: one screen, and only keys that read (help, quit)."""

    ENABLE_COMMAND_PALETTE = False  # the palette's commands are the GM's

    def __init__(
        self,
        follower: CampaignFollower,
        *,
        catalog: Catalog,
        config: UIConfig,
        languages: Languages,
        animations: bool = True,
        title: str | None = None,
        theme: str | None = None,
    ) -> None:
        super().__init__(catalog=catalog, config=config, animations=animations, title=title)
        self.follower = follower
        self.languages = languages
        self.players_theme = theme  # a Textual theme's name (a light one for a bright room)

    def on_mount(self) -> None:
        if self.players_theme:
            self.theme = self.players_theme
        self.set_keymap(self.config.keys)
        self.push_screen(ShowScreen(self.follower, self.catalog, self.languages))
        self._check_size(self.size.width, self.size.height)

    def players_look(self) -> bool:
        """Always: this whole app is the players'."""
        return True

    def wait_for_the_gm(self, notification: Notification) -> None:
        """Dropped: no GM sits at this screen, and nothing the players read is decided by a
        pop-up (only by :mod:`gmscreen.campaign.player_safe`)."""

    def action_help(self) -> None:
        """No help screen: it lists the GM's keys, and the players have only ``q``."""


def make_show_app(
    folder: Path,
    *,
    config_path: Path | None = None,
    lang: str | None = None,
    system_lang: str | None = None,
    strict: bool = False,
    animations: bool = True,
    title: str | None = None,
    theme: str | None = None,
) -> ShowApp:
    """The players' screen for the campaign in ``folder``. Reads ``campaign.toml`` once (raises
    ``CampaignFileError`` if it cannot) for a first language, chosen as in
    :func:`gmscreen.tui.app.make_app`; then the follower reads everything else, the language the
    GM last chose among it."""
    checkpoint, _ = read_checkpoint(folder)
    catalog, config = load_settings(
        config_path, lang, checkpoint.settings.language, system_lang, strict=strict
    )
    return ShowApp(
        CampaignFollower(folder),
        catalog=catalog,
        config=config,
        languages=Languages(lang, config.language, system_lang),
        animations=animations,
        title=title or catalog.t("show.title", campaign=checkpoint.name),
        theme=theme,
    )
