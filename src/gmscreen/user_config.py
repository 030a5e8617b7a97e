"""Where the GM's own settings live, and how the file is read.

``<user config folder>/config.toml`` (:mod:`gmscreen.user_folders`) holds ``language = "es"`` at the top and a ``[keys]``
table (read by :mod:`gmscreen.tui.config`). It is read as a campaign file is
(:func:`gmscreen.campaign.toml_read.load_toml`): a regular file (a link to one is fine: dotfile
managers make them) of at most :data:`CONFIG_LIMIT` bytes, and whatever it holds (bad syntax,
an integer of thousands of digits, arrays nested hundreds deep) is one message, never a
traceback. No Textual here.

The headless commands (``gmscreen export``) read only the keys above the file's first table:
the language. They never read the key map, so nothing in ``[keys]`` can change what they do.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

from gmscreen.campaign.errors import CampaignFileError
from gmscreen.campaign.toml_read import load_toml
from gmscreen.i18n import language_of
from gmscreen.user_folders import config_file

# A config file is a few lines; a quarter of a megabyte is far past any, and cheap to read.
CONFIG_LIMIT = 256 * 1024

# The first table's header, ``[keys]`` or ``[[x]]``, at the start of a line: where the keys of
# the top level end (TOML puts them before any table).
_FIRST_TABLE = re.compile(r"^[ \t]*\[", re.MULTILINE)


class ConfigUnreadable(Exception):
    """The file cannot be read as text; ``str()`` says why, naming it (and the line)."""


def default_config_path() -> Path:
    return config_file()


def read_config(path: Path | None) -> dict[str, Any] | str:
    """The file's tables, or a message saying why it cannot be read (None or no file: empty)."""
    try:
        return _load(_config_text(path), path)
    except ConfigUnreadable as error:
        return str(error)


def read_top_level(path: Path | None) -> dict[str, Any]:
    """The keys above the file's first table (empty when there is no file, or they cannot be
    read): what the headless commands need, without reading the key map below."""
    try:
        text = _config_text(path)
        first = _FIRST_TABLE.search(text)
        return _load(text[: first.start()] if first else text, path)
    except ConfigUnreadable:
        return {}


def config_language(raw: dict[str, Any] | str) -> str | None:
    """The ``language`` of a read config (None when absent, unknown or the file is unreadable)."""
    if isinstance(raw, str):
        return None
    value = raw.get("language")
    return language_of(value) if isinstance(value, str) else None


def user_language(path: Path | None) -> str | None:
    return config_language(read_top_level(path))


def _load(text: str, path: Path | None) -> dict[str, Any]:
    if not text or path is None:
        return {}
    try:
        return load_toml(text, path)
    except CampaignFileError as error:
        raise ConfigUnreadable("; ".join(str(p) for p in error.problems)) from None


def _config_text(path: Path | None) -> str:
    """The file's text ("" for None or no file); raises :class:`ConfigUnreadable`."""
    if path is None:
        return ""
    # Non-blocking: a FIFO put where the file should be must not hang the screen's start.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return ""
    except OSError as error:
        raise ConfigUnreadable(f"{path}: {error.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ConfigUnreadable(f"{path}: not a file")
        data = b""
        while len(data) <= CONFIG_LIMIT:  # the size said may change while reading: bounded both
            chunk = os.read(fd, CONFIG_LIMIT + 1 - len(data))
            if not chunk:
                break
            data += chunk
    except OSError as error:
        raise ConfigUnreadable(f"{path}: {error.strerror}") from None
    finally:
        os.close(fd)
    if len(data) > CONFIG_LIMIT:
        raise ConfigUnreadable(f"{path}: larger than {CONFIG_LIMIT // 1024} KiB: not a config file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise ConfigUnreadable(f"{path}:{line}: not UTF-8 text") from None
