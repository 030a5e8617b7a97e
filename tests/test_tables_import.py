"""`gmscreen tables import` and `export`: text, CSV and Foundry VTT RollTables, both ways (#28)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gmscreen.cli import main
from gmscreen.rules.tables import load_tables
from gmscreen.rules.tables_foundry import foundry_tables, from_foundry, plain_text, to_foundry
from gmscreen.rules.tables_import import ImportProblem, from_csv, from_text, id_from_name
from gmscreen.rules.tables_library import TableFile, build_library
from gmscreen.rules.tables_short import short_toml

FOUNDRY = Path(__file__).parent / "fixtures" / "foundry"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    assert main(["new", "Harrow", "--dir", str(tmp_path)]) == 0
    return tmp_path / "harrow"


def rows_of(capsys: pytest.CaptureFixture[str], campaign: Path, table_id: str) -> list[object]:
    code, out, err = run(capsys, "tables", table_id, "--campaign", str(campaign), "--json")
    assert code == 0, err
    return [(r["range"], r["text"]) for r in json.loads(out)["rows"]]


def roll(capsys: pytest.CaptureFixture[str], campaign: Path, table_id: str, top: str) -> dict:  # type: ignore[type-arg]
    code, out, err = run(
        capsys,
        "roll",
        table_id,
        "--campaign",
        str(campaign),
        "--d100",
        top,
        "--seed",
        "3",
        "--json",
    )
    assert code == 0, err
    tree: dict = json.loads(out)  # type: ignore[type-arg]
    return tree


def test_foundry_v12_tables_import_with_the_draw_between_them(
    campaign: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        capsys, "tables", "import", str(FOUNDRY / "v12_omens.json"),
        str(FOUNDRY / "v12_portents.json"), "--campaign", str(campaign),
    )  # fmt: skip
    assert (code, err) == (0, "")
    folder = campaign / "tables"
    assert f"wrote {folder / 'tavern-omens.toml'}: tavern-omens  1d4  3 rows  Tavern Omens" in out
    assert sorted(p.name for p in folder.iterdir()) == ["tavern-omens.toml", "tavern-portents.toml"]
    assert rows_of(capsys, campaign, "tavern-omens") == [
        ([1, 2], "A black cat crosses the room & hisses 1d6 times."),
        ([3, 3], "@tavern-portents"),
        ([4, 4], "Goblin"),  # an Actor of a compendium: its name, as text
    ]
    assert rows_of(capsys, campaign, "tavern-portents") == [
        ([1, 3], "A red moon rises."),
        ([4, 6], "A star falls north."),
    ]
    drawn = roll(capsys, campaign, "tavern-omens", "3")
    assert [s["table"] for s in drawn["subrolls"]] == ["tavern-portents"]
    cat = roll(capsys, campaign, "tavern-omens", "1")
    hisses = cat["dice"]["1d6"]["total"]
    assert cat["text"] == f"A black cat crosses the room & hisses {hisses} times."


def test_foundry_v13_fields_import_and_roll(
    campaign: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = run(
        capsys, "tables", "import", str(FOUNDRY / "v13_weather.json"),
        str(FOUNDRY / "v13_storm.json"), "--campaign", str(campaign),
    )  # fmt: skip
    assert (code, err) == (0, "")
    assert rows_of(capsys, campaign, "mountain-weather") == [
        ([2, 6], "Clear and cold."),
        ([7, 10], "Snow for 1d4 hours; travel is halved."),
        ([11, 12], "@mountain-storm"),
    ]
    storm = roll(capsys, campaign, "mountain-weather", "12")
    assert storm["die"] == "2d6"
    assert [s["table"] for s in storm["subrolls"]] == ["mountain-storm"]


def test_a_draw_on_a_table_not_imported_stays_text(
    campaign: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _err = run(
        capsys, "tables", "import", str(FOUNDRY / "v13_weather.json"), "--campaign", str(campaign)
    )
    assert code == 0
    assert "note: v13_weather.json: result 3 draws another RollTable (Mountain Storm)" in out
    assert rows_of(capsys, campaign, "mountain-weather")[2] == ([11, 12], "Mountain Storm")


def test_a_draw_on_a_table_imported_before_becomes_a_reference(
    campaign: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    portents = str(FOUNDRY / "v12_portents.json")
    assert run(capsys, "tables", "import", portents, "--campaign", str(campaign))[0] == 0
    omens = str(FOUNDRY / "v12_omens.json")
    code, out, _ = run(capsys, "tables", "import", omens, "--campaign", str(campaign))
    assert code == 0 and "note:" not in out
    assert rows_of(capsys, campaign, "tavern-omens")[1] == ([3, 3], "@tavern-portents")


@pytest.mark.parametrize("version", ["12", "13"])
def test_an_exported_table_imports_again_to_the_same_rows(
    campaign: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path, version: str
) -> None:
    sources = [FOUNDRY / "v12_omens.json", FOUNDRY / "v12_portents.json"]
    assert run(capsys, "tables", "import", *map(str, sources), "--campaign", str(campaign))[0] == 0
    code, out, err = run(
        capsys, "tables", "export", "tavern-omens", "--campaign", str(campaign),
        "--format", "foundry", "--foundry-version", version,
    )  # fmt: skip
    assert (code, err) == (0, "")
    exported = json.loads(out)
    assert (exported["name"], exported["formula"]) == ("Tavern Omens", "1d4")
    first = exported["results"][0]
    text_field = "text" if version == "12" else "description"
    assert first[text_field] == "A black cat crosses the room &amp; hisses [[/r 1d6]] times."
    assert (first["type"], first["range"], first["weight"], len(first["_id"])) == (
        "text", [1, 2], 2, 16,
    )  # fmt: skip
    again = tmp_path / "again.json"
    again.write_text(out, encoding="utf-8")
    code, _, err = run(
        capsys, "tables", "import", str(again), "--id", "omens-again", "--campaign", str(campaign)
    )
    assert (code, err) == (0, "")
    assert rows_of(capsys, campaign, "omens-again") == rows_of(capsys, campaign, "tavern-omens")


def test_a_csv_imports_rolls_and_exports_again(
    campaign: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    weather = tmp_path / "weather.csv"
    weather.write_text(
        'range,text\n1-3,Fog\n4-5,"Rain, {1d4} hours"\n6,Hail — mind @home\n', encoding="utf-8"
    )
    code, out, err = run(capsys, "tables", "import", str(weather), "--campaign", str(campaign))
    assert (code, err) == (0, "")
    assert "weather  1d6  3 rows  Weather" in out
    assert rows_of(capsys, campaign, "weather") == [
        ([1, 3], "Fog"),
        ([4, 5], "Rain, 1d4 hours"),
        ([6, 6], "Hail — mind @home"),  # no table home: a plain @
    ]
    rain = roll(capsys, campaign, "weather", "4")
    assert rain["text"] == f"Rain, {rain['dice']['1d4']['total']} hours"
    _round_trip(capsys, campaign, tmp_path, "weather")


def test_a_text_list_imports_rolls_and_exports_again(
    campaign: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    names = tmp_path / "Tavern names.txt"
    names.write_text("The Drowned Rat\n\nThe Gilded Goose\n# a comment\nThe Last Lamp\n")
    code, out, err = run(capsys, "tables", "import", str(names), "--campaign", str(campaign))
    assert (code, err) == (0, "")
    assert "tavern-names  1d3  3 rows  Tavern names" in out
    written = (campaign / "tables" / "tavern-names.toml").read_text(encoding="utf-8")
    assert "weights = true" in written and '[1, "The Gilded Goose"],' in written
    assert roll(capsys, campaign, "tavern-names", "2")["text"] == "The Gilded Goose"
    _round_trip(capsys, campaign, tmp_path, "tavern-names")


def _round_trip(
    capsys: pytest.CaptureFixture[str], campaign: Path, tmp_path: Path, table_id: str
) -> None:
    code, out, _ = run(
        capsys, "tables", "export", table_id, "--campaign", str(campaign), "--format", "foundry"
    )
    assert code == 0
    again = tmp_path / "again.json"
    again.write_text(out, encoding="utf-8")
    assert (
        run(capsys, "tables", "import", str(again), "--id", "again", "--campaign", str(campaign))[0]
        == 0
    )
    assert rows_of(capsys, campaign, "again") == rows_of(capsys, campaign, table_id)


def test_import_never_overwrites_without_saying(
    campaign: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    weather = tmp_path / "weather.txt"
    weather.write_text("1-3 Fog\n4-6 Rain\n")
    assert run(capsys, "tables", "import", str(weather), "--campaign", str(campaign))[0] == 0
    weather.write_text("1-2 Fog\n3-6 Sun\n")
    code, out, err = run(capsys, "tables", "import", str(weather), "--campaign", str(campaign))
    assert (code, out) == (1, "")
    assert "weather.toml exists already: nothing was written" in err
    assert "Rain" in (campaign / "tables" / "weather.toml").read_text()
    code, _, _ = run(
        capsys, "tables", "import", str(weather), "--campaign", str(campaign), "--replace"
    )
    assert code == 0 and "Sun" in (campaign / "tables" / "weather.toml").read_text()


@pytest.mark.posix("links as POSIX makes them")
def test_import_writes_nothing_through_a_link_or_for_a_broken_table(
    campaign: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (campaign / "tables").symlink_to(outside)
    weather = tmp_path / "weather.txt"
    weather.write_text("1-3 Fog\n4-6 Rain\n")
    code, _, err = run(capsys, "tables", "import", str(weather), "--campaign", str(campaign))
    assert code == 1 and "is a symbolic link" in err
    assert list(outside.iterdir()) == []
    (campaign / "tables").unlink()
    weather.write_text("1-3 Fog\n5-6 Rain\n")  # a gap
    code, _, err = run(capsys, "tables", "import", str(weather), "--campaign", str(campaign))
    assert code == 1 and "gap: no row covers 4" in err and "nothing was written" in err
    assert not (campaign / "tables" / "weather.toml").exists()


def test_without_a_campaign_import_writes_the_shared_tables(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from gmscreen.user_config import default_config_path

    weather = tmp_path / "weather.txt"
    weather.write_text("Fog\nRain\n")
    code, out, _ = run(capsys, "tables", "import", str(weather))
    shared = default_config_path().parent / "tables" / "weather.toml"
    assert code == 0 and f"wrote {shared}" in out
    assert run(capsys, "roll", "weather", "--seed", "1")[0] == 0


def test_export_refuses_a_bundled_form_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tables", "export", "merp-1", "--format", "foundry")
    assert (code, out) == (2, "")
    assert "bundled form" in err


@pytest.mark.parametrize(
    ("name", "expected"),
    [("Omens", "omens"), ("weather", "weather"), ("Presagios del Norte", "presagios-del-norte"),
     ("Omens & Portents!", "omens-portents"), ("  Ünder  Mountain ", "under-mountain")],
)  # fmt: skip
def test_ids_from_names(name: str, expected: str) -> None:
    assert id_from_name(name) == expected


def test_an_id_needs_letters() -> None:
    with pytest.raises(ImportProblem, match="give --id"):
        id_from_name("!!!")


def test_text_lists_with_ranges_and_d100_zeros() -> None:
    table = from_text("01-50 Nothing\n51-95. Something\n96-00: A lot\n", "t", "T")
    assert (table.die, [(r.lo, r.hi) for r in table.rows]) == (
        "1d100",
        [(1, 50), (51, 95), (96, 100)],
    )
    three = from_text("3-10 Low\n11-18 High\n", "t", "T")
    assert three.die == "3d6"


def test_a_text_list_half_ranged_says_which_line() -> None:
    with pytest.raises(ImportProblem, match="line 2 has no range but other lines do"):
        from_text("1-3 Fog\nRain\n", "t", "T")


@pytest.mark.parametrize(
    ("text", "weights", "rows"),
    [
        ("weight,text\n3,Fog\n1,Rain\n", True, [(1, 3), (4, 4)]),
        ("3;Fog\n1;Rain\n", True, [(1, 3), (4, 4)]),  # a Spanish spreadsheet's semicolons
        ("1,Fog\n2,Rain\n3,Hail\n", False, [(1, 1), (2, 2), (3, 3)]),
        ("1-4\tFog\n5-6\tRain\n", False, [(1, 4), (5, 6)]),
    ],
)
def test_csv_ranges_or_weights(text: str, weights: bool, rows: list[tuple[int, int]]) -> None:
    table = from_csv(text, "t", "T")
    assert table.weights is weights
    assert [(r.lo, r.hi) for r in table.rows] == rows


def test_foundry_html_is_read_as_text() -> None:
    assert plain_text("<p>One<br>two</p><p>@UUID[Actor.x]{Ogre} [[1d4+1]] &lt;x&gt;</p>") == (
        "One two Ogre {1d4+1} <x>"
    )


def test_a_file_that_is_no_rolltable_is_one_line(
    campaign: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.json"
    for text, message in [
        ('{"name": "x"}', "no Foundry RollTable"),
        ("[" * 100_000, "not JSON"),
        ('{"name": "x", "formula": "1d20 + @mod", "results": [{"range": [1, 20], "text": "a"}]}',
         "is no dice expression"),
    ]:  # fmt: skip
        bad.write_text(text)
        code, out, err = run(capsys, "tables", "import", str(bad), "--campaign", str(campaign))
        assert (code, out) == (1, "") and message in err and err.count("\n") == 1
    bad.write_bytes(b"1-3 caf\xe9\n")
    bad = bad.rename(tmp_path / "bad.txt")
    code, _, err = run(capsys, "tables", "import", str(bad), "--campaign", str(campaign))
    assert code == 1 and "bad.txt:1: not UTF-8 text" in err
    assert not os.path.exists(campaign / "tables")


# --- hostile files ----------------------------------------------------------------------------

_LINES = st.lists(
    st.one_of(
        st.sampled_from(["1-3 Fog", "4 Rain", "00 x", "96-00 y", "weight,text", "3,a", "1-2,b",
                         '"a,b",c', "@home", "{1d6}", "\x1b[2J", "\u202e", "", "#", "9" * 12]),
        st.text(max_size=12),
    ),
    max_size=8,
).map("\n".join)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(_LINES)
def test_any_text_or_csv_is_a_table_or_a_message(text: str) -> None:
    for read in (from_text, from_csv):
        try:
            short = read(text, "t", "T", ("merp-1",))
        except ImportProblem:
            continue
        written = short_toml(short)
        lib = build_library(load_tables(), [TableFile("t.toml", written, "campaign")])
        assert all(p.line >= 1 for p in lib.problems)  # a table, or a line to fix: no traceback


_JSON_VALUE = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=12,
)
_RESULT = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["text", "document", "pack", 0, 1, 2, None]),
        "text": st.one_of(st.text(max_size=20), _JSON_VALUE),
        "description": st.one_of(
            st.sampled_from(["<p>x</p>", "[[/r 1d6]]", "@UUID[a]{b}"]), _JSON_VALUE
        ),
        "name": _JSON_VALUE,
        "range": st.one_of(st.lists(st.integers(-2, 12), min_size=2, max_size=2), _JSON_VALUE),
        "weight": _JSON_VALUE,
        "documentCollection": st.one_of(st.just("RollTable"), _JSON_VALUE),
        "documentId": _JSON_VALUE,
        "documentUuid": st.one_of(st.just("RollTable.abc"), _JSON_VALUE),
    },
)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        _JSON_VALUE,
        st.fixed_dictionaries(
            {"results": st.lists(_RESULT, max_size=5)},
            optional={"name": _JSON_VALUE, "formula": st.one_of(st.just("1d6"), _JSON_VALUE),
                      "_id": _JSON_VALUE},
        ),
    )
)  # fmt: skip
def test_any_json_is_a_table_or_a_message(data: object) -> None:
    try:
        tables = foundry_tables(data)
        for table in tables:
            short, _ = from_foundry(table, "t", {}, ("merp-1",))
            lib = build_library(load_tables(), [TableFile("t.toml", short_toml(short), "campaign")])
            assert all(p.line >= 1 for p in lib.problems)
            to_foundry(short)
    except ImportProblem:
        pass
