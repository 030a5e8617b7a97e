"""The seed's worked example, driven by keys only in a new campaign, then reopened."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from tests.tui.conftest import SIZE, build, fixed_clock

from gmscreen.campaign import events as ev
from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.model import Character
from gmscreen.campaign.opening import open_campaign
from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.screens.check import CheckScreen
from gmscreen.tui.widgets.roll_log import RollLog
from gmscreen.tui.widgets.roster import Roster


def _artinar(app: GMScreenApp) -> Character:
    (character,) = app.live.state.characters
    return character


def _log_text(app: GMScreenApp) -> str:
    return "\n".join(
        " ".join((e.who_name, e.what, e.dice, e.outcome))
        for e in app.screen_stack[0].query_one(RollLog).visible_entries
    )


def _card_text(app: GMScreenApp) -> str:
    roster = app.screen_stack[0].query_one(Roster)
    return str(roster.card_at(0))


def test_artinar_by_keys_in_a_new_campaign(new_campaign: Path) -> None:
    asyncio.run(_artinar_by_keys(new_campaign))


async def _artinar_by_keys(new_campaign: Path) -> None:
    app = build(new_campaign)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c")
        # name, player, POW, APP (kept), Chaos, Balance, Law
        await pilot.press(*"Artinar", "tab", *"Ann", "tab", "1", "3", "tab", "tab")
        await pilot.press("4", "3", "tab", "3", "2", "tab", "4", "7", "enter")
        await pilot.pause()
        character = _artinar(app)
        assert (character.name, character.sanity.pow) == ("Artinar", 13)
        assert (character.sanity.chaos, character.sanity.balance, character.sanity.law) == (
            43,
            32,
            47,
        )
        for die in ("4", "5"):
            await pilot.press("g", *"friend", "enter", "enter", die, "enter")  # no line
        await pilot.press("g", *"something", "enter", "2", "enter", "enter")
        assert _artinar(app).sanity.madness == 11
        await pilot.press("g", *"demon", "enter", "1", "6", "enter", "enter")
        await pilot.pause()
        assert _artinar(app).sanity.madness == 14
        assert "14/13" in _card_text(app)
        # The campaign checks as soon as one is due (auto_check): the check is open.
        assert isinstance(app.screen, CheckScreen)
        await pilot.press("5", "3", "enter")
        await pilot.pause()
        assert "failure" in _log_text(app)
        await pilot.press("enter", "r", "enter")
        await pilot.pause()
        sanity = _artinar(app).sanity
        assert sanity.episode is not None
        assert (sanity.episode.amount, sanity.episode.unit) == (14, "rounds")
        assert "14 rounds left" in _card_text(app)
        for _ in range(13):
            await pilot.press("full_stop")
        await pilot.pause()
        assert _artinar(app).sanity.episode is not None
        assert "1 round left" in _card_text(app)
        await pilot.press("full_stop")
        await pilot.pause()
        assert _artinar(app).sanity.episode is None
        assert _artinar(app).sanity.madness == 7
        assert "7/13" in _card_text(app)
        log = _log_text(app)
        for text in ("1d6: 4 (typed)", "1d6: 5 (typed)", "1d100: 53 (typed)", "for 14 rounds"):
            assert text in log
        assert "madness 14 → 7" in log
        journal = [e.event for e in app.live.events]
        await pilot.press("q")
    kinds = [e.kind for e in journal]
    assert kinds.count("gain") == 4
    check = next(e.data for e in journal if isinstance(e.data, ev.CheckRoll))
    assert (check.roll.total, check.outcome, check.roll.source) == (53, "failure", "typed")
    started = next(e.data for e in journal if isinstance(e.data, ev.EpisodeStarted))
    assert (started.amount, started.unit) == (14, "rounds")
    ended = next(e.data for e in journal if isinstance(e.data, ev.EpisodeEnded))
    assert ended.changes["madness"] == [14, 7]
    assert not app.live._lock.held  # quitting closed the table (checkpoint, lock released)

    reopened = build(new_campaign)
    async with reopened.run_test(size=SIZE) as pilot:
        await pilot.pause()
        character = _artinar(reopened)
        assert character.sanity.madness == 7
        assert character.sanity.episode is None
        assert "7/13" in _card_text(reopened)
        await pilot.press("q")


def test_the_factory_accepts_an_open_campaign(new_campaign: Path) -> None:
    with open_campaign(new_campaign, rng=random.Random(1), clock=fixed_clock) as live:
        app = build(live)
        assert isinstance(app.live, LiveCampaign) and not app.owns_campaign
