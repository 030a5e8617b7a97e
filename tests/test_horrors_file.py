"""``[[horrors]]`` in campaign.toml: README's example as it stands, every bad field a
``file:line`` message, the GM's comments kept when play changes the list, and hostile values
(any text, any type) a message or a horror, never a traceback."""

from __future__ import annotations

import random
import re
import tomllib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from gmscreen.campaign import events as ev
from gmscreen.campaign import open_campaign
from gmscreen.campaign.codec import parse_toml
from gmscreen.campaign.errors import CampaignFileError
from gmscreen.campaign.fields import FieldError
from gmscreen.campaign.horrors import horror_from_dict, horror_to_dict
from gmscreen.campaign.store import campaign_file
from gmscreen.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"


def _readme_example() -> str:
    text = README.read_text("utf-8")
    section = text.split("## The campaign's own horrors\n", 1)[1]
    match = re.search(r"```toml\n(.*?)```", section, re.S)
    assert match is not None
    return match.group(1)


def _amount(event: ev.Event) -> int:
    assert isinstance(event.data, ev.Gain)
    return event.data.amount


def _new(tmp_path: Path) -> Path:
    assert main(["new", "Melniboné", "--dir", str(tmp_path)]) == 0
    return tmp_path / "melniboné"


def _open(folder: Path) -> Any:
    clock = datetime(2025, 4, 1, 20, 0, tzinfo=UTC)
    return open_campaign(folder, rng=random.Random(1), clock=lambda: clock)


def test_readmes_example_appended_to_a_new_campaign_is_valid_and_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _new(tmp_path)
    path = campaign_file(folder)
    path.write_text(path.read_text("utf-8") + "\n" + _readme_example(), "utf-8")
    capsys.readouterr()
    assert main(["validate", str(folder)]) == 0
    out = capsys.readouterr().out
    assert out.endswith("valid (0 characters, 0 sessions, 0 events, 4 horrors)\n"), out
    with _open(folder) as live:
        assert [h.name for h in live.horrors] == [
            "Herald of Arioch",
            "Arioch",
            "Mabelode",
            "The Pale Hound",
        ]
        live.add_character("Elric", 15)
        assert _amount(live.gain("elric", horror="herald")) == 3
        assert [_amount(live.gain("elric", horror=h)) for h in ("arioch", "mabelode")] == [
            10,
            10,
        ]
        live.edit_horror("mabelode", players="the Lord of the Swords")
    text = path.read_text("utf-8")
    assert "# The campaign's own horrors. The players hear" in text
    assert 'players = "the Lord of the Swords"' in text
    assert main(["validate", str(folder)]) == 0
    assert "1 character, 1 session, 5 events, 4 horrors" in capsys.readouterr().out


BAD = """\
[[horrors]]
id = "herald"
name = "Herald of Arioch"
preset = "demon"
pow = "eighteen"

[[horrors]]
id = "arioch"
name = "Arioch"

[[horrors]]
id = "hound"
name = "Hound"
dice = "2d6"
colour = "pale"

[[horrors]]
id = "storm"
name = "Storm"
preset = "elemental"
pow = 9

[[horrors]]
id = "mabelode"
name = "Mabelode"
preset = "chaos_god"

[[horrors]]
id = "mabelode"
name = "Another"
amount = 3

[[horrors]]
id = "lord"
name = " MABELODE"
amount = 1
"""


def test_each_bad_horror_is_named_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _new(tmp_path)
    path = campaign_file(folder)
    head = path.read_text("utf-8")
    path.write_text(head + BAD, "utf-8")
    before = path.read_bytes()
    capsys.readouterr()
    assert main(["validate", str(folder)]) == 1
    out = capsys.readouterr().out
    start = head.count("\n")
    expected = [
        (start + 5, "horrors[0].pow: expected a whole number, found text"),
        (start + 7, "horrors[1].preset: expected preset = one of the built-in gains"),
        (start + 15, "horrors[2].colour: unknown horror field"),
        (start + 21, "horrors[3].pow: the elemental gain takes no pow"),
        (start + 29, "horrors[5].id: duplicate horror id 'mabelode'"),
        (start + 35, "horrors[6].name: another horror is named ' MABELODE'"),
    ]
    for line, message in expected:
        assert f"{path}:{line}: {message}" in out, out
    assert path.read_bytes() == before  # a broken file is never written


def test_the_gms_comments_in_the_list_survive_a_change_in_play(tmp_path: Path) -> None:
    folder = _new(tmp_path)
    path = campaign_file(folder)
    example = _readme_example().replace("pow = 18\n", "pow = 18  # rolled at the table\n")
    path.write_text(path.read_text("utf-8") + "\n# ---- the bestiary ----\n" + example, "utf-8")
    with _open(folder) as live:
        live.add_horror("Ариох", preset="chaos_god_worst", players="Ариох")
        live.remove_horror("pale-hound")
        live.edit_horror("herald", inputs={"pow": 20}, preset="demon")
    text = path.read_text("utf-8")
    assert "# ---- the bestiary ----" in text
    assert "pow = 20  # rolled at the table" in text
    ids = [h["id"] for h in tomllib.loads(text)["horrors"]]
    assert ids == ["herald", "arioch", "mabelode", "ариох"]


def test_a_campaign_without_horrors_writes_none(tmp_path: Path) -> None:
    folder = _new(tmp_path)
    with _open(folder) as live:
        live.add_horror("Pale Hound", amount=2)
        live.remove_horror("pale-hound")
    assert "horrors" not in tomllib.loads(campaign_file(folder).read_text("utf-8"))


# --- hostile values ------------------------------------------------------------------------------

HOSTILE_TEXT = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "\x1b]0;pwned\x07",
            "[bold]x[/]",
            "\u202eArioch",
            "\ud800",
            "Ариох",
            "東京の悪魔",
            "a" * 300,
            "",
            "   ",
            "line\nbreak",
            "1d6",
            "999d999",
            "demon",
            "custom",
        ]
    ),
)
VALUE = st.one_of(
    HOSTILE_TEXT,
    st.integers(min_value=-(2**70), max_value=2**70),
    st.booleans(),
    st.floats(allow_nan=False),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
KEYS = st.sampled_from(
    ["id", "name", "players", "preset", "amount", "dice", "pow", "app_dice", "points", "x"]
)
RAW_HORROR = st.dictionaries(KEYS, VALUE, max_size=7)


@settings(max_examples=300, deadline=None)
@given(RAW_HORROR)
def test_any_horror_value_is_a_horror_or_a_message(raw: dict[str, Any]) -> None:
    try:
        horror = horror_from_dict(raw)
    except FieldError as error:
        assert error.key.startswith("horror")
        return
    assert horror_from_dict(horror_to_dict(horror)) == horror


@settings(max_examples=150, deadline=None)
@given(st.lists(RAW_HORROR, max_size=3))
def test_any_horrors_table_reads_as_a_campaign_or_file_line_messages(
    horrors: list[dict[str, Any]],
) -> None:
    values: dict[str, Any] = {"schema": 1, "name": "T", "horrors": horrors}
    try:
        text = tomli_w.dumps(values)
    except (TypeError, ValueError):  # what TOML cannot hold (a lone surrogate, say)
        return
    path = Path("campaign.toml")
    try:
        campaign = parse_toml(text, path)
    except CampaignFileError as error:
        lines = text.count("\n") + 1
        assert all(1 <= p.line <= lines for p in error.problems)
        return
    assert len(campaign.horrors) == len(horrors)


@settings(max_examples=60, deadline=None)
@given(name=HOSTILE_TEXT, players=HOSTILE_TEXT, dice=HOSTILE_TEXT)
def test_hostile_names_at_the_table_are_a_horror_or_a_message(
    tmp_path_factory: pytest.TempPathFactory, name: str, players: str, dice: str
) -> None:
    from gmscreen.campaign.errors import InvalidAction

    folder = _new(tmp_path_factory.mktemp("hostile"))
    with _open(folder) as live:
        for rule in ({"amount": 3}, {"dice": dice}, {"preset": "chaos_god"}):
            try:
                event = live.add_horror(name, players=players, **rule)
            except InvalidAction:
                continue
            (horror,) = [h for h in live.horrors if h.id == event.data.horror["id"]]
            assert (horror.name, horror.players) == (name, players)
            live.remove_horror(horror.id)
        state = live.state
    with _open(folder) as live:
        assert live.state.horrors == state.horrors


def test_a_horror_made_again_with_its_id_keeps_the_games_order_on_disk(tmp_path: Path) -> None:
    folder = _new(tmp_path)
    path = campaign_file(folder)
    path.write_text(path.read_text("utf-8") + "\n" + _readme_example(), "utf-8")
    with _open(folder) as live:
        live.remove_horror("herald")
        live.add_horror("Herald", amount=3)  # the same id again: last in the list now
        live.checkpoint()
        order = [h.id for h in live.horrors]
        assert order == ["arioch", "mabelode", "pale-hound", "herald"]
    with _open(folder) as live:
        assert [h.id for h in live.horrors] == order
    assert "# The campaign's own horrors. The players hear" in path.read_text("utf-8")


def test_a_line_break_of_unicode_inside_a_name_does_not_shift_the_lines_named() -> None:
    text = (
        'schema = 1\nname = "T"\n\n[[characters]]\nid = "a"\nname = "Ar\u0085ti\u2028nar"\n'
        'pow = 13\n\n[[horrors]]\nid = "x"\nname = "X\u2029"\npreset = "nope"\n'
    )
    with pytest.raises(CampaignFileError) as raised:
        parse_toml(text, Path("campaign.toml"))
    (problem,) = raised.value.problems
    assert (problem.line, problem.message.split(":")[0]) == (12, "horrors[0].preset")
