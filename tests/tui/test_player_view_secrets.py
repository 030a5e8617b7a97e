"""The player view (``p``) after a rich session: every widget's text keeps every secret, and
shows the names, how each seems, the episodes, the lasting madnesses, the items and the notes
the GM shared (#13.1). The session and the checks are the players' recap tests' own."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from tests.player_safe_checks import assert_player_safe
from tests.rich_session import SHARED_NOTES, fixed_clock, play_rich_session
from tests.tui.conftest import SIZE, build
from textual.content import Content
from textual.widget import Widget

from gmscreen.campaign.model import Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.tui.screens.main import MainScreen
from gmscreen.tui.screens.player_view import PlayerView


def _text(widget: Widget) -> str:
    """What ``widget`` draws, as text (containers draw a blank: nothing)."""
    visual = widget.render()
    if isinstance(visual, Content):
        return visual.plain
    return visual if isinstance(visual, str) else ""


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_player_view_keeps_every_secret(tmp_path: Path, lang: str) -> None:
    settings = Settings(modules=("madness", "merp-items"), auto_check=False, language=lang)
    folder = create_campaign(tmp_path, "Imrryr", settings)
    live = open_campaign(folder, rng=random.Random(7), clock=fixed_clock)
    told = play_rich_session(live)
    events = [entry.event for entry in live.events]
    session = live.session_path.stem if live.session_path else ""
    shown: list[str] = []

    async def run() -> None:
        app = build(live)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("p")
            await pilot.pause()
            assert isinstance(app.screen, PlayerView)
            shown.extend(_text(w) for w in app.screen.query(Widget) if w.display)
            # What changes while the view is up reaches it (a note shared now).
            live.note("The gate opens at dusk", shared=True)
            main = app.screen_stack[0]
            assert isinstance(main, MainScreen)
            main.refresh_all()
            await pilot.pause()
            assert any("The gate opens at dusk" in _text(w) for w in app.screen.query(Widget))

    try:
        asyncio.run(run())
    finally:
        live.close()
    text = "\n".join(shown)
    assert_player_safe(text, live.state, events, lang, session, told)
    assert all(note in text for note in SHARED_NOTES)
