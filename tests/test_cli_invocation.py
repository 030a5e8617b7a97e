"""The command line as a GM types it: the global options before or after a subcommand's name,
and the commands gmscreen prints to type next start as the GM started it (issue 30)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gmscreen.cli import SUBCOMMANDS, invoked_as, main, split_leading

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "campaigns" / "example"
HEADLESS_ENV = {**os.environ, "PATH": "/usr/bin:/bin"}  # no venv on PATH: gmscreen not found


@pytest.fixture
def campaigns(tmp_path: Path) -> Path:
    shutil.copytree(EXAMPLE, tmp_path / "campaigns" / "example")
    return tmp_path / "campaigns"


def test_new_takes_dir_before_its_name(campaigns: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--dir", str(campaigns), "new", "Young Kingdoms"]) == 0
    assert (campaigns / "young-kingdoms" / "campaign.toml").is_file()
    assert (
        main([f"--dir={campaigns}", "--lang", "es", "new", "Tanelorn", "--modules", "madness"]) == 0
    )
    assert "open it with: gmscreen tanelorn --dir" in capsys.readouterr().out


@pytest.mark.parametrize(
    "command",
    [["validate", "example"], ["sessions", "example"], ["export", "example", "--session", "all"]],
)
def test_before_or_after_the_same(
    campaigns: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    after = main([*command, "--dir", str(campaigns)]), capsys.readouterr()
    before = main(["--dir", str(campaigns), *command]), capsys.readouterr()
    assert after[0] == before[0] == 0 and after[1] == before[1]


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_every_subcommands_help_follows_leading_options(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    leading = ["--dir", "somewhere"] if name not in ("check", "roll", "tables") else []
    with pytest.raises(SystemExit) as done:
        main([*leading, "--help", *name.split()])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: gmscreen {name} ")


def test_an_option_a_subcommand_lacks_is_refused_by_name(
    campaigns: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--lang", "es", "--dir", str(campaigns), "sessions", "example"])
    assert done.value.code == 2
    assert "unrecognized arguments: --lang es" in capsys.readouterr().err


def test_the_leading_options_end_at_the_first_other_word() -> None:
    assert split_leading(["--dir", "C", "--take-over", "new", "--dir", "D"]) == (
        ["--dir", "C", "--take-over"],
        ["new", "--dir", "D"],
    )
    assert split_leading(["--lang=es", "camp"]) == (["--lang=es"], ["camp"])
    assert split_leading(["--dir"]) == (["--dir"], [])  # argparse then says it lacks a value
    assert split_leading(["--version", "new"]) == ([], ["--version", "new"])


def test_invoked_as_says_what_to_type() -> None:
    def found(name: str) -> str | None:
        return sys.executable if name == Path(sys.executable).name else None

    assert invoked_as(".venv/bin/gmscreen", [], found) == ".venv/bin/gmscreen"  # not on PATH
    assert invoked_as(sys.executable, [], found) == Path(sys.executable).name  # PATH finds it
    assert invoked_as("/opt/my tools/gmscreen", [], found) == "'/opt/my tools/gmscreen'"
    main_py = "/x/gmscreen/__main__.py"
    assert invoked_as(main_py, ["py", "-X", "dev", "-m", "gmscreen", "new"]) == (
        "py -X dev -m gmscreen"
    )
    assert invoked_as(main_py, ["python3", "-mgmscreen", "new", "x"]) == "python3 -mgmscreen"


@pytest.mark.parametrize("how", ["script", "module"])
def test_new_prints_the_command_as_it_was_run(tmp_path: Path, how: str) -> None:
    script = Path(sys.executable).with_name("gmscreen")
    if how == "script":
        command, cwd, typed = ["./gmscreen"], script.parent, "./gmscreen"
    else:
        command, cwd = [sys.executable, "-m", "gmscreen"], REPO
        typed = shlex.join(command)
    done = subprocess.run(
        [*command, "--dir", str(tmp_path), "new", "Elric"],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=HEADLESS_ENV,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == f"open it with: {typed} elric --dir {tmp_path}"
