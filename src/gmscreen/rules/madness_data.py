"""Loads and validates ``data/madness.toml``: gain presets, madness kinds, player-view bands."""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec

from gmscreen.data import read_toml
from gmscreen.i18n import LANGUAGES
from gmscreen.rules import dice

DATA_FILE = "madness.toml"


class MadnessDataError(ValueError):
    """The bundled madness data is inconsistent; the message names the entry."""


class Text(msgspec.Struct, frozen=True):
    """A text in every language the app speaks (English and Spanish)."""

    en: str
    es: str

    def get(self, lang: str) -> str:
        return self.es if lang == "es" else self.en


class Preset(msgspec.Struct, frozen=True):
    """A kind of gain from the source table; exactly one way of getting its amount is set."""

    key: str
    label: Text
    question: Text | None = None
    amount: int | None = None
    dice: str | None = None
    input: str | None = None
    divisor: int | None = None
    per: int | None = None
    first: int | None = None
    after: int | None = None
    amount_input: str | None = None
    dice_allowed: bool = False
    adjust: bool = False
    raises: str | None = None
    lowers: str | None = None  # a characteristic the entered number takes away (APP lost)

    @property
    def needs_input(self) -> str | None:
        """The name of the number the GM must enter, if any."""
        return self.input or self.amount_input


class Kind(msgspec.Struct, frozen=True):
    """One of the six kinds of madness of the 1d6 table, described twice.

    ``gm``: for the GM's screen (may say how to run it); ``player``: what the players may read
    (the player view, their recap): what they see of it, no advice to the GM.
    """

    key: str
    label: Text
    gm: Text
    player: Text


class Band(msgspec.Struct, frozen=True):
    """A player-view band: the words for how close madness is to POW (players see no numbers).

    ``below`` is the percent of POW the band stops at (exclusive); None for the last band.
    """

    key: str
    below: int | None
    label: Text


class MadnessData(msgspec.Struct, frozen=True):
    """The bundled ``data/madness.toml``: gain presets by key, the 1d6 kinds in order, bands."""

    presets: dict[str, Preset]
    kinds: tuple[Kind, ...]
    bands: tuple[Band, ...]

    def kind(self, key: str) -> Kind:
        for kind in self.kinds:
            if kind.key == key:
                return kind
        raise MadnessDataError(f"unknown madness kind {key!r}")


def _text(raw: dict[str, Any], where: str, prefix: str = "") -> Text:
    missing = [lang for lang in LANGUAGES if not isinstance(raw.get(prefix + lang), str)]
    if missing:
        raise MadnessDataError(f"{DATA_FILE}: {where} lacks text in {', '.join(missing)}")
    return Text(en=raw[prefix + "en"], es=raw[prefix + "es"])


_AMOUNT_WAYS = ("amount", "dice", "input", "first", "amount_input")


def _preset(key: str, raw: dict[str, Any]) -> Preset:
    where = f"preset {key!r}"
    ways = [w for w in _AMOUNT_WAYS if w in raw]
    if len(ways) != 1:
        raise MadnessDataError(f"{DATA_FILE}: {where} needs exactly one of {_AMOUNT_WAYS}")
    if "dice" in raw:
        dice.parse(raw["dice"])
    if "input" in raw and ("divisor" in raw) == ("per" in raw):
        raise MadnessDataError(f"{DATA_FILE}: {where} with an input needs divisor or per")
    if ("first" in raw) != ("after" in raw):
        raise MadnessDataError(f"{DATA_FILE}: {where} needs both first and after")
    if raw.get("lowers") not in (None, "app") or ("lowers" in raw and "input" not in raw):
        raise MadnessDataError(f"{DATA_FILE}: {where} lowers app, from its input, or nothing")
    if raw.get("raises") not in (None, "chaos", "law"):
        raise MadnessDataError(f"{DATA_FILE}: {where} raises chaos or law, not {raw['raises']!r}")
    question = _text(raw["question"], where + " question") if "question" in raw else None
    if (question is None) != (raw.get("input") is None and raw.get("amount_input") is None):
        raise MadnessDataError(f"{DATA_FILE}: {where} asks a question exactly when it needs input")
    return Preset(
        key=key,
        label=_text(raw, where),
        question=question,
        amount=raw.get("amount"),
        dice=raw.get("dice"),
        input=raw.get("input"),
        divisor=raw.get("divisor"),
        per=raw.get("per"),
        first=raw.get("first"),
        after=raw.get("after"),
        amount_input=raw.get("amount_input"),
        dice_allowed=bool(raw.get("dice_allowed", False)),
        adjust=bool(raw.get("adjust", False)),
        raises=raw.get("raises"),
        lowers=raw.get("lowers"),
    )


def _described(raw: dict[str, Any], where: str, suffix: str) -> Text:
    texts = {lang: raw.get(f"{lang}_{suffix}") for lang in LANGUAGES}
    missing = [
        lang for lang, text in texts.items() if not isinstance(text, str) or not text.strip()
    ]
    if missing:
        keys = ", ".join(f"{lang}_{suffix}" for lang in missing)
        raise MadnessDataError(f"{DATA_FILE}: {where} lacks {keys}")
    return Text(en=str(texts["en"]), es=str(texts["es"]))


def _kind(raw: dict[str, Any]) -> Kind:
    where = f"kind {raw.get('key')!r}"
    gm, player = _described(raw, where, "gm"), _described(raw, where, "player")
    if any(gm.get(lang) == player.get(lang) for lang in LANGUAGES):
        # Not an error of form, but a sign the GM's text was copied where the players read.
        raise MadnessDataError(f"{DATA_FILE}: {where} tells the players the GM's text")
    return Kind(raw["key"], _text(raw, where), gm, player)


def parse_madness_data(raw: dict[str, Any]) -> MadnessData:
    presets = {key: _preset(key, value) for key, value in raw["presets"].items()}
    kinds = tuple(_kind(k) for k in raw["kinds"])
    if len(kinds) != 6:
        raise MadnessDataError(f"{DATA_FILE}: the kinds table is a 1d6 table, found {len(kinds)}")
    bands = tuple(
        Band(b["key"], b.get("below"), _text(b, f"band {b['key']!r}")) for b in raw["bands"]
    )
    limits = [b.below if b.below is not None else -1 for b in bands[:-1]]
    if bands[-1].below is not None or min(limits, default=0) < 0 or limits != sorted(limits):
        raise MadnessDataError(f"{DATA_FILE}: bands must rise and the last one has no 'below'")
    return MadnessData(presets=presets, kinds=kinds, bands=bands)


@cache
def load_madness_data() -> MadnessData:
    """The bundled data, read and validated once (it is immutable)."""
    return parse_madness_data(read_toml(DATA_FILE))
