"""``gmscreen replay``: the session picker and the replay screen, without the GM's screen.

A separate app because it must not open the campaign's table: no lock, no checkpoint, no
journal, so it runs even while another gmscreen has the campaign open. ``make_replay_app`` is
its factory, shared by the CLI, the tests, the benchmark and the screenshots; it takes the same
outside-world settings as :func:`gmscreen.tui.app.make_app`.
"""

from __future__ import annotations

from pathlib import Path

from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.evenings import Evening
from gmscreen.campaign.model import DEFAULT_EVENING_HOURS, Campaign
from gmscreen.campaign.session_index import SessionListing
from gmscreen.campaign.store import read_checkpoint
from gmscreen.tui.app_base import BaseApp, load_settings
from gmscreen.tui.config import UIConfig
from gmscreen.tui.i18n import Catalog
from gmscreen.tui.screens.replay_picker import SessionPicker


class ReplayApp(BaseApp):
    def __init__(
        self,
        folder: Path,
        campaign_name: str,
        session: str | None,
        *,
        catalog: Catalog,
        config: UIConfig,
        animations: bool = True,
        title: str | None = None,
        listing: SessionListing | None = None,
        evening_hours: int = DEFAULT_EVENING_HOURS,
    ) -> None:
        super().__init__(catalog=catalog, config=config, animations=animations, title=title)
        self.evening_hours = evening_hours  # the campaign's: which journals are one session
        self.folder = folder
        self.campaign_name = campaign_name
        self.session = session
        self.listing = listing  # the sessions as the caller listed them; None: the picker lists
        self.picker: SessionPicker | None = None

    def on_mount(self) -> None:
        t = self.catalog.t
        self.picker = SessionPicker(
            self.folder,
            self.campaign_name,
            t,
            self.catalog.lang,
            listing=self.listing,
            evening_hours=self.evening_hours,
        )
        self.push_screen(self.picker, lambda _: self.exit())
        entry = self._session(self.picker)
        if entry is not None:
            self.picker.open(entry)
        self._check_size(self.size.width, self.size.height)

    def _session(self, picker: SessionPicker) -> Evening | None:
        """The session asked for, or None for the picker (none asked for, or no such one)."""
        if self.session is None:
            return None
        try:
            return picker.played.pick(self.session)
        except CampaignError:
            return None


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
    checkpoint: Campaign | None = None,
    listing: SessionListing | None = None,
) -> ReplayApp:
    """The replay app for the campaign in ``folder``, on ``session`` (an id) or the picker.

    Reads ``campaign.toml`` for the name and language (unless given its ``checkpoint``); raises
    ``CampaignFileError`` if it cannot. Given the ``listing`` of its sessions
    (:func:`session_index.list_entries`), the picker does not list them again. The language is chosen as in :func:`gmscreen.tui.app.make_app`.
    """
    if checkpoint is None:
        checkpoint, _ = read_checkpoint(folder)
    catalog, config = load_settings(
        config_path, lang, checkpoint.settings.language, system_lang, strict=strict
    )
    return ReplayApp(
        folder,
        checkpoint.name,
        session,
        catalog=catalog,
        config=config,
        animations=animations,
        title=title,
        listing=listing,
        evening_hours=checkpoint.settings.evening_hours,
    )
