"""The message catalog: every piece of UI text, by key, in one TOML file per language.

``data/messages.<lang>.toml`` holds nested tables; their dotted paths are the keys
(``[check] title = ...`` is ``check.title``). Values are ``str.format`` templates with named
placeholders. The app owns one :class:`Catalog` and hands its ``t`` to screens and widgets.
"""

from __future__ import annotations

import string
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Protocol

DEFAULT_LANGUAGE = "en"


class CatalogError(LookupError):
    """A missing key or a placeholder without a value (a bug in the app, not the GM's fault)."""


class Translate(Protocol):
    def __call__(self, key: str, /, **values: object) -> str: ...


def _flatten(raw: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    flat: dict[str, str] = {}
    for key, value in raw.items():
        path = f"{prefix}{key}"
        if isinstance(value, Mapping):
            flat.update(_flatten(value, path + "."))
        elif isinstance(value, str):
            flat[path] = value
        else:
            raise CatalogError(f"message {path!r} must be text, not {type(value).__name__}")
    return flat


@cache
def load_messages(lang: str) -> Mapping[str, str]:
    """The messages of one language, read once (``messages.<lang>.toml``)."""
    name = f"messages.{lang}.toml"
    path = resources.files("gmscreen.data").joinpath(name)
    if not path.is_file():
        raise CatalogError(f"there is no message catalog for language {lang!r} ({name})")
    return _flatten(tomllib.loads(path.read_text(encoding="utf-8")))


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@dataclass(slots=True)
class Catalog:
    """UI text in ``lang``; a key missing there falls back to English unless ``strict``.

    Tests run strict, so a missing key or placeholder fails a test instead of a game night.
    """

    lang: str = DEFAULT_LANGUAGE
    strict: bool = False
    _messages: Mapping[str, str] = field(init=False, repr=False)
    _fallback: Mapping[str, str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._messages = load_messages(self.lang)
        self._fallback = load_messages(DEFAULT_LANGUAGE)

    def keys(self) -> set[str]:
        return set(self._messages)

    def has(self, key: str) -> bool:
        return key in self._messages or (not self.strict and key in self._fallback)

    def t(self, key: str, /, **values: object) -> str:
        template = self._messages.get(key)
        if template is None:
            if self.strict or key not in self._fallback:
                raise CatalogError(f"no message {key!r} in the {self.lang!r} catalog")
            template = self._fallback[key]
        try:
            return template.format(**values)
        except (KeyError, IndexError) as error:
            raise CatalogError(f"message {key!r} needs a value for {error}") from None
