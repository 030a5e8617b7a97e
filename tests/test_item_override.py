"""The GM's override of a MERP roll refusal: journaled on ``item_rolled``, read back, old lines too."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gmscreen.campaign import InvalidAction, open_campaign
from gmscreen.campaign import events as ev
from gmscreen.campaign.journal import read_session
from gmscreen.campaign.model import Campaign, Character, MerpProfile, Settings
from gmscreen.campaign.store import load, write_checkpoint
from gmscreen.campaign.telling import action_words
from gmscreen.rules.madness import MadnessState

FIXED = datetime(2024, 5, 1, 20, 0, tzinfo=UTC)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    merp = MerpProfile("pure_spell_user", "Noldo", points_total=1)
    ioreth = Character("ioreth", "Ioreth", MadnessState(pow=10), merp=merp)
    settings = Settings(modules=("merp-items",))
    write_checkpoint(tmp_path, Campaign(name="T", settings=settings, characters=(ioreth,)))
    return tmp_path


def test_an_override_is_journaled_and_survives_a_reopen(folder: Path) -> None:
    with open_campaign(folder, rng=random.Random(1), clock=lambda: FIXED) as live:
        plain = live.item_rolled("ioreth", "merp-2", "Runes", {"tree": {}})
        assert isinstance(plain.data, ev.ItemRolled) and plain.data.override is None
        forced = live.item_rolled("ioreth", "merp-2", "Staff", {"tree": {}}, "no_points")
        assert isinstance(forced.data, ev.ItemRolled) and forced.data.override == "no_points"
        assert "overrode the no points rule" in action_words([forced], live.state)
        with pytest.raises(InvalidAction, match="names the rule"):
            live.item_rolled("ioreth", "merp-2", "x", {}, " ")
        path = live.session_path
    assert path is not None
    lines = [json.loads(x) for x in path.read_text().splitlines()[1:]]
    assert [x["data"].get("override") for x in lines] == [None, "no_points"]
    events = read_session(path).events
    assert [e.data.override for e in events if isinstance(e.data, ev.ItemRolled)] == [
        None,
        "no_points",
    ]
    merp = load(folder).state.character("ioreth").merp
    assert merp is not None and merp.rolls == {"merp-2": 2} and merp.points_left == 0


def test_an_item_rolled_line_without_override_still_reads() -> None:
    line = {
        "seq": 1,
        "action": 1,
        "at": "2024-05-01T20:00:00.000+00:00",
        "game": 0,
        "kind": "item_rolled",
        "character": "ioreth",
        "data": {"item": {"id": "merp-2-1"}, "cost": 1, "changes": {}},
    }
    event = ev.Event.from_dict(line)
    assert isinstance(event.data, ev.ItemRolled) and event.data.override is None
    line["data"] = {"item": {}, "changes": {}}
    with pytest.raises(ev.EventFormatError, match="missing cost"):
        ev.Event.from_dict(line)
