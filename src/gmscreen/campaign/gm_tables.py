"""The GM's own roll tables: found, read and written here, rolled by the rules' one engine.

```
<user config folder>/tables/*.toml    tables shared by every campaign (beside config.toml)
CAMPAIGN/tables/*.toml                the campaign's own (one of these replaces a shared one
                                      of the same id)
```

Table files come from other people, like everything in a campaign folder: each is read through
:mod:`gmscreen.campaign.safe_files` (a regular file, no link followed, a bounded size), a folder
that is a link is refused, and every problem, a file that cannot be read as much as a table with
a gap, is a :class:`~gmscreen.campaign.errors.Problem` (``file:line: message``). The parsing and
the checks are the rules layer's (:mod:`gmscreen.rules.tables_library`): the bundled MERP tables
are the first entries of the same set.
"""

from __future__ import annotations

import os
from pathlib import Path

import msgspec

from gmscreen.campaign.errors import CampaignError, CampaignFileError, Problem
from gmscreen.campaign.safe_files import (
    MIB,
    check_real_folder,
    component_problem,
    ensure_folder,
    publish_new,
    read_regular,
    replace_file,
)
from gmscreen.rules.tables_library import Group, Library, TableFile, build_library

TABLES = "tables"  # the folder's name, in a campaign and beside the user's config file
MAX_TABLE_FILE = 1 * MIB  # a table file of a thousand rows is well under 100 KiB
MAX_TABLE_FILES = 200  # in one folder
MAX_TABLE_BYTES = 16 * MIB  # every table file read together


class GmTables(msgspec.Struct, frozen=True, gc=False):
    """Every table a GM can roll (bundled first) and every problem of their files."""

    library: Library
    problems: tuple[Problem, ...]
    folders: tuple[tuple[Group, Path], ...] = ()  # the folders read, user-wide first

    @property
    def notes(self) -> tuple[str, ...]:
        return self.library.notes


def user_tables_folder(config_path: Path | None) -> Path | None:
    """The user-wide tables folder, beside ``config.toml`` (None: no user config at all)."""
    return None if config_path is None else config_path.parent / TABLES


def campaign_tables_folder(campaign: Path) -> Path:
    return campaign / TABLES


def load_gm_tables(campaign: Path | None, user_folder: Path | None) -> GmTables:
    """The bundled tables, the user-wide folder's and the campaign's (either may be None)."""
    files, problems, folders = read_gm_files(campaign, user_folder)
    return gm_tables_of(files, problems, folders)


def gm_tables_of(
    files: list[TableFile], problems: list[Problem], folders: tuple[tuple[Group, Path], ...]
) -> GmTables:
    """The tables of ``files`` (as :func:`read_gm_files` gives them) after the bundled ones."""
    from gmscreen.rules.tables import load_tables

    library = build_library(load_tables(), files)
    every = [*problems, *(Problem(Path(p.source), p.line, p.message) for p in library.problems)]
    return GmTables(library, tuple(every), folders)


def read_gm_files(
    campaign: Path | None, user_folder: Path | None
) -> tuple[list[TableFile], list[Problem], tuple[tuple[Group, Path], ...]]:
    """The text of every table file, user-wide first, the problems of those that cannot be
    read, and the folders read."""
    problems: list[Problem] = []
    files: list[TableFile] = []
    folders: list[tuple[Group, Path]] = []
    budget = [MAX_TABLE_BYTES]
    places: list[tuple[Group, Path | None]] = [
        ("user", user_folder),
        ("campaign", None if campaign is None else campaign_tables_folder(campaign)),
    ]
    for group, folder in places:
        if folder is None:
            continue
        folders.append((group, folder))
        files.extend(read_table_folder(folder, group, problems, budget))
    return files, problems, tuple(folders)


def read_table_folder(
    folder: Path, group: Group, problems: list[Problem], budget: list[int]
) -> list[TableFile]:
    """Every ``*.toml`` of ``folder`` (none if it does not exist), by name; hidden files (an
    editor's ``.#rumours.toml``) are skipped. ``budget`` is the bytes left to read in all."""
    try:
        if not check_real_folder(folder):
            return []
        names = sorted(
            entry.name
            for entry in os.scandir(folder)
            if entry.name.endswith(".toml") and not entry.name.startswith(".")
        )
    except CampaignError as error:
        problems.append(Problem(folder, 0, str(error).removeprefix(f"{folder}: ")))
        return []
    except OSError as error:
        problems.append(Problem(folder, 0, f"cannot be read: {error.strerror or error}"))
        return []
    if len(names) > MAX_TABLE_FILES:
        problems.append(
            Problem(
                folder,
                0,
                f"holds {len(names)} table files; only the first {MAX_TABLE_FILES} are read",
            )
        )
        names = names[:MAX_TABLE_FILES]
    files: list[TableFile] = []
    for name in names:
        path = folder / name
        problem = component_problem(name)
        if problem is not None:
            problems.append(Problem(path, 0, f"this file name {problem}: rename it"))
            continue
        text = _read_text(path, problems, budget)
        if text is not None:
            files.append(TableFile(str(path), text, group))
    return files


def _read_text(path: Path, problems: list[Problem], budget: list[int]) -> str | None:
    try:
        data = read_regular(path, min(MAX_TABLE_FILE, budget[0]))
    except CampaignFileError as error:
        if budget[0] < MAX_TABLE_FILE:
            problems.append(
                Problem(
                    path, 0, f"not read: the table files together pass {MAX_TABLE_BYTES // MIB} MiB"
                )
            )
        else:
            problems.extend(error.problems)
        return None
    except OSError as error:
        problems.append(Problem(path, 0, f"cannot be read: {error.strerror or error}"))
        return None
    budget[0] -= len(data)
    try:
        return data.decode("utf-8-sig")  # a BOM, as Windows editors write, is no problem
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        problems.append(Problem(path, line, "not UTF-8 text: save the file as UTF-8"))
        return None


def write_table_file(folder: Path, name: str, text: str, *, replace: bool) -> Path:
    """``text`` as ``folder/name`` (a tables folder made if missing, never through a link).
    An existing file is replaced only when ``replace`` (atomically); else a CampaignError."""
    problem = component_problem(name)
    if problem is not None:
        raise CampaignError(f"the table file name {name!r} {problem}")
    folder.parent.mkdir(parents=True, exist_ok=True)  # a user config folder not made yet
    ensure_folder(folder.parent, folder.name)
    data = text.encode("utf-8")
    if replace:
        replace_file(folder, name, data)
    else:
        try:
            publish_new(folder, name, data)
        except FileExistsError:
            raise CampaignError(
                f"{folder / name} exists already: nothing was written (--replace replaces it, "
                "or choose another id with --id)"
            ) from None
    return folder / name
