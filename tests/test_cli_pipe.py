"""A reader that stops early ends every command quietly, as Unix tools end: no "error: Broken
pipe", no traceback, no "Exception ignored", and exit status 141 (128 + SIGPIPE), what a shell
reports for ``seq 100000 | head``.

Each command runs in a process of its own, its stdout a real pipe whose reader has already
closed (so that every write fails, whatever the timing), and once with a reader that takes the
first line and closes (``| head -n 1``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gmscreen.cli import READER_GONE

REPO = Path(__file__).resolve().parents[1]
CHECK = ["--pow", "13", "--chaos", "43", "--law", "47", "--balance", "32", "--madness", "14"]

# every command that prints; CAMPAIGN stands for a copy of the example campaign, ROOT its folder
COMMANDS = {
    "tables": ["tables"],
    "tables one, JSON": ["tables", "merp-1", "--json"],
    "roll": ["roll", "merp-2", "--seed", "7"],
    "check": ["check", *CHECK, "--d100", "53", "--d6", "3"],
    "sessions": ["sessions", "CAMPAIGN"],
    "export": ["export", "CAMPAIGN"],
    "export all, JSON": ["export", "CAMPAIGN", "--session", "all", "--format", "json"],
    "validate": ["validate", "CAMPAIGN"],
    "campaign list": ["--dir", "ROOT"],
    "version": ["--version"],
    "help": ["--help"],
    "a command's help": ["sessions", "--help"],
}
# argparse writes its help and hides a failed write: unbuffered, the failure is not seen, and
# gmscreen ends quietly with status 0 (buffered, the flush in cli.main sees it)
ARGPARSE_WRITES = {"help", "a command's help"}


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    target = tmp_path / "campaigns" / "example"
    shutil.copytree(REPO / "campaigns" / "example", target)
    return target


def command(name: str, campaign: Path) -> list[str]:
    where = {"CAMPAIGN": str(campaign), "ROOT": str(campaign.parent)}
    return [sys.executable, "-m", "gmscreen", *(where.get(a, a) for a in COMMANDS[name])]


def environment(unbuffered: bool) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONUNBUFFERED", None)  # a GM's shell: stdout into a pipe is block-buffered
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    return env


@pytest.fixture
def closed_pipe() -> Iterator[int]:
    """The write end of a pipe whose reader has gone before anything was written."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    yield write_end
    os.close(write_end)


@pytest.mark.posix("EPIPE and 141 (128 + SIGPIPE) are POSIX's; Windows says EINVAL, unchecked")
@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("name", COMMANDS)
def test_a_reader_gone_ends_the_command_quietly(
    name: str, unbuffered: bool, campaign: Path, closed_pipe: int
) -> None:
    done = subprocess.run(
        command(name, campaign),
        stdin=subprocess.DEVNULL,
        stdout=closed_pipe,
        stderr=subprocess.PIPE,
        env=environment(unbuffered),
        text=True,
        timeout=120,
        check=False,
    )
    quiet = 0 if unbuffered and name in ARGPARSE_WRITES else READER_GONE
    assert (done.returncode, done.stderr) == (quiet, "")


@pytest.mark.linux("fcntl's F_SETPIPE_SZ: a pipe of one page")
def test_head_takes_one_line_and_closes(campaign: Path) -> None:
    """``gmscreen export CAMPAIGN --session all --format json | head -n 1``: the reader takes the
    first line and goes while gmscreen is still writing. The pipe holds one page (4 KiB), so
    the recap (over 16 KiB) cannot all fit in before the reader closes."""
    if sys.platform != "linux":  # the test is marked linux
        raise NotImplementedError("F_SETPIPE_SZ")
    import fcntl

    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, 4096)
    with subprocess.Popen(
        command("export all, JSON", campaign),
        stdin=subprocess.DEVNULL,
        stdout=write_end,
        stderr=subprocess.PIPE,
        env=environment(unbuffered=False),
        text=True,
    ) as process:
        os.close(write_end)
        with os.fdopen(read_end, encoding="utf-8") as reader:
            assert reader.readline() == "[\n"
        assert process.stderr is not None
        stderr = process.stderr.read()
        assert (process.wait(timeout=120), stderr) == (READER_GONE, "")
    written = subprocess.run(
        command("export all, JSON", campaign),
        capture_output=True,
        env=environment(unbuffered=False),
        check=True,
    )
    assert len(written.stdout) > 16 * 1024
