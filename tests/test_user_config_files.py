"""The GM's config file read like a campaign file (#25.6): an array nested thousands deep, an
integer of 5,000 digits or an entry that gives no key (``gain = ",,,"``) is one problem named,
never a traceback; the language above the tables still counts; ``export`` reads only that
language, so nothing in ``[keys]`` changes what it prints. The screen opening with each file is
in tests/tui/test_config_problems.py."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from tests.rich_session import fixed_clock
from tests.systems import make_fifo

from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.cli import main
from gmscreen.tui.config import MAX_TOLD, keys_message, load_config
from gmscreen.tui.i18n import Catalog
from gmscreen.user_config import CONFIG_LIMIT, default_config_path, read_top_level

DEEP = "gain = " + "[" * 3000 + "]" * 3000
HUGE = "gain = " + "7" * 5000
NO_KEY = 'gain = ",,,"'

HOSTILE = {
    "deep": (DEEP, ":3: nested more than 64 deep"),
    "huge": (HUGE, ":3: number out of range"),
    "no key": (NO_KEY, None),
}


def config_with(folder: Path, keys_line: str) -> Path:
    path = folder / "config.toml"
    path.write_text(f'language = "es"\n[keys]\n{keys_line}\n', encoding="utf-8")
    return path


@pytest.mark.parametrize("kind", HOSTILE)
def test_each_hostile_file_is_one_problem_and_keeps_the_language(tmp_path: Path, kind: str) -> None:
    keys_line, said = HOSTILE[kind]
    path = config_with(tmp_path, keys_line)
    config = load_config(path)
    assert config.language == "es"  # above the tables: read whatever [keys] holds
    assert config.keys == {}
    if said is None:
        assert config.problems == ("bad:gain",)
        message = keys_message(config.problems, Catalog("en", strict=True).t)
        assert message is not None and "gain is given no key" in message
    else:
        (problem,) = config.problems
        assert problem.startswith(f"file:{path}{said}") and len(problem) < 300


def test_empty_entries_between_keys_are_left_out(tmp_path: Path) -> None:
    path = config_with(tmp_path, 'gain = " G, ,g,"')
    config = load_config(path)
    assert config.keys == {"gain": "G,g"} and config.problems == ()


def test_values_quoted_in_messages_are_clipped(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    ids = "\n".join(f'{"x" * 5_000}{n} = "a"' for n in range(40))
    path.write_text(f"language = {'9' * 4_000}\n[keys]\n{ids}\n", encoding="utf-8")
    config = load_config(path)
    assert len(config.problems) == 41 and all(len(p) < 60 for p in config.problems)
    message = keys_message(config.problems, Catalog("en", strict=True).t)
    assert message is not None and message.count("is no command") == MAX_TOLD
    assert "and 32 more" in message


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda p: p.mkdir(), ": not a file"),
        pytest.param(
            make_fifo, ": not a file", marks=pytest.mark.posix("a FIFO")
        ),  # opened without waiting for a writer
        (
            lambda p: p.write_bytes(b"#" * (CONFIG_LIMIT + 1)),
            ": larger than 256 KiB: not a config file",
        ),
        (lambda p: p.write_bytes(b'language = "es"\n\xff\n'), ":2: not UTF-8 text"),
    ],
    ids=["folder", "fifo", "huge file", "not utf-8"],
)
def test_a_file_that_is_no_config_file(tmp_path: Path, make, said: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "config.toml"
    make(path)
    assert load_config(path).problems == (f"file:{path}{said}",)
    assert read_top_level(path) == {}


@pytest.mark.posix("links as POSIX makes them")
def test_a_link_to_a_config_file_is_read(tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "gmscreen.toml"
    real.parent.mkdir()
    real.write_text('language = "es"\n', encoding="utf-8")
    (tmp_path / "config.toml").symlink_to(real)
    assert load_config(tmp_path / "config.toml").language == "es"


@pytest.fixture
def played(tmp_path: Path) -> Path:
    folder = create_campaign(tmp_path, "Imrryr")
    with open_campaign(folder, rng=random.Random(3), clock=fixed_clock) as live:
        live.add_character("Artinar", 13, chaos=43, balance=32, law=47)
        live.next_round()
    return folder


def _export(folder: Path, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["export", str(folder)]) == 0
    return capsys.readouterr().out


def test_export_reads_only_the_language(played: Path, capsys: pytest.CaptureFixture[str]) -> None:
    user_config = default_config_path()
    if not user_config.is_relative_to(os.environ["XDG_CONFIG_HOME"]):
        pytest.skip("the user config folder does not follow XDG_CONFIG_HOME here")
    user_config.parent.mkdir(parents=True, exist_ok=True)
    english = _export(played, capsys)
    user_config.write_text('language = "es"\n', encoding="utf-8")
    spanish = _export(played, capsys)
    assert spanish != english
    for keys_line, _ in HOSTILE.values():
        config_with(user_config.parent, keys_line)
        assert _export(played, capsys) == spanish
