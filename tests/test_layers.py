"""The pure layers never import Textual (ARCHITECTURE.md: imports point down only)."""

from __future__ import annotations

import subprocess
import sys

PURE = ("gmscreen.rules", "gmscreen.campaign")


def test_pure_layers_load_no_textual() -> None:
    code = f"""
import importlib, pkgutil, sys
for name in {PURE!r}:
    package = importlib.import_module(name)
    for info in pkgutil.walk_packages(package.__path__, name + "."):
        importlib.import_module(info.name)
loaded = sorted(m for m in sys.modules if m == "textual" or m.startswith("textual."))
assert not loaded, loaded[:5]
print("checked", sorted(m for m in sys.modules if m.startswith({PURE!r})))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "gmscreen.rules.madness" in done.stdout
