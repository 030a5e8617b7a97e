"""Shared by the replay tests: a copy of ``campaigns/example`` and the replay app as tests run it."""

from __future__ import annotations

import shutil
from pathlib import Path

from gmscreen.tui.replay_app import ReplayApp, make_replay_app

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "campaigns" / "example"
SESSION = "2024-05-03-1"


def copy_example(root: Path) -> Path:
    target = root / "example"
    shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns(".lock", "exports"))
    return target


def build_replay(folder: Path, session: str | None = SESSION) -> ReplayApp:
    """Strict catalog, no user config, no animation (replay uses no clock and no dice)."""
    return make_replay_app(folder, session, config_path=None, strict=True, animations=False)


def files_of(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``folder``: its bytes and modification time."""
    return {
        str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }
