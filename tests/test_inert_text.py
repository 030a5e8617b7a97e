"""Text is inert everywhere (#13.2): names, notes and campaign names made of markup, escape
sequences, right-to-left and zero-width characters go through add, gain, check, undo, export,
replay's recaps and the CLI with no exception, shown as typed, and no control byte comes out.

The screen's side (pop-ups, dialogs, log, roster, replay) is in tests/tui/test_inert_screen.py;
the raw bytes a real terminal (or a browser's) gets in tests/test_surfaces_inert.py.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from tests.hostile_text import (
    forbidden_in,
    hostile_campaign,
    markdown_shown,
    names,
    shown_as_typed,
)

from gmscreen.campaign.journal import SessionLog
from gmscreen.campaign.recap_markdown import recap_markdown, save_recap
from gmscreen.campaign.store import load_sessions, read_checkpoint
from gmscreen.cli import main
from gmscreen.i18n import LANGUAGES, load_messages
from gmscreen.text import inert, inert_line, json_text

EXAMPLES = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:  # argparse's way out for a bad value
        code = exit_.code if isinstance(exit_.code, int) else 2
    out, err = capsys.readouterr()
    return code, out + err


def _session(folder: Path) -> SessionLog:
    return load_sessions(folder)[-1]


@EXAMPLES
@given(name=names)
def test_a_hostile_name_goes_through_every_path_inert(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with tempfile.TemporaryDirectory() as root:
        folder = hostile_campaign(Path(root), name, notes=name)
        checkpoint, _ = read_checkpoint(folder)
        assert checkpoint.characters[0].name == name  # stored as typed, unchanged
        log = _session(folder)
        outputs = {
            f"recap {lang} {voice}": recap_markdown(name, log, voice == "players", lang)
            for lang in ("en", "es")
            for voice in ("gm", "players")
        }
        saved = save_recap(folder, name, log, players=True)
        outputs["saved recap"] = saved.read_text(encoding="utf-8")
        for argv in (
            ["export", str(folder)],
            ["export", str(folder), "--players", "--lang", "es"],
            ["sessions", str(folder)],
            ["validate", str(folder)],
            ["export", str(folder), f"--session={name}"],  # an error quoting the session id
            ["new", "--dir", root, "--", name],  # an error, or a folder named after it
            ["check", "--pow", "13", "--madness", "14", f"--d100={name}"],
        ):
            code, text = _cli(capsys, *argv)
            assert code in (0, 1, 2), argv
            outputs[" ".join(argv[:1] + argv[2:3])] = text
        code, text = _cli(capsys, "export", str(folder), "--format", "json")
        assert code == 0
        outputs["json"] = text
        exported = json.loads(text)
        assert exported["campaign"] == name  # JSON's own escapes: the value read back exact
        assert any(name == who["name"] for who in exported["standing"])
    for where, text in outputs.items():
        assert forbidden_in(text) == [], where
    # the recaps are Markdown (their markup escaped): a Markdown reader shows the name as typed
    for where in ("recap en gm", "recap es players", "saved recap", "export", "export --players"):
        assert shown_as_typed(name, markdown_shown(outputs[where])), where


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b]0;PWNED\x07", "␛]0;PWNED␇"),
        ("\x1b[2J", "␛[2J"),
        ("a\x9bb", "a\\x9bb"),
        ("a\u202eb", "a\\u202eb"),
        ("a\ud800b", "a\\ud800b"),
        ("Bad[/]", "Bad[/]"),
        ("東京 مرحبا a\u200db", "東京 مرحبا a\u200db"),
    ],
)
def test_inert_shows_control_characters_and_keeps_the_rest(raw: str, shown: str) -> None:
    assert inert(raw) == shown
    assert inert_line(raw + "\n") == shown + "␊"
    assert inert(raw + "\n") == shown + "\n"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalog_holds_no_control_character(lang: str) -> None:
    """Catalog.t makes a whole message inert (one isprintable() instead of one per value):
    that is making its values inert only while the templates themselves are plain lines."""
    for key, template in load_messages(lang).items():
        assert forbidden_in(template) == [] and "\n" not in template, key


def test_json_text_reads_back_exact() -> None:
    value = {"name": "\x1b]0;x\x07\x9b\u202e\ud800東"}
    text = json_text(value)
    assert forbidden_in(text) == [] and "東" in text
    assert json.loads(text) == value
