"""The layer contracts (pyproject.toml, [tool.importlinter]) catch what they promise.

`make test` runs `lint-imports` on the real tree. These tests run it on a copy of the package
with one bad import planted, and check that the contract meant for it fails: a contract that
matched no module would pass silently for ever.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

# (the module the import goes into, the import, the contract that must break)
PLANTED = [
    ("rules/dice.py", "import textual", "rules, campaign and the shared modules never import"),
    ("rules/madness.py", "from rich.text import Text", "rules, campaign and the shared modules"),
    ("campaign/model.py", "from textual.widget import Widget", "rules, campaign and the shared"),
    ("text.py", "import textual.app", "rules, campaign and the shared modules never import"),
    ("rules/dice.py", "import gmscreen.campaign.model", "rules <- campaign <- tui <- cli"),
    ("campaign/store.py", "from gmscreen.tui import format", "rules <- campaign <- tui <- cli"),
    ("tui/format.py", "import gmscreen.cli", "rules <- campaign <- tui <- cli"),
    # cycles: inside a function and under TYPE_CHECKING, where lazy imports once hid them
    (
        "tui/i18n.py",
        "def _later() -> None:\n    import gmscreen.tui.app",
        "no import cycles inside gmscreen.tui",
    ),
    (
        "campaign/model.py",
        "def _later() -> None:\n    import gmscreen.campaign.live",
        "no import cycles inside gmscreen.campaign",
    ),
    (
        "campaign/undo.py",
        "import typing\nif typing.TYPE_CHECKING:\n    import gmscreen.campaign.live",
        "no import cycles inside gmscreen.campaign",
    ),
    (
        "rules/dice.py",
        "def _later() -> None:\n    import gmscreen.rules.tables",
        "no import cycles inside gmscreen.rules",
    ),
]


def lint_imports(tmp_path: Path, plant: tuple[str, str] | None) -> subprocess.CompletedProcess[str]:
    """lint-imports, with the project's contracts, on a copy of src/gmscreen."""
    shutil.copytree(ROOT / "src" / "gmscreen", tmp_path / "gmscreen")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    if plant is not None:
        module, line = plant
        path = tmp_path / "gmscreen" / module
        path.write_text(path.read_text(encoding="utf-8") + f"\n\n{line}\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}  # the copy, before the installed package
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def broken(output: str) -> list[str]:
    return [line for line in output.splitlines() if " BROKEN" in line]


def test_the_copy_keeps_every_contract(tmp_path: Path) -> None:
    """The control: the tests below fail because of the planted import, not of the copy."""
    done = lint_imports(tmp_path, None)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "KEPT" in done.stdout and not broken(done.stdout)


@pytest.mark.parametrize(("module", "line", "contract"), PLANTED)
def test_a_bad_import_breaks_its_contract(
    tmp_path: Path, module: str, line: str, contract: str
) -> None:
    done = lint_imports(tmp_path, (module, line))
    assert done.returncode != 0, done.stdout
    assert [c for c in broken(done.stdout) if c.startswith(contract)], done.stdout


HEADLESS = [  # every command that must run without Textual, and its exit status
    (["check", "--pow", "13", "--madness", "14", "--law", "47", "--d100", "53", "--json"], 0),
    (["roll", "merp-1", "--seed", "1", "--json"], 0),
    (["tables"], 0),
    (["tables", "import", "{folder}/weather.txt", "--campaign", "{campaign}"], 0),
    (["tables", "export", "weather", "--campaign", "{campaign}", "--format", "foundry"], 0),
    (["roll", "weather", "--campaign", "{campaign}", "--json"], 0),
    (["validate", "{campaign}"], 0),
    (["sessions", "{campaign}"], 0),
    (["export", "{campaign}", "--lang", "es"], 0),
    (["new", "Tanelorn", "--dir", "{folder}"], 0),
    (["import-characters", "{campaign}", "{folder}/party.csv"], 0),
    (["replay", "nowhere", "--dir", "{folder}"], 2),  # a bad name: said before Textual loads
    (["replay", "{campaign}", "no-such-session"], 2),
]


def test_headless_commands_load_no_textual(tmp_path: Path) -> None:
    """What the contracts cannot see: gmscreen.cli dispatches to each command by name, and
    loads the screen's command (and Textual) only for the screen and a replay it can open."""
    campaign = tmp_path / "example"
    shutil.copytree(ROOT / "campaigns" / "example", campaign)
    (tmp_path / "weather.txt").write_text("Fog\nRain\n", encoding="utf-8")
    (tmp_path / "party.csv").write_text(
        "name,player,POW,APP,Chaos,Balance,Law\nRackhir,,14,1,2,3,4\n"
    )
    commands = [
        [arg.format(campaign=campaign, folder=tmp_path) for arg in command]
        for command, _ in HEADLESS
    ]
    code = f"""
import contextlib, io, sys
from gmscreen.cli import main
for command in {commands!r}:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        status = main(command)
    loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("textual", "rich"))
    assert not loaded, (command, loaded[:3])
    print(status)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(status) for _, status in HEADLESS]
