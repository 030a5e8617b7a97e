"""The session index (``sessions/index.json``): made from the journals, never trusted over them.

It is rebuilt when it is missing, when a journal changed behind it (any byte), when it is
garbage; a hostile index (a link, huge, a FIFO, wrong types, lies under a stale key) never
crashes the listing nor changes what it says. A copy of the campaign keeps it. Only a lock holder
writes it (tests/test_index_writers.py; forged entries: tests/test_forged_index.py).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.played_sessions import (
    clock_on,
    index_of,
    journals,
    play_sessions,
    real_index,
    truth,
)
from tests.systems import make_fifo

from gmscreen.campaign import journal_digest, safe_files
from gmscreen.campaign.journal import SessionLog
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.session_index import (
    INDEX_LIMIT,
    list_entries,
)
from gmscreen.campaign.store import sessions_dir
from gmscreen.cli import main

posix_only = pytest.mark.posix("links and FIFOs as POSIX makes them")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_sessions(tmp_path_factory.mktemp("played"))


@pytest.fixture
def folder(played: Path, tmp_path: Path) -> Path:
    """A fresh copy of the played campaign and of the index the live campaign wrote (a copy
    keeps the journals' bytes, so the index holds)."""
    target = tmp_path / "imrryr"
    shutil.copytree(played, target)
    return target


def sessions_output(folder: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["sessions", str(folder)]) == 0
    return capsys.readouterr().out


# --- made by the live campaign, used while true ----------------------------------------------


def test_the_live_campaign_writes_an_index_that_lists_without_reading_a_journal(
    folder: Path,
) -> None:
    assert index_of(folder).is_file()
    listing = list_entries(sessions_dir(folder))
    assert listing.read == {} and not listing.stale
    assert listing.entries == truth(folder)
    first, second, third = listing.entries
    assert [e.id for e in listing.entries] == ["2025-03-01-1", "2025-03-08-1", "2025-03-15-1"]
    assert (first.events, first.first_seq, first.last_seq) == (2, 1, 2)
    assert first.characters == ("Artinar", "Vadhra")
    assert second.characters == ("Artinar", "Vadhra") and second.game_end > second.game_start
    assert third.undone == 1 and third.checks >= 1 and third.first_seq == second.last_seq + 1
    assert third.started_at.startswith("2025-03-15T20:00")


def test_closing_a_session_adds_it_to_the_index(folder: Path) -> None:
    with open_campaign(folder, rng=random.Random(2), clock=clock_on(22)) as live:
        live.note("one more evening")
    listing = list_entries(sessions_dir(folder))
    assert listing.read == {}  # the new session too is in the index, as it is on disk
    assert [e.id for e in listing.entries][-1] == "2025-03-22-1"
    assert listing.entries == truth(folder)


# --- rebuilt --------------------------------------------------------------------------------


def test_a_deleted_index_is_rebuilt_from_the_journals(folder: Path) -> None:
    index_of(folder).unlink()
    listing = list_entries(sessions_dir(folder))
    assert listing.entries == truth(folder)
    assert sorted(listing.read) == journals(folder) and listing.stale
    assert not index_of(folder).exists()  # listing is read-only: the lock holder writes it
    with open_campaign(folder, rng=random.Random(1), clock=clock_on(20)):
        pass
    assert index_of(folder).is_file()
    assert list_entries(sessions_dir(folder)).read == {}


def test_a_journal_cut_short_behind_the_index_is_read_again(folder: Path) -> None:
    journal = journals(folder)[2]
    before = os.stat(journal)
    lines = journal.read_bytes().splitlines(keepends=True)
    journal.write_bytes(b"".join(lines[:-1]))  # one event fewer ...
    os.utime(journal, ns=(before.st_atime_ns, before.st_mtime_ns))  # ... and the old mtime
    listing = list_entries(sessions_dir(folder))
    assert list(listing.read) == [journal]  # only the one that changed
    assert listing.entries[2].events == len(lines) - 2
    assert listing.entries == truth(folder)


def test_a_same_size_edit_with_the_old_mtime_is_still_seen(folder: Path) -> None:
    """Size and mtime can be put back by hand; the digest cannot."""
    journal = journals(folder)[1]
    before = os.stat(journal)
    data = journal.read_bytes()
    assert data.count(b'"name":"Vadhra"') == 1  # in the header's state
    journal.write_bytes(data.replace(b'"name":"Vadhra"', b'"name":"Vidhra"'))
    os.utime(journal, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(journal).st_size == before.st_size
    listing = list_entries(sessions_dir(folder))
    assert listing.entries[1].characters == ("Artinar", "Vidhra")
    assert listing.entries == truth(folder)


@pytest.mark.parametrize(
    "tail",
    [b'{"seq": 12, "action": 12, "ki', b"\n", b"[not json]\n"],
    ids=["cut short", "an empty line", "garbage"],
)
def test_a_journal_with_a_torn_last_line_keeps_its_entry(folder: Path, tail: bytes) -> None:
    """A crash as the last line was written: the entry made from what reads holds."""
    from gmscreen.campaign.session_index import write_index

    journal = journals(folder)[2]
    with open(journal, "ab") as out:
        out.write(tail)
    assert write_index(list_entries(sessions_dir(folder)))
    listing = list_entries(sessions_dir(folder))
    assert listing.read == {} and listing.entries == truth(folder)
    assert listing.entries[2].last_seq == 11


def test_a_journal_of_a_header_alone_keeps_its_entry(folder: Path) -> None:
    """A crash between a journal's making and its first action."""
    from gmscreen.campaign.journal import JournalWriter, SessionHeader, read_session
    from gmscreen.campaign.session_index import write_index

    last = read_session(journals(folder)[2])
    empty = sessions_dir(folder) / "2025-03-22-1.jsonl"
    JournalWriter(
        empty, SessionHeader("2025-03-22-1", "2025-03-22T20:00", 12, last.header.state)
    ).close()
    assert write_index(list_entries(sessions_dir(folder)))
    listing = list_entries(sessions_dir(folder))
    assert listing.read == {} and listing.entries == truth(folder)
    assert (listing.entries[3].events, listing.entries[3].last_seq) == (0, 11)


def test_a_journal_gone_or_added_behind_the_index(folder: Path) -> None:
    first, second, third = journals(folder)
    second.unlink()
    copy = sessions_dir(folder) / "2025-03-29-1.jsonl"
    shutil.copyfile(third, copy)
    listing = list_entries(sessions_dir(folder))
    assert [e.path for e in listing.entries] == [first, third, copy]
    assert listing.stale and list(listing.read) == [copy]
    assert listing.entries == truth(folder)


def test_a_damaged_journal_is_named_as_without_the_index(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = journals(folder)[1]
    lines = journal.read_bytes().split(b"\n")
    journal.write_bytes(b"\n".join([lines[0], b"{not json", *lines[1:]]))
    assert main(["sessions", str(folder)]) == 1
    assert f"{journal}:2: not valid JSON" in capsys.readouterr().err


# --- garbage and hostile indexes ----------------------------------------------------------


GARBAGE = [
    b"",
    b"\x00\xff\xfe not even text",
    b"[]",
    b"null",
    b'"index"',
    b'{"type": "gmscreen-session-index", "version": 2, "sessions": {}}',
    b'{"type": "gmscreen-session-index", "version": 1, "sessions": []}',
    b'{"type": "something else", "version": 1, "sessions": {}}',
    b"[" * 200_000 + b"]" * 200_000,  # deeper than the parser goes
    b'{"type": "gmscreen-session-index", "version": 1, "sessions": {"x": ' + b"[" * 50_000,
]


@pytest.mark.parametrize("data", GARBAGE, ids=range(len(GARBAGE)))
def test_a_garbage_index_is_rebuilt(
    folder: Path, data: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = sessions_output(folder, capsys)
    index_of(folder).write_bytes(data)
    listing = list_entries(sessions_dir(folder))
    assert listing.entries == truth(folder) and listing.stale
    assert sessions_output(folder, capsys) == expected
    with open_campaign(folder, rng=random.Random(1), clock=clock_on(20)):
        pass
    assert list_entries(sessions_dir(folder)).read == {}  # written again, whole


def _lie(entry: dict[str, Any]) -> None:
    """Every figure of the entry changed (consistently: first to last seq still spans the events)."""
    entry.update(events=entry["events"] + 5, last_seq=entry["last_seq"] + 5, checks=0, undone=0)
    entry.update(id="2099-01-01-1", characters=["Nobody"], started_at="2099-01-01T00:00")


def _stale(entry: dict[str, Any], field: str) -> None:
    if field == "size":
        entry["size"] += 1
    else:
        entry["digest"] = "0" * 64


@pytest.mark.parametrize("field", ["size", "digest"])
def test_an_index_that_lies_under_a_stale_key_is_not_believed(folder: Path, field: str) -> None:
    raw = real_index(folder)
    for entry in raw["sessions"].values():
        _lie(entry)
        _stale(entry, field)
    index_of(folder).write_text(json.dumps(raw))
    assert list_entries(sessions_dir(folder)).entries == truth(folder)


@pytest.fixture
def pristine(folder: Path) -> bytes:
    """The index as the live campaign wrote it (hypothesis's examples share one folder)."""
    return index_of(folder).read_bytes()


FIELD_TYPES: dict[str, type] = {
    "id": str,
    "started_at": str,
    "characters": list,
    **dict.fromkeys(
        ["events", "undone", "checks", "first_seq", "last_seq", "game_start", "game_end"], int
    ),
    "size": int,
    "digest": str,
}
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    field=st.sampled_from(sorted(FIELD_TYPES)),
    value=JSON_VALUES,
    which=st.integers(0, 2),
)
def test_an_entry_with_a_value_of_the_wrong_type_is_rebuilt(
    folder: Path, pristine: bytes, field: str, value: Any, which: int
) -> None:
    wanted = FIELD_TYPES[field]
    if type(value) is wanted or (wanted is list and isinstance(value, list) and not value):
        return  # a value of the right type is a figure, and the index's figures are believed
    raw = json.loads(pristine)
    entry = list(raw["sessions"].values())[which]
    entry[field] = value
    index_of(folder).write_text(json.dumps(raw))
    listing = list_entries(sessions_dir(folder))
    assert listing.entries == truth(folder)
    assert list(listing.read) == [journals(folder)[which]]


@pytest.mark.parametrize(
    "change",
    [
        {"id": "../../outside"},
        {"id": "a/b"},
        {"id": "tab\there"},
        {"events": -1},
        {"events": 2**70},
        {"events": True},
        {"first_seq": 0},
        {"last_seq": 10**6},  # first to last no longer spans the events
        {"undone": 10**6},
        {"game_end": -5},
        {"characters": [1, 2]},
        {"characters": ["x"] * 500},  # more names than events
    ],
    ids=str,
)
def test_an_entry_that_cannot_be_true_is_rebuilt(folder: Path, change: dict[str, Any]) -> None:
    raw = real_index(folder)
    entry = list(raw["sessions"].values())[1]
    entry.update(change)
    index_of(folder).write_text(json.dumps(raw))
    listing = list_entries(sessions_dir(folder))
    assert listing.entries == truth(folder)
    assert list(listing.read) == [journals(folder)[1]]


def test_entries_for_files_that_are_not_journals_are_ignored(folder: Path) -> None:
    raw = real_index(folder)
    fake = dict(next(iter(raw["sessions"].values())))
    raw["sessions"]["../../campaign.toml"] = fake
    raw["sessions"]["2030-01-01-1.jsonl"] = fake  # no such journal
    index_of(folder).write_text(json.dumps(raw))
    listing = list_entries(sessions_dir(folder))
    assert listing.entries == truth(folder)
    assert listing.read == {} and listing.stale  # the real entries hold; the others go


@posix_only
def test_an_index_linked_elsewhere_is_not_read_and_is_replaced_not_written_through(
    folder: Path, tmp_path: Path
) -> None:
    raw = real_index(folder)
    for entry in raw["sessions"].values():
        _lie(entry)  # identity intact: believed, were the link followed
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps(raw))
    planted = outside.read_bytes()
    index_of(folder).unlink()
    index_of(folder).symlink_to(outside)
    assert list_entries(sessions_dir(folder)).entries == truth(folder)
    with open_campaign(folder, rng=random.Random(1), clock=clock_on(20)):
        pass
    assert not index_of(folder).is_symlink() and index_of(folder).is_file()
    assert outside.read_bytes() == planted
    assert list_entries(sessions_dir(folder)).read == {}


def test_a_huge_index_is_not_read(folder: Path) -> None:
    with open(index_of(folder), "r+b") as out:
        out.truncate(INDEX_LIMIT + 1)  # sparse: nothing on disk, and never read
    listing = list_entries(sessions_dir(folder))
    assert listing.entries == truth(folder) and listing.stale


@posix_only
def test_a_fifo_index_never_blocks(folder: Path) -> None:
    index_of(folder).unlink()
    make_fifo(index_of(folder))
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from gmscreen.campaign.session_index import list_entries\n"
        "print(len(list_entries(Path(sys.argv[1])).entries))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(sessions_dir(folder))],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "3"


def test_a_journal_written_to_as_it_is_read_is_kept_for_the_bytes_read(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session being played in another gmscreen grows while a listing reads it: its entry is
    keyed by the bytes that were read, so the index never passes it off as the longer file."""
    from gmscreen.campaign import session_index
    from gmscreen.campaign.safe_files import read_regular as real

    growing = journals(folder)[2]
    index_of(folder).unlink()

    def read_then_append(path: Path, limit: int, start: int = 0) -> bytes:
        data = real(path, limit, start)
        if path == growing:
            with open(path, "ab") as out:
                out.write(b"\n")
        return data

    monkeypatch.setattr(session_index, "read_regular", read_then_append)
    listing = list_entries(sessions_dir(folder))
    assert session_index.write_index(listing)
    monkeypatch.setattr(session_index, "read_regular", real)
    again = list_entries(sessions_dir(folder))
    assert list(again.read) == [growing]  # not believed: read again
    assert again.entries == truth(folder)


# --- the command and the picker -------------------------------------------------------------


@pytest.fixture
def reads(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """How many times each file of the campaign was opened for reading, by name."""
    counts: Counter[str] = Counter()
    real = safe_files.open_regular

    def spy(path: Path, flags: int, mode: int = 0o644) -> int:
        if not flags & (os.O_WRONLY | os.O_RDWR) and path.is_relative_to(folder):
            counts[path.name] += 1
        return real(path, flags, mode)

    monkeypatch.setattr(safe_files, "open_regular", spy)
    monkeypatch.setattr(journal_digest, "open_regular", spy)
    yield counts


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """How many times each journal was parsed (read as events, not only hashed), by name."""
    from gmscreen.campaign import session_index
    from gmscreen.campaign.journal import parse_session as real_parse
    from gmscreen.campaign.journal import read_session as real_read

    counts: Counter[str] = Counter()

    def parse(path: Path, data: bytes, *, damaged_ok: bool = False) -> SessionLog:
        counts[path.name] += 1
        return real_parse(path, data, damaged_ok=damaged_ok)

    def read(path: Path, *, damaged_ok: bool = False) -> SessionLog:
        counts[path.name] += 1
        return real_read(path, damaged_ok=damaged_ok)

    monkeypatch.setattr(session_index, "parse_session", parse)
    monkeypatch.setattr(session_index, "read_session", read)
    yield counts


def test_gmscreen_sessions_parses_no_journal(
    folder: Path, reads: Counter[str], parsed: Counter[str], capsys: pytest.CaptureFixture[str]
) -> None:
    out = sessions_output(folder, capsys)
    hashed = Counter(p.name for p in journals(folder))  # each read once, for its digest
    assert reads == Counter({"campaign.toml": 1, "index.json": 1}) + hashed
    assert parsed == Counter()
    lines = out.splitlines()
    assert len(lines) == 4 and lines[1].startswith("2025-03-01-1     2025-03-01 20:00")
    index_of(folder).unlink()
    assert sessions_output(folder, capsys) == out  # the same, from the journals


def test_the_picker_lists_from_the_index_and_reads_the_journal_it_opens(
    folder: Path, parsed: Counter[str]
) -> None:
    import asyncio

    from gmscreen.tui.replay_app import make_replay_app
    from gmscreen.tui.screens.replay import ReplayScreen
    from gmscreen.tui.screens.replay_picker import SessionPicker
    from gmscreen.tui.widgets.session_table import SessionTable

    async def run() -> None:
        app = make_replay_app(folder, None, config_path=None, strict=True, animations=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            picker = app.screen
            assert isinstance(picker, SessionPicker)
            assert picker.query_one(SessionTable).row_count == 3
            assert parsed == Counter()
            await pilot.press("up", "enter")
            await pilot.pause()
            assert isinstance(app.screen, ReplayScreen)
            assert app.screen.session.header.id == "2025-03-08-1"
            assert parsed == Counter({journals(folder)[1].name: 1})
            await pilot.press("escape")
            journals(folder)[0].write_bytes(b"{damaged after it was listed\n")
            await pilot.press("up", "enter")
            await pilot.pause()
            assert app.screen is picker  # type: ignore[comparison-overlap]  # not opened
            shown = [str(n.message) for n in app.pop_ups_shown()]
            assert any("2025-03-01-1.jsonl:1" in text for text in shown), shown

    asyncio.run(run())
