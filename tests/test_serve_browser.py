"""``gmscreen serve`` in a real headless Chromium (#19.2): the page shows the party, a GM event
changes it, and nothing a browser sends reaches the campaign folder (bytes, inodes and times
unchanged, no lock). Skipped where Chromium is not installed (``.ci/run`` installs Debian's).

The GM plays in this process through the campaign API; ``serve`` runs as the command does, in
its own process group (ended by its id at the end), on a free port of 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from tests.browser import chromium, open_page
from tests.rich_session import fixed_clock
from tests.terminals import free_port, serving

from gmscreen.campaign.lock import LOCK_NAME
from gmscreen.campaign.model import Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign

BROWSER = chromium()
pytestmark = pytest.mark.skipif(
    BROWSER is None,
    reason="no Chromium installed (Debian: apt-get install chromium); .ci/run installs it",
)

# A browser and a served app starting on a shared, loaded machine: generous, and only waited
# on (each wait ends as soon as the text is there).
START_WITHIN = 60.0
FOLLOW_WITHIN = 15.0


def folder_files(folder: Path) -> dict[str, tuple[int, int, bytes]]:
    return {
        str(p.relative_to(folder)): (p.stat().st_ino, p.stat().st_mtime_ns, p.read_bytes())
        for p in folder.rglob("*")
        if p.is_file()
    }


def test_the_browser_shows_the_party_and_follows_the_gm(tmp_path: Path) -> None:
    assert BROWSER is not None
    settings = Settings(modules=("madness", "merp-items"), auto_check=False, language="en")
    folder = create_campaign(tmp_path, "Imrryr", settings)
    with open_campaign(folder, rng=random.Random(7), clock=fixed_clock) as live:
        live.add_character("Artinar", 13, chaos=43, balance=32, law=47, player="Ann")
        live.add_character("Bors", 12, chaos=20, balance=10, law=5)
        live.note("The tavern burns behind them", shared=True)
    port = free_port()

    async def run(url: str) -> None:
        async with open_page(BROWSER, url) as page:
            for name in ("Artinar", "Bors", "The tavern burns behind them"):
                assert await page.wait_for_text(name, START_WITHIN), name
            before = await page.screenshot()

            # The GM opens the campaign and plays on: the page follows.
            with open_campaign(folder, rng=random.Random(8), clock=fixed_clock) as gm:
                gm.note("The gate opens at dusk", "bors", shared=True)
                assert await page.wait_for_text("About Bors: The gate opens at dusk", FOLLOW_WITHIN)
            assert await page.screenshot() != before

            # Whatever the browser sends reaches a screen that writes nothing.
            files = folder_files(folder)
            for key in ("g", "c", "x", "u", "n", "e", "p", "t"):
                await page.press(key)
            # A poll or so of the served screen after the keys: time for a write to show up,
            # which could only make this test fail.
            await asyncio.sleep(1.0)
            assert folder_files(folder) == files
            assert not (folder / LOCK_NAME).exists()
            assert "Artinar" in await page.terminal_text()

    with serving(folder, port) as url:
        assert url == f"http://127.0.0.1:{port}"
        asyncio.run(run(url))
