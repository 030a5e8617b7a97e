"""Following a campaign that another gmscreen is playing, without touching it (``gmscreen show``).

The follower takes no lock and writes nothing: no checkpoint, no session index, no ``.corrupt``
copy. It reads ``campaign.toml`` and the session journals through the store's own bounded readers
(:func:`store.read_checkpoint`, :func:`journal.read_session`: regular files only, no link
followed, a size bound), and brings the checkpoint up to date with them as opening does
(:func:`store.recover`, which is pure). A torn last line is an action the GM is still writing:
left out, it is read on the next look once it is whole.

:meth:`CampaignFollower.poll` is cheap when nothing changed: one ``lstat`` of the checkpoint, the
sessions folder and each journal. Only a journal whose size, time or inode changed is read again,
so a long campaign costs its journals' reading once. The GM quitting (a checkpoint written),
reopening and starting a new session file (a new journal in ``sessions/``) are all changes seen
this way.
"""

from __future__ import annotations

import os
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from gmscreen.campaign import events as ev
from gmscreen.campaign.errors import CampaignError, CampaignFileError
from gmscreen.campaign.journal import SessionLog, list_sessions, read_session
from gmscreen.campaign.model import Campaign
from gmscreen.campaign.store import campaign_file, read_checkpoint, recover, sessions_dir

# What a file looked like when last read: inode, size, modification time (ns). A journal only
# grows by appends (size), a checkpoint is replaced whole (inode), a rewrite changes both.
Identity = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Followed:
    """The campaign as it stands now, and the events of its newest session (for the notes the
    GM shared in it): what :func:`player_safe.player_safe` needs, nothing laid out yet."""

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
        self._logs: dict[Path, tuple[Identity, SessionLog]] = {}

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
            self.problem = str(error.problems[0]) if error.problems else str(error)
            self._seen = None  # look again next time, even if nothing seems to change
        except CampaignError as error:
            self.problem = str(error)
            self._seen = None
        except OSError as error:
            self.problem = f"{error.filename or self.folder}: {error.strerror or error}"
            self._seen = None
        return (self.current, self.problem) != before

    def _read(self) -> Followed:
        # The checkpoint first: the GM appends to a journal before checkpointing, so journals
        # read after it are at least as new as it is.
        checkpoint, _ = read_checkpoint(self.folder)
        logs: list[SessionLog] = []
        kept: dict[Path, tuple[Identity, SessionLog]] = {}
        for path in list_sessions(sessions_dir(self.folder)):
            identity = _identity(path)
            cached = self._logs.get(path)
            if cached is not None and identity is not None and cached[0] == identity:
                log = cached[1]
            else:
                log = read_session(path, damaged_ok=True)
                if identity is not None:
                    kept[path] = (identity, log)
            kept.setdefault(path, (identity or (0, 0, 0), log))
            logs.append(log)
        self._logs = kept
        state = recover(checkpoint, logs).state
        newest = logs[-1] if logs else None
        events = tuple(newest.events) if newest is not None else ()
        return Followed(state, events, newest.header.id if newest is not None else "")
