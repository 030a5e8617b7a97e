"""An escape sequence in every text a players' surface can show (#25.1), and what the bytes a
terminal gets must never hold.

Each :class:`Field` is one place a person's or a file's text reaches the players (a name, the
campaign's words for a band, a shared note, an item's name …): it plants its own hostile text,
which names it (``PWNED-w-calm``), and says on which surfaces it must be seen. A field added here
is checked on every surface by ``tests/test_surfaces_inert.py`` with nothing else to change; one
no surface shows yet (the campaign's own horrors: a name, what the players are told each is, a
gain's words for the players) is planted all the same, and must reach no terminal raw: when a
surface shows it, its ``seen_on`` says so (and the GM's tables' texts join the list when a
campaign holds its own).

The hostile text is an OSC that would retitle the terminal, a CSI that would turn what follows
bold red, and the one-byte CSI (U+009B) of terminals that take 8-bit controls.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from msgspec.structs import replace

from gmscreen.campaign.events import ItemRolled
from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.model import Campaign, Horror, Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.store import read_checkpoint, write_checkpoint
from gmscreen.rules import merp
from gmscreen.rules.madness_data import load_madness_data
from gmscreen.rules.tables import roll_table
from gmscreen.rules.tables_names import full_name

PWNED = "PWNED"
GM = "the GM's screen"  # the surfaces, as the test names them
PLAYER_VIEW = "the player view (p)"
SHOW = "gmscreen show"
SERVE = "a serve browser"
RECAP = "the players' recap (export --players)"
TERMINALS = (PLAYER_VIEW, SHOW, SERVE)  # the players' screens (the Markdown recap names no player)
PLAYERS = (*TERMINALS, RECAP)


@dataclass(frozen=True)
class Planting:
    """What a field plants its text into: the campaign being played (``live``), or, for what a
    form refuses, ``campaign.toml`` before the GM opens it (``state``: a file another person
    sent, which can hold anything)."""

    live: LiveCampaign | None = None
    state: Campaign | None = None

    def play(self) -> LiveCampaign:
        assert self.live is not None, "a field planted in the file, then played"
        return self.live

    def first(self) -> str:
        return self.play().state.characters[0].id


@dataclass(frozen=True)
class Field:
    """One text a surface can show: ``key`` names it in the text planted; ``seen_on``, the
    surfaces that show it (a GM-only text is planted too, and must reach no terminal raw).
    ``plant`` puts it in by playing; ``in_file`` by changing ``campaign.toml`` first."""

    key: str
    seen_on: tuple[str, ...]
    plant: Callable[[Planting, str], object] = lambda _p, _text: None
    in_file: Callable[[Campaign, str], Campaign] | None = None

    @property
    def text(self) -> str:
        return f"{self.key}\x1b]0;{PWNED}-{self.key}\x07\x1b[1;31m{PWNED}\x9b2J"

    @property
    def shown(self) -> str:
        """How the screen shows it (the OSC made visible): what each surface must draw."""
        return f"␛]0;{PWNED}-{self.key}␇"


# Madness for POW 20 in each band (calm < 25 %, uneasy < 50 %, shaken < 75 %, edge < 100 %).
BAND_MADNESS = {"calm": 0, "uneasy": 6, "shaken": 11, "edge": 16, "breaking": 20}
MERP = {"category": "pure_spell_user", "race": "Noldo", "points_total": 3}


def _character(band: str) -> Callable[[Planting, str], object]:
    def plant(p: Planting, text: str) -> object:
        merp_profile = MERP if band == "calm" else None
        return p.play().add_character(text, 20, madness=BAND_MADNESS[band], merp=merp_profile)

    return plant


def _words(band: str) -> Callable[[Planting, str], object]:
    def plant(p: Planting, text: str) -> object:
        words = {**p.play().state.settings.player_words, band: text}
        return p.play().change_settings(player_words=words)

    return plant


def _item_named(p: Planting, text: str) -> object:
    resolution = roll_table(merp.merp_tables(), merp.TABLE_1, random.Random(3))
    while resolution.pending is not None and not resolution.done:
        resolution.choose(0)
        resolution.auto(random.Random(3))
    title = full_name(resolution.tree, merp.merp_tables(), "en")
    live, who = p.play(), p.first()
    rolled = live.item_rolled(who, merp.TABLE_1, title, resolution.to_dict(), None)
    assert isinstance(rolled.data, ItemRolled)
    item = str(rolled.data.item["id"])
    live.item_kept(who, item)
    live.item_note(who, item, f"GM's item note {text}")
    return live.item_renamed(who, item, text)


BANDS = [b.key for b in load_madness_data().bands]
ALL = (GM, *PLAYERS)


def _horror_named(c: Campaign, text: str) -> Campaign:
    herald = Horror("herald", text, "demon", {"pow": 18})
    return replace(c, horrors=(*c.horrors, herald))


def _horror_told(c: Campaign, text: str) -> Campaign:
    return replace(c, horrors=tuple(replace(h, players=text) for h in c.horrors))


def _gain_told(p: Planting, text: str) -> object:
    """A gain from the campaign's horror, and what the players are told it was."""
    return p.play().gain(p.first(), horror="herald", players=text)


FIELDS: Sequence[Field] = (
    Field("cn", (GM, SHOW, SERVE, RECAP), in_file=lambda c, text: replace(c, name=text)),
    Field("hn", (), in_file=_horror_named),
    Field("hp", (), in_file=_horror_told),
    *(Field(f"n-{band}", ALL, _character(band)) for band in BANDS),
    Field("pl", TERMINALS, lambda p, text: p.play().edit_character(p.first(), player=text)),
    *(Field(f"w-{band}", PLAYERS, _words(band)) for band in BANDS),
    Field("sn", ALL, lambda p, text: p.play().note(text, shared=True)),
    Field("ab", ALL, lambda p, text: p.play().note(text, p.first(), shared=True)),
    Field("it", PLAYERS, _item_named),
    Field("ho", ALL, lambda p, text: p.play().note(text, shared=True, kept=True)),  # a handout
    Field("gp", (), _gain_told),
    Field("gn", (GM,), lambda p, text: p.play().note(text)),
    Field("cnote", (GM,), lambda p, text: p.play().edit_character(p.first(), notes=text)),
)


def hostile_table(root: Path, fields: Sequence[Field] = FIELDS) -> Path:
    """A campaign (madness and MERP items, checks opened by hand) holding each field's text."""
    settings = Settings(modules=("madness", "merp-items"), auto_check=False)
    folder = create_campaign(root, "Hostile", settings)
    state, _ = read_checkpoint(folder)
    for f in fields:
        state = f.in_file(state, f.text) if f.in_file is not None else state
    write_checkpoint(folder, state)
    with open_campaign(folder, rng=random.Random(3)) as live:
        for f in fields:
            f.plant(Planting(live), f.text)
    return folder


def expected(surface: str, fields: Sequence[Field] = FIELDS) -> list[str]:
    """What ``surface`` must show: each of its fields, made visible."""
    return [f.shown for f in fields if surface in f.seen_on]


# The escape sequences planted, as a terminal would get them raw.
_PLANTED_OSC = re.compile(rb"\x1b\][^\x07\x1b]*" + PWNED.encode() + rb"[-\w]*")
_PLANTED_CSI = re.compile(rb"\x1b\[[0-9;]*m" + PWNED.encode())
_C1 = re.compile("[\x80-\x9f]")


def raw_escapes(raw: bytes, terminal_sequences: re.Pattern[bytes]) -> list[str]:
    """What in ``raw`` is not the terminal's own: a planted OSC or CSI, a C1 control, or an ESC
    or BEL left once the terminal's own sequences are taken out."""
    found = [f"OSC {m.group()!r}" for m in _PLANTED_OSC.finditer(raw)]
    found += [f"CSI {m.group()!r}" for m in _PLANTED_CSI.finditer(raw)]
    rest = terminal_sequences.sub(b"", raw)
    found += [
        f"stray {rest[max(0, m.start() - 20) : m.end() + 20]!r}"
        for m in re.finditer(rb"[\x1b\x07]", rest)
    ]
    text = raw.decode("utf-8", "replace")
    found += [
        f"C1 U+{ord(m.group()):04X} in {text[max(0, m.start() - 20) : m.end() + 20]!r}"
        for m in _C1.finditer(text)
    ]
    return found
