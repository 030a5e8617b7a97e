"""Where the GM's own settings live, and the one of them the headless commands read.

``<user config dir>/gmscreen/config.toml`` holds ``language = "es"`` at the top and a ``[keys]``
table (read by :mod:`gmscreen.tui.config`). No Textual here: ``gmscreen export`` reads the
language too.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from gmscreen.i18n import language_of


def default_config_path() -> Path:
    from platformdirs import user_config_dir

    return Path(user_config_dir("gmscreen")) / "config.toml"


def read_config(path: Path | None) -> dict[str, Any] | str:
    """The file's tables, or a message saying why it cannot be read (None or no file: empty)."""
    if path is None or not path.is_file():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        return f"{path}: {error}"


def config_language(raw: dict[str, Any] | str) -> str | None:
    """The ``language`` of a read config (None when absent, unknown or the file is unreadable)."""
    if isinstance(raw, str):
        return None
    value = raw.get("language")
    return language_of(value) if isinstance(value, str) else None


def user_language(path: Path | None) -> str | None:
    return config_language(read_config(path))
