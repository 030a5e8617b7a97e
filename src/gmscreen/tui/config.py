"""The user's UI settings: ``<user config dir>/gmscreen/config.toml``.

``language = "es"`` at the top (see :mod:`gmscreen.user_config`) and the ``[keys]`` table:
binding id -> keys (``gain = "G"``, ``next_round = "full_stop,n"``). Unknown ids, bad values,
a key given to two commands and a command left without a key are reported (one message at
start-up), never fatal. Tests pass an explicit path or None so that they never read the real file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import msgspec

from gmscreen.i18n import language_of
from gmscreen.tui.commands import COMMANDS, effective_keys
from gmscreen.tui.i18n import Translate
from gmscreen.user_config import default_config_path, read_config

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
    problems += key_clashes(keys)
    return UIConfig(keys=keys, problems=tuple(problems), language=language_of(language))


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
    return t("app.config_keys", problems="; ".join(parts)) if parts else None
