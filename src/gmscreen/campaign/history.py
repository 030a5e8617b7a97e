"""A campaign's earlier sessions: the few opening read, the rest read when asked for.

Opening a campaign reads its checkpoint and only the newest journals (those it must replay, and
the last session played, which the GM's log shows: :func:`store.load_recent`). Everything else
a screen or an action may want of older sessions (the detail pane's madness history, undo
reaching back into an earlier session, a replay) comes through :class:`SessionHistory`, which
reads a journal the first time it is asked for and keeps it. Reading never writes.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

from gmscreen.campaign.errors import CampaignFileError
from gmscreen.campaign.journal import SessionLog, read_session


class SessionHistory:
    """The journals on disk when the campaign was opened (``paths``, oldest first), read on
    demand and kept once read. ``opened``: those opening read (the newest), oldest first.

    Safe to use from a worker thread while the screen reads it too: a journal is read once.
    """

    def __init__(self, paths: Sequence[Path], opened: Sequence[SessionLog]) -> None:
        self.paths = tuple(paths)
        self.opened = tuple(opened)
        self._logs = {log.path: log for log in opened}
        self._reading = threading.Lock()

    def is_read(self, path: Path) -> bool:
        return path in self._logs

    def log(self, path: Path) -> SessionLog:
        """The session journal at ``path``, read now if it was not yet.

        Damaged lines before the last are left out as on opening (``SessionLog.damaged`` says
        which). Raises :class:`CampaignFileError` for a journal that cannot be read at all.
        """
        with self._reading:
            log = self._logs.get(path)
            if log is None:
                log = self._logs[path] = read_session(path, damaged_ok=True)
            return log

    def newest_first(self, count: int) -> Iterator[SessionLog]:
        """Up to the last ``count`` sessions, the newest first, each read as it is reached; an
        unreadable journal ends the run: what is before it is no recent history."""
        for path in reversed(self.paths[-count:] if count > 0 else ()):
            try:
                yield self.log(path)
            except CampaignFileError:
                return
