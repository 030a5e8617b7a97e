"""The repository's example campaigns are never written by a run: opened from a clone, by name,
by path or from the list, they open as throwaway copies (the title and the header say so), the
list keeps them apart from the GM's own campaigns, and the headless commands write nothing
into them (issue 29, item 3).

Each test works on a copy of the repository's layout (``pyproject.toml`` beside
``campaigns/``), so a regression fails here instead of dirtying the checkout.
"""

from __future__ import annotations

import asyncio
import io
import shutil
from pathlib import Path

import pytest
from tests.tui.conftest import SIZE
from textual.widgets import Static

from gmscreen.campaign.examples import is_example
from gmscreen.campaign.model import Settings
from gmscreen.campaign.paths import create_campaign, search_dirs, user_campaigns_dir
from gmscreen.cli import main
from gmscreen.cli.app_command import app_for
from gmscreen.cli.pick_campaign import pick
from gmscreen.tui.app import GMScreenApp

REPO = Path(__file__).resolve().parents[1]
COPY_TITLE = "gmscreen: Example: the Dreaming City (example copy, not saved)"


@pytest.fixture
def clone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The repository's layout (its pyproject.toml and example campaigns) as the working
    folder, and a user data folder of the test's own."""
    root = tmp_path / "gmscreen"
    root.mkdir()
    shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    for name in ("example", "merp-party"):
        shutil.copytree(REPO / "campaigns" / name, root / "campaigns" / name)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("GMSCREEN_CAMPAIGNS", raising=False)
    monkeypatch.chdir(root)
    return root


def tree(root: Path) -> dict[str, bytes | None]:
    """Every file (hidden ones too) and folder under ``root`` with its bytes."""
    return {
        str(p.relative_to(root)): p.read_bytes() if p.is_file() else None
        for p in sorted(root.rglob("*"))
    }


def play_a_round_and_quit(app: GMScreenApp) -> str:
    """``.`` then ``q`` in the app, as a GM would; the header line it showed after the round."""
    shown: list[str] = []

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("full_stop")
            await pilot.pause()
            shown.append(str(app.screen.query_one("#header", Static).render()))
            await pilot.press("q")

    asyncio.run(run())
    return shown[0]


@pytest.mark.parametrize("named", ["campaigns/example", "example", "absolute"])
def test_an_example_opens_as_a_copy_and_playing_it_leaves_the_clone_as_it_was(
    clone: Path, named: str
) -> None:
    before = tree(clone)
    app = app_for([str(clone / "campaigns" / "example") if named == "absolute" else named])
    assert isinstance(app, GMScreenApp)
    assert app.title == COPY_TITLE
    copy = app.live.folder
    assert not copy.is_relative_to(clone)
    clock = app.live.state.clock
    header = play_a_round_and_quit(app)
    assert app.live.state.clock > clock  # the round was played, in the copy
    assert "A COPY: nothing done here is saved" in header
    assert tree(clone) == before  # as `git status` would say: nothing changed, nothing new


def test_the_gms_own_campaign_opens_in_place_with_no_copy_mark(clone: Path) -> None:
    folder = create_campaign(user_campaigns_dir(), "The Dreaming City", Settings())
    app = app_for(["The Dreaming City"])
    assert isinstance(app, GMScreenApp)
    assert app.live.folder == folder.resolve() and app.title == "gmscreen: The Dreaming City"
    assert "A COPY" not in play_a_round_and_quit(app)
    assert len(list((folder / "sessions").glob("*.jsonl"))) == 1  # written where it lives


def test_the_list_shows_the_gms_campaigns_apart_from_the_examples(
    clone: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    create_campaign(user_campaigns_dir(), "The Dreaming City", Settings())
    out = io.StringIO()
    picked = pick(search_dirs(), user_campaigns_dir(), io.StringIO("3\n"), out)
    lines = out.getvalue().splitlines()
    assert lines[0] == f"Campaigns in {user_campaigns_dir()}:"
    assert lines[2].startswith("    1  The Dreaming City ")
    assert lines[3] == (
        f"Examples in {clone / 'campaigns'} (each opens as a throwaway copy: nothing is saved):"
    )
    assert lines[5].startswith("    2  Example: Wardens of Bree ")
    assert lines[6].startswith("    3  Example: the Dreaming City ")
    assert (
        not isinstance(picked, int)
        and picked.example
        and not picked.folder.is_relative_to(user_campaigns_dir())
    )
    # and the one picked from the list opens as a copy too
    before = tree(clone)
    monkeypatch.setattr("sys.stdin", io.StringIO("3\n"))
    app = app_for([])
    assert isinstance(app, GMScreenApp) and app.title == COPY_TITLE
    play_a_round_and_quit(app)
    assert tree(clone) == before


@pytest.mark.parametrize(
    "command", [["sessions"], ["export"], ["export", "--players"], ["validate"]], ids=" ".join
)
def test_headless_commands_write_nothing_into_an_example(
    clone: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    before = tree(clone)
    assert main([command[0], "example", *command[1:]]) == 0
    assert capsys.readouterr().out  # it did its work (a list, a recap, "valid")
    assert tree(clone) == before  # not even the session index, which is only a cache


def test_new_and_tables_import_refuse_to_write_into_the_examples(
    clone: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = tree(clone)
    assert main(["new", "Mine", "--dir", "campaigns"]) == 2
    assert "holds the repository's example campaigns" in capsys.readouterr().err
    table = clone.parent / "omens.txt"
    table.write_text("A crow\nA black dog\n", encoding="utf-8")
    assert main(["tables", "import", str(table), "--campaign", "example"]) == 2
    assert "one of the repository's examples" in capsys.readouterr().err
    assert tree(clone) == before


def test_an_example_copied_out_of_the_repository_is_the_gms_own(clone: Path) -> None:
    mine = clone.parent / "mine" / "example"
    shutil.copytree(clone / "campaigns" / "example", mine)
    assert is_example(clone / "campaigns" / "example")
    assert not is_example(mine)
    app = app_for([str(mine)])
    assert isinstance(app, GMScreenApp)
    try:
        assert app.live.folder == mine.resolve() and "copy" not in app.title
    finally:
        app.live.close()


@pytest.mark.parametrize(
    "pyproject",
    [
        None,
        '[project]\nname = "another-app"\n',
        "[project\nname = 'gmscreen'",  # not TOML
        b"\xff\xfe not UTF-8",
        '[project]\nname = "gmscreen"\n' + "#" * (2 * 1024 * 1024),  # past the bound
        '[tool.gmscreen]\nname = "gmscreen"\n',
    ],
    ids=["none", "another project", "not TOML", "not UTF-8", "too large", "no [project]"],
)
def test_a_campaigns_folder_is_the_repositorys_only_beside_gmscreens_pyproject(
    tmp_path: Path, pyproject: str | bytes | None
) -> None:
    folder = create_campaign(tmp_path / "campaigns", "Mine", Settings())
    if isinstance(pyproject, str):
        (tmp_path / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    elif pyproject is not None:
        (tmp_path / "pyproject.toml").write_bytes(pyproject)
    assert not is_example(folder)
