"""``gmscreen roll`` and ``gmscreen tables``."""

from __future__ import annotations

import json

import pytest

from gmscreen.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_roll_json_has_the_documented_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys, "roll", "merp-1", "--d100", "96", "--choose", "1", "--seed", "5", "--json"
    )
    assert code == 0
    data = json.loads(out)
    for key in ("table", "roll", "modifier", "range", "text", "markers", "subrolls"):
        assert key in data
    assert (data["table"], data["roll"], data["range"], data["markers"]) == (
        "merp-1",
        96,
        [96, 96],
        ["*", "(+1)"],
    )
    assert data["done"] is True
    first = data["subrolls"][0]
    assert (first["table"], first["modifier"]) == ("merp-1a", 1)
    assert [s["table"] for s in data["subrolls"]] == ["merp-1a", "merp-1b", "merp-1-96-return"]


def test_roll_json_shows_a_pending_choice(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "roll", "merp-1", "--d100", "100", "--json")
    data = json.loads(out)
    assert code == 0 and data["done"] is False
    assert [c["key"] for c in data["choices"]] == ["armor", "shield", "own_idea"]


def test_the_same_seed_gives_the_same_roll(capsys: pytest.CaptureFixture[str]) -> None:
    first = _run(capsys, "roll", "merp-2", "--seed", "42", "--json")[1]
    second = _run(capsys, "roll", "merp-2", "--seed", "42", "--json")[1]
    assert first == second


def test_d10_tables_take_the_d10_value(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "roll", "merp-2a", "--d100", "10", "--seed", "1", "--json")
    data = json.loads(out)
    assert code == 0 and [s["table"] for s in data["subrolls"]] == ["merp-2b", "merp-2c"]


def test_pick_takes_a_row_number(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "roll", "merp-1", "--pick", "2", "--seed", "1", "--json")
    data = json.loads(out)
    assert code == 0 and (data["range"], data["source"]) == ([2, 3], "picked")


def test_text_output_is_an_indented_tree(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "roll", "merp-2", "--d100", "91", "--seed", "1")
    lines = out.splitlines()
    assert code == 0
    assert lines[0].startswith("merp-2 1d100: 91 (typed) [91] #: Multiplier")
    assert any(line.startswith("  merp-2a 1d10") for line in lines)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["roll", "merp-1", "--d100", "0"], "--d100 0 is not on the 1d100"),
        (["roll", "merp-1", "--d100", "101"], "use 1 to 100"),
        (["roll", "merp-1a", "--d100", "11"], "use 1 to 10"),
        (["roll", "merp-9"], "no table 'merp-9' (see gmscreen tables)"),
        (["roll", "merp-1", "--pick", "34"], "merp-1 has rows 1 to 33"),
        (["roll", "merp-1", "--d100", "14", "--choose", "3"], "pick 1 to 2"),
        (["roll", "merp-1", "--d100", "2", "--choose", "1"], "asked for 0 choice"),
        (["roll", "merp-1", "--d100", "2", "--pick", "1"], "not allowed with"),
        (["roll", "merp-1", "--d100", "x"], "--d100: 'x' is not a whole number"),
        (["roll", "merp-1", "--d100", "²"], "--d100: '²' is not a whole number"),
        (["roll", "merp-1", "--seed", "٣"], "--seed: '٣' is not a number"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = _run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert message in err and err.count("\n") == 1


def test_tables_lists_the_fourteen_tables(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "tables", "--json")
    data = json.loads(out)
    assert code == 0
    assert [t["id"] for t in data][:2] == ["merp-1", "merp-1a"] and len(data) == 14
    assert {t["die"] for t in data} == {"1d100", "1d10"}
    code, out, _ = _run(capsys, "tables")
    lines = out.splitlines()
    # the bundled group, then where the GM's own shared tables go (none yet)
    assert code == 0 and lines[0] == "MERP special items (bundled):" and len(lines) == 16
    assert (
        lines[-1].startswith("Your tables, shared by every campaign (") and "none yet" in lines[-1]
    )
    code, out, _ = _run(capsys, "tables", "--all")
    assert len(out.splitlines()) > 16


def test_tables_shows_rows_of_one_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "tables", "merp-1a", "--json")
    data = json.loads(out)
    assert code == 0 and [r["range"] for r in data["rows"]] == [[1, 1], [2, 4], [5, 8], [9, 11]]
    code, out, _ = _run(capsys, "tables", "merp-1f", "--lang", "es")
    assert "Tabla 1f" in out.splitlines()[0]
