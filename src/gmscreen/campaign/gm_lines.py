"""What each kind of event says to the GM: one function per kind, in one dispatch on the
payload's type (:data:`GM_LINES`), each yielding the :class:`~gmscreen.campaign.gm_words.Line`s a
:class:`~gmscreen.campaign.gm_words.Teller` tells. The words themselves are the catalog's
(``[log]``), times and dice :mod:`gmscreen.campaign.wording`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from gmscreen.campaign import events as ev
from gmscreen.campaign.codec import SETTINGS_KEYS
from gmscreen.campaign.gm_words import Teller, Told
from gmscreen.campaign.item_names import item_name
from gmscreen.campaign.wording import (
    INPUTS,
    OVERRIDES,
    changes_text,
    field_text,
    fumble_range,
    kind_label,
    kind_words,
    preset_label,
    preset_words,
    roll_text,
    say,
    session_date,
    span,
    units_text,
    value_text,
    words,
)
from gmscreen.i18n import Translate, plural
from gmscreen.rules import merp
from gmscreen.rules.dice import DiceError, Roll

SETTING_KEYS = ("name", *SETTINGS_KEYS)  # what a settings_changed event may change


def _gain(s: Teller, e: ev.Event, d: ev.Gain) -> Told:
    w = words(s.lang)
    what = preset_label(d.preset, s.lang)
    if d.inputs:
        inputs = (f"{w(f'input.{k}') if k in INPUTS else k} {v}" for k, v in d.inputs.items())
        what += f" ({', '.join(inputs)})"
    if d.first_time:
        what += s.t("log.first_time")
    dice = [roll_text(d.roll, s.t)] if d.roll else []
    if d.adjustment:
        dice.append(s.t("log.adjusted", n=f"{d.adjustment:+d}"))
    changed = s.changed(d.changes, "madness", "chaos", "law", "app")
    outcome = ", ".join(part for part in (s.t("log.gain", amount=d.amount), changed) if part)
    line = s.line(what, ", ".join(dice), outcome, "gain")
    yield line
    if d.happened:  # under the gain, as a line that carries it on (the log wraps it)
        yield s.line(s.t("notes.log.happened", text=d.happened), suffix=".happened", carried=True)


def _check(s: Teller, e: ev.Event, d: ev.CheckRoll) -> Told:
    what = s.t(
        "log.check",
        alignment=s.t(f"stat.{d.target}"),
        value=d.target_value,
        range=fumble_range(d.fumble_from, s.t),
    )
    parts = [s.t(f"outcome.{d.outcome}"), s.changed(d.changes, "madness")]
    if d.repeat:
        parts.append(s.t("log.check_again"))
    yield s.line(what, roll_text(d.roll, s.t), ", ".join(p for p in parts if p), d.outcome)


def _episode(s: Teller, e: ev.Event, d: ev.EpisodeStarted) -> Told:
    kind, duration = kind_label(d.kind, s.lang), units_text(d.amount, d.unit, s.t)
    what = s.t("log.episode_started", kind=kind, duration=duration)
    permanent = s.t("log.permanent") if d.permanent else ""
    style = "fumble" if d.permanent else "episode"
    yield s.line(what, roll_text(d.kind_roll, s.t), permanent, style)


def _episode_end(s: Teller, e: ev.Event, d: ev.EpisodeEnded) -> Told:
    what = s.t("log.episode_ended", kind=kind_label(d.kind, s.lang))
    yield s.line(what, "", s.changed(d.changes, "madness"), "recovery")


def _day(s: Teller, e: ev.Event, d: ev.DayEnded) -> Told:
    t = s.t
    if d.days > 1:  # one line for time across many days
        what = t("log.days_passed", days=d.days, first=d.day + 1, last=d.day + d.days)
        yield s.line(what, outcome=_nights(s, d.recoveries), style="time", character=None)
        return
    yield s.line(t("log.day_ended", day=d.day + 1), style="time", character=None)
    for n, r in enumerate(d.recoveries):
        what = t("log.recovery_blocked") if r.blocked else t("log.recovery")
        if r.episode is not None:
            what = t("log.recovery_skipped", kind=kind_label(r.episode, s.lang))
        dice = roll_text(r.roll, t) if r.roll else ""
        outcome = s.changed(r.changes, "madness")
        yield s.line(what, dice, outcome, "recovery", suffix=f".{n}", character=r.character)


def _nights(s: Teller, recoveries: Iterable[ev.Recovery]) -> str:
    """Each character's nights over many days, in one phrase each."""
    t = s.t
    parts: dict[str, list[str]] = {}
    madness: dict[str, list[Any]] = {}
    for r in recoveries:
        who = s.names.get(r.character, r.character)
        said = parts.setdefault(r.character, [])
        if r.episode is not None:
            kind, nights = kind_label(r.episode, s.lang), plural(t, "nights", r.nights)
            said.append(t("log.days_skipped", who=who, nights=nights, kind=kind))
        elif r.blocked:
            said.append(t("log.days_blocked", who=who))
        elif "madness" in r.changes:
            before = madness.get(r.character, r.changes["madness"])[0]
            madness[r.character] = [before, r.changes["madness"][1]]
    for cid, (before, after) in madness.items():
        who = s.names.get(cid, cid)
        parts[cid].append(t("log.days_recovered", who=who, before=before, after=after))
    said = [p for ps in parts.values() for p in ps]
    return t("log.days_recovery", parts="; ".join(said)) if said else t("log.days_none")


def _clock(s: Teller, e: ev.Event, d: ev.ClockAdvanced) -> Told:
    """Told at the time it reached (see :func:`told_order`)."""
    what = (
        s.t("log.round")
        if d.reason == "round"
        else s.t("log.advanced", span=span(d.seconds, s.lang))
    )
    yield s.line(what, style="time", character=None, game=d.after)


def _added(s: Teller, e: ev.Event, d: ev.CharacterAdded) -> Told:
    w = words(s.lang)
    keys = ("pow", "chaos", "balance", "law", "madness")
    stats = ", ".join(f"{field_text(k, w)} {d.character.get(k)}" for k in keys)
    yield s.line(s.t("log.character_added", stats=stats))


def _edited(s: Teller, e: ev.Event, d: ev.CharacterEdited) -> Told:
    yield s.line(s.t("log.character_edited", fields=changes_text(d.changes, lang=s.lang)))


def _removed(s: Teller, e: ev.Event, d: ev.CharacterRemoved) -> Told:
    yield s.line(s.t("log.character_removed"))


def _horror(s: Teller, e: ev.Event, d: ev.HorrorAdded | ev.HorrorEdited | ev.HorrorRemoved) -> Told:
    """The campaign's list of horrors changed: which one, by the GM's name for it (the words
    of its rule and what the players hear come with the horrors' screens)."""
    if isinstance(d, ev.HorrorEdited):
        yield s.line(s.t("log.horror_edited", name=str(d.after.get("name", ""))))
    else:
        key = "log.horror_added" if isinstance(d, ev.HorrorAdded) else "log.horror_removed"
        yield s.line(s.t(key, name=str(d.horror.get("name", ""))))


def _note(s: Teller, e: ev.Event, d: ev.Note) -> Told:
    yield s.line(s.t("log.note_shared" if d.shared else "log.note", text=d.text))


def _note_edited(s: Teller, e: ev.Event, d: ev.NoteEdited) -> Told:
    what = s.t("notes.log.edited_shared" if d.shared else "notes.log.edited", text=d.text)
    if d.shared != d.was_shared:
        what += s.t("notes.log.now_shared" if d.shared else "notes.log.now_private")
    yield s.line(what)


def _note_removed(s: Teller, e: ev.Event, d: ev.NoteRemoved) -> Told:
    yield s.line(s.t("notes.log.removed", text=d.text))


def _settings(s: Teller, e: ev.Event, d: ev.SettingsChanged) -> Told:
    """``campaign name Old → New, fumble base 10 → 20, rule modules``: a number or a name
    with what it was and is; a list or the player words by name only (too long to tell)."""
    t = s.t
    parts = []
    for key, (before, after) in d.changes.items():
        label = t(f"log.setting.{key}") if key in SETTING_KEYS else key
        if isinstance(after, int | str) and not isinstance(after, bool) and after != "":
            was = value_text(key, before, s.lang) if before else t("log.setting_unset")
            now = value_text(key, after, s.lang)
            parts.append(t("log.setting_change", label=label, before=was, after=now))
        else:
            parts.append(label)
    yield s.line(t("log.settings", fields=", ".join(parts)))


def _undo(s: Teller, e: ev.Event, d: ev.Undo) -> Told:
    """What an undo (or, undoing an undo, a redo) took back or brought back, in words."""
    target = s.actions.get(d.target, [])
    while target and isinstance(target[0].data, ev.Undo):
        target = s.actions.get(target[0].data.target, [])
    if target and isinstance(target[0].data, ev.UndoEarlier):
        target = target[0].data.undone_events()
    what = s.action_words(target) if target else "?"
    key, style = ("log.redo", "redo") if d.redo else ("log.undo", "undo")
    yield s.line(s.t(key, what=what), style=style, character=None)


def _undo_earlier(s: Teller, e: ev.Event, d: ev.UndoEarlier) -> Told:
    what = s.action_words(d.undone_events())
    when = session_date(d.started_at, s.lang)
    yield s.line(s.t("log.undo_earlier", when=when, what=what), style="undo", character=None)


def _table(item: Mapping[str, Any], lang: str) -> str:
    return merp.table_name(str(item.get("table", "")), lang)


def _override(s: Teller, override: str | None) -> str:
    if override is None:
        return ""
    rule = s.t(f"log.override_{override}") if override in OVERRIDES else override
    return s.t("log.item_override", rule=rule)


def _item_rolled(s: Teller, e: ev.Event, d: ev.ItemRolled) -> Told:
    title = item_name(d.item, s.lang)
    if d.resumes is not None:
        yield s.line(s.t("item_abandon.log_resumed", title=title) + _override(s, d.override))
        return
    cost = plural(s.t, "points", d.cost)
    what = s.t("log.item_rolled", table=_table(d.item, s.lang), cost=cost, title=title)
    yield s.line(what + _override(s, d.override))


def item_dice(item: Mapping[str, Any], t: Translate) -> str:
    """The dice a roll left half way had: ``1d100: 45, 1d10: 7``."""
    tree = item.get("tree")
    inputs = tree.get("inputs", []) if isinstance(tree, Mapping) else []
    rolls = []
    for answer in inputs if isinstance(inputs, list) else []:
        try:
            rolls.append(roll_text(Roll.from_dict(answer["roll"]), t))
        except (KeyError, TypeError, ValueError, DiceError):
            continue  # a choice, or what the file holds and we cannot read: no die
    return ", ".join(rolls)


def _item_abandoned(s: Teller, e: ev.Event, d: ev.ItemAbandoned) -> Told:
    key = "item_abandon.log_abandoned" if d.counted else "item_abandon.log_abandoned_free"
    table, dice = _table(d.item, s.lang), item_dice(d.item, s.t)
    what = s.t(key, table=table, dice=dice, points=plural(s.t, "points", d.cost))
    yield s.line(what + _override(s, d.override))


def _item_renamed(s: Teller, e: ev.Event, d: ev.ItemRenamed) -> Told:
    before = item_name(d.item, s.lang)
    after = d.after or item_name({**d.item, "name": ""}, s.lang)  # "": the name its dice give
    yield s.line(s.t("item_abandon.log_renamed", before=before, after=after))


def _item(s: Teller, e: ev.Event, d: ev.ItemKept | ev.ItemDiscarded | ev.ItemRemoved) -> Told:
    yield s.line(s.t(f"log.{e.kind}", title=item_name(d.item, s.lang)))


def _item_noted(s: Teller, e: ev.Event, d: ev.ItemNoted) -> Told:
    title = s.items.title(d.item_id)
    yield s.line(s.t("log.item_noted", title=title, text=d.after))


def ruling_what(d: ev.Ruling, lang: str) -> str:
    """What a GM ruling did, in words (its reason and numbers are the caller's)."""
    t = say(lang)
    subject = d.subject or ""
    match d.ruling:
        case "end_episode":
            key = "end_episode_halved" if d.halved else "end_episode_kept"
            return t(f"log.ruling.{key}", kind=kind_words(subject, lang))
        case "add_permanent" | "remove_permanent":
            return t(f"log.ruling.{d.ruling}", kind=kind_words(subject, lang))
        case "forget_sighting":
            return t("log.ruling.forget_sighting", preset=preset_words(subject, lang))
        case "set_madness":
            return t("log.ruling.set_madness", value=d.changes.get("madness", [None, None])[1])
    on = bool(d.changes.get("under_care", [False, False])[1])
    return t(f"log.ruling.under_care_{'on' if on else 'off'}")


def _ruling(s: Teller, e: ev.Event, d: ev.Ruling) -> Told:
    """``GM ruling: catatonia ends now, madness halved. Reason: …``, madness before → after;
    the reason is the GM's text, in full (the log wraps it, never cuts it)."""
    what = s.t("log.ruling.line", what=ruling_what(d, s.lang), reason=d.reason)
    yield s.line(what, outcome=s.changed(d.changes, "madness"))


GM_LINES: dict[type[Any], Callable[[Teller, ev.Event, Any], Told]] = {
    ev.Gain: _gain,
    ev.CheckRoll: _check,
    ev.EpisodeStarted: _episode,
    ev.EpisodeEnded: _episode_end,
    ev.DayEnded: _day,
    ev.ClockAdvanced: _clock,
    ev.CharacterAdded: _added,
    ev.CharacterEdited: _edited,
    ev.CharacterRemoved: _removed,
    ev.Note: _note,
    ev.NoteEdited: _note_edited,
    ev.NoteRemoved: _note_removed,
    ev.SettingsChanged: _settings,
    ev.Undo: _undo,
    ev.UndoEarlier: _undo_earlier,
    ev.ItemRolled: _item_rolled,
    ev.ItemAbandoned: _item_abandoned,
    ev.ItemRenamed: _item_renamed,
    ev.ItemKept: _item,
    ev.ItemDiscarded: _item,
    ev.ItemRemoved: _item,
    ev.ItemNoted: _item_noted,
    ev.Ruling: _ruling,
    ev.HorrorAdded: _horror,
    ev.HorrorEdited: _horror,
    ev.HorrorRemoved: _horror,
}
