"""Errors the campaign layer raises. Every message is written for the GM, never a traceback."""

from __future__ import annotations

from pathlib import Path

import msgspec

from gmscreen.rules.errors import CodedError


class CampaignError(CodedError):
    """Anything the GM asked for that cannot be done; ``str(error)`` says why (in English; a
    ``code`` lets the screen say it in the GM's language, see :mod:`gmscreen.rules.errors`)."""


class UnknownCharacter(CampaignError):
    def __init__(self, character_id: str) -> None:
        super().__init__(f"there is no character with id {character_id!r}")
        self.character_id = character_id


class InvalidAction(CampaignError):
    """A table action that the rules or the current state do not allow."""


class Problem(msgspec.Struct, frozen=True, gc=False):
    """One thing wrong with a file: where (line and column start at 1; 0 means unknown) and what."""

    file: Path
    line: int
    message: str
    column: int = 0

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else str(self.file)
        if self.line and self.column:
            where += f":{self.column}"
        return f"{where}: {self.message}"


class CampaignFileError(CampaignError):
    """One or more files of a campaign cannot be read; nothing was written."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class CampaignLocked(CampaignError):
    """Another gmscreen is writing this campaign."""
