"""What a text shown to players must never hold, and what it must: the checks of every players'
surface in tests/test_player_safe.py (``tests/rich_session.py`` plays the session they read).

The digits rule, precisely: once the game times (``day 2, 00:05`` / ``día 2, 00:05``), the days'
ends (``day 1 ends`` / ``termina el día 1``), the spans of time passing (``5 minutes``, to the
minute: never seconds, never rounds), the items' names, the campaign's name and the session id
are taken out, no digit is left: no madness, POW, alignment, cost, roll, target, fumble range,
count of rounds or sequence number.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tests.rich_session import (
    GM_NOTES,
    HAPPENED,
    SHARED_BUT_UNDONE,
    SHARED_NOTES,
    WITHDRAWN,
    Told,
)

from gmscreen.campaign import events as ev
from gmscreen.campaign.item_names import item_name
from gmscreen.campaign.model import Campaign
from gmscreen.rules.madness_data import load_madness_data

GAME_TIME = re.compile(r"\b(?:day|día) \d+, \d\d:\d\d")  # to the minute: no seconds
DAY_END = re.compile(
    r"\bdays? \d+(?: to \d+)? ends?\b|\bterminan? (?:el día|los días) \d+(?: a \d+)?"
)
# A span of time passing, to the minute (seconds and rounds are never told).
SPAN = re.compile(r"\b\d+ (?:days?|hours?|minutes?|días?|horas?|minutos?)\b")

FORBIDDEN: dict[str, re.Pattern[str]] = {
    "dice": re.compile(
        r"\b\d*d(?:\d+|%)\b|\((?:typed|tecleada|picked|elegid[ao])\)|\brolled\b|\brolls?\b"
        r"|\btirad[ao]s?\b|\btira\b",
        re.IGNORECASE,
    ),
    "labels of figures": re.compile(r"\b(?:POW|POD|PL|APP|APA|MP)\b|\bmadness\b|\blocura\b"),
    "alignments": re.compile(r"\b(?:Chaos|Law|Balance|Caos|Ley|Balanza)\b"),
    "odds": re.compile(r"%|\bfumbles?\b|\bpifia|\btarget\b|\bagainst\b|\bobjetivo\b", re.I),
    "costs": re.compile(r"point\(s\)|background point|P\.H\.|\bcosts?\b|\bcuesta", re.I),
    # An entry's pointer to the tables that roll its details, "(realm on 2d, size on 2e)".
    "table ids": re.compile(r"merp-|\btable\b|\btabla\b|\b\d[a-z]\b", re.IGNORECASE),
    "override, undo": re.compile(
        r"overr|se saltó|\b(?:undo|undone|redo|redone|deshech[ao]|deshacer|rehech[ao])\b",
        re.IGNORECASE,
    ),
}


def gm_only_texts() -> list[str]:
    """Texts for the GM's eyes: the GM-only notes, a shared note undone, notes no longer shared
    (made the GM's again, taken back, first words rewritten), a gain's what-happened line, and
    every kind's GM text."""
    kinds = load_madness_data().kinds
    gm_text = (k.gm.get(lang) for k in kinds for lang in ("en", "es"))
    return [*GM_NOTES, SHARED_BUT_UNDONE, *WITHDRAWN, HAPPENED, *gm_text]


def item_names(state: Campaign, lang: str) -> list[str]:
    return [item_name(i, lang) for c in state.characters for i in c.inventory]


def allowed_with_digits(
    state: Campaign, events: Iterable[ev.Event], lang: str, session: str
) -> list[str]:
    """The exact texts that may carry digits, besides game times, spans and days' ends."""
    # Longest first, so an item's name is taken out whole before any shorter text inside it.
    texts = [*item_names(state, lang), state.name, session]
    return sorted(texts, key=len, reverse=True)


def without_allowed(text: str, allowed: list[str]) -> str:
    for piece in allowed:
        text = text.replace(piece, " ")
    return SPAN.sub(" ", DAY_END.sub(" ", GAME_TIME.sub(" ", text)))


def assert_player_safe(
    text: str, state: Campaign, events: list[ev.Event], lang: str, session: str, told: Told
) -> None:
    """``text`` (all a players' output shows) holds nothing secret, and what players may see."""
    names = item_names(state, lang)
    for name in names:
        for what, pattern in FORBIDDEN.items():
            assert not pattern.search(name), f"{what} in the item name {name!r}"
    rest = without_allowed(text, allowed_with_digits(state, events, lang, session))
    for what, pattern in FORBIDDEN.items():
        found = pattern.search(rest)
        assert found is None, f"{what}: {found.group(0)!r} in {_around(rest, found.start())!r}"
    digit = re.search(r"\d", rest)
    assert digit is None, f"a figure in {_around(rest, digit.start())!r}"
    for secret in gm_only_texts():
        assert secret not in text, secret

    # And what the players may see is there.
    for who in told.names:
        assert who in text, who
    for note in SHARED_NOTES:
        assert note in text, note
    for name in names:
        assert name in text, name
    assert len(names) == len(told.item_ids)
    data = load_madness_data()
    for key in told.under_way:
        episode = state.character(key).sanity.episode
        assert episode is not None
        kind = data.kind(episode.kind)
        assert kind.label.get(lang) in text and kind.player.get(lang) in text, key
    for c in state.characters:
        for permanent in c.sanity.permanent:
            assert data.kind(permanent).player.get(lang) in text, permanent


def _around(text: str, at: int) -> str:
    return text[max(0, at - 60) : at + 60]
