"""The message catalog, as the screens import it; it lives in :mod:`gmscreen.i18n` because the
recap and the headless commands speak the same words without Textual."""

from __future__ import annotations

from gmscreen.i18n import (
    DEFAULT_LANGUAGE,
    Catalog,
    CatalogError,
    Translate,
    load_messages,
    placeholders,
)

__all__ = [
    "DEFAULT_LANGUAGE",
    "Catalog",
    "CatalogError",
    "Translate",
    "load_messages",
    "placeholders",
]
