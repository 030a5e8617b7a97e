"""gmscreen new / validate / sessions / export, through the real entry point."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gmscreen.cli import main

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "campaigns" / "example"


@pytest.fixture
def example(tmp_path: Path) -> Path:
    target = tmp_path / "example"
    shutil.copytree(EXAMPLE, target)
    return target


def test_new_makes_a_slugged_campaign(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "Elric's Party", "--dir", str(tmp_path)]) == 0
    assert (tmp_path / "elric-s-party" / "campaign.toml").is_file()
    assert main(["validate", "elric-s-party", "--dir", str(tmp_path)]) == 0
    assert main(["new", "Elric's Party", "--dir", str(tmp_path)]) == 2
    assert "already exists" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["", "a/b", "..", "tab\there"])
def test_new_rejects_bad_names(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", name, "--dir", str(tmp_path)]) == 2
    assert "gmscreen new: error:" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_campaigns_folder_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GMSCREEN_CAMPAIGNS", str(tmp_path / "env"))
    assert main(["new", "Env"]) == 0
    assert (tmp_path / "env" / "env" / "campaign.toml").is_file()


def test_validate_lists_every_problem(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(example)]) == 0
    assert "valid (4 characters, 1 session, 23 events)" in capsys.readouterr().out
    toml = example / "campaign.toml"
    toml.write_text(
        toml.read_text().replace("pow = 13", "pow = -2").replace("law = 47", 'law = "x"')
    )
    journal = next((example / "sessions").glob("*.jsonl"))
    lines = journal.read_bytes().splitlines(keepends=True)
    journal.write_bytes(b"".join([lines[0], b"{oops\n", *lines[2:]]))
    assert main(["validate", str(example)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3
    assert all(re.match(r".+:\d+: ", line) for line in out), out
    assert any("campaign.toml" in line and "pow" in line for line in out)
    assert any(".jsonl:2: not valid JSON" in line for line in out)


def test_validate_counts_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import random

    from gmscreen.campaign.opening import open_campaign

    folder = tmp_path / "one"
    assert main(["new", "One", "--dir", str(tmp_path)]) == 0
    with open_campaign(folder, rng=random.Random(1)) as live:
        live.add_character("Artinar", 13)  # one session, one event
    capsys.readouterr()
    assert main(["validate", str(folder)]) == 0
    assert capsys.readouterr().out == f"{folder}: valid (1 character, 1 session, 1 event)\n"
    with open_campaign(folder, rng=random.Random(2)) as live:
        live.add_character("Bors", 12)
        live.note("a second")
    assert main(["validate", str(folder)]) == 0
    assert "valid (2 characters, 2 sessions, 3 events)" in capsys.readouterr().out
    from gmscreen.campaign.journal_stream import Progress

    said = Progress(journals=1, events=1234).said()  # what an interrupted validate says
    assert said == "0 of 1 journal checked (1,234 events); stopped at the start"


def test_sessions_lists_them(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sessions", str(example)]) == 0
    out = capsys.readouterr().out
    assert "2024-05-03-1" in out and "day 1, 08:00 → day 2, 00:00" in out


def test_export_markdown_reads_like_a_recap(
    example: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", str(example), "--format", "md"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Recap of Example: the Dreaming City")
    assert "Artinar: Madness check under Law 47 (fumbles 00) · 1d100: 53 (typed) · failure" in out
    assert "Artinar: Phobia is over · madness 14 → 7" in out
    assert "~~" in out and "(undone)" in out
    assert "Traceback" not in out


def test_export_for_players_hides_the_numbers(
    example: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", str(example), "--players"]) == 0
    out = capsys.readouterr().out
    body = [line for line in out.splitlines() if line.startswith("- ")]
    assert body
    for line in body:
        text = re.sub(r"\*\*day \d+, [\d:]+\*\*", "", line)  # game time is not a secret
        text = re.sub(r"Time passes: [^(]*|End of day \d+", "", text)
        assert not re.search(r"\d", text.split("(to day")[0]), line
    for secret in ("madness", "POW", "Law", "Chaos", "undone", "Undone", "Note"):
        assert secret not in out


def test_export_json(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", str(example), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["session"] == "2024-05-03-1" and data["lines"][0]["seq"] == 1
    assert any(line["void"] for line in data["lines"])
    assert main(["export", str(example), "--format", "json", "--players"]) == 0
    players = json.loads(capsys.readouterr().out)
    assert all("event" not in line for line in players["lines"])


def test_export_unknown_session(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", str(example), "--session", "1999-01-01-1"]) == 2
    assert "choose one of 2024-05-03-1" in capsys.readouterr().err


def test_missing_campaign(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sessions", str(tmp_path / "nope"), "--dir", str(tmp_path)]) == 2
    assert "no campaign at" in capsys.readouterr().err


def test_new_where_no_folder_can_be_made_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert main(["new", "Stormbringer", "--dir", str(blocker)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("gmscreen new: error:") and "Not a directory" in err and "\n" not in err


def test_a_demo_copy_is_removed_when_the_process_ends() -> None:
    code = "from gmscreen.campaign.paths import make_demo_copy; print(make_demo_copy())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    copy = Path(done.stdout.strip())
    assert copy.name and not copy.exists() and not copy.parent.exists()


def test_export_of_every_session_streams_each_recap_in_turn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from gmscreen.campaign.journal import list_sessions
    from gmscreen.campaign.paths import demo_source
    from gmscreen.campaign.store import sessions_dir

    shutil.copytree(demo_source(), tmp_path / "demo")  # export writes the session index
    demo = str(tmp_path / "demo")
    ids = [p.stem for p in list_sessions(sessions_dir(tmp_path / "demo"))]
    assert len(ids) > 1
    assert main(["export", demo, "--session", "all", "--format", "json"]) == 0
    assert [s["session"] for s in json.loads(capsys.readouterr().out)] == ids
    assert main(["export", demo, "--session", "all"]) == 0
    every = capsys.readouterr().out
    for session in ids:
        assert main(["export", demo, "--session", session]) == 0
        assert capsys.readouterr().out in every  # each session's recap, as exported alone
