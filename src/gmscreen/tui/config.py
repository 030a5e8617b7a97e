"""The user's UI settings: ``<user config dir>/gmscreen/config.toml``.

Only the ``[keys]`` table is read here: binding id -> keys (``gain = "G"``,
``next_round = "full_stop,n"``). Unknown ids and bad values are reported, never fatal.
Tests pass an explicit path or None so that they never read the real file.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from gmscreen.tui.commands import COMMANDS


@dataclass(frozen=True, slots=True)
class UIConfig:
    keys: dict[str, str] = field(default_factory=dict)
    problems: tuple[
        str, ...
    ] = ()  # raw facts for the catalog: "unknown:<id>", "bad:<id>", "file:<msg>"


def default_config_path() -> Path:
    from platformdirs import user_config_dir

    return Path(user_config_dir("gmscreen")) / "config.toml"


def load_config(path: Path | None) -> UIConfig:
    """Read ``path`` (None or a missing file: the defaults)."""
    if path is None or not path.is_file():
        return UIConfig()
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        return UIConfig(problems=(f"file:{path}: {error}",))
    known = {c.id for c in COMMANDS}
    keys: dict[str, str] = {}
    problems: list[str] = []
    table = raw.get("keys", {})
    if not isinstance(table, dict):
        return UIConfig(problems=(f"file:{path}: [keys] must be a table",))
    for binding_id, value in table.items():
        if binding_id not in known:
            problems.append(f"unknown:{binding_id}")
        elif not isinstance(value, str) or not value.strip():
            problems.append(f"bad:{binding_id}")
        else:
            keys[binding_id] = value
    return UIConfig(keys=keys, problems=tuple(problems))
