"""The [keys] table's problems (tui/config.py): a key given to two commands live at once, a
command left without a key, unknown ids and empty entries; the shipped keys have none."""

from __future__ import annotations

from pathlib import Path

from gmscreen.tui.config import key_clashes, load_config


def test_the_default_keys_clash_nowhere() -> None:
    assert key_clashes({}) == []


def test_a_key_taken_from_another_command_and_two_commands_on_one_key(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        '[keys]\nundo = "g"\nredo = "z"\nlog_filter = "z"\nreplay_close = "e"\nnope = "x"\n'
        'quit = ""\nitems_roll = "r,R"\n',
        encoding="utf-8",
    )
    problems = load_config(config).problems
    assert "unknown:nope" in problems and "bad:quit" in problems
    assert "clash:main:g:gain,undo" in problems and "keyless:gain" in problems
    assert "clash:main:z:redo,log_filter" in problems
    assert "clash:replay:e:replay_export,replay_close" in problems
    assert "keyless:replay_export" in problems
    assert not any(":R:" in p or "items_roll" in p for p in problems)  # R is free in the items
