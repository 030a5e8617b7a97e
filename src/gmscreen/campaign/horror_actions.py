"""The GM's bestiary changed at the table: a horror added, saved from a gain, edited, removed.

Each builder returns a draft ``(None, payload, game time)`` for
:class:`~gmscreen.campaign.live.LiveCampaign`, which journals it as one action (so ``u`` undoes
it, replay shows it and recovery applies it again); the reducer keeps the bestiary in the state
(``Campaign.horrors``), which ``campaign.toml`` writes as ``[[horrors]]``. A horror is checked
as the file's are (:func:`~gmscreen.campaign.horrors.horror_from_dict`); what is wrong is an
:class:`InvalidAction` naming the field, and nothing is journaled.

A rule is given as the plain form has it: ``preset`` and its ``inputs`` (``{"pow": 18}``), or
``amount`` (a fixed number), or ``dice`` (an expression).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gmscreen.campaign import events as ev
from gmscreen.campaign.errors import InvalidAction
from gmscreen.campaign.fields import FieldError
from gmscreen.campaign.horrors import CUSTOM, horror_from_dict, horror_to_dict
from gmscreen.campaign.model import Campaign, Horror
from gmscreen.rules.numbers import whole_or_none

Draft = tuple[str | None, ev.Payload, int]
RULE_KEYS = ("preset", "inputs", "amount", "dice")


def new_horror_id(state: Campaign, name: str) -> str:
    """An id for a horror named ``name``: its letters and digits (any script), dashes between,
    made unique among the campaign's horrors (``arioch``, ``arioch-2``)."""
    base = "".join(ch if ch.isalnum() else "-" for ch in name.casefold())
    base = "-".join(part for part in base.split("-") if part)[:60] or "horror"
    candidate, n = base, 1
    while state.horror(candidate) is not None:
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def _rule(
    preset: str | None,
    inputs: Mapping[str, int | str] | None,
    amount: int | None,
    dice: str | None,
) -> dict[str, Any]:
    """A rule in the plain form's keys (its checks are the plain form's)."""
    rule: dict[str, Any] = {}
    if preset is not None:
        rule["preset"] = preset
        rule.update(inputs or {})
    elif inputs:
        raise InvalidAction("inputs belong to a preset: name the preset too")
    if amount is not None:
        rule["amount"] = amount
    if dice is not None:
        rule["dice"] = dice
    return rule


def _checked(state: Campaign, raw: dict[str, Any], replacing: str | None = None) -> Horror:
    """The horror ``raw`` says, checked as campaign.toml's are, with a name no other horror
    has (``replacing``: the id of the one it replaces, whose own name it may keep)."""
    try:
        horror = horror_from_dict(raw)
    except FieldError as error:
        raise InvalidAction(str(error)) from None
    taken = horror.name.strip().casefold()
    for other in state.horrors:
        if other.id != replacing and other.name.strip().casefold() == taken:
            raise InvalidAction(code="horror.name_taken", name=horror.name)
    return horror


def add(
    state: Campaign,
    name: str,
    *,
    preset: str | None = None,
    inputs: Mapping[str, int | str] | None = None,
    amount: int | None = None,
    dice: str | None = None,
    players: str = "",
    from_gain: int | None = None,
) -> Draft:
    """A new horror named ``name`` following one rule; ``players``: what the players are told
    it is ("" for the preset's own words)."""
    raw = {"id": new_horror_id(state, name), "name": name, "players": players}
    horror = _checked(state, raw | _rule(preset, inputs, amount, dice))
    return None, ev.HorrorAdded(horror_to_dict(horror), from_gain), state.clock


def _number(value: int | str) -> int | str:
    """A typed number as a number (the gain dialog passes what was typed: ``"18"``)."""
    if isinstance(value, str):
        number = whole_or_none(value.strip())
        return value if number is None else number
    return value


def from_gain(
    state: Campaign,
    events: Iterable[ev.Event],
    void: set[int],
    name: str,
    players: str = "",
    seq: int | None = None,
) -> Draft:
    """Save what was just done as a horror: the rule of the last gain still in effect among
    ``events`` (this session's), or of gain event ``seq``: its preset and the inputs the GM
    gave, so a gain from the horror asks nothing more. ``players`` "": what the players were
    told of that gain, if the GM said."""
    gains = [
        e
        for e in events
        if isinstance(e.data, ev.Gain) and e.action not in void and seq in (None, e.seq)
    ]
    if not gains:
        raise InvalidAction(code="horror.no_gain")
    event = gains[-1]
    assert isinstance(event.data, ev.Gain)
    gained = event.data
    inputs = {k: _number(v) for k, v in gained.inputs.items()}
    rule: dict[str, int | str | None]
    if gained.preset == CUSTOM:
        amount = inputs.get("amount")
        rule = {"dice": amount} if isinstance(amount, str) else {"amount": amount}
    else:
        rule = {"preset": gained.preset, **inputs}
    told = players or gained.players
    raw = {"id": new_horror_id(state, name), "name": name, "players": told, **rule}
    horror = _checked(state, raw)
    return None, ev.HorrorAdded(horror_to_dict(horror), event.seq), state.clock


def _known(state: Campaign, horror_id: str) -> Horror:
    horror = state.horror(horror_id)
    if horror is None:
        raise InvalidAction(code="horror.unknown", id=horror_id)
    return horror


def edit(state: Campaign, horror_id: str, values: Mapping[str, Any]) -> Draft | None:
    """Change horror ``horror_id``: ``name``, ``players``, and its rule (any of ``preset``,
    ``inputs``, ``amount``, ``dice`` replace the whole rule); None if nothing changes."""
    horror = _known(state, horror_id)
    unknown = sorted(set(values) - {"name", "players", *RULE_KEYS})
    if unknown:
        raise InvalidAction(
            f"{unknown[0]!r} is not a horror's: edit name, players, preset, inputs, amount or dice"
        )
    raw = horror_to_dict(horror)
    if any(key in values for key in RULE_KEYS):
        raw = {k: v for k, v in raw.items() if k in ("id", "name", "players")}
        raw |= _rule(
            values.get("preset"), values.get("inputs"), values.get("amount"), values.get("dice")
        )
    raw |= {k: v for k, v in values.items() if k in ("name", "players")}
    after = _checked(state, raw, replacing=horror_id)
    if after == horror:
        return None
    return None, ev.HorrorEdited(horror_to_dict(horror), horror_to_dict(after)), state.clock


def remove(state: Campaign, horror_id: str) -> Draft:
    """Take horror ``horror_id`` out of the bestiary (who saw it keeps its first sighting)."""
    horror = _known(state, horror_id)
    return None, ev.HorrorRemoved(horror_to_dict(horror)), state.clock
