"""The user's UI settings: ``<user config dir>/gmscreen/config.toml``.

``language = "es"`` at the top (see :mod:`gmscreen.user_config`) and the ``[keys]`` table:
binding id -> keys (``gain = "G"``, ``next_round = "full_stop,n"``). Unknown ids, bad values,
a key given to two commands and a command left without a key are reported (one message at
start-up), never fatal. Tests pass an explicit path or None so that they never read the real file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec

from gmscreen.i18n import language_of
from gmscreen.text import clip
from gmscreen.tui.commands import COMMANDS, effective_keys
from gmscreen.tui.i18n import Translate
from gmscreen.user_config import (
    config_language,
    default_config_path,
    read_config,
    read_top_level,
)

__all__ = ["UIConfig", "default_config_path", "load_config"]


# The scopes whose keys are live at once: the app's (help, quit) are live over every screen.
SCOPE_GROUPS: dict[str, tuple[str, ...]] = {
    "main": ("main", "roster", "app"),
    "dialog": ("dialog", "app"),
    "items": ("items", "app"),
    "replay": ("replay", "app"),
    "rulings": ("rulings", "app"),
}
KEY_PROBLEMS = ("unknown", "bad", "clash", "keyless")  # told together, in one message
MAX_KEYS_TEXT = 200  # one command's keys: "full_stop,n" and the like, never longer than this
MAX_TOLD = 8  # problems of the [keys] table named in its message; the rest are counted


class UIConfig(msgspec.Struct, frozen=True):
    """The user's UI settings as read: key bindings by binding id, the language, and problems.

    ``problems`` are raw facts for the catalog: ``unknown:<id>``, ``bad:<id>``,
    ``clash:<scope>:<key>:<id>,<id>...`` (one key, two commands live at once), ``keyless:<id>``
    (a command whose every key another command was given), ``language:<value>``, ``file:<msg>``.
    """

    keys: dict[str, str] = msgspec.field(default_factory=dict)
    problems: tuple[str, ...] = ()
    language: str | None = None  # None: not chosen in the config


def load_config(path: Path | None) -> UIConfig:
    """Read ``path`` (None or a missing file: the defaults). Whatever the file holds, it gives
    a config and problems to tell, never an error."""
    raw = read_config(path)
    if isinstance(raw, str):  # nothing of the file is used, but a language above its tables
        return UIConfig(problems=(f"file:{raw}",), language=config_language(read_top_level(path)))
    problems: list[str] = []
    language = raw.get("language")
    if language is not None and (not isinstance(language, str) or not language_of(language)):
        problems.append(f"language:{shown(language)}")
        language = None
    table = raw.get("keys", {})
    keys: dict[str, str] = {}
    if isinstance(table, dict):
        keys, key_problems = read_keys(table)
        problems += key_problems + key_clashes(keys)
    else:
        problems.append(f"file:{path}: keys must be a [keys] table")
    return UIConfig(keys=keys, problems=tuple(problems), language=language_of(language))


def read_keys(table: Mapping[str, Any]) -> tuple[dict[str, str], list[str]]:
    """The ``[keys]`` table as Textual's keymap takes it (each value its keys, comma-separated,
    empty ones left out), and its unknown ids and entries that give no key."""
    known = {c.id for c in COMMANDS}
    keys: dict[str, str] = {}
    problems: list[str] = []
    for binding_id, value in table.items():
        if binding_id not in known:
            problems.append(f"unknown:{shown(binding_id)}")
            continue
        given = [k.strip() for k in value.split(",")] if isinstance(value, str) else []
        given = [k for k in given if k]
        if not given or len(value) > MAX_KEYS_TEXT:  # "", " , ,", a number, a list: no key
            problems.append(f"bad:{binding_id}")
        else:
            keys[binding_id] = ",".join(given)
    return keys, problems


def shown(value: object) -> str:
    """A value of the file as a message quotes it: one line, clipped (a file may hold a
    megabyte in one key)."""
    return clip((value if isinstance(value, str) else repr(value)).replace("\n", " "))


def key_clashes(keymap: Mapping[str, str]) -> list[str]:
    """Keys given to two commands live at once, and commands left with no key, as Textual
    applies a keymap: a key the user gives a command is taken from any command that had it."""
    problems: list[str] = []
    keyless: dict[str, None] = {}
    for group, scopes in SCOPE_GROUPS.items():
        live = [c for c in COMMANDS if c.scope in scopes]
        claimed: dict[str, list[str]] = {}
        for command in live:
            for key in effective_keys(command, keymap):
                claimed.setdefault(key, []).append(command.id)
        for key, ids in claimed.items():
            if len(ids) > 1 and any(i in keymap for i in ids):
                problems.append(f"clash:{group}:{key}:{','.join(ids)}")
        for command in live:
            if command.id in keymap:
                continue
            taken = {
                k
                for c in live
                if c.id in keymap and c is not command
                for k in effective_keys(c, keymap)
            }
            if all(k in taken for k in effective_keys(command, keymap)):
                keyless[command.id] = None
    return problems + [f"keyless:{command_id}" for command_id in keyless]


def keys_message(problems: Sequence[str], t: Translate) -> str | None:
    """Every problem of the ``[keys]`` table in one message (None: there is none)."""
    parts: list[str] = []
    for problem in problems:
        kind, _, detail = problem.partition(":")
        if kind in ("unknown", "bad", "keyless"):
            parts.append(t(f"keys_problem.{kind}", id=detail))
        elif kind == "clash":
            scope, key, ids = (
                detail.split(":", 2) if detail.count(":") >= 2 else ("main", detail, "")
            )
            commands = " + ".join(ids.split(","))
            parts.append(
                t(
                    "keys_problem.clash",
                    key=key,
                    commands=commands,
                    scope=t(f"keys_problem.scope.{scope}"),
                )
            )
    if len(parts) > MAX_TOLD:
        parts[MAX_TOLD:] = [t("keys_problem.more", n=len(parts) - MAX_TOLD)]
    return t("app.config_keys", problems="; ".join(parts)) if parts else None
