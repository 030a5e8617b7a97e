"""The repository's example campaigns, and throwaway copies (of them and of the demo).

A campaign is one of the repository's examples when its folder, links resolved, is in a folder
named ``campaigns`` beside a ``pyproject.toml`` whose project is gmscreen: what a clone of the
repository (or its sdist) looks like. Opened, an example is copied to a temporary folder first,
as the demo is, so no run changes the repository's files; the headless commands write nothing
into one either (the session index is not written there).

Recognised by where it is, not by a mark in its ``campaign.toml``: a mark would travel with a
copy (a GM who copies an example out to start from it would get a campaign that never saves),
and a campaign folder from someone else could carry one and have an evening's play thrown away.
A place is the thing to protect: the files a clone tracks are the files under it.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
import tomllib
from pathlib import Path

from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.safe_files import read_regular

PROJECT = "gmscreen"
EXAMPLES_FOLDER = "campaigns"
_PYPROJECT_LIMIT = 1024 * 1024  # the repository's is a few KiB; a larger one is not ours


def is_examples_folder(folder: Path) -> bool:
    """Whether ``folder`` (already resolved) is a gmscreen repository's ``campaigns`` folder."""
    if folder.name != EXAMPLES_FOLDER:
        return False
    try:
        data = read_regular(folder.parent / "pyproject.toml", _PYPROJECT_LIMIT)
        project = tomllib.loads(data.decode("utf-8")).get("project")
    except (CampaignError, OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return False  # no pyproject, or not one to read: not a repository of gmscreen
    return isinstance(project, dict) and project.get("name") == PROJECT


def is_example(campaign: Path) -> bool:
    """Whether the campaign folder ``campaign`` is one of the repository's examples."""
    try:
        real = campaign.resolve()
    except (OSError, RuntimeError):  # a link loop: no campaign to protect
        return False
    return is_examples_folder(real.parent)


def throwaway_copy(source: Path, prefix: str, into: Path | None = None) -> Path:
    """A copy of the campaign ``source`` in a new temporary folder (``into``, else the
    system's), removed when the process ends unless ``into`` was given; links are copied as
    links, so the copy refuses them as the original would. Its lock and temporary files are
    left behind."""
    parent = Path(tempfile.mkdtemp(prefix=prefix, dir=into))
    if into is None:
        # Nobody else knows about this folder: remove it when the process ends, or every
        # opening (and every test and benchmark run) leaves one behind.
        atexit.register(shutil.rmtree, parent, True)
    target = parent / source.name
    try:
        shutil.copytree(
            source, target, symlinks=True, ignore=shutil.ignore_patterns(".lock", "*.tmp")
        )
    except OSError as error:  # shutil.Error too: what could not be copied
        raise CampaignError(f"cannot copy {source} to open it: {error}") from None
    return target
