"""Bundled data: tables, presets, madness kinds and UI strings, as TOML.

The package is always installed as plain files (``pip install``, editable or not), so a path
next to this module finds them; ``importlib.resources`` would cost ~7 ms of imports at every
start-up for the same answer.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path
from typing import Any

from gmscreen.code_cache import read_cache_file, write_cache_file

FOLDER = Path(__file__).parent


def data_path(*parts: str) -> Path:
    """A bundled file or folder, e.g. ``data_path("demo", "example")``."""
    return FOLDER.joinpath(*parts)


def read_toml(name: str, folder: Path = FOLDER) -> dict[str, Any]:
    """A bundled TOML file, parsed (raises ``OSError``, ``tomllib.TOMLDecodeError``).

    tomllib is pure Python: the English catalog alone takes ~5 ms to parse, at every start-up.
    The parsed value is kept beside the package's bytecode with the text it came from, and used
    only while the file still has exactly that text.
    """
    text = (folder / name).read_text(encoding="utf-8")
    cache = folder / "__pycache__" / f"{name}.{sys.implementation.cache_tag}.marshal"
    kept = read_cache_file(cache)
    if isinstance(kept, tuple) and len(kept) == 2 and kept[0] == text and isinstance(kept[1], dict):
        return kept[1]
    value = tomllib.loads(text)
    write_cache_file(cache, (text, value))
    return value
