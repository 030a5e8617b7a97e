"""campaign.toml edited while the campaign is open: the GM is told at the checkpoint that merges it."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from tests.tui.conftest import SIZE, build, fixed_clock

from gmscreen.campaign.model import Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.store import campaign_file, read_checkpoint


def test_an_edit_made_while_playing_is_merged_and_told(tmp_path: Path) -> None:
    folder = create_campaign(tmp_path, "Imrryr", Settings(auto_check=False))
    with open_campaign(folder, rng=random.Random(1), clock=fixed_clock) as live:
        live.add_character("Artinar", 13, chaos=43, balance=32, law=47, player="Ana")
    live = open_campaign(folder, rng=random.Random(2), clock=fixed_clock, checkpoint_every=1)

    async def run() -> list[str]:
        app = build(live)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            path = campaign_file(folder)
            text = path.read_text(encoding="utf-8").replace('player = "Ana"', 'player = "Ana B."')
            path.write_text("# [b]the GM's[/b] own note\n" + text, encoding="utf-8")
            await pilot.press("full_stop")  # a round: an event, and the checkpoint after it
            await pilot.pause()
            return [str(n.message) for n in app.pop_ups_shown()]

    try:
        shown = asyncio.run(run())
    finally:
        live.close()
    told = [n for n in shown if "edited while the campaign was open" in n]
    assert told and "characters[artinar].player" in told[0], shown
    text = campaign_file(folder).read_text(encoding="utf-8")
    assert "# [b]the GM's[/b] own note" in text
    assert read_checkpoint(folder)[0].character("artinar").player == "Ana B."
