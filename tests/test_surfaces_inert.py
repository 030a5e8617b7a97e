"""No escape sequence reaches a players' surface (#25.1): a campaign holds an OSC, a CSI and a
one-byte CSI in every text a surface can show (``tests/hostile_surfaces.py``: the campaign's
name, each character's and player's name, the campaign's own words for each band, shared and
GM notes, an item's name …), and the raw bytes each surface writes are read:

- the GM's screen in a pseudo-terminal, then its player view (``p``);
- ``gmscreen show`` in a pseudo-terminal;
- ``gmscreen serve``: what its websocket sends a browser's terminal, and the page itself;
- the players' recap as ``export --players`` prints it, Markdown and JSON.

Every byte written is checked for the planted sequences and for any ESC or BEL that is not
part of the terminal's own sequences, and each field must be on the surfaces that show it, its
escape made visible (``␛]0;PWNED-w-calm␇``): a surface that showed nothing would pass nothing.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.hostile_surfaces import (
    FIELDS,
    GM,
    PLAYER_VIEW,
    RECAP,
    SERVE,
    SHOW,
    expected,
    hostile_table,
    raw_escapes,
)
from tests.hostile_text import markdown_shown
from tests.terminals import (
    TERMINAL_SEQUENCES,
    Terminal,
    browser_terminal,
    drawn_text,
    free_port,
    served_page,
    serving,
)

from gmscreen.cli import main


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return hostile_table(tmp_path_factory.mktemp("hostile"))


def shows_all(surface: str, after: int = 0) -> Callable[[bytes], bool]:
    """Whether the bytes written so far (from ``after`` on) draw every field ``surface`` shows."""
    wanted = expected(surface)
    return lambda raw: all(text in drawn_text(raw[after:]) for text in wanted)


def missing(surface: str, raw: bytes) -> list[str]:
    text = drawn_text(raw)
    return [shown for shown in expected(surface) if shown not in text]


@pytest.mark.posix("a pseudo-terminal")
def test_the_gms_screen_and_player_view(table: Path, tmp_path: Path) -> None:
    with Terminal([str(table)], tmp_path) as terminal:
        gm = terminal.read_until(shows_all(GM))
        before_p = len(terminal.written)
        terminal.type(b"p")
        player_view = terminal.read_until(shows_all(PLAYER_VIEW, after=before_p))
        terminal.type(b"q")
        status = terminal.close()
        raw = bytes(terminal.written)
    assert raw_escapes(raw, TERMINAL_SEQUENCES) == []
    assert gm, missing(GM, raw)
    assert player_view, missing(PLAYER_VIEW, raw[before_p:])
    assert status == 0


@pytest.mark.posix("a pseudo-terminal")
def test_show(table: Path, tmp_path: Path) -> None:
    with Terminal(["show", str(table)], tmp_path) as terminal:
        shown = terminal.read_until(shows_all(SHOW))
        terminal.type(b"q")
        status = terminal.close()
        raw = bytes(terminal.written)
    assert raw_escapes(raw, TERMINAL_SEQUENCES) == []
    assert shown, missing(SHOW, raw)
    assert status == 0


def test_a_serve_browser(table: Path) -> None:
    pytest.importorskip("textual_serve", reason="the serve extra is not installed")

    async def browse(url: str) -> tuple[bytes, str]:
        return await browser_terminal(url, shows_all(SERVE)), await served_page(url)

    with serving(table, free_port(), campaign=FIELDS[0].shown) as url:
        raw, page = asyncio.run(browse(url))
    assert raw_escapes(raw, TERMINAL_SEQUENCES) == []
    assert missing(SERVE, raw) == []
    assert raw_escapes(page.encode(), TERMINAL_SEQUENCES) == []
    assert FIELDS[0].shown in page  # the campaign's name: the page's title


def test_the_players_recap(table: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", str(table), "--players"]) == 0
    markdown = capsys.readouterr().out
    assert main(["export", str(table), "--players", "--format", "json"]) == 0
    as_json = capsys.readouterr().out
    for printed in (markdown, as_json):
        assert raw_escapes(printed.encode(), TERMINAL_SEQUENCES) == []
    shown = markdown_shown(markdown)
    assert [text for text in expected(RECAP) if text not in shown] == []
    # JSON keeps each value exact for a program reading it (escaped as JSON escapes it)
    values = "\n".join(strings(json.loads(as_json)))
    planted = [f.text for f in FIELDS if RECAP in f.seen_on]
    assert [text for text in planted if text not in values] == []


def strings(value: object) -> list[str]:
    """Every text a JSON value holds."""
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return [value] if isinstance(value, str) else []
