"""``gmscreen --version`` says the installed package's version: the one pyproject.toml writes."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_version_is_the_one_pyproject_writes() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    done = subprocess.run(
        [sys.executable, "-m", "gmscreen", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        f"gmscreen {project['version']}\n",
        "",
    )
