"""``gmscreen`` with no campaign: the list of campaigns found and the prompt that opens one; and
where ``gmscreen new`` puts campaigns (the user data folder, never ./campaigns by accident)."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from gmscreen.campaign.listing import find_campaigns
from gmscreen.campaign.model import Settings
from gmscreen.campaign.paths import (
    create_campaign,
    new_campaigns_dir,
    search_dirs,
    user_campaigns_dir,
)
from gmscreen.cli import main
from gmscreen.cli.app_command import app_for
from gmscreen.cli.pick_campaign import pick
from gmscreen.tui.app import GMScreenApp

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user data folder of the test's own, no $GMSCREEN_CAMPAIGNS, and a working folder
    without ./campaigns."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("GMSCREEN_CAMPAIGNS", raising=False)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return user_campaigns_dir()


def _campaigns(root: Path) -> Path:
    """``root`` with the two example campaigns and an empty one."""
    root.mkdir(parents=True, exist_ok=True)
    for name in ("example", "merp-party"):
        shutil.copytree(REPO / "campaigns" / name, root / name)
    create_campaign(root, "Empty Hall", Settings())
    return root


def test_the_list_says_name_last_played_and_sessions(tmp_path: Path) -> None:
    root = _campaigns(tmp_path / "c")
    (root / "not-a-campaign").mkdir()
    found = find_campaigns([root])
    assert [(c.name, c.last_played, c.sessions) for c in found] == [
        ("Example: Wardens of Bree", "2024-05-10", 1),
        ("Example: the Dreaming City", "2024-05-03", 1),
        ("Empty Hall", None, 0),
    ]


def test_a_broken_campaign_is_listed_with_why_and_cannot_be_picked(tmp_path: Path) -> None:
    root = _campaigns(tmp_path / "c")
    (root / "example" / "campaign.toml").write_text("name = [\n")
    out = io.StringIO()
    answer = pick([root], root, io.StringIO("3\n2\n"), out)
    lines = out.getvalue().splitlines()
    assert lines[4].startswith("    3  example ")  # its folder's name, as its own is unknown
    assert "cannot be opened: " in lines[4] and "campaign.toml:2: not valid TOML" in lines[4]
    assert "example cannot be opened: " in lines[5]  # picked: said again, and asked again
    assert not isinstance(answer, int) and answer.name == "Empty Hall"


def test_the_number_typed_opens_that_campaign(tmp_path: Path) -> None:
    root = _campaigns(tmp_path / "c")
    out = io.StringIO()
    answer = pick([root], root, io.StringIO("x\n99999999999999\n0\n2\n"), out)
    assert not isinstance(answer, int) and answer.folder == root / "example"
    assert out.getvalue().count("is not in the list: type a number from 1 to 3") == 3


@pytest.mark.parametrize(("typed", "status"), [("\n", 0), ("q\n", 0), ("", 1)])
def test_quitting_or_no_answer_opens_nothing(tmp_path: Path, typed: str, status: int) -> None:
    root = _campaigns(tmp_path / "c")
    assert pick([root], root, io.StringIO(typed), io.StringIO()) == status


def test_names_are_shown_literally(tmp_path: Path) -> None:
    root = _campaigns(tmp_path / "c")
    toml = root / "merp-party" / "campaign.toml"
    toml.write_text(toml.read_text().replace("Example: Wardens", "\\u001b[31mRed\\u202e", 1))
    out = io.StringIO()
    pick([root], root, io.StringIO("q\n"), out)
    assert "\x1b" not in out.getvalue() and "\u202e" not in out.getvalue()
    assert "␛[31mRed\\u202e" in out.getvalue()  # as gmscreen.text shows them


def test_with_no_campaigns_it_says_how_to_make_one(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "gmscreen new NAME" in out and "gmscreen --demo" in out and str(home) in out


def test_gmscreen_opens_the_campaign_picked(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _campaigns(home)
    monkeypatch.setattr("sys.stdin", io.StringIO("3\n"))
    app = app_for([])
    assert isinstance(app, GMScreenApp)
    try:
        assert "1  Example: Wardens of Bree" in capsys.readouterr().out
        assert app.title == "gmscreen: Empty Hall"
    finally:
        app.live.close()


def test_new_goes_to_the_user_data_folder_not_to_a_checkouts_campaigns(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("campaigns").mkdir()  # the working folder is a source checkout
    assert main(["new", "Elric's Party"]) == 0
    out = capsys.readouterr().out
    assert f"created {home / 'elric-s-party'}" in out
    assert "gmscreen elric-s-party" in out
    assert list(Path("campaigns").iterdir()) == []
    # and it opens by name from there, ./campaigns still searched first
    assert search_dirs() == (Path.cwd() / "campaigns", home)
    assert main(["validate", "elric-s-party"]) == 0


def test_new_dir_and_the_environment_still_decide(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert new_campaigns_dir() == home
    assert new_campaigns_dir(tmp_path / "x") == tmp_path / "x"
    monkeypatch.setenv("GMSCREEN_CAMPAIGNS", str(tmp_path / "env"))
    assert new_campaigns_dir() == tmp_path / "env"
    assert search_dirs() == (tmp_path / "env",)
