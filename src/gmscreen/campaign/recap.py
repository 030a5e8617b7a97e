"""Events in words, in the GM's voice: the log lines of the screen and the GM's recap of
``gmscreen export`` (every die, madness before → after, undone events struck through).

What the players may see is built elsewhere, once: :mod:`gmscreen.campaign.player_safe`.
All wording is in the message catalogs (``[recap]`` in ``data/messages.<lang>.toml``); every
function takes the language to write in. The journal holds keys and numbers only, so any session
can be told in either language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import msgspec

from gmscreen.campaign import events as ev
from gmscreen.campaign.model import Campaign

# The vocabulary lives in recap_words.py; these of its names are part of this module's
# interface too (the log, the Markdown recap and the CLI import them from here).
from gmscreen.campaign.recap_words import FIELDS as FIELDS
from gmscreen.campaign.recap_words import INPUTS as INPUTS
from gmscreen.campaign.recap_words import OVERRIDES as OVERRIDES
from gmscreen.campaign.recap_words import changes_text as changes_text
from gmscreen.campaign.recap_words import (
    field_text,
    fumbles_text,
    kind_words,
    preset_words,
    roll_aside,
)
from gmscreen.campaign.recap_words import game_time as game_time
from gmscreen.campaign.recap_words import roll_text as roll_text
from gmscreen.campaign.recap_words import span as span
from gmscreen.campaign.recap_words import words as words
from gmscreen.campaign.reducer import void_actions
from gmscreen.i18n import DEFAULT_LANGUAGE, Translate, catalog_for, plural
from gmscreen.rules import merp
from gmscreen.rules.dice import DiceError, Roll
from gmscreen.rules.madness_data import load_madness_data
from gmscreen.rules.tables_render import item_title


def describe(
    event: ev.Event,
    names: Mapping[str, str],
    lang: str = DEFAULT_LANGUAGE,
    items: Mapping[str, str] | None = None,
) -> str | None:
    """One line for ``event`` in ``lang``, for the GM (None for an undo: see :func:`recap`).
    ``items``: the items' titles by id (:class:`ItemTitles`), for an event that names only the id."""
    w = words(lang)
    d = event.data
    who = names.get(event.character or "", event.character or "")
    match d:
        case ev.Gain():
            inputs = ", ".join(
                f"{w(f'input.{k}') if k in INPUTS else k} {v}" for k, v in d.inputs.items()
            )
            extra = changes_text(d.changes, ("madness", "chaos", "law", "app"), lang)
            return w(
                "gain.gm",
                who=who,
                what=preset_words(d.preset, lang),
                inputs=f" ({inputs})" if inputs else "",
                roll=roll_aside(d.roll, lang) + (w("gain.first") if d.first_time else ""),
                amount=d.amount,
                extra=f" ({extra})" if extra else "",
            ) + happened_text(d, lang)
        case ev.CheckRoll():
            line = w(
                "check.gm",
                who=who,
                roll=roll_text(d.roll, lang),
                target=w(f"target.{d.target}"),
                value=d.target_value,
                fumbles=fumbles_text(d.fumble_from, w),
                outcome=w(f"outcome.{d.outcome}"),
            )
            extra = changes_text(d.changes, ("madness",), lang)
            return line + (f" ({extra})" if extra else "") + (w("check.repeat") if d.repeat else "")
        case ev.EpisodeStarted():
            kind = kind_words(d.kind, lang)
            permanent = w("episode.permanent") if d.permanent else ""
            return w(
                "episode.gm",
                who=who,
                kind=kind,
                roll=roll_text(d.kind_roll, lang),
                amount=d.amount,
                unit=w(f"unit.{d.unit}"),
                until=game_time(d.ends_at, lang),
                permanent=permanent,
            )
        case ev.EpisodeEnded():
            kind = kind_words(d.kind, lang)
            extra = changes_text(d.changes, ("madness",), lang)
            return w("episode_end.gm", who=who, kind=kind) + (f" ({extra})" if extra else "")
        case ev.DayEnded():
            line = w("day", day=d.day + 1)
            if d.days > 1:  # one line for time across many days
                line = w("days_pass", days=d.days, last=d.day + d.days)
            if not d.recoveries:
                return line
            parts = []
            totals: dict[str, int] = {}
            for r in d.recoveries:
                name = names.get(r.character, r.character)
                if r.episode is not None:
                    kind = kind_words(r.episode, lang)[0]
                    key = "days_skipped" if d.days > 1 else "recovery.skipped"
                    nights = plural(catalog_for(lang).t, "nights", r.nights)
                    parts.append(w(key, who=name, nights=nights, kind=kind))
                elif d.days > 1 and not r.blocked:
                    totals[r.character] = totals.get(r.character, 0) + r.amount
                elif r.blocked:
                    parts.append(w("recovery.blocked", who=name))
                else:
                    extra = changes_text(r.changes, ("madness",), lang)
                    parts.append(
                        w("recovery.done", who=name, amount=r.amount, roll=roll_aside(r.roll, lang))
                        + (f" ({extra})" if extra else "")
                    )
            for cid, amount in totals.items():
                parts.append(w("days_recovered", who=names.get(cid, cid), amount=amount))
            return f"{line}: " + "; ".join(parts)
        case ev.ClockAdvanced():
            return w(f"clock.{d.reason}", span=span(d.seconds, lang), to=game_time(d.after, lang))
        case ev.CharacterAdded():
            name = str(d.character.get("name", who))
            stats = ", ".join(
                f"{field_text(k, w)} {d.character.get(k)}"
                for k in ("pow", "chaos", "balance", "law", "madness")
            )
            return w("added", who=name, stats=f" ({stats})")
        case ev.CharacterEdited():
            return w("edited", who=who) + f": {changes_text(d.changes, lang=lang)}"
        case ev.CharacterRemoved():
            return w("removed", who=str(d.character.get("name", who)))
        case ev.ItemRolled():
            line = w(
                "item_rolled.gm",
                who=who,
                table=merp.table_name(str(d.item.get("table", "")), lang),
                cost=plural(catalog_for(lang).t, "points", d.cost),
                title=item_title(d.item, lang),
            )
            if d.override is not None:
                rule = w(f"override.{d.override}") if d.override in OVERRIDES else d.override
                line += w("item_rolled.override", rule=rule)
            if d.resumes is not None:
                line += catalog_for(lang).t("item_abandon.recap_resumed")
            return line
        case ev.ItemAbandoned():
            return _item_abandoned(d, who, lang)
        case ev.ItemRenamed():
            return _item_renamed(d, who, lang)
        case ev.ItemKept():
            return w("item_kept", who=who, title=item_title(d.item, lang))
        case ev.ItemDiscarded():
            return w("item_discarded", who=who, title=item_title(d.item, lang))
        case ev.ItemNoted():
            title = (items or {}).get(d.item_id, d.item_id)
            return w("item_noted", who=who, title=title, text=d.after)
        case ev.ItemRemoved():
            return w("item_removed", who=who, title=item_title(d.item, lang))
        case ev.Note():
            shared = w("note.shared") if d.shared else ""
            if event.character:
                return w("note.about", who=who, text=d.text) + shared
            return w("note.plain", text=d.text) + shared
        case ev.NoteEdited() | ev.NoteRemoved():
            return note_change(d, who, lang)
        case ev.SettingsChanged():
            return f"{w('settings')}: {changes_text(d.changes, lang=lang)}"
        case ev.Ruling():
            return ruling_text(d, who, lang)
        case ev.Undo():
            return None  # needs the target: see RecapLine building in recap()
        case ev.UndoEarlier():
            what = describe_action(d.undone_events(), None, lang, names)
            return w("undoing.log", when=session_date(d.started_at, lang), what=what)
    return None  # pragma: no cover


def ruling_what(
    d: ev.Ruling, who: str, lang: str, t: Translate | None = None, section: str = "recap.ruling"
) -> str:
    """What a GM ruling did, in words: ``t`` and ``section`` are the catalog and its table to
    say it with (the recap's by default, the log's); the reason and the numbers are the caller's."""
    t = t or catalog_for(lang).t
    subject = d.subject or ""
    match d.ruling:
        case "end_episode":
            key = "end_episode_halved" if d.halved else "end_episode_kept"
            return t(f"{section}.{key}", who=who, kind=kind_words(subject, lang))
        case "add_permanent" | "remove_permanent":
            return t(f"{section}.{d.ruling}", who=who, kind=kind_words(subject, lang))
        case "forget_sighting":
            return t(f"{section}.forget_sighting", who=who, preset=preset_words(subject, lang))
        case "set_madness":
            after = d.changes.get("madness", [None, None])[1]
            return t(f"{section}.set_madness", who=who, value=after)
    on = bool(d.changes.get("under_care", [False, False])[1])
    return t(f"{section}.under_care_{'on' if on else 'off'}", who=who)


def ruling_text(d: ev.Ruling, who: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """``GM ruling: Artinar's catatonia ends now, madness halved (madness 14 → 7). Reason: …``"""
    extra = changes_text(d.changes, ("madness",), lang)
    return words(lang)(
        "ruling.line",
        what=ruling_what(d, who, lang),
        extra=f" ({extra})" if extra else "",
        reason=d.reason,
    )


def happened_text(gain: ev.Gain, lang: str) -> str:
    """`` — “Arioch's herald”``: the GM's line on what happened, or nothing."""
    return catalog_for(lang).t("notes.recap.happened", text=gain.happened) if gain.happened else ""


def note_change(d: ev.NoteEdited | ev.NoteRemoved, who: str, lang: str) -> str:
    """A note rewritten or taken back, for the GM: what it says now (or said), and who reads it."""
    t = catalog_for(lang).t
    about = t("notes.recap.about", who=who) if who else ""
    if isinstance(d, ev.NoteRemoved):
        return t("notes.recap.removed", about=about, text=d.text)
    line = t("notes.recap.edited", about=about, text=d.text)
    if d.shared != d.was_shared:
        line += t("notes.recap.now_shared" if d.shared else "notes.recap.now_private")
    return line


def item_dice(item: Mapping[str, Any], lang: str) -> str:
    """The dice a roll left half way had: ``1d100: 45, 1d10: 7``."""
    tree = item.get("tree")
    inputs = tree.get("inputs", []) if isinstance(tree, Mapping) else []
    rolls = []
    for answer in inputs if isinstance(inputs, list) else []:
        try:
            rolls.append(roll_text(Roll.from_dict(answer["roll"]), lang))
        except (KeyError, TypeError, ValueError, DiceError):
            continue  # a choice, or what the file holds and we cannot read: no die
    return ", ".join(rolls)


def _item_abandoned(d: ev.ItemAbandoned, who: str, lang: str) -> str:
    t = catalog_for(lang).t
    table = merp.table_name(str(d.item.get("table", "")), lang)
    key = "item_abandon.recap_abandoned" if d.counted else "item_abandon.recap_abandoned_free"
    points = plural(t, "points", d.cost)
    line = t(key, who=who, table=table, dice=item_dice(d.item, lang), cost=d.cost, points=points)
    if d.override is not None:
        w = words(lang)
        rule = w(f"override.{d.override}") if d.override in OVERRIDES else d.override
        line += w("item_rolled.override", rule=rule)
    return line


def _item_renamed(d: ev.ItemRenamed, who: str, lang: str) -> str:
    after = d.after or item_title({**d.item, "name": ""}, lang)  # "": the name its dice give
    before = item_title(d.item, lang)
    return catalog_for(lang).t("item_abandon.recap_renamed", who=who, before=before, after=after)


class ItemTitles(dict[str, str]):
    """The items' titles by id as a session goes (an item's note names only its id): those
    carried at the start, then each one rolled, kept or renamed."""

    def __init__(self, state: Campaign, lang: str) -> None:
        super().__init__(
            (i.id, item_title({"title": i.title, "tree": i.tree, "name": i.name}, lang))
            for c in state.characters
            for i in c.inventory
        )
        self.lang = lang

    def follow(self, event: ev.Event) -> None:
        d = event.data
        if isinstance(d, ev.ItemRolled | ev.ItemKept):
            self[str(d.item.get("id"))] = item_title(d.item, self.lang)
        elif isinstance(d, ev.ItemRenamed):
            self[str(d.item.get("id"))] = d.after or item_title({**d.item, "name": ""}, self.lang)


class RecapLine(msgspec.Struct, frozen=True):
    """One event told in words, for the log or the recap; ``void``: its action was undone."""

    event: ev.Event
    text: str
    void: bool

    def to_dict(self, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        return {
            "seq": self.event.seq,
            "game": self.event.game,
            "game_time": game_time(self.event.game, lang),
            "kind": self.event.kind,
            "character": self.event.character,
            "text": self.text,
            "at": self.event.at,
            "void": self.void,
            "event": self.event.to_dict(),
        }


def recap(
    start: Campaign, events: Sequence[ev.Event], lang: str = DEFAULT_LANGUAGE
) -> list[RecapLine]:
    """The session's events in words for the GM (names as they were when each event happened)."""
    w = words(lang)
    void = void_actions(events)
    names = {c.id: c.name for c in start.characters}
    items = ItemTitles(start, lang)
    by_action: dict[int, list[ev.Event]] = {}
    lines: list[RecapLine] = []
    for event in events:
        by_action.setdefault(event.action, []).append(event)
        if isinstance(event.data, ev.CharacterAdded):
            names[str(event.data.character.get("id"))] = str(event.data.character.get("name"))
        is_void = event.action in void
        if isinstance(event.data, ev.Undo):
            target = by_action.get(event.data.target, [])
            what = describe(target[0], names, lang, items) if target else "?"
            text: str | None = w("redo" if event.data.redo else "undo", what=what)
            if event.data.redo and target and isinstance(target[0].data, ev.Undo):
                inner = by_action.get(target[0].data.target, [])
                text = w("redo", what=describe(inner[0], names, lang, items) if inner else "?")
        else:
            text = describe(event, names, lang, items)
        if not is_void:
            items.follow(event)
        data = event.data
        if not is_void and isinstance(data, ev.CharacterEdited) and "name" in data.changes:
            names[event.character or ""] = str(data.changes["name"][1])
        if text is not None:
            lines.append(RecapLine(event, text, is_void))
    return lines


SHOWN = 3  # the events of one action a confirm spells out; the rest are counted


def describe_action(
    action_events: Sequence[ev.Event],
    state: Campaign | None,
    lang: str = DEFAULT_LANGUAGE,
    names: Mapping[str, str] | None = None,
) -> str:
    """The action in words, for a confirm (``Undo this? …``) and the log: its first events
    told one by one (a gain to three characters names all three), the rest counted."""
    if not action_events:
        return ""
    known = dict(names or {})
    if state is not None:
        known.update({c.id: c.name for c in state.characters})
    for e in action_events:
        if isinstance(e.data, ev.CharacterRemoved | ev.CharacterAdded):
            known.setdefault(str(e.data.character.get("id")), str(e.data.character.get("name")))
    items = ItemTitles(state, lang) if state is not None else None
    told = [describe(e, known, lang, items) or e.kind for e in action_events[:SHOWN]]
    more = len(action_events) - len(told)
    return "; ".join(told) + (words(lang)("more", n=more) if more else "")


def describe_earlier(
    started_at: str,
    action_events: Sequence[ev.Event],
    state: Campaign,
    lang: str = DEFAULT_LANGUAGE,
) -> str:
    """An action of an earlier session in words, with the day that session was played."""
    what = describe_action(action_events, state, lang)
    return words(lang)("undoing.earlier", when=session_date(started_at, lang), what=what)


def session_date(started_at: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """The day a session was played, in words (``20 November 2026``); the text as it is if it
    is not a date (a journal someone else wrote)."""
    try:
        day = datetime.fromisoformat(started_at)
    except ValueError:
        return started_at
    w = words(lang)
    return w("undoing.date", day=day.day, month=w(f"month.{day.month}"), year=day.year)


def standing(state: Campaign, lang: str = DEFAULT_LANGUAGE) -> list[tuple[str, str]]:
    """Each character's name and band in words, for the GM's recap (players: ``player_safe``)."""
    from gmscreen.rules.madness import band

    bands = {b.key: b.label.get(lang) for b in load_madness_data().bands}
    out = []
    for c in state.characters:
        words_ = bands.get(band(c.sanity), "")
        if c.sanity.episode is not None:
            words_ += f", {kind_words(c.sanity.episode.kind, lang)}"
        out.append((c.name, words_))
    return out
