"""What the players may see: the one definition every screen and file for players is built from.

:func:`player_safe` turns a campaign state (and, for a recap, a session's events) into plain
words: names, how each character seems (the player-view band, from how close madness is to
POW), an episode under way and the permanent madnesses by their *player* wording (with the
time left in words), items by their full name, the notes the GM shared, the game day and time.

It never carries a madness, POW or alignment figure, a die, odds, a target, a fumble range, a
point cost, a table id, an override, an undo, a GM-only note or a kind's GM text: those are not
in the input it reads for players, so no screen can show them by mistake. The player view
(``p``), the players' recap (``gmscreen export --players``, replay's ``E``, JSON or Markdown) and
any later players' screen lay out what this returns, and build nothing players see themselves.
The texts are plain: whoever prints them makes them inert (markup, control characters).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import msgspec

from gmscreen.campaign import events as ev
from gmscreen.campaign import recap
from gmscreen.campaign.model import Campaign, Character
from gmscreen.campaign.notes import settled
from gmscreen.campaign.reducer import void_actions
from gmscreen.campaign.undo import UNDOS
from gmscreen.i18n import DEFAULT_LANGUAGE, catalog_for
from gmscreen.rules.madness import DAY, HOUR, MINUTE, band
from gmscreen.rules.madness_data import load_madness_data
from gmscreen.rules.tables_render import item_title


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
    return _say(lang, "note_about", who=note.about, text=note.text) if note.about else note.text


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
    told: list[StoryLine] = []
    # Each note as the GM left it (rewritten, shared or not, taken back), told where written
    now_says = settled(kept)
    for event in kept:
        data = event.data
        if isinstance(data, ev.CharacterAdded):
            names[str(data.character.get("id"))] = str(data.character.get("name"))
        who = names.get(event.character or "", "")
        text: str | None = None
        if isinstance(data, ev.Note):
            note = now_says.get(event.seq)
            if note is not None and note.shared:
                notes.append(SharedNote(clock_time(event.game, lang), who, note.text))
                text = note_text(SharedNote("", who, note.text), lang)
        elif story:
            text = _told(event, who, lang)
        if text is not None and story:
            told.append(StoryLine(clock_time(event.game, lang), who, text))
        if isinstance(data, ev.CharacterEdited) and "name" in data.changes:
            names[event.character or ""] = str(data.changes["name"][1])
    return PlayerSafe(
        campaign=state.name,
        lang=lang,
        now=clock_time(state.clock, lang),
        characters=characters,
        notes=tuple(notes),
        story=tuple(told),
    )


def _say(lang: str, key: str, **values: object) -> str:
    return catalog_for(lang).t(f"player.{key}", **values)


# Game time for players is told to the minute. An episode lasts its madness in units, and the
# GM often advances time right to its end: to the second, "2 minutes, 48 seconds" of rounds
# would spell the madness out (14 rounds of 12 s).


def clock_time(seconds: int, lang: str) -> str:
    """``day 1, 10:02``: the game day and time, to the minute."""
    return recap.game_time(seconds - seconds % MINUTE, lang)


def time_span(seconds: int, lang: str) -> str:
    """``2 minutes`` (seconds dropped), or ``a few moments`` under a minute."""
    if seconds < MINUTE:
        return _say(lang, "moments")
    return recap.span(seconds - seconds % MINUTE, lang)


def item_name(item: Mapping[str, Any], lang: str) -> str:
    """An item's full name for players: the one the GM reads too, which carries the value of
    each die but not the die, and no pointer to a table (see gmscreen.rules.tables_names)."""
    return item_title(item, lang)


def seen_madness(kind_key: str, lang: str) -> SeenMadness:
    """A kind by its label and player text (a key the data does not know: the key itself)."""
    try:
        kind = load_madness_data().kind(kind_key)
    except ValueError:
        return SeenMadness(kind_key, "")
    return SeenMadness(kind.label.get(lang), kind.player.get(lang))


def time_in_words(seconds: int, lang: str, key: str = "left") -> str:
    """A stretch of game time, coarsely (moments, minutes, hours, days): never a count.

    The length of an episode is its madness in units: a number here would give it away.
    """
    size = "moments" if seconds < MINUTE else "minutes" if seconds < HOUR else "hours"
    if seconds >= DAY:
        size = "days"
    return _say(lang, f"{key}.{size}")


def band_words(key: str, lang: str, own: Mapping[str, str]) -> str:
    """What players read after a name for the band ``key``: the campaign's words, else the
    catalog's (a whole phrase, ``is on the edge``, so that it reads naturally in each language)."""
    return own.get(key) or _say(lang, f"looks.{key}")


def _character(
    c: Character, now: int, madness: bool, lang: str, words: Mapping[str, str]
) -> SeenCharacter:
    items = tuple(
        item_name({"title": i.title, "tree": i.tree, "name": i.name}, lang) for i in c.inventory
    )
    if not madness:
        return SeenCharacter(c.id, c.name, c.player, "", "", None, (), items)
    key = band(c.sanity)
    label = band_words(key, lang, words)
    episode = c.sanity.episode
    seen = None
    if episode is not None:
        left = time_in_words(max(episode.ends_at - now, 0), lang)
        seen = SeenEpisode(seen_madness(episode.kind, lang), left)
    permanent = tuple(seen_madness(k, lang) for k in c.sanity.permanent)
    return SeenCharacter(c.id, c.name, c.player, key, label, seen, permanent, items)


def _renamed(d: ev.ItemRenamed, who: str, lang: str) -> str:
    """An item's new name, as the players know it (by name, nothing else)."""
    before = item_name(d.item, lang)
    after = d.after or item_name({**d.item, "name": ""}, lang)
    return catalog_for(lang).t("item_abandon.story_renamed", who=who, before=before, after=after)


def _told(event: ev.Event, who: str, lang: str) -> str | None:
    """One event in the players' words; None for what they do not hear of."""
    d = event.data
    match d:
        case ev.Gain():
            preset = load_madness_data().presets.get(d.preset)
            what = preset.label.get(lang).lower() if preset else d.preset
            return _say(lang, "story.gain", who=who, what=what)
        case ev.CheckRoll():
            return _say(lang, f"story.check.{d.outcome}", who=who)
        case ev.EpisodeStarted():
            kind = seen_madness(d.kind, lang)
            lasts = time_in_words(max(d.ends_at - event.game, 0), lang, "lasts")
            key = "story.episode_permanent" if d.permanent else "story.episode"
            return _say(lang, key, who=who, kind=kind.name.lower(), seems=kind.seems, lasts=lasts)
        case ev.EpisodeEnded():
            kind_name = seen_madness(d.kind, lang).name.lower()
            return _say(lang, "story.episode_end", who=who, kind=kind_name)
        case ev.DayEnded() if d.days > 1:  # one line for time across many days
            return _say(lang, "story.days", days=d.days, last=d.day + d.days)
        case ev.DayEnded():
            return _say(lang, "story.day", day=d.day + 1)
        case ev.ClockAdvanced():
            to = clock_time(d.after, lang)
            if d.reason == "advance":
                return _say(lang, "story.advance", span=time_span(d.seconds, lang), to=to)
            return _say(lang, f"story.{d.reason}", to=to)
        case ev.CharacterAdded():
            return _say(lang, "story.added", who=str(d.character.get("name", who)))
        case ev.CharacterRemoved():
            return _say(lang, "story.removed", who=str(d.character.get("name", who)))
        case ev.ItemKept():
            return _say(lang, "story.item_kept", who=who, title=item_name(d.item, lang))
        case ev.ItemRemoved():
            return _say(lang, "story.item_removed", who=who, title=item_name(d.item, lang))
        case ev.Ruling():
            return ruling_told(d, who, lang)
        case ev.ItemRenamed():
            return _renamed(d, who, lang)
    # Rolls on the item tables (table, cost, override), items passed over, edits, settings,
    # notes (told in player_safe itself, as the GM last left them: GM-only ones never), the
    # rewriting and taking back of notes, a gain's what-happened line (the GM's own words, as a
    # note the GM did not share: RULES.md "What players may see") and item notes are the GM's.
    return None


def ruling_told(d: ev.Ruling, who: str, lang: str) -> str | None:
    """A GM ruling as the players hear of it: an episode that passes, a lasting madness come or
    gone, care given or stopped, in words. Never its reason (the GM's own) nor a number; a
    first sighting forgotten and madness set by hand are the GM's business (None)."""
    if d.ruling in ("forget_sighting", "set_madness"):
        return None
    if d.ruling == "under_care":
        on = bool(d.changes.get("under_care", [False, False])[1])
        return _say(lang, f"ruling.under_care_{'on' if on else 'off'}", who=who)
    kind = seen_madness(d.subject or "", lang)
    return _say(lang, f"ruling.{d.ruling}", who=who, kind=kind.name.lower(), seems=kind.seems)
