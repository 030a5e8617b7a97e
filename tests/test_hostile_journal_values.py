"""Values in a journal that the recaps turn into words: one a journal's writer could not have
written is a ``file:line`` message when the journal is read, or told as well as it can be (an
item's stored title), never a traceback when a session is told (``gmscreen export``)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from gmscreen.campaign import CampaignFileError, open_campaign
from gmscreen.campaign.item_names import item_name
from gmscreen.campaign.model import Campaign, Character, Settings
from gmscreen.campaign.store import load, write_checkpoint
from gmscreen.cli import main
from gmscreen.rules import dice, merp
from gmscreen.rules.madness import MadnessState
from gmscreen.rules.tables import roll_table


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    folder = tmp_path / "camp"
    folder.mkdir()
    chars = (Character("artinar", "Artinar", MadnessState(pow=10, chaos=43, law=47)),)
    start = Campaign(name="Hostile", characters=chars, settings=Settings(auto_check=False))
    write_checkpoint(folder, start)
    with open_campaign(folder, rng=random.Random(1)) as live:
        live.gain("artinar", "custom", {"amount": 11})
        live.check_roll("artinar", dice.typed("d100", 90))  # a failure
        live.check_kind("artinar", dice.typed("1d6", 4))
        live.advance(60)
        live.note("the bridge")  # the last line: the lines above are never a torn last line
    write_checkpoint(folder, start)  # as after a crash: every event is replayed
    return folder


def _edit(folder: Path, kind: str, key: str, value: object) -> int:
    """Set ``data[key]`` of the first event of ``kind``; returns its line number."""
    path = next((folder / "sessions").glob("*.jsonl"))
    lines = path.read_bytes().split(b"\n")
    for number, line in enumerate(lines, start=1):
        raw = json.loads(line)
        if raw.get("kind") == kind:
            raw["data"][key] = value
            lines[number - 1] = json.dumps(raw, separators=(",", ":")).encode()
            path.write_bytes(b"\n".join(lines))
            return number
    raise AssertionError(f"no {kind} event")


@pytest.mark.parametrize(
    ("kind", "key", "value"),
    [
        ("check_roll", "target", "merp-1"),
        ("check_roll", "outcome", "victory"),
        ("episode_started", "unit", "weeks"),
        ("clock_advanced", "reason", "nap"),
    ],
)
def test_a_value_the_recaps_have_no_words_for_is_a_message_with_the_line(
    campaign: Path, kind: str, key: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    number = _edit(campaign, kind, key, value)
    with pytest.raises(CampaignFileError) as info:
        load(campaign)
    (problem,) = info.value.problems
    assert f".jsonl:{number}: not a gmscreen event: data.{key}" in str(problem)
    for players in ([], ["--players"]):
        assert main(["export", str(campaign), *players]) == 1
        assert f".jsonl:{number}:" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("key", "value"),
    [("dice", "9999"), ("dice", 7), ("dice", []), ("row", "x"), ("source", "x"), ("context", 7)],
)
def test_an_item_tree_with_a_value_of_the_wrong_kind_keeps_its_stored_title(
    key: str, value: object
) -> None:
    resolution = roll_table(merp.merp_tables(), merp.TABLE_1, random.Random(3))
    while resolution.pending is not None and not resolution.done:
        resolution.choose(0)
        resolution.auto(random.Random(3))
    tree = resolution.to_dict()
    tree["tree"][key] = value
    item = {"title": "Potion", "tree": tree}
    for lang in ("en", "es"):  # the GM's log and recap, the inventory, what players see
        assert item_name(item, lang) == "Potion"
