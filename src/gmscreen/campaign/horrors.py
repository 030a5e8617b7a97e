"""The campaign's own horrors (its bestiary) as plain values and back, checked field by field.

One plain form serves ``[[horrors]]`` in ``campaign.toml`` (a GM writes it by hand), the events
that add, edit and remove a horror, and the reducer that applies them::

    id = "arioch"             # the key events and first sightings use
    name = "Arioch"           # the GM's name for it, any script, one line
    players = "Arioch"        # what the players are told it is ("a demon"); optional
    preset = "chaos_god"      # the built-in gain it follows, with that gain's input
    pow = 18                  # ... e.g. a demon's POW (the input's own name)

or, instead of ``preset``, ``amount = 4`` (a fixed amount) or ``dice = "2d6"``; both are the
``custom`` gain, whose amount is that number or those dice. A horror never asks the GM for a
number: the input its preset needs must be given, and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gmscreen.campaign.bounds import MAX_NAME
from gmscreen.campaign.fields import FieldError, table, text, whole
from gmscreen.campaign.model import Horror
from gmscreen.rules import dice
from gmscreen.rules.dice import DiceError
from gmscreen.rules.madness import MAX_STAT, gain_dice
from gmscreen.rules.madness_data import Preset, load_madness_data

CUSTOM = "custom"  # the built-in gain a fixed amount or dice expression follows
# The keys of a horror's plain form besides its preset's input (whose key is the input's name).
HORROR_KEYS = ("id", "name", "players", "preset", "amount", "dice")


def _presets() -> dict[str, Preset]:
    return load_madness_data().presets


def horror_presets() -> tuple[str, ...]:
    """The built-in gains a horror may name as its ``preset`` (``custom`` is amount or dice)."""
    return tuple(key for key in _presets() if key != CUSTOM)


def one_line(value: Any, key: str, *, empty_ok: bool = False) -> str:
    """A name on one line: text of at most a name's length, no line break, not blank unless
    ``empty_ok`` (kept as written: the GM's spelling, any script)."""
    line = text(value, key, MAX_NAME)
    if "\n" in line or "\r" in line:
        raise FieldError(key, "expected one line")
    if any("\ud800" <= ch <= "\udfff" for ch in line):  # bytes a locale could not decode
        raise FieldError(key, "holds bytes that are not UTF-8 text: type it again")
    if not empty_ok and not line.strip():
        raise FieldError(key, "must not be empty")
    return line


def _rule(raw: Mapping[str, Any]) -> tuple[str, dict[str, int | str], set[str]]:
    """The preset and inputs of a horror's plain form, and the keys that said so (checked);
    raises :class:`FieldError`."""
    if "preset" not in raw:
        ways = [k for k in ("amount", "dice") if k in raw]
        if len(ways) != 1:
            raise FieldError(
                "preset",
                "expected preset = one of the built-in gains, or amount = a number, "
                'or dice = "2d6"',
            )
        if ways == ["amount"]:
            return CUSTOM, {"amount": whole(raw["amount"], "amount", 0, MAX_STAT)}, {"amount"}
        expression = text(raw["dice"], "dice", MAX_NAME)
        try:
            dice.parse(expression)
        except DiceError as error:
            raise FieldError("dice", str(error)) from None
        return CUSTOM, {"amount": expression}, {"dice"}
    key = text(raw["preset"], "preset")
    if key == CUSTOM:
        raise FieldError("preset", 'write amount = a number or dice = "2d6" instead of preset')
    if key not in _presets():
        raise FieldError(
            "preset",
            f"{key!r} is not a built-in gain: expected one of {', '.join(horror_presets())}",
        )
    needed = _presets()[key].needs_input
    if needed is None:
        return key, {}, {"preset"}
    if needed not in raw:
        raise FieldError(needed, f"the {key} gain needs {needed} = a number")
    return key, {needed: whole(raw[needed], needed, 0, MAX_STAT)}, {"preset", needed}


def horror_from_dict(raw: Any, key: str = "horror") -> Horror:
    """A horror from its plain form; :class:`FieldError` names the first field that is wrong
    (``key`` is put before it: ``horror.pow``)."""
    try:
        raw = table(raw, "")
        inputs = {p.needs_input for p in _presets().values()} - {None}
        unknown = sorted(set(raw) - {*HORROR_KEYS, *inputs})
        if unknown:
            raise FieldError(
                unknown[0], f"unknown horror field: expected {', '.join(HORROR_KEYS)}"
                " or the input its preset needs"
            )  # fmt: skip
        horror_id = one_line(raw.get("id"), "id")
        name = one_line(raw.get("name"), "name")
        players = one_line(raw.get("players", ""), "players", empty_ok=True)
        preset, values, said = _rule(raw)
        extra = sorted(set(raw) - {"id", "name", "players"} - said)
        if extra:
            what = "a fixed amount" if said == {"amount"} else f"the {preset} gain"
            what = "dice" if said == {"dice"} else what
            raise FieldError(extra[0], f"{what} takes no {extra[0]}")
    except FieldError as error:
        where = f"{key}.{error.key}" if error.key else key
        raise FieldError(where, error.message) from None
    return Horror(horror_id, name, preset, values, players)


def horror_to_dict(horror: Horror) -> dict[str, Any]:
    """The plain form (TOML-ready: no None), in the order a GM would write it."""
    out: dict[str, Any] = {"id": horror.id, "name": horror.name}
    if horror.players:
        out["players"] = horror.players
    if horror.preset == CUSTOM:
        amount = horror.inputs.get("amount")
        out["dice" if isinstance(amount, str) else "amount"] = amount
    else:
        out["preset"] = horror.preset
        out.update(horror.inputs)
    return out


def own_sighting(horror: Horror) -> bool:
    """Whether the horror's preset costs less after a first sighting (a god or a lord): its
    first sighting is then the horror's own."""
    return _presets()[horror.preset].first is not None


def horror_dice(horror: Horror) -> str | None:
    """The dice a gain from ``horror`` needs rolled (or typed), or None: it asks nothing."""
    return gain_dice(horror.preset, horror.inputs)
