"""The posix and linux marks skip a test on the systems it cannot run on, saying why, and only
there (tests/systems.py; the conftest applies it to every test collected)."""

from __future__ import annotations

import sys

import pytest
from tests.systems import skip_reason

POSIX = pytest.mark.posix("a FIFO").mark
LINUX = pytest.mark.linux(reason="/proc").mark
OTHER = pytest.mark.parametrize("x", [1]).mark


@pytest.mark.parametrize(
    ("platform", "posix", "linux"),
    [
        ("win32", "POSIX only: a FIFO", "Linux only: /proc"),
        ("darwin", None, "Linux only: /proc"),
        ("linux", None, None),
    ],
)
def test_each_mark_skips_where_it_cannot_run_with_its_reason(
    platform: str, posix: str | None, linux: str | None
) -> None:
    assert skip_reason([POSIX], platform) == posix
    assert skip_reason([LINUX], platform) == linux
    assert skip_reason([OTHER], platform) is None
    assert skip_reason([OTHER, POSIX, LINUX], platform) == (posix or linux)


@pytest.mark.parametrize("mark", [pytest.mark.posix, pytest.mark.linux("")])
def test_a_mark_without_its_reason_is_refused(mark: pytest.MarkDecorator) -> None:
    with pytest.raises(pytest.UsageError, match="needs its reason"):
        skip_reason([mark.mark], "win32")


@pytest.mark.posix("this test itself: it must not run on Windows")
def test_a_marked_test_runs_only_where_its_mark_lets_it() -> None:
    assert sys.platform != "win32"
