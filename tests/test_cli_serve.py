"""``gmscreen serve``: the extra named when textual-serve is missing, 127.0.0.1 unless --host,
and the served command is the read-only ``show`` on the same campaign (the browser test in
tests/test_serve_browser.py runs it for real)."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

import pytest

from gmscreen.campaign.paths import create_campaign
from gmscreen.cli import SUBCOMMANDS, main, serve_cmd


def parsed(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    serve_cmd.configure(parser)
    return parser.parse_args(argv)


def test_serve_is_a_subcommand() -> None:
    assert SUBCOMMANDS["serve"] == "gmscreen.cli.serve_cmd"


def test_without_the_extra_the_message_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = create_campaign(tmp_path, "Imrryr")
    monkeypatch.setitem(sys.modules, "textual_serve.server", None)  # as if not installed
    monkeypatch.delitem(sys.modules, "gmscreen.cli.players_server", raising=False)
    assert main(["serve", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err == (
        "gmscreen serve needs the serve extra: pipx install --force '/path/to/gmscreen[serve]' "
        "(or uv tool install '/path/to/gmscreen[serve]'), /path/to/gmscreen being the folder or "
        "wheel gmscreen was installed from (README: Install)\n"
    )


def test_it_binds_to_this_computer_only_unless_told() -> None:
    assert parsed("c").host == "127.0.0.1"
    assert parsed("c", "--host", "0.0.0.0", "--port", "9000").port == 9000
    assert serve_cmd.public_url("127.0.0.1", 8019) == "http://127.0.0.1:8019"
    assert serve_cmd.public_url("::1", 8019) == "http://[::1]:8019"
    # A wildcard is no address a browser can open: the URL names this computer instead.
    assert not serve_cmd.public_url("0.0.0.0", 8019).startswith("http://0.0.0.0")


def test_the_help_is_plain_words(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    out = capsys.readouterr().out
    assert "``" not in out and ":mod:" not in out
    assert "port to listen on (default 8019)" in out
    assert "--max-clients N" in out and "(default 12: a table's worth" in out
    assert parsed("c").max_clients == 12 and parsed("c", "--max-clients", "3").max_clients == 3


def test_a_bad_port_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "c", "--port", "70000"])
    assert "--port" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["serve", "c", "--max-clients", "0"])
    assert "--max-clients" in capsys.readouterr().err


def test_the_served_command_is_show(tmp_path: Path) -> None:
    folder = tmp_path / "a folder; rm -rf ~"  # quoted for the shell textual-serve runs
    argv = shlex.split(serve_cmd.show_command(folder, "es"))
    # exec: the shell becomes show, one process a browser
    assert argv == ["exec", sys.executable, "-m", "gmscreen", "show", str(folder), "--lang", "es"]


def test_the_theme_is_handed_to_show(tmp_path: Path) -> None:
    argv = shlex.split(serve_cmd.show_command(tmp_path, None, "solarized-light"))
    assert argv[-2:] == ["--theme", "solarized-light"] and argv[4] == "show"
    assert parsed("c", "--theme", "nord").theme == "nord"
