"""Errors the campaign layer raises. Every message is written for the GM, never a traceback."""

from __future__ import annotations

import errno
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


# What the GM can do about a write the system refused, by errno name.
_ADVICE = {
    "ENOSPC": "the disk is full: free some space",
    "EDQUOT": "the disk quota is used up: free some space",
    "EROFS": "the disk is read-only: make it writable again (remount it)",
    "EACCES": "gmscreen may not write there: check the folder's permissions",
    "EPERM": "the system does not allow the write: check the folder's permissions and flags",
    "ENOENT": "the folder is gone: put the campaign folder back",
    "EIO": "the disk reported an error: check the disk",
}


class WriteFault(CampaignError):
    """A write the system refused (a full disk, a read-only or vanished folder, a disk error).

    Nothing of the action it was for is recorded, and nothing recorded before is lost; the
    message names the file and what to do. The next action tries again.
    """

    def __init__(self, path: Path, error: OSError, consequence: str) -> None:
        name = errno.errorcode.get(error.errno or 0, "")
        advice = _ADVICE.get(name, "check the disk and the folder")
        reason = error.strerror or str(error)
        super().__init__(f"cannot write {path}: {reason}; {advice}. {consequence}")
        self.path = path
        self.errno = error.errno
        self.reason = reason
