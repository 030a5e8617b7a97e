"""The user's UI settings: ``<user config dir>/gmscreen/config.toml``.

``language = "es"`` at the top (see :mod:`gmscreen.user_config`) and the ``[keys]`` table:
binding id -> keys (``gain = "G"``, ``next_round = "full_stop,n"``). Unknown ids and bad values
are reported, never fatal. Tests pass an explicit path or None so that they never read the real file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from gmscreen.i18n import language_of
from gmscreen.tui.commands import COMMANDS
from gmscreen.user_config import default_config_path, read_config

__all__ = ["UIConfig", "default_config_path", "load_config"]


@dataclass(frozen=True, slots=True)
class UIConfig:
    """The user's UI settings as read: key bindings by binding id, the language, and problems."""

    keys: dict[str, str] = field(default_factory=dict)
    problems: tuple[
        str, ...
    ] = ()  # raw facts for the catalog: "unknown:<id>", "bad:<id>", "language:<value>", "file:<msg>"
    language: str | None = None  # None: not chosen in the config


def load_config(path: Path | None) -> UIConfig:
    """Read ``path`` (None or a missing file: the defaults)."""
    raw = read_config(path)
    if isinstance(raw, str):
        return UIConfig(problems=(f"file:{raw}",))
    problems: list[str] = []
    language = raw.get("language")
    if language is not None and (not isinstance(language, str) or not language_of(language)):
        problems.append(f"language:{language}")
        language = None
    known = {c.id for c in COMMANDS}
    keys: dict[str, str] = {}
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
    return UIConfig(keys=keys, problems=tuple(problems), language=language_of(language))
