"""Errors that the screen can say in the GM's language.

``str(error)`` is English (the CLI, logs and tests read it). ``code`` names the catalog entry
``error.<code>`` and ``params`` fill its placeholders, so the screen looks the message up in its
own language instead of translating English text; an error without a code stays English.

A coded error is raised with its code and values only (``DiceError(code="dice_count",
expr="200d6", count=200)``): its English text is the English catalog's ``error.<code>``, so each
message is written once, in ``data/messages.<lang>.toml``.
"""

from __future__ import annotations

from gmscreen.i18n import CatalogError, catalog_for


def english_message(code: str, params: dict[str, object]) -> str:
    """The English text of ``error.<code>`` filled with ``params`` (the code and values themselves
    if the catalog lacks it: a missing message must not hide the error being raised)."""
    try:
        return catalog_for("en").t(f"error.{code}", **params)
    except CatalogError:
        values = ", ".join(f"{name}={value!r}" for name, value in params.items())
        return f"{code} ({values})" if values else code


class CodedError(Exception):
    """``CodedError("English text")`` for an error without a code, or
    ``CodedError(code="...", **params)`` for one whose text comes from the catalog."""

    def __init__(self, message: str = "", /, *, code: str | None = None, **params: object) -> None:
        if code is not None:
            if message:
                raise TypeError(f"error {code!r} takes its text from the catalog, not {message!r}")
            message = english_message(code, params)
        super().__init__(message)
        self.code = code
        self.params = params

    def coded_like(self, other: BaseException) -> CodedError:
        """Take ``other``'s code and params (a wrapped error keeps its translation)."""
        self.code = getattr(other, "code", None)
        self.params = dict(getattr(other, "params", {}))
        return self
