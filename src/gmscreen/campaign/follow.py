"""Following a campaign that another gmscreen is playing, without touching it (``gmscreen show``).

The follower takes no lock and writes nothing: no checkpoint, no session index, no ``.corrupt``
copy. It reads ``campaign.toml`` and the session journals through the store's own bounded readers
(regular files only, no link followed, a size bound), and brings the checkpoint up to date with
them as opening does (what :func:`store.recover` would give, which the tests check).

:meth:`CampaignFollower.poll` is cheap when nothing changed: one ``lstat`` of the checkpoint, the
sessions folder and each journal. The GM quitting (a checkpoint written), reopening and starting
a new session file (a new journal in ``sessions/``) are all changes seen this way.

What it keeps is bounded by what the players' screen shows, not by the journals' size: the
newest journal is read a line at a time, once, then only what is appended
(:class:`follow_journal.StreamedJournal`: the state and a few earlier states, no event); of its
notes, only the events of those shown (:mod:`follow_notes`). The older journals are not read:
the newest one's header holds what they did. A torn last line is an action the GM is still
writing: left out, it is read once it is whole.
"""

from __future__ import annotations

import os
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from gmscreen.campaign import events as ev
from gmscreen.campaign.errors import CampaignError, CampaignFileError
from gmscreen.campaign.follow_journal import Damaged, Identity, StreamedJournal, WholeJournal
from gmscreen.campaign.journal import list_sessions
from gmscreen.campaign.model import Campaign
from gmscreen.campaign.store import campaign_file, read_checkpoint, sessions_dir


@dataclass(frozen=True, slots=True)
class Followed:
    """The campaign as it stands now, and the events of its newest session that the notes the
    players' screen shows are made of (see :mod:`follow_notes`): what
    :func:`player_safe.player_safe` needs, nothing laid out yet."""

    state: Campaign
    events: tuple[ev.Event, ...]
    session: str  # the newest session's id ("" before the first)


def _identity(path: Path) -> Identity | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


class CampaignFollower:
    """Reads the campaign in ``folder`` again whenever its files change; never writes.

    ``current`` is the last reading that succeeded (None before the first); ``problem`` says why
    the last reading failed (None when it did not), in words, for the screen to show while it
    keeps the last good reading.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.current: Followed | None = None
        self.problem: str | None = None
        self._seen: tuple[object, ...] | None = None
        self._checkpoint: tuple[Identity | None, Campaign] | None = None
        self._newest: StreamedJournal | WholeJournal | None = None

    def _signature(self) -> tuple[object, ...]:
        sessions = sessions_dir(self.folder)
        journals: list[tuple[str, Identity | None]] = []
        with suppress(CampaignError):  # said by the reading itself, which lists them again
            journals = [(p.name, _identity(p)) for p in list_sessions(sessions)]
        return (_identity(campaign_file(self.folder)), _identity(sessions), tuple(journals))

    def poll(self) -> bool:
        """Look at the files; read them again if they changed. True if ``current`` or
        ``problem`` changed (the screen has something new to show)."""
        signature = self._signature()
        if signature == self._seen:
            return False
        before = (self.current, self.problem)
        try:
            self.current = self._read()
            self.problem = None
            self._seen = signature
        except CampaignFileError as error:
            self._failed(str(error.problems[0]) if error.problems else str(error))
        except CampaignError as error:
            self._failed(str(error))
        except OSError as error:
            self._failed(f"{error.filename or self.folder}: {error.strerror or error}")
        return (self.current, self.problem) != before

    def _failed(self, problem: str) -> None:
        self.problem = problem
        self._seen = None  # look again next time, even if nothing seems to change
        self._newest = None  # and read the newest journal afresh

    def _read_checkpoint(self) -> tuple[Identity | None, Campaign]:
        identity = _identity(campaign_file(self.folder))
        if self._checkpoint is None or identity is None or self._checkpoint[0] != identity:
            checkpoint, _ = read_checkpoint(self.folder)
            self._checkpoint = (identity, checkpoint)
        return self._checkpoint

    def _read(self) -> Followed:
        # The checkpoint first: the GM appends to a journal before checkpointing, so journals
        # read after it are at least as new as it is.
        _, checkpoint = self._read_checkpoint()
        paths = list_sessions(sessions_dir(self.folder))
        if not paths:
            self._newest = None
            return Followed(checkpoint, (), "")
        # Only the newest journal is read: sequence numbers grow from one session to the next,
        # so its header holds every event of the older ones (what opening recovered, when a
        # gmscreen that crashed left some the checkpoint lacks), and a checkpoint newer than it
        # holds some of its own.
        newest = self._follow(paths[-1])
        return Followed(newest.shown_state(checkpoint), newest.notes_events(), newest.session)

    def _follow(self, path: Path) -> StreamedJournal | WholeJournal:
        """The newest journal, read on from where the last reading ended if it only grew."""
        identity = _identity(path)
        journal = self._newest
        if journal is not None and journal.path == path and identity is not None:
            if journal.identity == identity:
                return journal
            if journal.can_grow(identity):
                try:
                    journal.grow(identity)
                    return journal
                except Damaged:
                    pass
        self._newest = None
        try:
            journal = StreamedJournal(path, identity)
        except Damaged:
            journal = WholeJournal(path, identity)
        self._newest = journal
        return journal
