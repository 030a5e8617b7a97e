"""``gmscreen replay``: bad names fail in one line with exit 2, before Textual is loaded."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gmscreen.campaign.paths import create_campaign
from gmscreen.cli import SUBCOMMANDS, main

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "campaigns" / "example"


def test_replay_is_a_subcommand() -> None:
    assert SUBCOMMANDS["replay"] == "gmscreen.cli.replay_cmd"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nowhere"], "no campaign at nowhere"),
        ([str(EXAMPLE), "1999-01-01-1"], "no session '1999-01-01-1': choose one of 2024-05-03-1"),
    ],
)
def test_bad_names_say_so_in_one_line(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", *args, "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_missing_campaign_argument(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["replay"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "required: campaign" in err and err.count("\n") == 1


def test_a_campaign_without_sessions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = create_campaign(tmp_path, "Empty")
    assert main(["replay", str(folder)]) == 2
    assert capsys.readouterr().err == "gmscreen replay: error: this campaign has no sessions yet\n"


def test_a_broken_journal_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "example"
    shutil.copytree(EXAMPLE, folder)
    journal = folder / "sessions" / "2024-05-03-1.jsonl"
    lines = journal.read_bytes().split(b"\n")
    journal.write_bytes(b"\n".join([lines[0], b"{not json", *lines[1:]]))
    assert main(["replay", str(folder)]) == 1
    assert "2024-05-03-1.jsonl:2" in capsys.readouterr().err


def test_replay_of_an_unreadable_folder_is_one_line(tmp_path: Path) -> None:
    """An OSError while opening (here: the campaign path is a file) is a message, not a
    traceback."""
    path = tmp_path / "not-a-folder"
    path.write_text("x", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "gmscreen", "replay", str(path)], capture_output=True, text=True
    )
    assert done.returncode in (1, 2)
    assert "Traceback" not in done.stderr and done.stderr.strip()
