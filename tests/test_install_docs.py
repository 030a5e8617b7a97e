"""gmscreen is on no public package index: nothing tells a GM to install it from one by name
(``pip install 'gmscreen[serve]'``, which would find nothing or someone else's package), and
``serve``'s message when its extra is missing names the commands README's Install gives."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gmscreen.cli import serve_cmd

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")

# `pip install gmscreen`, `pipx install --force 'gmscreen[serve]'`, `uv tool install gmscreen`...:
# the name alone, not a path, a wheel's file name or `gmscreen[serve] @ file:///...`
BY_NAME = re.compile(
    r"\binstall\s+(?:-\S+\s+)*['\"]?gmscreen(?:\[\w+\])?['\"]?(?=[\s`),;]|$)(?!\s*@)",
    re.MULTILINE,
)


def texts() -> dict[str, str]:
    files = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md"]
    files += sorted((ROOT / "docs").glob("*.md"))
    files += sorted((ROOT / "src" / "gmscreen").rglob("*.py"))
    files += sorted((ROOT / "src" / "gmscreen").rglob("*.toml"))
    return {str(f.relative_to(ROOT)): f.read_text(encoding="utf-8") for f in files}


@pytest.mark.parametrize(
    ("line", "by_name"),
    [
        ("pip install 'gmscreen[serve]'", True),
        ("`pipx install --force gmscreen`", True),
        ("uv tool install gmscreen", True),
        ("pipx install /path/to/gmscreen", False),
        ("pipx install --force '/path/to/gmscreen[serve]'", False),
        ("pipx install 'gmscreen-0.1.0-py3-none-any.whl[serve]'", False),
        ("pipx install 'gmscreen[serve] @ file:///path/to/gmscreen'", False),
        ("`pipx uninstall gmscreen` removes it", False),
    ],
)
def test_the_pattern_finds_an_install_by_name(line: str, by_name: bool) -> None:
    assert bool(BY_NAME.search(line)) is by_name


def test_nothing_says_to_install_gmscreen_from_an_index() -> None:
    found = {name: m.group() for name, text in texts().items() if (m := BY_NAME.search(text))}
    assert found == {}


def test_serve_names_the_install_readme_gives() -> None:
    for command in (
        "pipx install --force '/path/to/gmscreen[serve]'",
        "uv tool install '/path/to/gmscreen[serve]'",
    ):
        assert command in serve_cmd.EXTRA
        assert command in README
