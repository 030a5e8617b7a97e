"""What a journal line cut short was, read off the bytes that are left of it.

A torn line is no valid JSON, so it cannot be decoded; the notices still name the action it
held (``the end of day 3``, ``a madness gain (demon) for Artinar``), not a line number.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

# Numbers are read only where the byte after them shows they are whole (the line may end inside).
# Compiled when first used (by re's own cache): only a torn line is read with them.
_SEQ = rb'"seq":(\d+),'
_KIND = rb'"kind":"(\w+)"(?:,"character":(?:"((?:[^"\\]|\\.)*)"|null))?[,}]'
_REASON = rb'"reason":"(\w+)","before":(\d+),'
_SECONDS = rb'"data":\{"seconds":(\d+),'
_PRESET = rb'"data":\{"preset":"(\w+)",'


def torn_action(data: bytes, names: Mapping[str, str] | None = None) -> str:
    """What a line cut short was, read off the bytes that made it (English, for the notices).

    The line is no valid JSON, so the fields are found by their place in the encoding
    (``seq``, ``kind``, ``character`` then ``data``, as :meth:`Event.to_dict` writes them).
    ``names`` gives the characters' names by id (their ids are shown without it).
    """
    names = names or {}
    from gmscreen.rules.madness import DAY

    kinds = re.findall(_KIND, data)
    seq = re.search(_SEQ, data)
    number = f" (event {int(seq[1])} on)" if seq else ""
    if not kinds:
        return "an action" + number
    kind = kinds[0][0].decode()
    ids = [c.decode("utf-8", "replace") for _, c in kinds if c]
    who = ", ".join(names.get(i, i) for i in dict.fromkeys(ids))
    if kind == "clock_advanced":
        reason = re.search(_REASON, data)
        if reason is not None and reason[1] == b"end_day":
            return f"the end of day {int(reason[2]) // DAY + 1}{number}"
        if reason is not None and reason[1] == b"round":
            return f"the next round{number}"
        seconds = re.search(_SECONDS, data)
        if seconds is not None:
            from gmscreen.campaign.wording import span

            return f"time passing ({span(int(seconds[1]), 'en')}){number}"
        return f"time passing{number}"
    if kind == "gain":
        preset = re.search(_PRESET, data)
        what = f" ({preset[1].decode()})" if preset else ""
        return f"a madness gain{what}" + (f" for {who}" if who else "") + number
    return f"a {kind.replace('_', ' ')}" + (f" for {who}" if who else "") + number
