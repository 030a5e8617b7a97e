"""Errors that the screen can say in the GM's language.

``str(error)`` is English (the CLI, logs and tests read it). ``code`` names the catalog entry
``error.<code>`` and ``params`` fill its placeholders, so the screen looks the message up in its
own language instead of translating English text; an error without a code stays English.
"""

from __future__ import annotations


class CodedError(Exception):
    def __init__(self, message: str = "", code: str | None = None, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params

    def coded_like(self, other: BaseException) -> CodedError:
        """Take ``other``'s code and params (a wrapped error keeps its translation)."""
        self.code = getattr(other, "code", None)
        self.params = dict(getattr(other, "params", {}))
        return self
