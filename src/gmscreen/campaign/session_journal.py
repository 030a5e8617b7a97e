"""This session's journal as the live campaign writes it, and what it does when the disk says no.

The file is created with the session's first action. Before each append the writer checks the
file is still the one it wrote; one deleted, replaced or cut short is never appended to: it is
moved aside (``<name>.damaged``) and the session is written anew to a new session file, from
its start state, with every event so far. Any ``OSError`` on the way becomes a
:class:`~gmscreen.campaign.errors.WriteFault` naming the file and what to do; nothing of that
action is on disk then, and the next action tries again.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from gmscreen.campaign import events as ev
from gmscreen.campaign.errors import WriteFault
from gmscreen.campaign.journal import JournalChanged, JournalWriter, SessionHeader, next_session_id
from gmscreen.campaign.model import Campaign
from gmscreen.text import counted

NOT_RECORDED = (
    "This action was not recorded (every earlier one is safe); the next action tries again."
)


class SessionJournal:
    """The journal of one play session in ``folder`` (the campaign's sessions folder).

    ``start`` is the campaign when the session began (every file of it starts from there);
    ``tell`` gets what the GM must know that is no error of an action (a journal written anew,
    writing that works again).
    """

    def __init__(
        self,
        folder: Path,
        start: Campaign,
        clock: Callable[[], datetime],
        tell: Callable[[str], None],
    ) -> None:
        self.folder = folder
        self.start = start
        self._clock = clock
        self._tell = tell
        self._writer: JournalWriter | None = None
        # The write that failed last, until one succeeds again: the campaign is read-only
        # meanwhile (every action tries to write, and says so if it still cannot).
        self.fault: WriteFault | None = None

    @property
    def path(self) -> Path | None:
        return self._writer.path if self._writer else None

    @property
    def size(self) -> int | None:
        """The session file's size as written so far (None before the first action)."""
        return self._writer.size if self._writer else None

    @property
    def header(self) -> SessionHeader | None:
        """The header of the session file being written (None before the first action)."""
        return self._writer.header if self._writer else None

    def write(self, new: Sequence[ev.Event], so_far: Sequence[ev.Event]) -> None:
        """Journal the action ``new`` (``so_far``: the session's events before it), or raise
        :class:`WriteFault` with nothing of it recorded."""
        try:
            if self._writer is None:
                self._writer = self._new_writer(new[0].seq, ())
            try:
                self._writer.append_action(new)
            except JournalChanged as changed:
                self._write_anew(changed, [*so_far, *new])
        except OSError as error:
            where = Path(error.filename) if error.filename else self.path
            self.fault = WriteFault(where or self.folder, error, NOT_RECORDED)
            raise self.fault from None
        if self.fault is not None:
            self.fault = None
            self._tell(f"Writing works again: {self.path} has every action.")

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()

    def _new_writer(self, first_seq: int, events: Sequence[ev.Event]) -> JournalWriter:
        now = self._clock()
        session_id = next_session_id(self.folder, now.date().isoformat())
        started = (
            self._writer.header.started_at
            if self._writer
            else now.isoformat(timespec="milliseconds")
        )
        header = SessionHeader(session_id, started, first_seq, self.start)
        return JournalWriter(self.folder / f"{session_id}.jsonl", header, events)

    def _write_anew(self, changed: JournalChanged, events: list[ev.Event]) -> None:
        """The journal is not what we wrote: move it aside (kept, no longer read as a journal)
        and write the whole session to a new session file."""
        old = self._writer
        assert old is not None
        kept = ""
        if os.path.lexists(old.path):  # moved aside first: its name may be the one free
            aside = old.path.with_name(old.path.name + ".damaged")
            n = 1
            while os.path.lexists(aside):
                n += 1
                aside = old.path.with_name(f"{old.path.name}.damaged-{n}")
            try:
                os.rename(old.path, aside)
                kept = f"; the old file is kept as {aside.name}"
            except OSError as error:
                kept = f"; the old file could not be moved aside ({error.strerror})"
        fresh = self._new_writer(old.header.first_seq, events)
        old.close()
        self._writer = fresh
        self._tell(
            f"{changed}: gmscreen wrote this session anew, all {counted(len(events), 'event')}, "
            f"to {fresh.path}{kept}. Nothing is lost."
        )
