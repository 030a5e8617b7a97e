"""The GM's table files as files (#28): found, read bounded and never through a link."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.systems import make_fifo

from gmscreen.campaign import gm_tables
from gmscreen.campaign.gm_tables import load_gm_tables

GOOD = '[[tables]]\nid = "{id}"\ntitle = "T"\ndie = "1d2"\nrows = [[1, 2, "x"]]\n'


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    campaign = tmp_path / "c"
    (campaign / "tables").mkdir(parents=True)
    (campaign / "tables" / "good.toml").write_text(GOOD.format(id="good"))
    return campaign


def said(campaign: Path, user: Path | None = None) -> list[str]:
    loaded = load_gm_tables(campaign, user)
    assert "good" in loaded.library.tables  # the others load whatever happens to one file
    return [str(p) for p in loaded.problems]


@pytest.mark.posix("links and FIFOs as POSIX makes them")
def test_a_linked_file_and_a_fifo_are_refused(folder: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.toml"
    secret.write_text(GOOD.format(id="secret"))
    (folder / "tables" / "link.toml").symlink_to(secret)
    make_fifo(folder / "tables" / "pipe.toml")  # a read would hang: never opened blocking
    assert said(folder) == [
        f"{folder / 'tables' / 'link.toml'}: is a symbolic link; gmscreen neither reads nor "
        "writes through links: remove it",
        f"{folder / 'tables' / 'pipe.toml'}: is a FIFO (named pipe), not a regular file: remove it",
    ]


@pytest.mark.posix("links as POSIX makes them")
def test_a_linked_folder_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "t.toml").write_text(GOOD.format(id="t"))
    campaign = tmp_path / "c"
    campaign.mkdir()
    (campaign / "tables").symlink_to(elsewhere)
    loaded = load_gm_tables(campaign, None)
    assert "t" not in loaded.library.tables
    assert "is a symbolic link" in str(loaded.problems[0])


def test_big_and_undecodable_files_are_problems(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gm_tables, "MAX_TABLE_FILE", 1024)
    (folder / "tables" / "big.toml").write_text("# " + "x" * 2000 + "\n")
    (folder / "tables" / "latin1.toml").write_bytes(b"# one\n# caf\xe9\n")
    big, latin1 = said(folder)
    assert big.startswith(f"{folder / 'tables' / 'big.toml'}: is larger than gmscreen reads")
    assert (
        latin1 == f"{folder / 'tables' / 'latin1.toml'}:2: not UTF-8 text: save the file as UTF-8"
    )


@pytest.mark.posix("a link to a path that cannot exist")
def test_hidden_files_and_others_are_not_tables(folder: Path) -> None:
    (folder / "tables" / ".#good.toml").symlink_to("/nowhere")  # an editor's lock file
    (folder / "tables" / "notes.txt").write_text("not a table")
    (folder / "tables" / "sub.toml").mkdir()
    assert said(folder) == [
        f"{folder / 'tables' / 'sub.toml'}: is a folder, not a regular file: remove it"
    ]


def test_the_user_folder_comes_first_and_the_campaign_replaces(
    folder: Path, tmp_path: Path
) -> None:
    user = tmp_path / "config" / "tables"
    user.mkdir(parents=True)
    (user / "good.toml").write_text(GOOD.format(id="good").replace('"x"', '"shared"'))
    (user / "mine.toml").write_text(GOOD.format(id="mine"))
    loaded = load_gm_tables(folder, user)
    assert loaded.library.entries["mine"].group == "user"
    assert loaded.library.entries["good"].group == "campaign"
    assert loaded.library.notes == (
        f"{folder / 'tables' / 'good.toml'}:1: table good replaces the user-wide one "
        f"({user / 'good.toml'}:1)",
    )
    assert loaded.folders == (("user", user), ("campaign", folder / "tables"))


def test_only_so_many_files_are_read(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gm_tables, "MAX_TABLE_FILES", 3)
    for n in range(5):
        (folder / "tables" / f"t{n}.toml").write_text(GOOD.format(id=f"t{n}"))
    assert said(folder) == [f"{folder / 'tables'}: holds 6 table files; only the first 3 are read"]
