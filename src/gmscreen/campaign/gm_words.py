"""The GM's words: every event as lines in pieces (who, what, the dice, the outcome, the kind
of line), told in order by a :class:`Teller`. What each kind of event says is
:mod:`gmscreen.campaign.gm_lines` (one function per kind, one dispatch: ``GM_LINES``), handed to
the teller. The log shows the pieces as they are; the recap joins them into sentences
(:func:`sentence`): both say the same. The audiences' entry is :mod:`gmscreen.campaign.telling`.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence
from typing import Any

import msgspec

from gmscreen.campaign import events as ev
from gmscreen.campaign.item_names import item_name
from gmscreen.campaign.model import Campaign, Item
from gmscreen.campaign.wording import (
    changes_text,
    say,
    when_text,
    words,
)
from gmscreen.i18n import DEFAULT_LANGUAGE
from gmscreen.text import inert_line

PIECES = " · "  # between what happened, the dice and the outcome, in a sentence
SHOWN = 3  # the lines of one action a confirm spells out; the rest are counted


class Line(msgspec.Struct, frozen=True):
    """One line of the GM's words, in pieces: what a screen styles and filters by (``style``,
    the character's id ``who``) and the plain texts it shows. ``game`` is the time it is told
    at (``when``, in the log's short form); ``seqs`` the events it tells (a run of rounds, many);
    ``carried``: it carries on the line above (a gain's what-happened line)."""

    key: str  # unique, and kept by a run of rounds as it grows
    game: int
    when: str
    who: str | None
    who_name: str
    what: str
    dice: str = ""
    outcome: str = ""
    style: str = "info"
    void: bool = False
    carried: bool = False
    seqs: tuple[int, ...] = ()


def sentence(line: Line) -> str:
    """``Artinar: A friend dies · 1d6: 4 · +4, madness 0 → 4``: a line as the recap says it."""
    text = f"{line.who_name}: {line.what}" if line.who_name else line.what
    return PIECES.join(part for part in (text, line.dice, line.outcome) if part)


def recap_sentences(lines: Iterable[Line]) -> list[str]:
    """Lines as the recap says them: a sentence each, a carried line joined to the one above."""
    out: list[str] = []
    for line in lines:
        if line.carried and out:
            out[-1] += f" — {line.what}"
        else:
            out.append(sentence(line))
    return out


class ItemTitles:
    """The items' titles by id as a session goes (an item's note names only its id): those
    carried at the start, then each one rolled, kept or renamed. Named when asked for (an item
    stored before names were is named from the tables: :mod:`gmscreen.campaign.item_names`)."""

    def __init__(self, state: Campaign | None, lang: str) -> None:
        self.lang = lang
        self._items: dict[str, Item | Mapping[str, Any] | str] = {
            i.id: i for c in (state.characters if state is not None else ()) for i in c.inventory
        }

    def follow(self, event: ev.Event) -> None:
        d = event.data
        if isinstance(d, ev.ItemRolled | ev.ItemKept):
            self._items[str(d.item.get("id"))] = d.item
        elif isinstance(d, ev.ItemRenamed):
            self._items[str(d.item.get("id"))] = d.after or {**d.item, "name": ""}

    def title(self, item_id: str) -> str:
        item = self._items.get(item_id)
        if item is None:
            return item_id
        return item if isinstance(item, str) else item_name(item, self.lang)

    def copy(self) -> ItemTitles:
        other = ItemTitles(None, self.lang)
        other._items = dict(self._items)
        return other


def told_order(events: Iterable[ev.Event]) -> Iterator[ev.Event]:
    """``events`` in the order they are told: the clock's move of an advance after the events
    of its action that came before the time it reached (the journal writes it first)."""
    held: ev.Event | None = None
    for event in events:
        if held is not None and (event.action != held.action or event.game >= _reached(held)):
            yield held
            held = None
        if isinstance(event.data, ev.ClockAdvanced):
            held = event
        else:
            yield event
    if held is not None:
        yield held


def _reached(event: ev.Event) -> int:
    return event.data.after if isinstance(event.data, ev.ClockAdvanced) else event.game


Told = Iterator["Line"]
Says = Mapping[type[Any], Callable[["Teller", ev.Event, Any], Told]]
"""What each kind of event says: a function of the teller, the event and its payload."""


class Teller:
    """Tells one session's events for the GM through ``says`` (``gm_lines.GM_LINES``),
    remembering what later lines need: the names the
    characters had, the items' titles, each action's events (what an undo took back) and the
    run of rounds told last. ``fold``: a run of rounds is one line (not in replay, which steps
    one event at a time)."""

    def __init__(
        self,
        names: Mapping[str, str],
        lang: str = DEFAULT_LANGUAGE,
        *,
        says: Says,
        items: ItemTitles | None = None,
        fold: bool = True,
    ) -> None:
        self.says = says
        self.names = dict(names)
        self.lang = lang
        self.t = say(lang)
        self.items = items if items is not None else ItemTitles(None, lang)
        self.fold = fold
        self.actions: dict[int, list[ev.Event]] = {}
        self._run: tuple[Line, int] | None = None  # the last line told, while it is rounds
        self._event: ev.Event | None = None
        self._void = False

    def tell(self, events: Iterable[ev.Event], void: Container[int] = ()) -> list[Line]:
        """The lines of ``events`` (``void``: the actions undone), in :func:`told_order`. A line
        with the key of the line told last (before this call, or in it) takes its place: a run
        of rounds grew."""
        out: list[Line] = []
        for event in told_order(events):
            for line in self.event_lines(event, event.action in void):
                if out and out[-1].key == line.key:
                    out[-1] = line
                else:
                    out.append(line)
        return out

    def event_lines(self, event: ev.Event, void: bool = False) -> list[Line]:
        """One event's lines, in the order told (call in :func:`told_order`)."""
        d = event.data
        self.actions.setdefault(event.action, []).append(event)
        if isinstance(d, ev.CharacterAdded):
            self.names[str(d.character.get("id"))] = str(d.character.get("name", ""))
        self._event, self._void = event, void
        lines = list(self.says[type(d)](self, event, d))
        if len(lines) == 1 and _is_round(d) and self.fold and not void:
            lines = [self._rounds(lines[0])]
        else:
            self._run = None
        if not void:
            self.items.follow(event)
            if isinstance(d, ev.CharacterEdited) and "name" in d.changes and event.character:
                self.names[event.character] = str(d.changes["name"][1])
        return lines

    def _rounds(self, line: Line) -> Line:
        """A round: one more in the run told last, or a run of its own."""
        if self._run is not None:
            run, count = self._run
            what = self.t("log.rounds", n=count + 1)
            line = msgspec.structs.replace(
                line, key=run.key, what=what, seqs=(*run.seqs, *line.seqs)
            )
            count += 1
        else:
            count = 1
        self._run = (line, count)
        return line

    def line(
        self,
        what: str,
        dice: str = "",
        outcome: str = "",
        style: str = "info",
        *,
        suffix: str = "",
        character: str | None = "",
        game: int | None = None,
        carried: bool = False,
    ) -> Line:
        """A line of the event being told; ``character``: "" for the event's own, None for
        nobody (the clock, the days)."""
        event = self._event
        assert event is not None
        who = event.character if character == "" else character
        name = self.names.get(who, who) if who else ""
        told_at = event.game if game is None else game
        # Every part may hold a file's text (a name, a note, a typed dice expression): inert
        # here, where the line is built, so whoever shows it only ever has plain text.
        if not (name + what + dice + outcome).isprintable():
            name, what, dice, outcome = map(inert_line, (name, what, dice, outcome))
        return Line(
            key=f"{event.seq}{suffix}",
            game=told_at,
            when=when_text(told_at, self.t),
            who=who,
            who_name=name,
            what=what,
            dice=dice,
            outcome=outcome,
            style=style,
            void=self._void,
            carried=carried,
            seqs=(event.seq,),
        )

    def changed(self, changes: Mapping[str, list[Any]], *keys: str) -> str:
        return changes_text(changes, keys, self.lang)

    def action_words(self, action: Sequence[ev.Event]) -> str:
        """An action in words, for an undo's line and its question: its first events told one
        by one (a gain to three characters names all three), the rest counted."""
        names = dict(self.names)
        for e in action:
            if isinstance(e.data, ev.CharacterRemoved | ev.CharacterAdded):
                names.setdefault(str(e.data.character.get("id")), str(e.data.character.get("name")))
        teller = Teller(names, self.lang, says=self.says, items=self.items.copy(), fold=False)
        said = [recap_sentences(teller.event_lines(e)) for e in told_order(action)]
        told = "; ".join(sentence for one in said[:SHOWN] for sentence in one)
        more = len(said) - SHOWN
        return told + (words(self.lang)("more", n=more) if more > 0 else "")


def _is_round(d: object) -> bool:
    return isinstance(d, ev.ClockAdvanced) and d.reason == "round"
