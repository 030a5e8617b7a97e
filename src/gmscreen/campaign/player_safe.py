"""What the players may see: the one definition every screen and file for players is built from.

:func:`player_safe` turns a campaign state (and, for a recap, a session's events) into plain
words: names, how each character seems (the player-view band, from how close madness is to
POW), an episode under way and the permanent madnesses by their *player* wording (with the
time left in words), items by their full name, the notes the GM shared, the game day and time;
for a recap, what they hear of each event (:mod:`gmscreen.campaign.heard`: a run of time passing
once, a check by its final outcome), which :func:`gmscreen.campaign.telling.players_words` says.

It never carries a madness, POW or alignment figure, a die, odds, a target, a fumble range, a
point cost, a table id, an override, an undo, a GM-only note or a kind's GM text: those are not
in the input it reads for players, so no screen can show them by mistake. The player view
(``p``), the players' recap (``gmscreen export --players``, replay's ``E``, JSON or Markdown) and
any later players' screen lay out what this returns, and build nothing players see themselves.
The texts are plain: whoever prints them makes them inert (markup, control characters).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import msgspec

from gmscreen.campaign import events as ev
from gmscreen.campaign import heard as hd
from gmscreen.campaign.gm_words import told_order
from gmscreen.campaign.item_names import item_name
from gmscreen.campaign.model import Campaign, Character
from gmscreen.campaign.notes import settled
from gmscreen.campaign.reducer import void_actions
from gmscreen.campaign.telling import players_words
from gmscreen.campaign.undo import UNDOS
from gmscreen.campaign.wording import game_time, kind_seen, rough, rough_span
from gmscreen.i18n import DEFAULT_LANGUAGE, catalog_for
from gmscreen.rules.madness import MINUTE, band


class SeenMadness(msgspec.Struct, frozen=True):
    """A kind of madness as the players know it: its name and what they see of it."""

    name: str
    seems: str


class SeenEpisode(msgspec.Struct, frozen=True):
    """The madness a character is in the grip of, and for how long yet, in words."""

    madness: SeenMadness
    time_left: str


class SeenCharacter(msgspec.Struct, frozen=True):
    """One character as the players see them.

    ``band`` is the band's key (``calm`` … ``breaking``), for a screen to style; ``seems`` what
    the players read after the name (``is breaking down``: the campaign's own words for the band,
    else the catalog's). Both are empty when the campaign does not use the madness rules.
    """

    id: str
    name: str
    player: str
    band: str
    seems: str
    episode: SeenEpisode | None
    permanent: tuple[SeenMadness, ...]
    items: tuple[str, ...]


Detail = tuple[Literal["episode", "permanent", "item"], str]


def details(c: SeenCharacter, lang: str) -> list[Detail]:
    """What there is to say of ``c`` below its name, in words, each line with what it is (for a
    screen to style): the madness under way, each lasting madness, each item carried."""
    out: list[Detail] = []
    if c.episode is not None:
        m, left = c.episode.madness, c.episode.time_left
        out.append(("episode", _say(lang, "episode", kind=m.name, seems=m.seems, left=left)))
    out.extend(
        ("permanent", _say(lang, "permanent", kind=m.name, seems=m.seems)) for m in c.permanent
    )
    out.extend(("item", _say(lang, "item", item=item)) for item in c.items)
    return out


def seems(c: SeenCharacter, lang: str) -> str:
    """``is breaking down`` (empty when the campaign does not use the madness rules)."""
    return c.seems


class SharedNote(msgspec.Struct, frozen=True):
    """A note the GM shared with the players: when, about whom (a name, or none), the text."""

    when: str
    about: str
    text: str


def note_text(note: SharedNote, lang: str) -> str:
    """``About Artinar: …`` for a note about a character, else the note as written."""
    return players_words(hd.Shared(0, note.about, note.text), lang)


class StoryLine(msgspec.Struct, frozen=True):
    """One event of the session as the players may hear it: when, about whom, in words."""

    when: str
    who: str
    text: str


class PlayerSafe(msgspec.Struct, frozen=True):
    """Everything the players may see of a campaign now (and of a session, for a recap)."""

    campaign: str
    lang: str
    now: str  # the game day and time, "day 2, 08:00"
    characters: tuple[SeenCharacter, ...]
    notes: tuple[SharedNote, ...]  # shared notes among the events given, oldest first
    story: tuple[StoryLine, ...]  # the events given, told for players

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values (the players' ``export --format json``)."""
        return {
            "campaign": self.campaign,
            "time": self.now,
            "lines": [
                {"game_time": s.when, "character": s.who, "text": s.text} for s in self.story
            ],
            "standing": [_character_dict(c) for c in self.characters],
            "notes": [{"game_time": n.when, "about": n.about, "text": n.text} for n in self.notes],
        }


def _character_dict(c: SeenCharacter) -> dict[str, Any]:
    episode = c.episode
    return {
        "name": c.name,
        "player": c.player,
        "state": c.seems,
        "episode": None
        if episode is None
        else {
            "kind": episode.madness.name,
            "seems": episode.madness.seems,
            "time_left": episode.time_left,
        },
        "permanent": [{"kind": m.name, "seems": m.seems} for m in c.permanent],
        "items": list(c.items),
    }


def player_safe(
    state: Campaign,
    lang: str = DEFAULT_LANGUAGE,
    events: Sequence[ev.Event] = (),
    start: Campaign | None = None,
    story: bool = False,
) -> PlayerSafe:
    """What the players may see of ``state``; of ``events`` too: the notes shared and, with
    ``story`` (a recap), every event told for players (a live screen leaves it: it costs).

    ``start`` is the state before ``events`` (a session's header), for the names characters
    had then; by default ``state``. Undone events, and undos themselves, are left out.
    """
    madness = "madness" in state.settings.modules
    words = state.settings.player_words
    characters = tuple(_character(c, state.clock, madness, lang, words) for c in state.characters)
    void = void_actions(events)
    kept = [e for e in events if e.action not in void and not isinstance(e.data, UNDOS)]
    names = {c.id: c.name for c in (start or state).characters}
    names.update({c.id: c.name for c in state.characters if c.id not in names})
    notes: list[SharedNote] = []
    heard: list[hd.Heard] = []
    passing = _Passing()  # time passing, heard as one line once something else is
    # Each note as the GM left it (rewritten, shared or not, taken back), told where written
    now_says = settled(kept)
    for event in told_order(kept) if story else kept:
        data = event.data
        if isinstance(data, ev.CharacterAdded):
            names[str(data.character.get("id"))] = str(data.character.get("name"))
        who = names.get(event.character or "", "")
        said: hd.Heard | None = None
        if isinstance(data, ev.Note):
            note = now_says.get(event.seq)
            if note is not None and note.shared:
                notes.append(
                    SharedNote(game_time(event.game, lang, to_minute=True), who, note.text)
                )
                said = hd.Shared(_minute(event.game), who, note.text)
        elif story and not passing.take(event):
            said = _heard(event, who, lang)
        if said is not None and story:
            heard.extend(passing.told())
            heard.append(said)
        if isinstance(data, ev.CharacterEdited) and "name" in data.changes:
            names[event.character or ""] = str(data.changes["name"][1])
    heard.extend(passing.told())
    return PlayerSafe(
        campaign=state.name,
        lang=lang,
        now=game_time(state.clock, lang, to_minute=True),
        characters=characters,
        notes=tuple(notes),
        story=tuple(_told(h, lang) for h in heard),
    )


def _say(lang: str, key: str, **values: object) -> str:
    return catalog_for(lang).t(f"player.{key}", **values)


# Game time for players is told to the minute. An episode lasts its madness in units, and the
# GM often advances time right to its end: to the second, "2 minutes, 48 seconds" of rounds
# would spell the madness out (14 rounds of 12 s); one line for each round would count them.


def _minute(seconds: int) -> int:
    return seconds - seconds % MINUTE


def _told(heard: hd.Heard, lang: str) -> StoryLine:
    when = game_time(heard.game, lang, to_minute=True)
    return StoryLine(when, heard.who, players_words(heard, lang))


class _Passing:
    """Time passing (rounds, advances, days' ends), gathered until something the players hear
    of comes between: then it is one :class:`~gmscreen.campaign.heard.TimePassed`, to the
    minute, at the time it reached."""

    def __init__(self) -> None:
        self.start()

    def start(self) -> None:
        self.seconds = self.reached = self.first = self.last = 0
        self.any = False

    def take(self, event: ev.Event) -> bool:
        """Whether ``event`` is time passing (gathered here)."""
        d = event.data
        if isinstance(d, ev.ClockAdvanced):
            self.seconds += d.seconds
            self.reached = max(self.reached, d.after)
        elif isinstance(d, ev.DayEnded):
            self.first = self.first or d.day + 1
            self.last = d.day + d.days
            self.reached = max(self.reached, event.game)
        else:
            return False
        self.any = True
        return True

    def told(self) -> list[hd.Heard]:
        """The time passed since the last thing heard (none: nothing), and start again."""
        if not self.any:
            return []
        minutes = self.seconds // MINUTE
        passed = hd.TimePassed(_minute(self.reached), "", minutes, self.first, self.last)
        self.start()
        return [passed]


def seen_madness(kind_key: str, lang: str) -> SeenMadness:
    """A kind by its label and player text (a key the data does not know: the key itself)."""
    return SeenMadness(*kind_seen(kind_key, lang))


def band_words(key: str, lang: str, own: Mapping[str, str]) -> str:
    """What players read after a name for the band ``key``: the campaign's words, else the
    catalog's (a whole phrase, ``is on the edge``, so that it reads naturally in each language)."""
    return own.get(key) or _say(lang, f"looks.{key}")


def _character(
    c: Character, now: int, madness: bool, lang: str, words: Mapping[str, str]
) -> SeenCharacter:
    items = tuple(item_name(i, lang) for i in c.inventory)
    if not madness:
        return SeenCharacter(c.id, c.name, c.player, "", "", None, (), items)
    key = band(c.sanity)
    label = band_words(key, lang, words)
    episode = c.sanity.episode
    seen = None
    if episode is not None:
        # The length of an episode is its madness in units: never a number, only roughly.
        left = rough_span(max(episode.ends_at - now, 0), lang)
        seen = SeenEpisode(seen_madness(episode.kind, lang), left)
    permanent = tuple(seen_madness(k, lang) for k in c.sanity.permanent)
    return SeenCharacter(c.id, c.name, c.player, key, label, seen, permanent, items)


# --- what the players hear of each event (told by gmscreen.campaign.telling.players_words) ------
# Rolls on the item tables (table, cost, override), items passed over, edits, settings, notes
# (heard in player_safe itself, as the GM last left them: GM-only ones never), the rewriting and
# taking back of notes, a gain's what-happened line (the GM's own words, as a note the GM did
# not share: docs/RULES.md "What players may see"), item notes and undos are the GM's: not
# heard.


def _check(e: ev.Event, d: ev.CheckRoll, who: str, lang: str) -> hd.Heard | None:
    """A check's final outcome: a success that leaves madness at or over POW is followed by
    another roll, whose outcome is the one the players hear (two would tell them a number)."""
    if d.outcome == "success" and d.repeat:
        return None
    return hd.Checked(_minute(e.game), who, d.outcome)


def _episode(e: ev.Event, d: ev.EpisodeStarted, who: str, lang: str) -> hd.Heard:
    lasts = rough(max(d.ends_at - e.game, 0))
    return hd.Struck(_minute(e.game), who, d.kind, d.permanent, lasts)


def _renamed(e: ev.Event, d: ev.ItemRenamed, who: str, lang: str) -> hd.Heard:
    """An item's new name, as the players know it (by name, nothing else)."""
    before = item_name(d.item, lang)
    after = d.after or item_name({**d.item, "name": ""}, lang)
    return hd.RenamedItem(_minute(e.game), who, before, after)


def _ruling(e: ev.Event, d: ev.Ruling, who: str, lang: str) -> hd.Heard | None:
    """A GM ruling as the players hear of it: an episode that passes, a lasting madness come or
    gone, care given or stopped. Never its reason (the GM's own) nor a number; a first sighting
    forgotten and madness set by hand are the GM's business (None)."""
    if d.ruling in ("forget_sighting", "set_madness"):
        return None
    on = bool(d.changes.get("under_care", [False, False])[1])
    return hd.Ruled(_minute(e.game), who, d.ruling, d.subject or "", on)


HEARD: dict[type[Any], Callable[[ev.Event, Any, str, str], hd.Heard | None]] = {
    ev.Gain: lambda e, d, who, lang: hd.Gained(_minute(e.game), who, d.preset),
    ev.CheckRoll: _check,
    ev.EpisodeStarted: _episode,
    ev.EpisodeEnded: lambda e, d, who, lang: hd.Passed(_minute(e.game), who, d.kind),
    ev.CharacterAdded: lambda e, d, who, lang: hd.Joined(
        _minute(e.game), str(d.character.get("name", who))
    ),
    ev.CharacterRemoved: lambda e, d, who, lang: hd.Left(
        _minute(e.game), str(d.character.get("name", who))
    ),
    ev.ItemKept: lambda e, d, who, lang: hd.GotItem(_minute(e.game), who, item_name(d.item, lang)),
    ev.ItemRemoved: lambda e, d, who, lang: hd.LostItem(
        _minute(e.game), who, item_name(d.item, lang)
    ),
    ev.ItemRenamed: _renamed,
    ev.Ruling: _ruling,
}


def _heard(event: ev.Event, who: str, lang: str) -> hd.Heard | None:
    """What the players hear of one event (None: nothing)."""
    hear = HEARD.get(type(event.data))
    return hear(event, event.data, who, lang) if hear is not None else None
