"""The message catalog and the choice of language, for every layer (no Textual, no campaign).

``data/messages.<lang>.toml`` holds nested tables; their dotted paths are the keys
(``[check] title = ...`` is ``check.title``). Values are ``str.format`` templates with named
placeholders; the message is made inert (:func:`gmscreen.text.inert_line`: no control
character reaches a terminal or a file through a message). The screen, the recap and the CLI
all read the same files: the app owns one :class:`Catalog` and hands its ``t`` to screens and
widgets; the recap keeps one per language.
"""

from __future__ import annotations

import locale
import os
import string
from collections.abc import Mapping
from functools import cache
from typing import Any, Protocol

from gmscreen.data import read_toml
from gmscreen.text import inert_line

DEFAULT_LANGUAGE = "en"
LANGUAGES: tuple[str, ...] = ("en", "es")
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


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
    """Every message of one language (``messages.<lang>.toml``), parsed whole, once per process.

    Raises :class:`CatalogError` if gmscreen has no catalog for ``lang``.
    """
    if lang not in LANGUAGES:
        raise CatalogError(f"there is no message catalog for language {lang!r}")
    return _flatten(read_toml(f"messages.{lang}.toml"))


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


class Catalog:
    """UI text in ``lang``; a key missing there falls back to English unless ``strict``.

    Tests run strict, so a missing key or placeholder fails a test instead of a game night.
    :meth:`use` switches the language in place: every ``t`` handed out follows it.
    """

    __slots__ = ("_messages", "lang", "strict")

    def __init__(self, lang: str = DEFAULT_LANGUAGE, strict: bool = False) -> None:
        self.lang = lang
        self.strict = strict
        self._messages = load_messages(lang)

    def use(self, lang: str) -> None:
        """Speak ``lang`` from now on (raises :class:`CatalogError` if there is no such catalog)."""
        self._messages = load_messages(lang)
        self.lang = lang

    def keys(self) -> set[str]:
        return set(self._messages)

    def t(self, key: str, /, **values: object) -> str:
        template = self._messages.get(key)
        if template is None:
            # English only when needed: another language's catalog has every key (a test)
            template = None if self.strict else load_messages(DEFAULT_LANGUAGE).get(key)
            if template is None:
                raise CatalogError(f"no message {key!r} in the {self.lang!r} catalog")
        # The values are often a person's or a file's text (a name, a note, a path): every
        # message, on the screen, in a recap or on a command line, shows them inert. The
        # templates hold no control character (nor a line feed: a test keeps it so), so making
        # the whole message inert is making its values inert, at the cost of one isprintable().
        try:
            return inert_line(template.format(**values))
        except (KeyError, IndexError) as error:
            raise CatalogError(f"message {key!r} needs a value for {error}") from None


def plural(t: Translate, key: str, n: int) -> str:
    """``1 point``, ``2 points``: the catalog's ``plural.<key>_one`` for one, ``plural.<key>``
    for any other count (English and Spanish both say the singular for 1 only), so that a
    message says ``{points}`` instead of ``{n} point(s)``."""
    return t(f"plural.{key}_one" if n == 1 else f"plural.{key}", n=n)


@cache
def catalog_for(lang: str) -> Catalog:
    """A shared, never switched catalog of ``lang`` (English for an unknown language)."""
    return Catalog(lang if lang in LANGUAGES else DEFAULT_LANGUAGE)


def language_of(value: str | None) -> str | None:
    """``es``, ``es_AR.UTF-8`` or ``ES`` → ``es``; None for anything not a known language."""
    if not value:
        return None
    code = value.strip().replace("-", "_").split("_")[0].split(".")[0].casefold()
    return code if code in LANGUAGES else None


def system_language(environ: Mapping[str, str] | None = None) -> str | None:
    """The language of the system locale: the first of LC_ALL, LC_MESSAGES, LANG that is set,
    else what Python's locale reports; None when that is not a language gmscreen speaks."""
    env = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        if env.get(name):
            return language_of(env[name])
    if environ is not None:
        return None
    try:
        return language_of(locale.getlocale()[0])
    except ValueError:  # pragma: no cover - a locale Python cannot parse
        return None


def resolve_language(
    flag: str | None, campaign: str | None, user: str | None, system: str | None
) -> str:
    """The language to speak: ``--lang``, else the campaign's setting, else the user config,
    else the system locale, else English. Unknown or empty values are skipped."""
    for candidate in (flag, campaign, user, system):
        lang = language_of(candidate)
        if lang is not None:
            return lang
    return DEFAULT_LANGUAGE


def other_language(lang: str) -> str:
    """The language the run-time switch flips to (en ↔ es)."""
    return "en" if lang == "es" else "es"
