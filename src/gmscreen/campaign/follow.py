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

An event the GM journals costs the size of the event, not of the evening: a journal that only
grew (same inode, longer) is read from where the last reading ended, its new whole lines are
checked to follow on (the next sequence numbers, actions of this session) and added to the log
read before; and when nothing else changed and none of them is an undo, they are folded onto the
state shown before (what :func:`store.recover` would give, without folding the evening again).
Anything else (a rewritten journal, a line that does not follow, an undo, a new checkpoint) is
read and folded whole, as before.
"""

from __future__ import annotations

import os
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from gmscreen.campaign import events as ev
from gmscreen.campaign.errors import CampaignError, CampaignFileError
from gmscreen.campaign.journal import SessionLog, line_events, list_sessions, read_session
from gmscreen.campaign.model import Campaign
from gmscreen.campaign.reducer import ReplayError, fold, void_actions
from gmscreen.campaign.safe_files import JOURNAL_LIMIT, read_regular
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


@dataclass(frozen=True, slots=True)
class _Journal:
    """A journal as last read: what the file looked like, its log, and where its last whole
    line ends (None: read it whole next time, e.g. it ended in a torn line)."""

    identity: Identity
    log: SessionLog
    end: int | None
    actions: frozenset[int]  # the actions its events belong to, for the lines that follow


def _journal(path: Path, identity: Identity | None) -> _Journal:
    """``path`` read whole (the size ``identity`` saw is where a later reading starts)."""
    log = read_session(path, damaged_ok=True)
    whole = identity is not None and log.torn is None and not log.damaged
    return _Journal(
        identity or (0, 0, 0),
        log,
        identity[1] if whole and identity is not None else None,
        frozenset(e.action for e in log.events),
    )


def _appended(
    path: Path, was: _Journal, identity: Identity
) -> tuple[_Journal, list[ev.Event]] | None:
    """The journal ``was`` with the whole lines appended since, and their events; None when
    it must be read whole (rewritten, or what follows is not simply the next events)."""
    if was.end is None or identity[0] != was.identity[0] or identity[1] <= was.end:
        return None
    data = read_regular(path, JOURNAL_LIMIT, was.end)  # what was appended since
    cut = data.rfind(b"\n")
    if not data or data[:1] == b"\n":
        return None  # an empty line, or the file was cut and written to again: read it whole
    new: list[ev.Event] = []
    actions = set(was.actions)
    expected = was.log.last_seq + 1
    for line in data[:cut].split(b"\n") if cut >= 0 else ():
        try:
            events = line_events(line)
        except ev.EventFormatError:
            return None  # a damaged line: reading it whole says where
        for event in events:
            if event.action == event.seq:
                actions.add(event.seq)
            undone = event.data.target if isinstance(event.data, ev.Undo) else None
            if (
                event.seq != expected
                or event.action not in actions
                or (undone is not None and undone not in actions)
            ):
                return None
            expected += 1
        new += events
    log = was.log
    grown = SessionLog(log.path, log.header, [*log.events, *new]) if new else log
    end = was.end + cut + 1 if cut >= 0 else was.end
    return _Journal(identity, grown, end, frozenset(actions)), new


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
        self._journals: dict[Path, _Journal] = {}
        self._checkpoint: tuple[Identity | None, Campaign] | None = None
        # the checkpoint and the journals (path, identity) the state in ``current`` was folded
        # from, and whether that fold took in the newest journal (recover skips one it covers)
        self._folded: tuple[Identity | None, tuple[tuple[Path, Identity], ...], bool] | None = None

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
            self._folded = None
        except CampaignError as error:
            self.problem = str(error)
            self._seen = None
            self._folded = None
        except OSError as error:
            self.problem = f"{error.filename or self.folder}: {error.strerror or error}"
            self._seen = None
            self._folded = None
        return (self.current, self.problem) != before

    def _read_checkpoint(self) -> tuple[Identity | None, Campaign]:
        identity = _identity(campaign_file(self.folder))
        if self._checkpoint is None or identity is None or self._checkpoint[0] != identity:
            checkpoint, _ = read_checkpoint(self.folder)
            self._checkpoint = (identity, checkpoint)
        return self._checkpoint

    def _read(self) -> Followed:
        # The checkpoint first: the GM appends to a journal before checkpointing, so journals
        # read after it are at least as new as it is.
        checkpoint_identity, checkpoint = self._read_checkpoint()
        logs: list[SessionLog] = []
        kept: dict[Path, _Journal] = {}
        appended: list[ev.Event] | None = None  # the newest journal's new events, if only added
        for path in list_sessions(sessions_dir(self.folder)):
            identity = _identity(path)
            was = self._journals.get(path)
            appended = None
            if was is not None and identity is not None and was.identity == identity:
                journal = was
                appended = []
            else:
                grown = _appended(path, was, identity) if was and identity else None
                journal, appended = grown if grown is not None else (_journal(path, identity), None)
            kept[path] = journal
            logs.append(journal.log)
        self._journals = kept
        newest = logs[-1] if logs else None
        files = tuple((p, j.identity) for p, j in kept.items())
        state = self._fold_appended(checkpoint_identity, files, newest, appended)
        if state is None:
            state = recover(checkpoint, logs).state
            took_newest = newest is not None and newest.last_seq > checkpoint.last_event
            self._folded = (checkpoint_identity, files, took_newest)
        events = tuple(newest.events) if newest is not None else ()
        return Followed(state, events, newest.header.id if newest is not None else "")

    def _fold_appended(
        self,
        checkpoint: Identity | None,
        files: tuple[tuple[Path, Identity], ...],
        newest: SessionLog | None,
        appended: list[ev.Event] | None,
    ) -> Campaign | None:
        """The state shown before with the newest journal's appended events folded on, when
        that is what reading everything again would give; else None."""
        folded, current = self._folded, self.current
        if folded is None or current is None or newest is None or appended is None:
            return None
        was_checkpoint, was_files, took_newest = folded
        same_others = [p for p, _ in was_files] == [p for p, _ in files] and was_files[
            :-1
        ] == files[:-1]
        if checkpoint is None or checkpoint != was_checkpoint or not same_others:
            return None
        if not took_newest or any(isinstance(e.data, ev.Undo) for e in appended):
            return None  # an undo voids what was folded: fold the evening again
        try:
            state = fold(current.state, appended, void_actions(newest.events))
        except ReplayError:
            return None  # read whole, which says where
        self._folded = (checkpoint, files, True)
        return state
