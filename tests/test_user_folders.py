"""README's folders are the ones gmscreen asks platformdirs for, on each system: campaigns, the
config file and the state folder (``gmscreen.user_folders``, with ``appauthor=False``: without
it Windows gets ``%LOCALAPPDATA%\\gmscreen\\gmscreen``).

platformdirs' class for each system is used directly, so all three are checked wherever the
tests run, with the environment each reads set to stand-ins (a home folder, Windows' local
application data folder) that the comparison puts back as README writes them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from platformdirs.api import PlatformDirsABC
from platformdirs.macos import MacOS
from platformdirs.unix import Unix
from platformdirs.windows import Windows

from gmscreen import user_folders
from gmscreen.campaign.paths import user_campaigns_dir
from gmscreen.cli.crash import crash_folder
from gmscreen.user_config import default_config_path

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
LOCAL_APP_DATA = r"C:\Users\gm\AppData\Local"
SYSTEMS: dict[str, type[PlatformDirsABC]] = {"Linux": Unix, "macOS": MacOS, "Windows": Windows}
ROWS: dict[str, Callable[[type[PlatformDirsABC]], Path]] = {
    "your campaigns": user_folders.campaigns_folder,
    "your config file": user_folders.config_file,
    "the state folder": user_folders.state_folder,
}


def readme_table() -> dict[str, dict[str, str]]:
    """README's "Where campaigns live" table: row -> system -> the path it gives."""
    section = README[README.index("### Where campaigns live") :]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    table: dict[str, dict[str, str]] = {}
    for line in lines[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) != len(header):
            break  # the next table
        row = next((name for name in ROWS if cells[0].startswith(name)), None)
        if row is not None:
            table[row] = {
                system: re.sub(r"^`|`$", "", cell)
                for system, cell in zip(header, cells, strict=True)
            }
    return table


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A home folder of the test's own (HOME, and USERPROFILE, which Windows' Python reads for
    ~), no XDG variable, and Windows' local application data folder named."""
    folder = str(tmp_path / "home")
    monkeypatch.setenv("HOME", folder)
    monkeypatch.setenv("USERPROFILE", folder)
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("WIN_PD_OVERRIDE_LOCAL_APPDATA", LOCAL_APP_DATA)  # platformdirs >= 4.8
    return folder


def as_readme_writes(path: Path, system: str, home: str) -> str:
    """``path`` as README writes it: ``~`` and ``/`` on Linux and macOS, ``%LOCALAPPDATA%`` and
    ``\\`` on Windows (whatever separators the system running the test joined it with)."""
    text = str(path)
    if system == "Windows":
        return text.replace(LOCAL_APP_DATA, "%LOCALAPPDATA%", 1).replace("/", "\\")
    return text.replace(home, "~", 1).replace("\\", "/")


def test_readme_gives_every_folder_on_every_system() -> None:
    assert {row: sorted(paths) for row, paths in readme_table().items()} == {
        row: sorted(["what", *SYSTEMS]) for row in ROWS
    }


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_each_folder_is_where_readme_says(home: str, system: str) -> None:
    table = readme_table()
    for row, folder in ROWS.items():
        got = as_readme_writes(folder(SYSTEMS[system]), system, home)
        assert got == table[row][system], row


def test_gmscreen_asks_for_its_folders_there(home: str) -> None:
    # the campaigns list and `new`, the config file's readers, the crash and serve logs
    assert user_campaigns_dir() == user_folders.campaigns_folder()
    assert default_config_path() == user_folders.config_file()
    assert crash_folder() == user_folders.state_folder()
