"""``gmscreen import-characters``: a CSV party added as one action, or nothing and each bad
row named at its line; the lock taken like every writer's; hostile sheets a message."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gmscreen.campaign import events as ev
from gmscreen.campaign import open_campaign
from gmscreen.campaign.errors import CampaignFileError
from gmscreen.campaign.journal import list_sessions
from gmscreen.campaign.roster_csv import HEADER_LINE, parse_roster
from gmscreen.campaign.store import read_checkpoint, sessions_dir
from gmscreen.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"
PARTY = [
    ("Elric", "Ana", 17, 11, 30, 10, 5, ""),
    ("Moonglum", "Bea", 12, 13, 5, 20, 10, "3"),
    ("Cymoril", "Cai", 14, 17, 10, 30, 47, ""),
    ("Rackhir", "Dan", 16, 12, 5, 40, 20, "0"),
    ("Dyvim Tvar", "Eva", 13, 10, 20, 10, 5, ""),
    ("Ариох", "", 99, 0, 100, 0, 0, ""),
    ("東京の侍", "Fu", 11, 9, 0, 0, 60, "12"),
    ("Smiorgan", "Gil", 12, 8, 10, 10, 10, ""),
    ("Shaarilla", "Hana", 15, 15, 15, 15, 15, ""),
    ("Zarozinia", "Ivo", 13, 16, 5, 5, 30, ""),
    ("Tanglebones", "Jo", 10, 7, 40, 0, 0, ""),
    ("Sepiriz", "Kai", 18, 12, 0, 80, 0, ""),
]


def _csv(rows: Sequence[tuple[object, ...]], header: str = HEADER_LINE, sep: str = ",") -> str:
    lines = [header] + [sep.join(str(v) for v in row) for row in rows]
    return "\n".join(lines) + "\n"


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    assert main(["new", "Melniboné", "--dir", str(tmp_path)]) == 0
    return tmp_path / "melniboné"


def _import(campaign: Path, sheet: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    status = main(["import-characters", str(campaign), str(sheet)])
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def test_twelve_rows_with_one_bad_add_nothing_and_name_its_line(
    campaign: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = [*PARTY[:7], ("Sepiriz", "Kai", "eighteen", 12, 0, 80, 0, ""), *PARTY[8:]]
    sheet = tmp_path / "party.csv"
    sheet.write_text(_csv(bad), "utf-8")
    before = (campaign / "campaign.toml").read_bytes()
    status, said = _import(campaign, sheet, capsys)
    assert status == 1
    assert f"{sheet}:9: POW: 'eighteen' is not a whole number" in said
    assert said.count(str(sheet)) == 1 and "nothing was added" in said
    assert read_checkpoint(campaign)[0].characters == ()
    assert list_sessions(sessions_dir(campaign)) == []  # not one event journaled
    assert (campaign / "campaign.toml").read_bytes() == before


def test_twelve_good_rows_are_one_action_that_one_undo_takes_back(
    campaign: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = tmp_path / "party.csv"
    sheet.write_text(_csv(PARTY), "utf-8")
    status, said = _import(campaign, sheet, capsys)
    assert status == 0, said
    assert "added 12 characters to Melniboné" in said
    state = read_checkpoint(campaign)[0]
    assert [c.name for c in state.characters] == [row[0] for row in PARTY]
    moonglum = state.character("moonglum").sanity
    assert (moonglum.pow, moonglum.app, moonglum.chaos, moonglum.balance) == (12, 13, 5, 20)
    assert (moonglum.law, moonglum.madness) == (10, 3)
    assert state.character("ариох").player == ""
    clock = datetime(2025, 6, 1, 20, 0, tzinfo=UTC)
    with open_campaign(campaign, rng=random.Random(1), clock=lambda: clock) as live:
        (session,) = live.history.opened
        assert {e.action for e in session.events} == {1}
        assert all(isinstance(e.data, ev.CharacterAdded) for e in session.events)
        live.undo()  # tonight has nothing: the import, an earlier session's action
        assert live.state.characters == ()
    assert read_checkpoint(campaign)[0].characters == ()
    # Imported again, the same sheet is refused whole: everyone would be there twice.
    assert _import(campaign, sheet, capsys)[0] == 0
    status, said = _import(campaign, sheet, capsys)
    assert status == 1 and f"{sheet}:2: 'Elric' is already in the campaign" in said


def test_the_header_is_read_loosely_and_the_readme_shows_it(
    campaign: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert HEADER_LINE in README.read_text("utf-8")
    sheet = tmp_path / "hoja.csv"
    header = "\ufeff Nombre ; JUGADOR ;pod;APA; caos ;Balance;Ley"
    sheet.write_text(_csv([row[:7] for row in PARTY[:2]], header, ";"), "utf-8")
    status, said = _import(campaign, sheet, capsys)
    assert status == 0, said
    assert [c.name for c in read_checkpoint(campaign)[0].characters] == ["Elric", "Moonglum"]


def test_a_campaign_open_elsewhere_is_refused(
    campaign: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = tmp_path / "party.csv"
    sheet.write_text(_csv(PARTY[:1]), "utf-8")
    with open_campaign(campaign, rng=random.Random(1)):
        status, said = _import(campaign, sheet, capsys)
    assert status == 2
    assert "is open in another gmscreen" in said and "close it there first" in said
    assert read_checkpoint(campaign)[0].characters == ()


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("name,player,POW\n", 1, "missing the column APP, Chaos, Balance, Law"),
        (HEADER_LINE + ",colour\n", 1, "unknown column 'colour'"),
        ("name,name,player,POW,APP,Chaos,Balance,Law\n", 1, "the column name is twice"),
        ("", 1, "no header line"),
        (HEADER_LINE + "\n", 2, "no characters after the header line"),
        (HEADER_LINE + "\nElric,Ana,17,11,30\n", 2, "expected 8 values"),
        (HEADER_LINE + "\n,Ana,17,11,30,10,5,\n", 2, "name is empty"),
        (HEADER_LINE + "\nElric,Ana,0,11,30,10,5,\n", 2, "POW: 0 is out of range"),
        (HEADER_LINE + "\nElric,Ana,17,11,30,10,5,²\n", 2, "madness: '²' is not a whole"),
        (HEADER_LINE + "\nElric,Ana,17,,30,10,5,\n", 2, "APP is empty"),
        (HEADER_LINE + '\n"El\nric",Ana,17,11,30,10,5,\n', 2, "name holds a line break"),
        (HEADER_LINE + "\nElric,A,1,1,1,1,1,\n\nelric ,B,1,1,1,1,1,\n", 4, "is already in line 2"),
        (HEADER_LINE + "\nElric,Ana,17,11,30,10,5,99999999999\n", 2, "madness"),
    ],
)
def test_each_bad_sheet_is_a_message_at_its_line(text: str, line: int, message: str) -> None:
    path = Path("party.csv")
    with pytest.raises(CampaignFileError) as raised:
        parse_roster(text, path)
    assert any(p.line == line and message in p.message for p in raised.value.problems), [
        str(p) for p in raised.value.problems
    ]


def test_not_utf8_is_a_message(
    campaign: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = tmp_path / "latin1.csv"
    sheet.write_bytes((HEADER_LINE + "\nJosé,Ana,1,1,1,1,1,\n").encode("latin-1"))
    status, said = _import(campaign, sheet, capsys)
    assert status == 1 and f"{sheet}:2: not UTF-8 text" in said


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from('ab,;\t"\n\r 1²\x00\x1b\u202e'), max_size=120))
def test_any_sheet_is_characters_or_messages_at_its_lines(body: str) -> None:
    text = HEADER_LINE + "\n" + body
    try:
        rows = parse_roster(text, Path("x.csv"))
    except CampaignFileError as error:
        lines = text.count("\n") + text.count("\r") + 2
        assert error.problems and all(1 <= p.line <= lines for p in error.problems)
        return
    assert rows and all(1 <= r.values["pow"] <= 1000 for r in rows)


def test_add_characters_refuses_the_whole_party_for_one_bad_one(campaign: Path) -> None:
    from gmscreen.campaign import InvalidAction

    with open_campaign(campaign, rng=random.Random(1)) as live:
        with pytest.raises(InvalidAction, match="character 2: pow"):
            live.add_characters([{"name": "Elric", "pow": 17}, {"name": "Moonglum", "pow": 0}])
        assert live.state.characters == () and live.events == []
        added = live.add_characters([{"name": "Elric", "pow": 17}, {"name": "Elric", "pow": 9}])
        assert [e.character for e in added] == ["elric", "elric-2"]
        assert {e.action for e in added} == {added[0].seq}
