"""The GM's own tables through the real entry point: `roll`, `tables`, `validate` (#28)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gmscreen.cli import main

RUMOURS = """\
[[tables]]
id = "rumours"
title = "Tavern rumours"
die = "1d6"
rows = [
  [1, 2, "The duke is ill; a healer is sought."],
  [3, "A caravan is {1d4+1} days late."],
  [4, 6, "A stranger asks after you. Roll on @strangers, then @merp-1c."],
]
"""
STRANGERS = """\
[[tables]]
id = "strangers"
title = {en = "Strangers", es = "Extraños"}
die = "2d6"
rows = [
  [2, 7, "A pilgrim of {1d20+10} winters, carrying {2d4} candles."],
  [8, 12, "A tinker. @omens"],
]
"""
OMENS = """\
[[tables]]
id = "omens"
title = "Omens"
weights = true
players = true
rows = [
  [3, "Crows circle the inn."],
  [1, "The well runs red."],
]
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    """A new campaign with three short-form tables: one rolls another (which rolls the third)
    and a bundled MERP table, one has dice in its text, one is weighted."""
    assert main(["new", "Harrow", "--dir", str(tmp_path)]) == 0
    folder = tmp_path / "harrow"
    (folder / "tables").mkdir()
    (folder / "tables" / "rumours.toml").write_text(RUMOURS, encoding="utf-8")
    (folder / "tables" / "strangers.toml").write_text(STRANGERS, encoding="utf-8")
    (folder / "tables" / "omens.toml").write_text(OMENS, encoding="utf-8")
    return folder


def test_roll_json_shows_every_nested_roll(
    campaign: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 4 on rumours: a stranger (2d6: 8-12, a tinker) who brings an omen; then merp-1c
    for seed in range(40):
        code, out, err = run(
            capsys, "roll", "rumours", "--campaign", str(campaign), "--d100", "5",
            "--seed", str(seed), "--json",
        )  # fmt: skip
        assert (code, err) == (0, "")
        tree = json.loads(out)
        if tree["subrolls"][0]["total"] >= 8:
            break
    else:
        pytest.fail("no seed gave a tinker")
    assert tree["done"] is True
    assert (tree["table"], tree["total"], tree["source"], tree["range"]) == (
        "rumours", 5, "typed", [4, 6],
    )  # fmt: skip
    stranger, merp = tree["subrolls"]
    assert (stranger["table"], stranger["die"], len(stranger["faces"])) == ("strangers", "2d6", 2)
    assert sum(stranger["faces"]) == stranger["total"]
    assert [s["table"] for s in stranger["subrolls"]] == ["omens"]
    omen = stranger["subrolls"][0]
    assert omen["die"] == "1d4" and omen["text"] in ("Crows circle the inn.", "The well runs red.")
    assert merp["table"] == "merp-1c" and merp["text"]
    # the dice in a text: rolled, shown, and every die recorded
    code, out, _ = run(
        capsys, "roll", "strangers", "--campaign", str(campaign), "--d100", "4",
        "--seed", "7", "--json",
    )  # fmt: skip
    pilgrim = json.loads(out)
    assert sorted(pilgrim["dice"]) == ["1d20+10", "2d4"]
    age, candles = pilgrim["dice"]["1d20+10"], pilgrim["dice"]["2d4"]
    assert age["total"] == age["dice"][0] + 10 and len(candles["dice"]) == 2
    assert pilgrim["text"] == (
        f"A pilgrim of {age['total']} winters, carrying {candles['total']} candles."
    )
    assert pilgrim["text_es"] == pilgrim["text"]


def test_roll_text_is_the_indented_tree(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "roll", "rumours", "--campaign", str(campaign), "--d100", "6", "--seed", "2"
    )
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == (
        "rumours 1d6: 6 (typed) [4-6]: A stranger asks after you. Roll on @strangers, then @merp-1c."
    )
    assert lines[1].startswith("  strangers 2d6: ")
    assert lines[-1].startswith("  merp-1c 1d10: ")


def test_tables_lists_each_group(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tables", "--campaign", str(campaign))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "MERP special items (bundled):"
    assert lines[-4] == f"The campaign's tables ({campaign / 'tables'}):"
    assert [line.split()[0] for line in lines[-3:]] == ["omens", "rumours", "strangers"]
    code, out, _ = run(capsys, "tables", "--campaign", str(campaign), "--json")
    listed = {t["id"]: t for t in json.loads(out)}
    assert listed["omens"]["die"] == "1d4" and listed["omens"]["players"] is True
    assert listed["rumours"]["file"] == str(campaign / "tables" / "rumours.toml")
    assert (listed["rumours"]["line"], listed["rumours"]["group"]) == (1, "campaign")
    assert listed["merp-1"]["group"] == "bundled"


def test_user_wide_tables_serve_every_campaign(
    campaign: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from gmscreen.user_config import default_config_path

    shared = default_config_path().parent / "tables"
    shared.mkdir(parents=True)
    (shared / "names.toml").write_text(
        '[[tables]]\nid = "names"\ntitle = "Names"\nweights = true\n'
        'rows = [[1, "Ysolde"], [1, "Brann"]]\n',
        encoding="utf-8",
    )
    (shared / "omens.toml").write_text(OMENS.replace("Crows", "Bats"), encoding="utf-8")
    code, out, err = run(capsys, "roll", "names", "--seed", "1", "--json")
    assert code == 0 and json.loads(out)["text"] in ("Ysolde", "Brann")
    code, out, err = run(capsys, "tables", "--campaign", str(campaign))
    assert code == 0
    assert f"Your tables, shared by every campaign ({shared}):" in out
    # the campaign's omens replaces the shared one, and says so
    assert "omens.toml:1: table omens replaces the user-wide one" in err
    code, out, _ = run(capsys, "tables", "omens", "--campaign", str(campaign), "--json")
    assert "Crows" in json.loads(out)["rows"][0]["text"]


BROKEN = {
    "gap": (
        'die = "1d6"\nrows = [\n  [1, 2, "a"],\n  [4, 6, "b"],\n]\n',
        8,
        "gap: no row covers 3",
    ),
    "overlap": (
        'die = "1d6"\nrows = [\n  [1, 3, "a"],\n  [3, 6, "b"],\n]\n',
        8,
        "row 3-6 overlaps row 1-3 on 3",
    ),
    "unreachable": (
        'die = "2d6"\nrows = [\n  [1, 6, "a"],\n  [7, 12, "b"],\n]\n',
        7,
        "row 1-6: 2d6 never rolls 1 (2d6 gives 2-12)",
    ),
    "unknown": ('die = "1d2"\nrows = [\n  [1, "a"],\n  [2, "Roll @nowhere."],\n]\n', 8, "@nowhere"),
    "cycle": (
        'die = "1d2"\nrows = [\n  [1, "a"],\n  [2, "@cycle-b"],\n]\n',
        8,
        "@cycle → @cycle-b → @cycle: tables that roll each other never end",
    ),
    "bad-die": ('die = "1d6x"\nrows = [\n  [1, 6, "a"],\n]\n', 5, "die: '1d6x' is not a dice"),
}


@pytest.mark.parametrize("kind", list(BROKEN))
def test_validate_says_where_each_broken_table_is(
    campaign: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    body, line, message = BROKEN[kind]
    text = f'# a {kind}\n[[tables]]\nid = "{kind}"\ntitle = "Broken"\n{body}'
    (campaign / "tables" / "broken.toml").write_text(text, encoding="utf-8")
    if kind == "cycle":
        (campaign / "tables" / "cycle.toml").write_text(
            '[[tables]]\nid = "cycle-b"\ntitle = "B"\ndie = "1d2"\nrows = [[1, 2, "@cycle"]]\n',
            encoding="utf-8",
        )
    code, out, _ = run(capsys, "validate", str(campaign))
    assert code == 1
    problem = f"{campaign / 'tables' / 'broken.toml'}:{line}: table {kind}: "
    said = [row for row in out.splitlines() if row.startswith(problem)]
    assert len(said) == 1 and message in said[0], out
    # the other tables still load, and are listed
    assert f"{campaign / 'tables'}: 3 tables load: omens, rumours, strangers" in out
    code, out, _ = run(capsys, "roll", "rumours", "--campaign", str(campaign), "--seed", "1")
    assert code == 0
    code, out, err = run(capsys, "roll", kind, "--campaign", str(campaign))
    assert code == 1 and err.startswith(problem)


def test_a_table_that_rolls_a_broken_one_is_left_out_too(
    campaign: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (campaign / "tables" / "omens.toml").write_text(OMENS.replace("[1, ", "[0, "), encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(campaign))
    omens = campaign / "tables" / "omens.toml"
    strangers = campaign / "tables" / "strangers.toml"
    rumours = campaign / "tables" / "rumours.toml"
    assert code == 1
    assert f"{omens}:8: table omens: row 2: a weight is 1 or more, not 0" in out
    assert f"{strangers}:7: table strangers: rolls @omens, which did not load" in out
    assert f"{rumours}:8: table rumours: rolls @strangers, which did not load" in out


def test_a_valid_campaign_counts_its_tables(
    campaign: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "validate", str(campaign))
    assert code == 0
    assert (
        out.splitlines()[-1] == f"{campaign}: valid (0 characters, 0 sessions, 0 events, 3 tables)"
    )


def test_an_unknown_table_is_one_line(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "roll", "rumors", "--campaign", str(campaign))
    assert (code, out) == (2, "")
    assert err == "gmscreen roll: error: no table 'rumors' (see gmscreen tables --campaign C)\n"
    code, _, err = run(capsys, "roll", "rumours", "--campaign", str(campaign.parent / "nope"))
    assert code == 2 and "no campaign at" in err
