"""A campaign of three evenings for the session index's tests, and what its journals say."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from gmscreen.campaign.journal import list_sessions
from gmscreen.campaign.model import Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.session_index import SessionEntry, read_entry
from gmscreen.campaign.store import sessions_dir


def clock_on(day: int) -> Callable[[], datetime]:
    return lambda: datetime(2025, 3, day, 20, 0, tzinfo=UTC)


def play_sessions(root: Path) -> Path:
    """Three sessions on three evenings: characters added, gains and notes, a check and an undo."""
    folder = create_campaign(root, "Imrryr", Settings(auto_check=False))
    rng = random.Random(4)
    with open_campaign(folder, rng=rng, clock=clock_on(1)) as live:
        live.add_character("Artinar", 13, chaos=43, balance=32, law=47)
        live.add_character("Vadhra", 11, chaos=60, law=10)
    with open_campaign(folder, rng=rng, clock=clock_on(8)) as live:
        live.gain("artinar", "elemental")
        live.note("the ruins of Imrryr", "vadhra")
        live.next_round()
    with open_campaign(folder, rng=rng, clock=clock_on(15)) as live:
        live.gain("vadhra", "demon", {"pow": 16})
        live.gain("artinar", "chaos_god_worst")
        live.note("to be undone")
        live.undo()
        check = live.start_check("artinar")
        while check.phase != "done":
            check.roll() if check.phase == "roll" else check.choose_kind()
    return folder


def index_of(folder: Path) -> Path:
    return sessions_dir(folder) / "index.json"


def truth(folder: Path) -> list[SessionEntry]:
    """What the journals themselves say, each read now."""
    return [read_entry(p)[0] for p in list_sessions(sessions_dir(folder))]


def journals(folder: Path) -> list[Path]:
    return list_sessions(sessions_dir(folder))


def real_index(folder: Path) -> dict[str, Any]:
    raw: dict[str, Any] = json.loads(index_of(folder).read_bytes())
    return raw
