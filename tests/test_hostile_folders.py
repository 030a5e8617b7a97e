"""A campaign folder prepared by someone else: links, FIFOs and hostile ids planted in it.

Each attack is refused with a message (or quietly made harmless), and nothing outside the
campaign folder changes or appears: a sibling folder is snapshotted before and after, links
and all. FIFO and ``/dev/zero`` journals run in a child process with a timeout and a memory
limit, so a regression fails the test instead of hanging or swapping the suite.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import stat
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace
from tests.systems import make_fifo

from gmscreen.campaign import CampaignError, CampaignFileError, open_campaign
from gmscreen.campaign.journal import read_session, set_aside
from gmscreen.campaign.recap_markdown import save_recap
from gmscreen.campaign.safe_files import UnsafeFile, open_regular, read_regular
from gmscreen.campaign.store import load_sessions
from gmscreen.cli import main

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "campaigns" / "example"
JOURNAL = "2024-05-03-1.jsonl"
PRECIOUS = b"the GM's own notes, not to be touched\n"

posix_only = pytest.mark.posix("links and FIFOs as POSIX makes them; resource limits")


def _tree(root: Path) -> dict[str, tuple[str, bytes | str]]:
    """Everything under ``root``: each entry's kind and content (a link's target, not followed)."""
    seen: dict[str, tuple[str, bytes | str]] = {}
    for path in sorted(root.rglob("*")):
        mode = path.lstat().st_mode
        key = str(path.relative_to(root))
        if stat.S_ISLNK(mode):
            seen[key] = ("link", os.readlink(path))
        elif stat.S_ISREG(mode):
            seen[key] = ("file", path.read_bytes())
        else:
            seen[key] = ("other", "")
    return seen


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A sibling of the campaign folder, holding a file an attacker would like overwritten."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "victim.txt").write_bytes(PRECIOUS)
    return folder


@pytest.fixture
def camp(tmp_path: Path, outside: Path) -> Path:
    target = tmp_path / "camp"
    shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns(".lock", "exports"))
    return target


def _open_and_play(folder: Path) -> None:
    with open_campaign(folder, rng=random.Random(3), checkpoint_every=1) as live:
        live.note("a note written through every file the store touches")
        live.checkpoint()


@posix_only
def test_a_symlinked_lock_is_refused_and_its_target_unchanged(camp: Path, outside: Path) -> None:
    (camp / ".lock").symlink_to(outside / "victim.txt")
    before = _tree(outside)
    with pytest.raises(UnsafeFile, match=r"\.lock: is a symbolic link"):
        open_campaign(camp, rng=random.Random(1))
    assert (outside / "victim.txt").read_bytes() == PRECIOUS
    assert _tree(outside) == before


@posix_only
def test_a_dangling_symlinked_lock_never_creates_its_target(camp: Path, outside: Path) -> None:
    (camp / ".lock").symlink_to(outside / "made-by-the-lock")
    before = _tree(outside)
    with pytest.raises(UnsafeFile, match="symbolic link"):
        open_campaign(camp, rng=random.Random(1))
    assert _tree(outside) == before


@posix_only
def test_a_dangling_symlinked_corrupt_file_is_refused_never_followed(
    camp: Path, outside: Path
) -> None:
    journal = camp / "sessions" / JOURNAL
    with open(journal, "ab") as out:
        out.write(b'{"seq": 99, "attacker chosen text')  # a torn last line
    corrupt = camp / "sessions" / f"{JOURNAL}.corrupt"
    corrupt.symlink_to(outside / "created-by-the-corrupt-copy")
    before = _tree(outside)
    with open_campaign(camp, rng=random.Random(1)) as live:
        refused = [n for n in live.notices if f"{JOURNAL}.corrupt" in n and "symbolic link" in n]
        assert refused, live.notices
    assert not (outside / "created-by-the-corrupt-copy").exists()
    assert corrupt.is_symlink()
    assert _tree(outside) == before


def test_set_aside_keeps_a_real_earlier_copy(camp: Path) -> None:
    journal = camp / "sessions" / JOURNAL
    with open(journal, "ab") as out:
        out.write(b'{"seq": 99')
    log = read_session(journal)
    assert set_aside(log) == journal.with_name(f"{JOURNAL}.corrupt")
    assert set_aside(log) == journal.with_name(f"{JOURNAL}.corrupt")  # once: not an error
    assert journal.with_name(f"{JOURNAL}.corrupt").read_bytes() == b'{"seq": 99'


@posix_only
def test_links_planted_at_predictable_temporary_names_change_nothing(
    camp: Path, outside: Path
) -> None:
    # The names an older gmscreen used for its temporary files (pid-based, so guessable):
    # the checkpoint's and a new journal's. The temporary names are random now; links there
    # are never opened, and campaign.toml stays a regular file.
    victim = outside / "victim.txt"
    pid = os.getpid()
    (camp / f".campaign.toml.{pid}.tmp").symlink_to(victim)
    (camp / f".campaign.toml.{pid}.tmp.dangling").symlink_to(outside / "dangling")
    today = date.today().isoformat()  # the date open_campaign's default clock names sessions by
    for n in range(1, 4):
        name = f".{today}-{n}.jsonl.{pid}.tmp"
        (camp / "sessions" / name).symlink_to(victim)
    before = _tree(outside)
    _open_and_play(camp)
    assert stat.S_ISREG((camp / "campaign.toml").lstat().st_mode)
    assert victim.read_bytes() == PRECIOUS
    assert _tree(outside) == before
    journals = list((camp / "sessions").glob("*.jsonl"))
    assert all(stat.S_ISREG(p.lstat().st_mode) for p in journals) and len(journals) == 2


@posix_only
def test_a_campaign_toml_that_is_a_link_is_refused(camp: Path, outside: Path) -> None:
    (outside / "campaign.toml").write_bytes((camp / "campaign.toml").read_bytes())
    (camp / "campaign.toml").unlink()
    (camp / "campaign.toml").symlink_to(outside / "campaign.toml")
    before = _tree(outside)
    with pytest.raises(CampaignFileError, match=r"campaign\.toml: is a symbolic link"):
        open_campaign(camp, rng=random.Random(1))
    assert _tree(outside) == before


@posix_only
def test_a_journal_that_is_a_link_elsewhere_is_refused(camp: Path, outside: Path) -> None:
    (outside / "other.jsonl").write_bytes((camp / "sessions" / JOURNAL).read_bytes())
    (camp / "sessions" / "2024-06-01-1.jsonl").symlink_to(outside / "other.jsonl")
    with pytest.raises(CampaignFileError, match=r"2024-06-01-1\.jsonl: is a symbolic link"):
        load_sessions(camp)


@posix_only
def test_sessions_and_exports_that_are_links_are_refused(camp: Path, outside: Path) -> None:
    log = read_session(camp / "sessions" / JOURNAL)
    (camp / "exports").symlink_to(outside)
    before = _tree(outside)
    with pytest.raises(UnsafeFile, match=r"exports: is a symbolic link"):
        save_recap(camp, "Example", log)
    assert _tree(outside) == before
    shutil.move(camp / "sessions", outside / "sessions")
    (camp / "sessions").symlink_to(outside / "sessions")
    with pytest.raises(CampaignFileError, match=r"sessions: is a symbolic link") as info:
        load_sessions(camp)
    # Said as the exports' is: how to mend it, never "remove it" (which hides the sessions).
    assert str(info.value).endswith("put the folder it links to here in its place")


def _with_header_id(journal: Path, session_id: object) -> None:
    lines = journal.read_bytes().split(b"\n")
    header = json.loads(lines[0])
    header["id"] = session_id
    lines[0] = json.dumps(header).encode()
    journal.write_bytes(b"\n".join(lines))


@pytest.mark.parametrize(
    "bad_id", ["../../../x", "..", "a/b", "a\\b", "x\x1b]0;t\x07", "x\u202ey", "", 7]
)
def test_a_hostile_session_id_is_a_file_line_message(
    camp: Path, outside: Path, bad_id: object, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = camp / "sessions" / JOURNAL
    _with_header_id(journal, bad_id)
    with pytest.raises(CampaignFileError) as info:
        load_sessions(camp)
    assert str(info.value).startswith(f"{journal}:1: id: ")
    assert main(["validate", str(camp)]) == 1
    assert f"{journal}:1: id: " in capsys.readouterr().out


def test_a_traversing_session_id_never_writes_outside_exports(camp: Path, outside: Path) -> None:
    good = read_session(camp / "sessions" / JOURNAL)
    before = _tree(camp.parent)
    for bad in ("../../outside/x", "../x", "..", "x/../../y"):
        log = replace(good, header=replace(good.header, id=bad))
        for players in (False, True):
            with pytest.raises(CampaignError, match="export name"):
                save_recap(camp, "Example", log, players)
    assert _tree(camp.parent) == before
    path = save_recap(camp, "Example", good, players=True)
    assert path == camp / "exports" / "2024-05-03-1-players.md" and path.is_file()


def _child(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter with 1 GiB of address space and a 60 s timeout."""
    limited = "import resource; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n" + code
    return subprocess.run(
        [sys.executable, "-c", limited, *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
    )


VALIDATE = "import sys; from gmscreen.cli import main; sys.exit(main(['validate', sys.argv[1]]))"
OPEN = """
import random, sys
from gmscreen.campaign import CampaignFileError, open_campaign
try:
    open_campaign(sys.argv[1], rng=random.Random(1))
except CampaignFileError as error:
    print(error)
    sys.exit(1)
"""


@posix_only
@pytest.mark.parametrize("code", [VALIDATE, OPEN], ids=["validate", "open"])
def test_a_fifo_journal_is_refused_promptly(camp: Path, outside: Path, code: str) -> None:
    fifo = camp / "sessions" / "2024-06-01-1.jsonl"
    make_fifo(fifo)
    before = _tree(outside)
    done = _child(code, str(camp))
    assert done.returncode == 1, done.stderr
    assert f"{fifo}: is a FIFO (named pipe), not a regular file" in done.stdout
    assert "Traceback" not in done.stderr
    assert _tree(outside) == before
    assert not (camp / ".lock").exists()


@posix_only
@pytest.mark.parametrize("code", [VALIDATE, OPEN], ids=["validate", "open"])
def test_a_journal_linked_to_dev_zero_is_refused_in_bounded_memory(
    camp: Path, outside: Path, code: str
) -> None:
    (camp / "sessions" / "2024-06-01-1.jsonl").symlink_to("/dev/zero")
    done = _child(code, str(camp))
    assert done.returncode == 1, done.stderr
    assert "2024-06-01-1.jsonl: is a symbolic link" in done.stdout
    assert "Traceback" not in done.stderr


@posix_only
def test_a_journal_over_the_size_bound_is_refused_without_reading_it(camp: Path) -> None:
    huge = camp / "sessions" / "2024-06-01-1.jsonl"
    with open(huge, "wb") as out:
        out.truncate(513 * 1024 * 1024)  # sparse: no disk used, and never read
    done = _child(VALIDATE, str(camp))
    assert done.returncode == 1, done.stderr
    assert "is larger than gmscreen reads (513 MiB; the limit is 512 MiB)" in done.stdout


def test_read_regular_stops_at_its_bound(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"x" * 100)
    assert read_regular(path, 100) == b"x" * 100
    with pytest.raises(CampaignFileError, match="larger than gmscreen reads"):
        read_regular(path, 99)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_a_device_itself_is_refused() -> None:
    with pytest.raises(UnsafeFile, match="is a device, not a regular file"):
        open_regular(Path("/dev/zero"), os.O_RDONLY)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_any_session_id_exports_inside_exports_or_is_refused(session_id: str) -> None:
    with tempfile.TemporaryDirectory(prefix="files-ids-") as root:
        camp = Path(root) / "camp"
        shutil.copytree(EXAMPLE, camp, ignore=shutil.ignore_patterns(".lock", "exports"))
        good = read_session(camp / "sessions" / JOURNAL)
        log = replace(good, header=replace(good.header, id=session_id))
        before = _tree(Path(root))
        try:
            path = save_recap(camp, "Example", log, players=True)
        except CampaignError:
            assert _tree(Path(root)) == before
            return
        assert path.parent == camp / "exports" and path.is_file()
        after = _tree(Path(root))
        assert set(after) - set(before) == {"camp/exports", f"camp/exports/{path.name}"}


@posix_only
@pytest.mark.parametrize("command", ["validate", "export", "sessions"])
def test_a_dangling_campaign_toml_link_is_named_not_taken_for_no_campaign(
    camp: Path, outside: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (camp / "campaign.toml").unlink()
    (camp / "campaign.toml").symlink_to(outside / "gone.toml")  # a synced folder not mounted
    assert main([command, str(camp)]) == 1
    out = capsys.readouterr()
    assert "campaign.toml: is a symbolic link" in out.out + out.err
