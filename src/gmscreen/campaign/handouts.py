"""Handouts as plain values and back: shared notes the players keep across sessions.

A note the GM shares is tonight's (the journal holds it; :mod:`notes` settles it). Shared and
*kept* (``Note.kept``), it is a handout: the state holds it (``Campaign.handouts``, written to
``campaign.toml`` as ``[[handouts]]``), so the players' screens show it on later evenings too
without reading earlier journals, until the GM stops sharing it or takes it back::

    id = 57               # the note's event: edits and removals name it
    character = "elric"   # the character it is about; absent for the table
    game = 93600          # the game time it was written (or kept from)
    text = "The map of the Dreaming City\\nwith the secret gate marked"
"""

from __future__ import annotations

from typing import Any

from gmscreen.campaign.bounds import MAX_CLOCK, MAX_INT, MAX_TEXT
from gmscreen.campaign.fields import FieldError, table, text, whole
from gmscreen.campaign.model import Handout

HANDOUT_KEYS = ("id", "character", "game", "text")


def handout_to_dict(handout: Handout) -> dict[str, Any]:
    out: dict[str, Any] = {"id": handout.id}
    if handout.character is not None:
        out["character"] = handout.character
    out["game"] = handout.game
    out["text"] = handout.text
    return out


def handout_from_dict(raw: Any, key: str = "handout") -> Handout:
    """A handout from its plain form; :class:`FieldError` names the first field that is wrong."""
    raw = table(raw, key)
    unknown = sorted(set(raw) - set(HANDOUT_KEYS))
    if unknown:
        raise FieldError(f"{key}.{unknown[0]}", f"expected one of {', '.join(HANDOUT_KEYS)}")
    words = text(raw.get("text"), f"{key}.text", MAX_TEXT)
    if not words.strip():
        raise FieldError(f"{key}.text", "a handout says something: it must not be empty")
    character = raw.get("character")
    return Handout(
        id=whole(raw.get("id"), f"{key}.id", 1, MAX_INT),
        text=words,
        character=None if character is None else text(character, f"{key}.character"),
        game=whole(raw.get("game", 0), f"{key}.game", 0, MAX_CLOCK),
    )
