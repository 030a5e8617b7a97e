"""`gmscreen check`, headless, as a GM or a script would call it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from gmscreen.cli import main

ARTINAR = [
    "check",
    "--pow",
    "13",
    "--chaos",
    "43",
    "--law",
    "47",
    "--balance",
    "32",
    "--madness",
    "14",
]


def test_artinar_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*ARTINAR, "--d100", "53", "--d6", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["outcome"] == "failure"
    (step,) = result["steps"]
    assert step == step | {
        "roll": 53,
        "target": "law",
        "target_value": 47,
        "fumble_from": 100,
        "outcome": "failure",
        "madness_after": 14,
    }
    assert result["kind"] == "paranoia"
    assert result["duration"] == {"amount": 14, "unit": "rounds"}
    assert result["madness_after_episode"] == 7


def test_rolls_beyond_the_list_use_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "check",
        "--pow",
        "10",
        "--law",
        "90",
        "--madness",
        "12",
        "--d100",
        "5",
        "--seed",
        "3",
        "--json",
    ]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == first
    assert first["steps"][0]["roll"] == 5 and first["steps"][0]["outcome"] == "success"
    assert len(first["steps"]) >= 2  # 11 is still due, so a seeded roll followed


def test_readable_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*ARTINAR, "--d100", "53", "--d6", "4"]) == 0
    out = capsys.readouterr().out
    assert "53 under Law 47" in out and "Phobia for 14 rounds" in out and "becomes 7" in out


def test_no_check_due(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--pow", "13", "--madness", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["outcome"] is None


@pytest.mark.parametrize(
    "extra",
    [
        ["--d100", "101"],
        ["--d100", "abc"],
        ["--d6", "7"],
        ["--fumble-base", "200"],
        ["--madness", "-3"],
        ["--frobnicate"],
    ],
)
def test_bad_values_exit_2_with_one_line(
    extra: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        code = main([*ARTINAR, *extra])
        raise SystemExit(code)
    assert info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("gmscreen check: error:") and "\n" not in err


def test_pow_zero_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--pow", "0", "--madness", "3"]) == 2
    assert "POW" in capsys.readouterr().err


def test_python_dash_m_runs_the_same_entry_point() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gmscreen", *ARTINAR, "--d100", "53", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["steps"][0]["roll"] == 53


def test_help_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    from gmscreen.cli import SUBCOMMANDS
    from gmscreen.cli.common import SUMMARIES

    assert set(SUMMARIES) == set(SUBCOMMANDS)
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "--demo" in out
    for name in SUBCOMMANDS:
        assert f"  {name} " in out
