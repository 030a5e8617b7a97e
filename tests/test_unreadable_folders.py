"""A sessions folder the system refuses to list is a one-line error, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from gmscreen.campaign.errors import CampaignFileError
from gmscreen.campaign.journal import list_sessions
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.store import sessions_dir
from gmscreen.cli import main
from gmscreen.cli.common import os_error_text


@pytest.fixture
def refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A campaign whose sessions folder cannot be listed (as root, chmod would not stop us)."""
    folder = create_campaign(tmp_path, "Imrryr")
    sessions = sessions_dir(folder)
    sessions.mkdir(exist_ok=True)
    listing = Path.iterdir

    def iterdir(self: Path):  # type: ignore[no-untyped-def]
        if self == sessions:
            raise PermissionError(13, "Permission denied", str(self))
        return listing(self)

    monkeypatch.setattr(Path, "iterdir", iterdir)
    return folder


def test_listing_sessions_says_which_folder(refused: Path) -> None:
    with pytest.raises(CampaignFileError, match="cannot read: Permission denied"):
        list_sessions(sessions_dir(refused))


@pytest.mark.parametrize("command", [[], ["replay"], ["sessions"]])
def test_the_commands_say_it_in_a_line(
    refused: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    status = main([*command, str(refused)])
    err = capsys.readouterr().err
    assert status in (1, 2)
    assert "Traceback" not in err
    assert "cannot read: Permission denied" in err
    assert len(err.strip().splitlines()) == 1


def test_an_os_error_without_a_file_name_still_reads() -> None:
    assert os_error_text(PermissionError(13, "Permission denied")) == "Permission denied"
    assert os_error_text(PermissionError(13, "Permission denied", "/x")) == "/x: Permission denied"
