"""The GM's own folders, where each system keeps them: campaigns, the config file, the state
folder (crash logs, ``serve``'s log).

Asked of platformdirs, always with ``appauthor=False``: by default it puts an author's folder
before the app's on Windows (``%LOCALAPPDATA%\\gmscreen\\gmscreen``), and gmscreen has no
author's folder. README ("Where campaigns live") gives each path on Linux, macOS and Windows;
``tests/test_user_folders.py`` checks them against platformdirs' class for each system, through
the ``system`` parameter below (the platform's own class by default).
"""

from __future__ import annotations

from pathlib import Path

from platformdirs import PlatformDirs
from platformdirs.api import PlatformDirsABC

APP = "gmscreen"


def _folders(system: type[PlatformDirsABC]) -> PlatformDirsABC:
    return system(APP, appauthor=False)


def campaigns_folder(system: type[PlatformDirsABC] = PlatformDirs) -> Path:
    """Where ``gmscreen new`` makes campaigns (``~/.local/share/gmscreen/campaigns`` on Linux)."""
    return Path(_folders(system).user_data_dir) / "campaigns"


def config_file(system: type[PlatformDirsABC] = PlatformDirs) -> Path:
    """The GM's config file (``~/.config/gmscreen/config.toml`` on Linux); beside it, the
    ``tables/`` folder of tables for every campaign."""
    return Path(_folders(system).user_config_dir) / "config.toml"


def state_folder(system: type[PlatformDirsABC] = PlatformDirs) -> Path:
    """Crash logs and ``serve``'s log (``~/.local/state/gmscreen`` on Linux)."""
    return Path(_folders(system).user_state_dir)
