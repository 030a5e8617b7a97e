"""Events into words, once, for each audience: the GM's log, the GM's recap and the players.

- The GM's log (:func:`log_lines`) and the GM's recap (:func:`recap_lines`) say the same words:
  :mod:`gmscreen.campaign.gm_lines` turns each event into lines in pieces through one dispatch
  on the event's type, told in order by :mod:`gmscreen.campaign.gm_words`' teller; the log styles the pieces, the recap joins them into sentences. A run of
  rounds with nothing else between is one line ("8 rounds pass"); time passing is told at the
  time it reached, after what happened on the way (an episode that ended inside an advance).
- The players' words (:func:`players_words`) are made from :mod:`gmscreen.campaign.heard`
  records only: :mod:`gmscreen.campaign.player_safe` decides what those hold (a run of time
  passing is one of them, a check its final outcome), so no GM-only value can reach them.

Times, dice and the kinds of madness are said through :mod:`gmscreen.campaign.wording`, the same
for every audience. Every function takes the language to speak; the journal holds keys and
numbers only, so any session can be told in either language.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping, Sequence
from typing import Any

import msgspec

from gmscreen.campaign import events as ev
from gmscreen.campaign import heard as hd
from gmscreen.campaign.gm_lines import GM_LINES
from gmscreen.campaign.gm_words import ItemTitles, Line, Teller, sentence
from gmscreen.campaign.model import Campaign
from gmscreen.campaign.reducer import void_actions
from gmscreen.campaign.wording import (
    game_time,
    kind_seen,
    preset_words,
    say,
    session_date,
    span,
    words,
)
from gmscreen.i18n import DEFAULT_LANGUAGE, Translate
from gmscreen.rules.madness import MINUTE

# --- the GM's log -------------------------------------------------------------------------------


def log_lines(
    start: Campaign, events: Sequence[ev.Event], void: Container[int], lang: str
) -> list[Line]:
    """The GM's log of a session: ``events`` from ``start``, ``void`` the actions undone. To
    tell a session as it goes, keep a :class:`Teller` (see :meth:`Teller.tell`)."""
    return teller(start, lang).tell(events, void)


def teller(start: Campaign, lang: str, *, fold: bool = True) -> Teller:
    """A teller of the session that starts at ``start`` (its names and items)."""
    names = {c.id: c.name for c in start.characters}
    return Teller(names, lang, says=GM_LINES, items=ItemTitles(start, lang), fold=fold)


# --- the GM's recap -----------------------------------------------------------------------------


class RecapLine(msgspec.Struct, frozen=True):
    """One line of the GM's recap: the events it tells (a run of rounds, many), the time it
    is told at, its sentence; ``void``: its action was undone."""

    events: tuple[ev.Event, ...]
    game: int
    text: str
    void: bool

    @property
    def event(self) -> ev.Event:
        return self.events[0]

    def to_dict(self, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        first = self.events[0]
        return {
            "seq": first.seq,
            "game": self.game,
            "game_time": game_time(self.game, lang),
            "kind": first.kind,
            "character": first.character,
            "text": self.text,
            "at": first.at,
            "void": self.void,
            "events": [e.to_dict() for e in self.events],
        }


def recap_lines(
    start: Campaign, events: Sequence[ev.Event], lang: str = DEFAULT_LANGUAGE
) -> list[RecapLine]:
    """The session's events as the GM's recap says them (names as they were then): the log's
    words, a sentence a line, a gain's what-happened line joined to its gain."""
    by_seq = {e.seq: e for e in events}
    out: list[RecapLine] = []
    for line in log_lines(start, events, void_actions(events), lang):
        if line.carried and out:
            last = out[-1]
            out[-1] = msgspec.structs.replace(last, text=f"{last.text} — {line.what}")
            continue
        told = tuple(by_seq[seq] for seq in line.seqs)
        out.append(RecapLine(told, line.game, sentence(line), line.void))
    return out


def action_words(
    action: Sequence[ev.Event],
    state: Campaign | None,
    lang: str = DEFAULT_LANGUAGE,
    names: Mapping[str, str] | None = None,
) -> str:
    """An action in words, for a confirm (``Undo this? …``): its first events told one by one,
    the rest counted. Names as ``state`` has them, else ``names``."""
    known = dict(names or {})
    if state is not None:
        known.update({c.id: c.name for c in state.characters})
    items = ItemTitles(state, lang)
    return Teller(known, lang, says=GM_LINES, items=items, fold=False).action_words(action)


def earlier_action_words(
    started_at: str, action: Sequence[ev.Event], state: Campaign, lang: str = DEFAULT_LANGUAGE
) -> str:
    """An action of an earlier session in words, with the day that session was played."""
    what = action_words(action, state, lang)
    return words(lang)("undoing.earlier", when=session_date(started_at, lang), what=what)


# --- the players --------------------------------------------------------------------------------


def players_words(heard: hd.Heard, lang: str) -> str:
    """What the players hear, in their words: only what ``heard`` holds."""
    return PLAYERS[type(heard)](heard, say(lang), lang)


def _time_passed(h: hd.TimePassed, t: Translate, lang: str) -> str:
    passed = span(h.minutes * MINUTE, lang, to_minute=True)
    if not h.first:
        return t("player.story.time", span=passed)
    if h.first == h.last:
        return t("player.story.time_day", span=passed, day=h.first)
    return t("player.story.time_days", span=passed, first=h.first, last=h.last)


def _struck(h: hd.Struck, t: Translate, lang: str) -> str:
    name, seems = kind_seen(h.kind, lang)
    key = "player.story.episode_permanent" if h.permanent else "player.story.episode"
    lasts = t(f"time.lasts.{h.lasts}")
    return t(key, who=h.who, kind=name.lower(), seems=seems, lasts=lasts)


def _ruled(h: hd.Ruled, t: Translate, lang: str) -> str:
    if h.ruling == "under_care":
        return t(f"player.ruling.under_care_{'on' if h.on else 'off'}", who=h.who)
    name, seems = kind_seen(h.kind, lang)
    return t(f"player.ruling.{h.ruling}", who=h.who, kind=name.lower(), seems=seems)


def _shared(h: hd.Shared, t: Translate, lang: str) -> str:
    return t("player.note_about", who=h.who, text=h.text) if h.who else h.text


PLAYERS: dict[type[Any], Callable[[Any, Translate, str], str]] = {
    hd.Gained: lambda h, t, lang: t(
        "player.story.gain", who=h.who, what=preset_words(h.preset, lang)
    ),
    hd.Checked: lambda h, t, lang: t(f"player.story.check.{h.outcome}", who=h.who),
    hd.Struck: _struck,
    hd.Passed: lambda h, t, lang: t(
        "player.story.episode_end", who=h.who, kind=kind_seen(h.kind, lang)[0].lower()
    ),
    hd.TimePassed: _time_passed,
    hd.Joined: lambda h, t, lang: t("player.story.added", who=h.who),
    hd.Left: lambda h, t, lang: t("player.story.removed", who=h.who),
    hd.GotItem: lambda h, t, lang: t("player.story.item_kept", who=h.who, title=h.title),
    hd.LostItem: lambda h, t, lang: t("player.story.item_removed", who=h.who, title=h.title),
    hd.RenamedItem: lambda h, t, lang: t(
        "item_abandon.story_renamed", who=h.who, before=h.before, after=h.after
    ),
    hd.Ruled: _ruled,
    hd.Shared: _shared,
}
