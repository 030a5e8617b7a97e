"""GM rulings: corrections to one character's madness, each journaled with the GM's reason.

The rules move madness step by step (gains, checks, episodes, nights); a GM sometimes rules
otherwise: a healing spell ends an episode early, a permanent madness is cured or was missed,
a first sighting should not count, the points are simply wrong, a character is (no longer)
under care. Each ruling here is one :class:`~gmscreen.campaign.events.Ruling` event whose
``changes`` hold what it set, so the reducer applies it as any other event: live, in replay and
in recovery alike, and undo voids it as any other action.

Each builder returns a draft ``(character id, payload, game time)``, as :mod:`actions` does.
"""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from gmscreen.campaign import events as ev
from gmscreen.campaign.bounds import MAX_TEXT
from gmscreen.campaign.errors import InvalidAction
from gmscreen.campaign.fields import diff
from gmscreen.campaign.model import Campaign, Character
from gmscreen.rules.madness import MAX_STAT, madness_after_episode
from gmscreen.rules.madness_data import load_madness_data

Draft = tuple[str | None, ev.Payload, int]
MAX_MADNESS = MAX_STAT * 10  # the bound MadnessState keeps madness within


class EndEpisode(msgspec.Struct, frozen=True):
    """End the episode under way now; ``halve``: madness halves as when one runs out."""

    halve: bool


class AddPermanent(msgspec.Struct, frozen=True):
    """Add ``kind`` (a key of the 1d6 kinds) to the permanent madnesses."""

    kind: str


class RemovePermanent(msgspec.Struct, frozen=True):
    """Take one ``kind`` off the permanent madnesses (the last one added, if twice)."""

    kind: str


class ForgetSighting(msgspec.Struct, frozen=True):
    """Forget the first sighting of gain preset ``preset`` (the kind: "a Chaos god") or, with
    ``horror``, of that campaign horror (its id: "Arioch"): its full gain applies again."""

    preset: str = ""
    horror: str = ""


class SetMadness(msgspec.Struct, frozen=True):
    """Set madness to ``value`` points."""

    value: int


class SetUnderCare(msgspec.Struct, frozen=True):
    """Put the character under care (``on``) or take them out of it."""

    on: bool


Ask = EndEpisode | AddPermanent | RemovePermanent | ForgetSighting | SetMadness | SetUnderCare


def _reason(reason: str) -> str:
    text = reason.strip()
    if not text:
        raise InvalidAction(code="ruling.reason")
    if len(text) > MAX_TEXT:
        raise InvalidAction(f"a reason is at most {MAX_TEXT:,} characters, not {len(text):,}")
    return text


def _after(c: Character, ask: Ask) -> tuple[Character, str | None, bool | None]:
    """The character as the ruling leaves it, its subject and whether madness was halved."""
    s = c.sanity
    match ask:
        case EndEpisode(halve=halve):
            if s.episode is None:
                raise InvalidAction(code="ruling.no_episode", name=c.name)
            madness = madness_after_episode(s) if halve else s.madness
            sanity = replace(s, episode=None, madness=madness)
            return replace(c, sanity=sanity), s.episode.kind, halve
        case AddPermanent(kind=kind):
            if kind not in {k.key for k in load_madness_data().kinds}:
                raise InvalidAction(code="ruling.unknown_kind", kind=kind)
            return replace(c, sanity=replace(s, permanent=(*s.permanent, kind))), kind, None
        case RemovePermanent(kind=kind):
            if kind not in s.permanent:
                raise InvalidAction(code="ruling.no_permanent", name=c.name, kind=kind)
            last = len(s.permanent) - 1 - s.permanent[::-1].index(kind)
            permanent = s.permanent[:last] + s.permanent[last + 1 :]
            return replace(c, sanity=replace(s, permanent=permanent)), kind, None
        case ForgetSighting(horror=horror) if horror:
            if horror not in s.horrors_seen:
                raise InvalidAction(code="ruling.no_sighting", name=c.name, preset=horror)
            seen = s.horrors_seen - {horror}
            return replace(c, sanity=replace(s, horrors_seen=seen)), horror, None
        case ForgetSighting(preset=preset):
            if preset not in s.first_sightings:
                raise InvalidAction(code="ruling.no_sighting", name=c.name, preset=preset)
            seen = s.first_sightings - {preset}
            return replace(c, sanity=replace(s, first_sightings=seen)), preset, None
        case SetMadness(value=value):
            if not 0 <= value <= MAX_MADNESS:
                raise InvalidAction(
                    code="input_range", field="madness", high=MAX_MADNESS, value=value
                )
            return replace(c, sanity=replace(s, madness=value)), None, None
        case SetUnderCare(on=on):
            return replace(c, sanity=replace(s, under_care=on)), None, None
    raise InvalidAction(f"no such ruling: {ask!r}")  # pragma: no cover


RULING_OF: dict[type[Ask], str] = {
    EndEpisode: "end_episode",
    AddPermanent: "add_permanent",
    RemovePermanent: "remove_permanent",
    ForgetSighting: "forget_sighting",
    SetMadness: "set_madness",
    SetUnderCare: "under_care",
}


def ruling(state: Campaign, character_id: str, ask: Ask, reason: str) -> Draft:
    """The GM's ruling ``ask`` on one character, with ``reason`` (required, as typed).

    Refused (:class:`InvalidAction`, nothing journaled) without the madness rules, without a
    reason, where it does not apply (no episode to end, no such permanent madness or first
    sighting) and where it would change nothing.
    """
    if "madness" not in state.settings.modules:
        raise InvalidAction(code="madness_off")
    c = state.character(character_id)
    why = _reason(reason)
    after, subject, halved = _after(c, ask)
    changes = diff(c, after)
    if not changes:
        raise InvalidAction(code="ruling.nothing", name=c.name)
    data = ev.Ruling(RULING_OF[type(ask)], why, changes, subject, halved)
    return character_id, data, state.clock
