"""The base of every journal record, and the bounded types of its values.

Shared by the event modules (:mod:`gmscreen.campaign.events` and the families it gathers:
``event_madness``, ``event_items``, ``event_gm``): each value is checked against the bounds of
:mod:`gmscreen.campaign.bounds` as a journal line is decoded.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from gmscreen.campaign.bounds import MAX_CLOCK, MAX_INT, MAX_NAME, MAX_TEXT

# The bounds of a journal's values (gmscreen.campaign.bounds), checked as each line is decoded.
Int = Annotated[int, msgspec.Meta(ge=-MAX_INT, le=MAX_INT)]
Count = Annotated[int, msgspec.Meta(ge=0, le=MAX_INT)]
Clock = Annotated[int, msgspec.Meta(ge=0, le=MAX_CLOCK)]
Name = Annotated[str, msgspec.Meta(max_length=MAX_NAME)]
Text = Annotated[str, msgspec.Meta(max_length=MAX_TEXT)]


class Record(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """A journal record: frozen, and never in a reference cycle (so the collector skips it).

    A field added later has a default, and is left out of the line while it holds it: events
    written before the field existed re-encode byte for byte (``ItemRolled.override``).
    """
