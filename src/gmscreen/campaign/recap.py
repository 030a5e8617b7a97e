"""Events in words: the log lines of the screen and the recap of ``gmscreen export``.

Two voices: the GM's (every die, madness before → after) and the players' (no number they must
not see: no madness, POW, alignment, targets or check dice; notes and undone events left out).
All wording is in :data:`TEXT` so that a Spanish catalog can replace it later.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gmscreen.campaign import events as ev
from gmscreen.campaign.model import Campaign
from gmscreen.campaign.reducer import void_actions
from gmscreen.rules.dice import Roll
from gmscreen.rules.madness import DAY, HOUR, MINUTE
from gmscreen.rules.madness_data import load_madness_data

TEXT: dict[str, str] = {
    "gain": "{who}: {what}{inputs}{roll}: {amount:+d} madness{extra}",
    "gain.players": "{who}: {what}",
    "gain.first": ", the first time",
    "check": "{who} checks madness: {roll} against {target} {value} (fumbles on {fumbles}): {outcome}",
    "check.repeat": "; still at or over POW, another check",
    "check.players.success": "{who} fights off the horror",
    "check.players.failure": "{who}'s mind gives way",
    "check.players.fumble": "{who}'s mind gives way, and something breaks for good",
    "episode": "{who} goes mad: {kind} ({roll}) for {amount} {unit}, until {until}{permanent}",
    "episode.players": "{who} is struck by {kind}: {detail}{permanent}",
    "episode.permanent": "; it stays as a permanent madness",
    "episode.players.permanent": "; it will never fully leave",
    "episode_end": "{who}'s {kind} ends",
    "episode_end.players": "{who}'s {kind} passes",
    "day": "End of day {day}",
    "recovery": "{who} recovers {amount}{roll}",
    "recovery.blocked": "{who} does not recover (madness gained that day)",
    "clock.advance": "Time passes: {span} (to {to})",
    "clock.round": "Next round (to {to})",
    "clock.end_day": "The day ends (to {to})",
    "added": "{who} joins{stats}",
    "edited": "{who} edited",
    "removed": "{who} leaves",
    "item_rolled": "{who} rolls on table {table} for {cost} point(s): {title}",
    "item_rolled.override": " (the GM overrode the {rule} rule)",
    "item_kept": "{who} keeps {title}",
    "item_discarded": "{who} discards {title}",
    "item_noted": "{who} notes on {title}: {text}",
    "item_removed": "{who} no longer has {title}",
    "note": "Note: {text}",
    "note.about": "Note on {who}: {text}",
    "settings": "Settings changed",
    "undo": "Undone: {what}",
    "redo": "Redone: {what}",
    "undone": " (undone)",
    "more": " (and {n} more)",
    "time": "day {day}, {hh:02d}:{mm:02d}",
    "yes": "yes",
    "no": "no",
    "none": "none",
    "title": "Recap of {campaign}, session {session}",
    "title.players": "The story so far: {campaign}, session {session}",
    "standing": "Where everyone stands",
    "no_events": "Nothing happened in this session.",
}
FIELD_LABELS = {
    "pow": "POW",
    "app": "APP",
    "chaos": "Chaos",
    "law": "Law",
    "balance": "Balance",
    "madness": "madness",
    "under_care": "under care",
    "last_gain_day": "day of last gain",
    "permanent": "permanent madnesses",
    "first_sightings": "first sightings",
    "awaiting_kind": "kind due",
}
UNIT_WORDS = {"rounds": "rounds", "minutes": "minutes", "hours": "hours", "days": "days"}


def t(key: str, **values: Any) -> str:
    return TEXT[key].format(**values)


def game_time(seconds: int) -> str:
    """``day 1, 08:00``: days count from 1 for people (day 0 in the rules)."""
    day, rest = divmod(seconds, DAY)
    text = t("time", day=day + 1, hh=rest // HOUR, mm=rest % HOUR // MINUTE)
    return text + (f":{rest % MINUTE:02d}" if rest % MINUTE else "")


def span(seconds: int) -> str:
    parts = []
    for size, word in ((DAY, "day"), (HOUR, "hour"), (MINUTE, "minute"), (1, "second")):
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(f"{count} {word}{'' if count == 1 else 's'}")
    return ", ".join(parts) or "0 seconds"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return t("yes") if value else t("no")
    if value is None or value == []:
        return t("none")
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return str(value.get("kind") or value.get("category") or "…")
    return str(value)


def changes_text(changes: Mapping[str, list[Any]], keys: Iterable[str] | None = None) -> str:
    shown = [k for k in (keys or changes) if k in changes]
    return "; ".join(
        f"{FIELD_LABELS.get(k, k)} {_value(changes[k][0])} → {_value(changes[k][1])}" for k in shown
    )


def _roll(roll: Roll | None) -> str:
    return f" ({roll.describe()})" if roll is not None else ""


def _fumbles(first: int) -> str:
    return "none" if first > 100 else "00" if first == 100 else f"{first}-00"


def _preset(key: str) -> str:
    p = load_madness_data().presets.get(key)
    return p.label.en.lower() if p else key


def _kind(key: str) -> tuple[str, str]:
    try:
        kind = load_madness_data().kind(key)
    except ValueError:
        return key, ""
    return kind.label.en.lower(), kind.detail.en


def describe(event: ev.Event, names: Mapping[str, str], players: bool = False) -> str | None:
    """One line for ``event`` (None when the players' recap leaves it out)."""
    d = event.data
    who = names.get(event.character or "", event.character or "")
    match d:
        case ev.Gain():
            if players:
                return t("gain.players", who=who, what=_preset(d.preset))
            inputs = ", ".join(f"{k} {v}" for k, v in d.inputs.items())
            extra = changes_text(d.changes, ("madness", "chaos", "law", "app"))
            return t(
                "gain",
                who=who,
                what=_preset(d.preset),
                inputs=f" ({inputs})" if inputs else "",
                roll=_roll(d.roll) + (t("gain.first") if d.first_time else ""),
                amount=d.amount,
                extra=f" ({extra})" if extra else "",
            )
        case ev.CheckRoll():
            if players:
                return t(f"check.players.{d.outcome}", who=who)
            line = t(
                "check",
                who=who,
                roll=d.roll.describe(),
                target=d.target.capitalize(),
                value=d.target_value,
                fumbles=_fumbles(d.fumble_from),
                outcome=d.outcome,
            )
            extra = changes_text(d.changes, ("madness",))
            return line + (f" ({extra})" if extra else "") + (t("check.repeat") if d.repeat else "")
        case ev.EpisodeStarted():
            kind, detail = _kind(d.kind)
            if players:
                permanent = t("episode.players.permanent") if d.permanent else ""
                return t("episode.players", who=who, kind=kind, detail=detail, permanent=permanent)
            permanent = t("episode.permanent") if d.permanent else ""
            return t(
                "episode",
                who=who,
                kind=kind,
                roll=d.kind_roll.describe(),
                amount=d.amount,
                unit=UNIT_WORDS.get(d.unit, d.unit),
                until=game_time(d.ends_at),
                permanent=permanent,
            )
        case ev.EpisodeEnded():
            kind = _kind(d.kind)[0]
            if players:
                return t("episode_end.players", who=who, kind=kind)
            extra = changes_text(d.changes, ("madness",))
            return t("episode_end", who=who, kind=kind) + (f" ({extra})" if extra else "")
        case ev.DayEnded():
            line = t("day", day=d.day + 1)
            if players or not d.recoveries:
                return line
            parts = []
            for r in d.recoveries:
                name = names.get(r.character, r.character)
                if r.blocked:
                    parts.append(t("recovery.blocked", who=name))
                else:
                    extra = changes_text(r.changes, ("madness",))
                    parts.append(
                        t("recovery", who=name, amount=r.amount, roll=_roll(r.roll))
                        + (f" ({extra})" if extra else "")
                    )
            return f"{line}: " + "; ".join(parts)
        case ev.ClockAdvanced():
            return t(f"clock.{d.reason}", span=span(d.seconds), to=game_time(d.after))
        case ev.CharacterAdded():
            name = str(d.character.get("name", who))
            if players:
                return t("added", who=name, stats="")
            stats = ", ".join(
                f"{FIELD_LABELS[k]} {d.character.get(k)}"
                for k in ("pow", "chaos", "balance", "law", "madness")
            )
            return t("added", who=name, stats=f" ({stats})")
        case ev.CharacterEdited():
            if players:
                return None
            return t("edited", who=who) + f": {changes_text(d.changes)}"
        case ev.CharacterRemoved():
            return t("removed", who=str(d.character.get("name", who)))
        case ev.ItemRolled():
            line = t(
                "item_rolled",
                who=who,
                table=d.item.get("table"),
                cost=d.cost,
                title=d.item.get("title"),
            )
            if d.override is not None:
                line += t("item_rolled.override", rule=d.override.replace("_", " "))
            return line
        case ev.ItemKept():
            return t("item_kept", who=who, title=d.item.get("title"))
        case ev.ItemDiscarded():
            return t("item_discarded", who=who, title=d.item.get("title"))
        case ev.ItemNoted():
            return None if players else t("item_noted", who=who, title=d.item_id, text=d.after)
        case ev.ItemRemoved():
            return t("item_removed", who=who, title=d.item.get("title"))
        case ev.Note():
            if players:
                return None
            if event.character:
                return t("note.about", who=who, text=d.text)
            return t("note", text=d.text)
        case ev.SettingsChanged():
            return None if players else f"{t('settings')}: {changes_text(d.changes)}"
        case ev.Undo():
            return None  # needs the target: see RecapLine building in recap()
    return None  # pragma: no cover


@dataclass(frozen=True, slots=True)
class RecapLine:
    event: ev.Event
    text: str
    void: bool

    def to_dict(self, players: bool) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seq": self.event.seq,
            "game": self.event.game,
            "game_time": game_time(self.event.game),
            "kind": self.event.kind,
            "character": self.event.character,
            "text": self.text,
        }
        if not players:
            out.update(at=self.event.at, void=self.void, event=self.event.to_dict())
        return out


def recap(start: Campaign, events: Sequence[ev.Event], players: bool = False) -> list[RecapLine]:
    """The session's events in words (names as they were when each event happened)."""
    void = void_actions(events)
    names = {c.id: c.name for c in start.characters}
    by_action: dict[int, list[ev.Event]] = {}
    lines: list[RecapLine] = []
    for event in events:
        by_action.setdefault(event.action, []).append(event)
        if isinstance(event.data, ev.CharacterAdded):
            names[str(event.data.character.get("id"))] = str(event.data.character.get("name"))
        is_void = event.action in void
        if isinstance(event.data, ev.Undo):
            target = by_action.get(event.data.target, [])
            what = describe(target[0], names) if target else "?"
            text: str | None = t("redo" if event.data.redo else "undo", what=what)
            if event.data.redo and target and isinstance(target[0].data, ev.Undo):
                inner = by_action.get(target[0].data.target, [])
                text = t("redo", what=describe(inner[0], names) if inner else "?")
        else:
            text = describe(event, names, players)
        data = event.data
        if not is_void and isinstance(data, ev.CharacterEdited) and "name" in data.changes:
            names[event.character or ""] = str(data.changes["name"][1])
        if players and (is_void or isinstance(event.data, ev.Undo)):
            continue
        if text is not None:
            lines.append(RecapLine(event, text, is_void))
    return lines


def describe_action(action_events: Sequence[ev.Event], state: Campaign) -> str:
    """The action in one line, for a confirm dialog (``Undo: …?``)."""
    if not action_events:
        return ""
    names = {c.id: c.name for c in state.characters}
    for e in action_events:
        if isinstance(e.data, ev.CharacterRemoved | ev.CharacterAdded):
            names.setdefault(str(e.data.character.get("id")), str(e.data.character.get("name")))
    first = describe(action_events[0], names) or action_events[0].kind
    more = len(action_events) - 1
    return first + (t("more", n=more) if more else "")


def standing(state: Campaign) -> list[tuple[str, str]]:
    """Each character's name and player-view band (words only, no numbers)."""
    from gmscreen.rules.madness import band

    bands = {b.key: b.label.get(state.settings.language) for b in load_madness_data().bands}
    out = []
    for c in state.characters:
        words = bands.get(band(c.sanity), "")
        if c.sanity.episode is not None:
            words += f", {_kind(c.sanity.episode.kind)[0]}"
        out.append((c.name, words))
    return out
