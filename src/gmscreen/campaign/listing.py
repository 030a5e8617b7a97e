"""The campaigns found in the campaigns folders, for the list ``gmscreen`` shows with no argument.

Cheap on purpose: each campaign's ``campaign.toml`` is read for its name, and its session files
are only counted (their names carry the day each was played), so a folder of long campaigns lists
at once. A campaign that cannot be read is still listed, with the reason, never a traceback.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import msgspec

from gmscreen.campaign.errors import CampaignError, CampaignFileError
from gmscreen.campaign.examples import is_example
from gmscreen.campaign.journal import SESSION_NAME, list_sessions
from gmscreen.campaign.store import CAMPAIGN_FILE, read_checkpoint, sessions_dir


class FoundCampaign(msgspec.Struct, frozen=True):
    """One campaign folder: its name (the folder's when it cannot be read), the day of its last
    session (``YYYY-MM-DD``, None before the first), how many sessions, what is wrong, and
    whether it is one of the repository's examples (:mod:`examples`: opened as a copy)."""

    folder: Path
    name: str
    last_played: str | None
    sessions: int
    problem: str | None = None
    example: bool = False


def _found(folder: Path) -> FoundCampaign:
    found = _read(folder)
    return msgspec.structs.replace(found, example=True) if is_example(folder) else found


def _read(folder: Path) -> FoundCampaign:
    try:
        name = read_checkpoint(folder)[0].name
    except CampaignFileError as error:
        return FoundCampaign(folder, folder.name, None, 0, str(error.problems[0]))
    except CampaignError as error:
        return FoundCampaign(folder, folder.name, None, 0, str(error))
    try:
        played = list_sessions(sessions_dir(folder))
    except CampaignFileError as error:
        return FoundCampaign(folder, name, None, 0, str(error.problems[0]))
    last = None
    if played:
        match = SESSION_NAME.match(played[-1].name)
        last = match[1] if match else None
    return FoundCampaign(folder, name, last, len(played))


def find_campaigns(roots: Sequence[Path]) -> list[FoundCampaign]:
    """Every campaign folder right inside ``roots`` (a folder holding a ``campaign.toml``), the
    most recently played first, then by name; a root that is missing or unreadable adds none."""
    found: list[FoundCampaign] = []
    seen: set[Path] = set()
    for root in roots:
        try:
            with os.scandir(root) as entries:
                # A linked campaign folder is listed, as it opens by name (``.gmscreen-new-…``
                # folders, half-built, and other dot folders are not campaigns to offer).
                folders = sorted(
                    Path(e.path) for e in entries if not e.name.startswith(".") and e.is_dir()
                )
        except OSError:
            continue
        for folder in folders:
            try:
                real = folder.resolve()
            except (OSError, RuntimeError):  # a link loop: nothing to list
                continue
            if real in seen or not os.path.lexists(folder / CAMPAIGN_FILE):
                continue
            seen.add(real)
            found.append(_found(folder))
    found.sort(key=lambda c: c.name.casefold())
    found.sort(key=lambda c: c.last_played or "", reverse=True)  # stable: by name within a day
    return found
