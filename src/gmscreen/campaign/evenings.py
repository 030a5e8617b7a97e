"""Play sessions as the GM counts them: an evening, however many times gmscreen was opened.

Each opening of a campaign writes a journal of its own (``sessions/<id>.jsonl``), so quitting to
fix something and opening again used to make a session of two events in the replay list. The
rule: a journal begun within ``Settings.evening_hours`` hours (6 by default) of the last event
of the journal before it belongs to the same session as that one; 0 makes every opening a
session of its own. A journal with no event ends where it began. A wall clock that does not read
(or one that goes back, a computer's clock set wrong) starts a session of its own.

The journals stay as they are, separate files each with its own header: this module only groups
them, for the session list (the replay picker, ``gmscreen sessions``) and for what is replayed or
exported as one session. A session is named by its first journal's id; any of its journals' ids
or file names picks it. Replayed, its journals' events run one after another from the first
journal's start; where a later journal began from another state than the one before it ended
(``campaign.toml`` edited between the two openings), the replay takes that journal's own start
state there (:class:`~gmscreen.campaign.replay.Replay`'s ``restarts``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

import msgspec

from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.journal import SessionLog
from gmscreen.campaign.model import DEFAULT_EVENING_HOURS, Campaign
from gmscreen.campaign.replay import Replay
from gmscreen.campaign.session_index import SessionEntry, SessionListing
from gmscreen.campaign.store import recover


class Evening(msgspec.Struct, frozen=True):
    """One session as played: its journals, oldest first (one or more)."""

    journals: tuple[SessionEntry, ...]

    @property
    def id(self) -> str:
        return self.journals[0].id

    @property
    def started_at(self) -> str:
        return self.journals[0].started_at

    @property
    def ended_at(self) -> str:
        return self.journals[-1].ended_at

    @property
    def events(self) -> int:
        return sum(j.events for j in self.journals)

    @property
    def undone(self) -> int:
        return sum(j.undone for j in self.journals)

    @property
    def checks(self) -> int:
        return sum(j.checks for j in self.journals)

    @property
    def characters(self) -> tuple[str, ...]:
        """The names involved, in the order they first appear."""
        return tuple(dict.fromkeys(name for j in self.journals for name in j.characters))

    @property
    def game_start(self) -> int:
        return self.journals[0].game_start

    @property
    def game_end(self) -> int:
        return max(j.game_end for j in self.journals)

    def names(self, session: str) -> bool:
        """Whether ``session`` (an id or a journal's file name) is one of this one's."""
        return any(session in (j.id, j.path.name) for j in self.journals)


def _moment(stamp: str) -> datetime | None:
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return None
    return moment.replace(tzinfo=None) - (moment.utcoffset() or timedelta())


def goes_on(previous: SessionEntry, journal: SessionEntry, hours: int) -> bool:
    """Whether ``journal`` is the same session as ``previous``, the journal before it: begun
    within ``hours`` of ``previous``'s last event (and not before it)."""
    ended, began = _moment(previous.ended_at or previous.started_at), _moment(journal.started_at)
    if hours <= 0 or ended is None or began is None:
        return False
    return timedelta(0) <= began - ended <= timedelta(hours=hours)


def evenings(entries: Sequence[SessionEntry], hours: int = DEFAULT_EVENING_HOURS) -> list[Evening]:
    """``entries`` (oldest first, as the index lists them) grouped into sessions as played."""
    grouped: list[list[SessionEntry]] = []
    for entry in entries:
        if grouped and goes_on(grouped[-1][-1], entry, hours):
            grouped[-1].append(entry)
        else:
            grouped.append([entry])
    return [Evening(tuple(journals)) for journals in grouped]


class EveningLog(msgspec.Struct):
    """A session's journals read and joined: ``log`` holds the first journal's path and header
    and every journal's events in order; ``restarts`` the step each later journal begins at, and
    the state it began from; ``last`` the last journal as read (``log`` itself for one)."""

    log: SessionLog
    restarts: dict[int, Campaign] = msgspec.field(default_factory=dict)
    last: SessionLog | None = None

    def replay(self, every: int = 64) -> Replay:
        return Replay(self.log.header.state, self.log.events, every, self.restarts)

    def final(self) -> Campaign:
        """The campaign as the session left it: its last journal folded from its own start.
        Raises :class:`~gmscreen.campaign.errors.CampaignFileError` for an event that does not
        apply, naming its journal's line."""
        last = self.last or self.log
        return recover(last.header.state, [last]).state


def joined(logs: Sequence[SessionLog]) -> EveningLog:
    """Journals of one session (oldest first) as one log to replay, tell or export."""
    first = logs[0]
    if len(logs) == 1:
        return EveningLog(first)
    events = list(first.events)
    restarts: dict[int, Campaign] = {}
    for log in logs[1:]:
        restarts[len(events)] = log.header.state
        events.extend(log.events)
    log = SessionLog(
        first.path,
        first.header,
        events,
        torn=logs[-1].torn,
        damaged=[line for log in logs for line in log.damaged],
    )
    return EveningLog(log, restarts, logs[-1])


class Evenings(msgspec.Struct):
    """A campaign's sessions as played, and the listing of journals they were grouped from."""

    listing: SessionListing
    sessions: list[Evening]

    @classmethod
    def of(cls, listing: SessionListing, hours: int = DEFAULT_EVENING_HOURS) -> Evenings:
        return cls(listing, evenings(listing.entries, hours))

    def pick(self, session: str | None) -> Evening:
        """The session ``session`` names (an id or a journal's file name of any of its
        journals), or the last one. Raises :class:`CampaignError` if there are no sessions or
        none is named ``session``."""
        if not self.sessions:
            raise CampaignError("this campaign has no sessions yet")
        if session is None:
            return self.sessions[-1]
        for evening in self.sessions:
            if evening.names(session):
                return evening
        raise CampaignError(
            f"no session {session!r}: choose one of {', '.join(e.id for e in self.sessions)}"
        )

    def log(self, evening: Evening) -> EveningLog:
        """The session's journals, read (unless read to list them) and joined. Raises
        :class:`~gmscreen.campaign.errors.CampaignFileError` as ``SessionListing.log`` does."""
        return joined([self.listing.log(journal) for journal in evening.journals])
