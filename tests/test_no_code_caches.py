"""No caches of code or data: the records are msgspec Structs, bundled TOML is read as it is.

``code_cache.py`` (a patched ``dataclasses.exec`` and marshalled code in ``__pycache__``) and
``campaign/construct.py`` (generated constructors) are gone and nothing names them; reading the
bundled data writes nothing, even where Python would write its own ``.pyc`` files.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import msgspec
import pytest

from gmscreen.campaign import events as ev
from gmscreen.campaign import model
from gmscreen.data import read_toml

ROOT = Path(__file__).parent.parent


@pytest.mark.parametrize("name", ["gmscreen.code_cache", "gmscreen.campaign.construct"])
def test_the_code_caches_are_gone(name: str) -> None:
    assert importlib.util.find_spec(name) is None
    sources = [*ROOT.joinpath("src").rglob("*.py"), *ROOT.joinpath("benchmarks").rglob("*.py")]
    assert not [p for p in sources if name in p.read_text(encoding="utf-8")]


def test_reading_bundled_toml_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)  # where .pyc files would be written
    (tmp_path / "data.toml").write_text('a = 1\n[b]\nc = "d"\n', encoding="utf-8")
    assert read_toml("data.toml", tmp_path) == {"a": 1, "b": {"c": "d"}}
    assert read_toml("data.toml", tmp_path) == {"a": 1, "b": {"c": "d"}}
    assert [p.name for p in tmp_path.rglob("*")] == ["data.toml"]


@pytest.mark.parametrize(
    "cls",
    [
        *ev.PAYLOADS.values(),
        ev.Event,
        ev.Recovery,
        model.Campaign,
        model.Character,
        model.Item,
        model.MerpProfile,
        model.Settings,
    ],
    ids=lambda c: c.__name__,
)
def test_records_are_frozen_structs(cls: type) -> None:
    assert issubclass(cls, msgspec.Struct)
    assert cls.__struct_config__.frozen
