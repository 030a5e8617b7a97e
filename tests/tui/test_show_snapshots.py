"""How the players' screen looks (120×40, no animation) after the rich session: large, calm,
words only."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.rich_session import rich_campaign
from tests.tui.conftest import SIZE

from gmscreen.tui.show_app import make_show_app

Snap = Callable[..., bool]


def test_show_after_a_rich_session(snap_compare: Snap, tmp_path: Path) -> None:
    folder, _ = rich_campaign(tmp_path)
    app = make_show_app(folder, lang="en", strict=True, animations=False)
    assert snap_compare(app, terminal_size=SIZE)
