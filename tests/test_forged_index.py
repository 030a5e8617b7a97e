"""A forged session index changes nothing: ``gmscreen sessions``, the replay picker and replay,
``export`` and undo show and do with it what they show and do without it (#25 item 4).

The forgeries keep each entry's key as the live campaign wrote it (the journal's size and
digest, so the entry would be believed on its key alone) and change what it says: a session's
id taken from another session (``export --session`` would export the wrong one), counts no
journal holds (999,999 events), character names of 10,000 characters (the limit is 200), and
plausible figures the journals do not number. And a copy of the campaign (``cp -r``: new inode
times) keeps its index.
"""

from __future__ import annotations

import asyncio
import json
import random
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.played_sessions import clock_on, index_of, journals, play_sessions, real_index, truth

from gmscreen.campaign.bounds import MAX_CLOCK
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.session_index import list_entries
from gmscreen.campaign.store import sessions_dir
from gmscreen.cli import main
from gmscreen.tui.replay_app import make_replay_app
from gmscreen.tui.screens.replay import ReplayScreen
from gmscreen.tui.widgets.session_table import SessionTable

Entries = list[dict[str, Any]]


def wrong_ids(entries: Entries) -> None:
    """Each session claims the next one's id."""
    ids = [e["id"] for e in entries]
    for entry, other in zip(entries, ids[1:] + ids[:1], strict=True):
        entry["id"] = other


def huge_counts(entries: Entries) -> None:
    for entry in entries:
        entry.update(events=999_999, last_seq=entry["first_seq"] + 999_998)
        entry.update(undone=999_999, checks=999_999, game_end=MAX_CLOCK * 1000)


def long_names(entries: Entries) -> None:
    """As many names as events (no more than a journal could involve), of 10,000 characters."""
    for entry in entries:
        entry["characters"] = [f"{n}" + "N" * 10_000 for n in range(entry["events"])]


def plausible_lies(entries: Entries) -> None:
    """Within a journal's bounds, but not what the journals number."""
    for entry in entries:
        entry.update(events=entry["events"] + 1, last_seq=entry["last_seq"] + 1)
        entry.update(started_at="2099-01-01T00:00", game_end=entry["game_end"] + 60)


FORGERIES: dict[str, Callable[[Entries], None]] = {
    "wrong ids": wrong_ids,
    "huge counts": huge_counts,
    "long names": long_names,
    "plausible lies": plausible_lies,
}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_sessions(tmp_path_factory.mktemp("played"))


def forged(folder: Path, how: Callable[[Entries], None]) -> bytes:
    raw = real_index(folder)
    how(list(raw["sessions"].values()))
    return json.dumps(raw).encode()


def command(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


async def replayed(folder: Path, session: str) -> dict[str, Any]:
    """The picker's rows, and the session ``gmscreen replay CAMPAIGN SESSION`` opens (its
    header's id and its journal)."""
    seen: dict[str, Any] = {}
    app = make_replay_app(folder, None, config_path=None, strict=True, animations=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        seen["picker"] = app.screen.query_one(SessionTable).rows
    app = make_replay_app(folder, session, config_path=None, strict=True, animations=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        seen[session] = (screen.session.header.id, screen.session.path.name)
    return seen


def undone_all(folder: Path) -> tuple[list[str | None], Any]:
    """Undo everything there is, back through the earlier sessions: what each undo said it
    would take back, and the state left."""
    said: list[str | None] = []
    with open_campaign(folder, rng=random.Random(5), clock=clock_on(22)) as live:
        while True:
            said.append(live.describe_last_undoable())
            if live.undo() is None:
                break
        return said, live.state


def observe(
    folder: Path, index: bytes | None, tmp: Path, capsys: pytest.CaptureFixture[str]
) -> dict[str, Any]:
    """What each command shows and does with ``index`` in place (None: without an index); the
    index is put back before each one (``sessions`` and ``export`` write it again)."""

    def put(into: Path = folder) -> None:
        index_of(into).unlink(missing_ok=True)
        if index is not None:
            index_of(into).write_bytes(index)

    ids = [e.id for e in truth(folder)]
    seen: dict[str, Any] = {}
    put()
    seen["sessions"] = command(["sessions", str(folder)], capsys)
    for session in ids:
        for form in (["--format", "md"], ["--format", "json", "--players"]):
            put()
            argv = ["export", str(folder), "--session", session, *form]
            seen[" ".join(argv[2:])] = command(argv, capsys)
    put()
    seen["replay"] = asyncio.run(replayed(folder, ids[0]))
    copy = tmp / "undone"
    shutil.copytree(folder, copy)
    put(copy)
    seen["undo"] = undone_all(copy)
    shutil.rmtree(copy)
    return seen


@pytest.mark.parametrize("how", list(FORGERIES), ids=list(FORGERIES))
def test_a_forged_index_changes_nothing_any_command_shows_or_does(
    played: Path, tmp_path: Path, how: str, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "imrryr"
    shutil.copytree(played, folder)
    open_campaign(folder, rng=random.Random(1), clock=clock_on(20)).close()  # the index is true
    lie = forged(folder, FORGERIES[how])
    without = observe(folder, None, tmp_path, capsys)
    assert without["sessions"][0] == 0 and len(without["replay"]) == 2
    with_forged = observe(folder, lie, tmp_path, capsys)
    for what, seen in without.items():
        assert with_forged[what] == seen, what


def test_a_copy_keeps_its_index(played: Path, tmp_path: Path) -> None:
    """As ``cp -r`` copies (bytes, not times): every journal's entry still holds."""
    copy = tmp_path / "copied"
    shutil.copytree(played, copy, copy_function=shutil.copyfile)
    assert index_of(copy).is_file()
    listing = list_entries(sessions_dir(copy))
    assert listing.read == {} and not listing.stale
    assert listing.entries == truth(copy)
    assert [e.path for e in listing.entries] == journals(copy)
