"""Every test runs as if on a machine with no user config and an English-neutral locale, so the
language never depends on who runs the tests (gmscreen.i18n.resolve_language), and leaves the
collector as it found it."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.systems import skip_reason


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test marked posix or linux is skipped elsewhere, with its reason (tests/systems.py)."""
    for item in items:
        reason = skip_reason(item.iter_markers())
        if reason is not None:
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(autouse=True)
def neutral_locale(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    monkeypatch.setenv("LC_ALL", "C")
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "C")
    config_home: Path = tmp_path_factory.mktemp("config-home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config_home))
    # a crash report (gmscreen.cli.crash) writes its log there: never into the real home
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state-home")))


@pytest.fixture(autouse=True)
def collector_unfrozen() -> Iterator[None]:
    """An app freezes what its start-up made at its first frame (``BaseApp.on_ready``): for the
    life of the process, which for a test is the test. Left frozen, every app of the run would
    stay in memory, cycles and all."""
    yield
    gc.unfreeze()
