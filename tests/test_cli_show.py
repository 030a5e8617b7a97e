"""``gmscreen show``: a campaign that is not there, or cannot be read, is one line, no screen."""

from __future__ import annotations

from pathlib import Path

import pytest

from gmscreen.campaign.paths import create_campaign
from gmscreen.cli import SUBCOMMANDS, main


def test_show_is_a_subcommand() -> None:
    assert SUBCOMMANDS["show"] == "gmscreen.cli.show_cmd"


def test_a_campaign_that_is_not_there(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "nowhere", "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gmscreen show: error: no campaign at nowhere") and err.count("\n") == 1


def test_a_checkpoint_that_cannot_be_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = create_campaign(tmp_path, "Broken")
    (folder / "campaign.toml").write_bytes(b'name = "Broken"\n\xff\n')
    assert main(["show", str(folder)]) == 1
    err = capsys.readouterr().err
    assert err == f"{folder / 'campaign.toml'}:2: not UTF-8 text\n"


def test_a_theme_textual_does_not_have(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["show", "c", "--theme", "neon"])
    assert info.value.code == 2 and "--theme: invalid choice: 'neon'" in capsys.readouterr().err
