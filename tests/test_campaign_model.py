"""The model and its TOML/JSON forms: round trips, hand-editable layout, events as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gmscreen.campaign import events as ev
from gmscreen.campaign.codec import campaign_from_dict, campaign_to_dict, parse_toml, to_toml
from gmscreen.campaign.errors import CampaignError, CampaignFileError
from gmscreen.campaign.model import Campaign, Character, Item, MerpProfile, Settings
from gmscreen.campaign.paths import check_name, new_campaigns_dir, search_dirs, slugify
from gmscreen.rules.dice import Roll
from gmscreen.rules.madness import Episode, MadnessState


def _full() -> Campaign:
    sanity = MadnessState(
        pow=13,
        app=11,
        chaos=43,
        balance=32,
        law=47,
        madness=14,
        episode=Episode("paranoia", 14, "rounds", 100, 268, True),
        permanent=("paranoia",),
        first_sightings=frozenset({"chaos_god"}),
        under_care=True,
        last_gain_day=3,
    )
    item = Item("1-1", "1", "Sword +10", {"value": None, "rolls": [1, 2], "nested": {"x": "y"}})
    merp = MerpProfile("pure_spell_user", "Noldo", 5, 2, {"2": 1})
    return Campaign(
        name="Full",
        settings=Settings(("madness", "merp-items"), 2, 10, False, "es"),
        clock=300_000,
        characters=(
            Character("a", "A", sanity, "Ana", merp, (item,), "notes\nmore", "fumble"),
            Character("b", "B", MadnessState(pow=9)),
        ),
        last_event=42,
    )


def test_toml_round_trip_keeps_everything(tmp_path: Path) -> None:
    campaign = _full()
    assert parse_toml(to_toml(campaign), tmp_path / "c.toml") == campaign


def test_plain_dict_round_trip() -> None:
    campaign = _full()
    raw = json.loads(json.dumps(campaign_to_dict(campaign)))
    assert campaign_from_dict(raw) == campaign


def test_toml_is_flat_for_people() -> None:
    text = to_toml(_full())
    assert '[[characters]]\nid = "a"' in text
    assert "\npow = 13\n" in text and "\nchaos = 43\n" in text
    assert "[characters.episode]" in text and "[characters.merp]" in text
    assert "schema = 1" in text and "last_event = 42" in text


def test_unknown_keys_are_problems(tmp_path: Path) -> None:
    text = to_toml(_full()).replace("pow = 13", "pow = 13\npower = 2")
    with pytest.raises(CampaignFileError, match="unknown character field 'power'"):
        parse_toml(text, tmp_path / "c.toml")


def test_spent_more_than_total_is_a_problem(tmp_path: Path) -> None:
    text = to_toml(_full()).replace("points_spent = 2", "points_spent = 9")
    with pytest.raises(CampaignFileError, match="9 spent is more than the 5"):
        parse_toml(text, tmp_path / "c.toml")


def test_event_json_round_trip_and_language_free() -> None:
    roll = Roll("1d6", (4,), 0, 4, "typed")
    event = ev.Event(
        7,
        7,
        "2024-05-01T20:00:00.000+00:00",
        120,
        "a",
        ev.Gain("friend_dies", {}, roll, 4, 0, 4, None, 0, {"madness": [0, 4]}),
    )
    line = json.dumps(event.to_dict())
    assert ev.Event.from_dict(json.loads(line)) == event
    assert "Sees" not in line and "sees" not in line


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"kind": "nope"}, "unknown event kind"),
        (
            {"kind": "note", "seq": "1", "action": 1, "at": "", "game": 0, "data": {"text": "x"}},
            "seq",
        ),
        ({"kind": "note", "seq": 1, "action": 1, "at": "", "game": 0, "data": {}}, "missing text"),
        (
            {"kind": "gain", "seq": 1, "action": 1, "at": "", "game": 0, "data": {"roll": 3}},
            "data",
        ),
    ],
)
def test_bad_events_name_the_key(raw: dict[str, object], message: str) -> None:
    with pytest.raises(ev.EventFormatError, match=message):
        ev.Event.from_dict(raw)


def test_every_kind_has_a_payload() -> None:
    assert set(ev.PAYLOADS) == set(ev.EventKind.__args__)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("name", "slug"),
    [("Elric's Party", "elric-s-party"), ("  Ñandú Ciudad  ", "ñandú-ciudad"), ("x", "x")],
)
def test_slugs(name: str, slug: str) -> None:
    assert slugify(name) == slug


@pytest.mark.parametrize("name", ["", "   ", "a/b", "..", "up/../x", "tab\there", "bell\x07"])
def test_bad_names_are_refused(name: str) -> None:
    with pytest.raises(CampaignError):
        check_name(name)


def test_campaigns_dir_order(tmp_path: Path) -> None:
    assert search_dirs("x", {}, tmp_path) == (Path("x"),)
    assert search_dirs(None, {"GMSCREEN_CAMPAIGNS": "/e"}, tmp_path) == (Path("/e"),)
    (home,) = search_dirs(None, {}, tmp_path)
    assert home.name == "campaigns" and home != tmp_path / "campaigns"  # the user data folder
    (tmp_path / "campaigns").mkdir()
    assert search_dirs(None, {}, tmp_path) == (tmp_path / "campaigns", home)  # ./campaigns first
    assert new_campaigns_dir(None, {}) == home  # but new never writes there unasked
    assert new_campaigns_dir("x", {}) == Path("x")
    assert new_campaigns_dir(None, {"GMSCREEN_CAMPAIGNS": "/e"}) == Path("/e")
