"""How fast the players' screen (``gmscreen show``) follows an event the GM journals.

A campaign whose session already holds some 3,000 events (gains, notes, rounds for a party of
eight) is played on by a live campaign in this process, one event at a time, as the GM's
gmscreen would. After each event the follower looks (``CampaignFollower.poll``) and the
players' view is worked out (``player_safe``, what ``ShowScreen.show_followed`` lays out): the
work the players' screen does on its UI thread per event. Baseline, same run: reading the
whole journal once (``read_session``), what a follower that reads everything again pays.

Prints median, p90 and max in ms (wall clock, and CPU time); never fails on time.
"""

from __future__ import annotations

import random
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from common import WIDTH, summary
from gmscreen.campaign.follow import CampaignFollower
from gmscreen.campaign.journal import read_session
from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.model import Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.player_safe import player_safe

EVENTS = 3000
FOLLOWED = 60  # events journaled one at a time, each followed


def fixed_clock() -> datetime:
    return datetime(2025, 3, 1, 20, 0, tzinfo=UTC)


def play(live: LiveCampaign, rng: random.Random, n: int) -> None:
    """``n`` actions of an evening: gains, shared notes, rounds."""
    ids = [c.id for c in live.state.characters]
    for k in range(n):
        match k % 4:
            case 0:
                live.gain(rng.choice(ids), "elemental")
            case 1:
                live.note(f"note {k}", rng.choice(ids), shared=k % 8 == 1)
            case 2:
                live.next_round()
            case _:
                live.gain(rng.choice(ids), "custom", {"amount": 0})


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(auto_check=False)
        folder = create_campaign(Path(tmp), "Followed", settings)
        rng = random.Random(4)
        with open_campaign(folder, rng=rng, clock=fixed_clock, checkpoint_every=100_000) as live:
            for n in range(8):
                live.add_character(f"Character {n}", 99, chaos=10, law=10, balance=10)
            play(live, rng, EVENTS)
            follower = CampaignFollower(folder)
            follower.poll()
            path = live.session_path
            assert path is not None
            whole, walls, cpus = [], [], []
            for _ in range(FOLLOWED):
                play(live, rng, 1)
                wall, cpu = time.perf_counter(), time.process_time()
                changed = follower.poll()
                current = follower.current
                assert changed and current is not None
                player_safe(current.state, "en", current.events)
                walls.append(time.perf_counter() - wall)
                cpus.append(time.process_time() - cpu)
                start = time.perf_counter()
                read_session(path, damaged_ok=True)
                whole.append(time.perf_counter() - start)
            print(f"{'events in the session':<{WIDTH}} {len(live.events)}")
            print(summary("baseline: read the whole journal once", whole))
            print(summary("follow one event (poll + player_safe)", walls))
            print(summary("follow one event, CPU", cpus))


if __name__ == "__main__":
    main()
