"""Bundled data: tables, presets, madness kinds and UI strings, as TOML.

The package is always installed as plain files (``pip install``, editable or not), so a path
next to this module finds them; ``importlib.resources`` would cost ~7 ms of imports at every
start-up for the same answer.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

FOLDER = Path(__file__).parent


def data_path(*parts: str) -> Path:
    """A bundled file or folder, e.g. ``data_path("demo", "example")``."""
    return FOLDER.joinpath(*parts)


def read_toml(name: str, folder: Path = FOLDER) -> dict[str, Any]:
    """A bundled TOML file, parsed (raises ``OSError``, ``tomllib.TOMLDecodeError``).

    Read as it is, every time it is asked for, and nothing written: the callers keep what they
    need for the process (one parse of each file per run).
    """
    with open(folder / name, "rb") as file:
        return tomllib.load(file)
