"""Journal events as roll-log lines: time, character, what, dice and outcome, in the catalog's words."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from gmscreen.campaign import events as ev
from gmscreen.campaign.codec import SETTINGS_KEYS
from gmscreen.campaign.recap import describe_action, item_dice, ruling_what, session_date, span
from gmscreen.i18n import plural
from gmscreen.rules.merp import table_name
from gmscreen.rules.tables_render import item_title
from gmscreen.text import inert_line
from gmscreen.tui.format import (
    alignment_label,
    fumble_range,
    kind_label,
    preset_label,
    roll_text,
    units_text,
    when_text,
)
from gmscreen.tui.i18n import Translate
from gmscreen.tui.widgets.roll_log import LogEntry

Entry = Callable[..., LogEntry]

FIELD_KEYS = (
    "name",
    "player",
    "pow",
    "app",
    "chaos",
    "balance",
    "law",
    "madness",
    "notes",
    "under_care",
    "merp",
)
SETTING_KEYS = ("name", *SETTINGS_KEYS)  # what a settings_changed event may change


def _madness(changes: Mapping[str, list[Any]], t: Translate) -> str:
    pair = changes.get("madness")
    if not pair:
        return ""
    return t("log.madness_change", before=pair[0], after=pair[1])


class LogBuilder:
    """Turns events into lines, remembering names (a removed character keeps its name)."""

    def __init__(self, names: Mapping[str, str], t: Translate, lang: str) -> None:
        self.names = dict(names)
        self.t = t
        self.lang = lang
        self.actions: dict[int, list[ev.Event]] = {}  # this session's, for what an undo undid

    def _fields(self, changes: Mapping[str, Any]) -> str:
        """The edited fields by their labels (``POW, Chaos``); keys the form has no label for
        (the MERP profile, say) as they are."""
        t = self.t
        return ", ".join(t(f"log.field.{k}") if k in FIELD_KEYS else k for k in changes)

    def _settings(self, changes: Mapping[str, Any]) -> str:
        """``campaign name Old → New, fumble base 10 → 20, rule modules``: a number or a name
        with what it was and is; a list or the player words by name only (too long to tell)."""
        t = self.t
        parts = []
        for key, pair in changes.items():
            label = t(f"log.setting.{key}") if key in SETTING_KEYS else key
            before, after = pair
            if isinstance(after, int | str) and not isinstance(after, bool) and after != "":
                shown = {"before": before or t("log.setting_unset"), "after": after}
                parts.append(t("log.setting_change", label=label, **shown))
            else:
                parts.append(label)
        return ", ".join(parts)

    def _nights(self, recoveries: Iterable[ev.Recovery]) -> str:
        """Each character's nights over many days, in one phrase each."""
        t = self.t
        parts: dict[str, list[str]] = {}
        madness: dict[str, list[Any]] = {}
        for r in recoveries:
            who = self.names.get(r.character, r.character)
            said = parts.setdefault(r.character, [])
            if r.episode is not None:
                kind = kind_label(r.episode, self.lang)
                said.append(
                    t("log.days_skipped", who=who, nights=plural(t, "nights", r.nights), kind=kind)
                )
            elif r.blocked:
                said.append(t("log.days_blocked", who=who))
            elif "madness" in r.changes:
                before = madness.get(r.character, r.changes["madness"])[0]
                madness[r.character] = [before, r.changes["madness"][1]]
        for cid, (before, after) in madness.items():
            who = self.names.get(cid, cid)
            parts[cid].append(t("log.days_recovered", who=who, before=before, after=after))
        said = [p for ps in parts.values() for p in ps]
        return t("log.days_recovery", parts="; ".join(said)) if said else t("log.days_none")

    def _ruling(self, data: ev.Ruling, entry: Callable[..., LogEntry]) -> Iterator[LogEntry]:
        """``GM ruling: catatonia ends now, madness halved. Reason: …``, madness before → after;
        the reason is the GM's text, in full (the log wraps it, never cuts it)."""
        what = ruling_what(data, "", self.lang, self.t, "log.ruling")
        text = self.t("log.ruling.line", what=what, reason=data.reason)
        yield entry(text, outcome=_madness(data.changes, self.t))

    def _undone(self, undo: ev.Undo) -> str:
        """What an undo (or, undoing an undo, a redo) took back or brought back, in words."""
        target = self.actions.get(undo.target, [])
        if target and isinstance(target[0].data, ev.Undo):
            return self._undone(target[0].data)
        if target and isinstance(target[0].data, ev.UndoEarlier):
            target = target[0].data.undone_events()
        return describe_action(target, None, self.lang, self.names)

    # rolls left half way and resumed, items renamed (campaign/item_actions.py)
    def _item_abandoned(self, d: ev.ItemAbandoned, entry: Entry) -> Iterator[LogEntry]:
        key = "item_abandon.log_abandoned" if d.counted else "item_abandon.log_abandoned_free"
        table = table_name(str(d.item.get("table", "")), self.lang)
        yield entry(self.t(key, table=table, dice=item_dice(d.item, self.lang)))

    def _item_resumed(self, d: ev.ItemRolled, entry: Entry) -> Iterator[LogEntry]:
        title = item_title(d.item, self.lang)
        yield entry(self.t("item_abandon.log_resumed", title=title))

    def _item_renamed(self, d: ev.ItemRenamed, entry: Entry) -> Iterator[LogEntry]:
        before = item_title(d.item, self.lang)
        after = d.after or item_title({**d.item, "name": ""}, self.lang)
        yield entry(self.t("item_abandon.log_renamed", before=before, after=after))

    def lines(self, events: Iterable[ev.Event], void: set[int]) -> list[LogEntry]:
        out: list[LogEntry] = []
        for event in events:
            out.extend(self.event_lines(event, event.action in void))
        return out

    def event_lines(self, event: ev.Event, void: bool = False) -> Iterator[LogEntry]:
        t = self.t
        data = event.data
        who = event.character
        self.actions.setdefault(event.action, []).append(event)
        if isinstance(data, ev.CharacterAdded):
            self.names[str(data.character.get("id"))] = str(data.character.get("name", ""))
        if isinstance(data, ev.CharacterEdited) and "name" in data.changes and who:
            self.names[who] = str(data.changes["name"][1])
        name = self.names.get(who, who or "") if who else ""
        when = when_text(event.game, t)

        def entry(
            what: str,
            dice: str = "",
            outcome: str = "",
            style: str = "info",
            suffix: str = "",
            character: str | None = who,
            character_name: str = name,
            when: str = when,
        ) -> LogEntry:
            # Every part may hold a file's text (a name, a note, a typed dice expression):
            # inert here, where the line is built, so the log only ever draws plain text.
            # One isprintable() over the four for the common line (a tenth of four calls).
            if not (character_name + what + dice + outcome).isprintable():
                character_name, what = inert_line(character_name), inert_line(what)
                dice, outcome = inert_line(dice), inert_line(outcome)
            return LogEntry(
                key=f"{event.seq}{suffix}",
                when=when,
                who=character,
                who_name=character_name,
                what=what,
                dice=dice,
                outcome=outcome,
                style=style,
                void=void,
            )

        match data:
            case ev.Gain():
                what = preset_label(data.preset, self.lang)
                if data.inputs:
                    what += " (" + ", ".join(f"{v}" for v in data.inputs.values()) + ")"
                if data.adjustment:
                    what += " " + t("log.adjusted", n=f"{data.adjustment:+d}")
                yield entry(
                    what,
                    roll_text(data.roll, t) if data.roll else "",
                    t("log.gain", amount=data.amount) + "  " + _madness(data.changes, t),
                    "gain",
                )
                if data.happened:  # under the gain, as lines that carry it on
                    blank_when, blank_name = " " * len(when), " " * len(name)

                    def carried(text: str, suffix: str = "", **_: str) -> LogEntry:
                        key = ".happened" + suffix
                        return entry(text, suffix=key, when=blank_when, character_name=blank_name)

                    # one entry: the log wraps it to the width it is drawn at
                    yield carried(inert_line(t("notes.log.happened", text=data.happened)))
            case ev.CheckRoll():
                yield entry(
                    t(
                        "log.check",
                        alignment=alignment_label(data.target, t),
                        value=data.target_value,
                        range=fumble_range(data.fumble_from, t),
                    ),
                    roll_text(data.roll, t),
                    t(f"outcome.{data.outcome}") + "  " + _madness(data.changes, t),
                    data.outcome,
                )
            case ev.EpisodeStarted():
                what = t(
                    "log.episode_started",
                    kind=kind_label(data.kind, self.lang),
                    duration=units_text(data.amount, data.unit, t),
                )
                yield entry(
                    what,
                    roll_text(data.kind_roll, t),
                    t("log.permanent") if data.permanent else "",
                    "fumble" if data.permanent else "episode",
                )
            case ev.EpisodeEnded():
                yield entry(
                    t("log.episode_ended", kind=kind_label(data.kind, self.lang)),
                    "",
                    _madness(data.changes, t),
                    "recovery",
                )
            case ev.DayEnded() if data.days > 1:  # one line for time across many days
                yield entry(
                    t(
                        "log.days_passed",
                        days=data.days,
                        first=data.day + 1,
                        last=data.day + data.days,
                    ),
                    outcome=self._nights(data.recoveries),
                    style="time",
                    character=None,
                )
            case ev.DayEnded():
                yield entry(t("log.day_ended", day=data.day + 1), style="time", character=None)
                for n, recovery in enumerate(data.recoveries):
                    rname = self.names.get(recovery.character, recovery.character)
                    what = t("log.recovery_blocked") if recovery.blocked else t("log.recovery")
                    if recovery.episode is not None:
                        what = t(
                            "log.recovery_skipped", kind=kind_label(recovery.episode, self.lang)
                        )
                    yield entry(
                        what,
                        roll_text(recovery.roll, t) if recovery.roll else "",
                        _madness(recovery.changes, t),
                        "recovery",
                        suffix=f".{n}",
                        character=recovery.character,
                        character_name=rname,
                    )
            case ev.ClockAdvanced():
                key = "log.round" if data.reason == "round" else "log.advanced"
                yield entry(
                    t(key, span=span(data.seconds, self.lang), to=when_text(data.after, t)),
                    style="time",
                    character=None,
                    character_name="",
                )
            case ev.CharacterAdded():
                yield entry(t("log.character_added"))
            case ev.CharacterEdited():
                yield entry(t("log.character_edited", fields=self._fields(data.changes)))
            case ev.CharacterRemoved():
                yield entry(t("log.character_removed"))
            case ev.Note():
                yield entry(t("log.note_shared" if data.shared else "log.note", text=data.text))
            case ev.NoteEdited():
                key = "notes.log.edited_shared" if data.shared else "notes.log.edited"
                yield entry(t(key, text=data.text))
            case ev.NoteRemoved():
                yield entry(t("notes.log.removed", text=data.text))
            case ev.SettingsChanged():
                yield entry(t("log.settings", fields=self._settings(data.changes)))
            case ev.Undo():
                key = "log.redo" if data.redo else "log.undo"
                yield entry(t(key, what=self._undone(data)), character=None, character_name="")
            case ev.UndoEarlier():
                what = describe_action(data.undone_events(), None, self.lang, self.names)
                when = session_date(data.started_at, self.lang)
                yield entry(t("log.undo_earlier", when=when, what=what), character=None)
            case ev.ItemRolled() if data.resumes is not None:
                yield from self._item_resumed(data, entry)
            case ev.ItemAbandoned():
                yield from self._item_abandoned(data, entry)
            case ev.ItemRenamed():
                yield from self._item_renamed(data, entry)
            case ev.ItemRolled() if data.override is not None:
                title = item_title(data.item, self.lang)
                rule = t(f"log.override_{data.override}")
                # an item's full name, never cut: the log wraps it to its width
                yield entry(t("log.item_rolled_override", title=title, rule=rule))
            case ev.ItemRolled() | ev.ItemKept() | ev.ItemDiscarded() | ev.ItemRemoved():
                title = item_title(data.item, self.lang)
                yield entry(t(f"log.{event.kind}", title=title))
            case ev.ItemNoted():
                yield entry(t("log.item_noted", text=data.after))
            case ev.Ruling():
                yield from self._ruling(data, entry)
