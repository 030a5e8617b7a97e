"""What a journal line cut short was, read off the bytes that are left of it.

A torn line is no valid JSON, so it cannot be decoded; the notices still name the action it
held (``the end of day 3``, ``a madness gain (demon) for Artinar``), not a line number.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from gmscreen.campaign.wording import span
from gmscreen.rules.madness import DAY

# Numbers are read only where the byte after them shows they are whole (the line may end inside).
_SEQ = re.compile(rb'"seq":(\d+),')
_KIND = re.compile(rb'"kind":"(\w+)"(?:,"character":(?:"((?:[^"\\]|\\.)*)"|null))?[,}]')
_REASON = re.compile(rb'"reason":"(\w+)","before":(\d+),')
_SECONDS = re.compile(rb'"data":\{"seconds":(\d+),')
_PRESET = re.compile(rb'"data":\{"preset":"(\w+)",')


def torn_action(data: bytes, names: Mapping[str, str] | None = None) -> str:
    """What a line cut short was, read off the bytes that made it (English, for the notices).

    The line is no valid JSON, so the fields are found by their place in the encoding
    (``seq``, ``kind``, ``character`` then ``data``, as :meth:`Event.to_dict` writes them).
    ``names`` gives the characters' names by id (their ids are shown without it).
    """
    names = names or {}
    kinds = _KIND.findall(data)
    seq = _SEQ.search(data)
    number = f" (event {int(seq[1])} on)" if seq else ""
    if not kinds:
        return "an action" + number
    kind = kinds[0][0].decode()
    ids = [c.decode("utf-8", "replace") for _, c in kinds if c]
    who = ", ".join(names.get(i, i) for i in dict.fromkeys(ids))
    if kind == "clock_advanced":
        reason = _REASON.search(data)
        if reason is not None and reason[1] == b"end_day":
            return f"the end of day {int(reason[2]) // DAY + 1}{number}"
        if reason is not None and reason[1] == b"round":
            return f"the next round{number}"
        seconds = _SECONDS.search(data)
        if seconds is not None:
            return f"time passing ({span(int(seconds[1]), 'en')}){number}"
        return f"time passing{number}"
    if kind == "gain":
        preset = _PRESET.search(data)
        what = f" ({preset[1].decode()})" if preset else ""
        return f"a madness gain{what}" + (f" for {who}" if who else "") + number
    return f"a {kind.replace('_', ' ')}" + (f" for {who}" if who else "") + number
