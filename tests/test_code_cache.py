"""The start-up caches: dataclass code and parsed data files, the same as made without them."""

from __future__ import annotations

import dataclasses
import inspect
import json
import os
import shutil
import subprocess
import sys
import tomllib
import types
from pathlib import Path
from typing import Any

import pytest

from gmscreen.code_cache import compile_source, dataclasses_compiled_once
from gmscreen.data import data_path, read_toml


@pytest.fixture(autouse=True)
def bytecode_may_be_written(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a GM's machine (this sandbox sets PYTHONDONTWRITEBYTECODE)."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


SAMPLES = """
from __future__ import annotations
import dataclasses
from dataclasses import dataclass, field, KW_ONLY

@dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int = 0
    tags: tuple[str, ...] = ()

@dataclass(order=True)
class Ranked:
    rank: int
    names: list[str] = field(default_factory=list)
    hidden: int = field(default=3, repr=False, compare=False)

@dataclass(frozen=True)
class Keyed:
    a: int
    _: KW_ONLY
    b: str = "b"

@dataclass(slots=True)
class Posted:
    n: int
    doubled: int = field(init=False)
    def __post_init__(self) -> None:
        self.doubled = self.n * 2
"""


def make_samples() -> dict[str, Any]:
    """A fresh module of sample classes (dataclasses looks string annotations up in it)."""
    module = types.ModuleType("code_cache_samples")
    sys.modules[module.__name__] = module
    try:
        exec(compile(SAMPLES, "code_cache_samples", "exec"), module.__dict__)
    finally:
        del sys.modules[module.__name__]
    return module.__dict__


def behaviour(ns: dict[str, Any]) -> list[Any]:
    """What a program can observe of the sample classes."""
    point, ranked, keyed, posted = ns["Point"], ns["Ranked"], ns["Keyed"], ns["Posted"]
    seen: list[Any] = []
    p = point(1, tags=("a",))
    seen += [repr(p), p == point(1, 0, ("a",)), p != point(2), hash(p) == hash(point(1, 0, ("a",)))]
    try:
        p.x = 5
    except dataclasses.FrozenInstanceError as error:
        seen.append(f"frozen: {error}")
    try:
        del p.y
    except dataclasses.FrozenInstanceError as error:
        seen.append(f"frozen: {error}")
    seen += [repr(dataclasses.replace(p, y=7)), point.__match_args__, point.__slots__]
    r1, r2 = ranked(1, ["x"], hidden=9), ranked(2)
    seen += [repr(r1), r1 < r2, r1 == ranked(1, ["x"]), sorted([r2, r1]) == [r1, r2]]
    seen += [r2.names is not ranked(2).names, ranked.__hash__ is None]
    seen += [repr(keyed(1, b="c")), str(inspect.signature(keyed))]
    try:
        keyed(1, "c")  # type: ignore[misc]
    except TypeError as error:
        seen.append(f"kw_only: {error}")
    seen += [repr(posted(4)), [f.name for f in dataclasses.fields(posted)]]
    for cls in (point, ranked, keyed, posted):
        seen.append(str(inspect.signature(cls)))
        seen.append({k: str(v) for k, v in cls.__init__.__annotations__.items()})
        seen.append(cls.__doc__)
    return seen


def test_classes_made_through_the_cache_behave_as_without_it(tmp_path: Path) -> None:
    plain = behaviour(make_samples())
    cache_file = tmp_path / "code.marshal"
    with dataclasses_compiled_once(cache_file) as first:
        compiled = behaviour(make_samples())
    assert first.compiled > 0 and cache_file.is_file()
    with dataclasses_compiled_once(cache_file) as second:
        cached = behaviour(make_samples())
    assert second.compiled == 0  # every method came from the file
    assert compiled == plain
    assert cached == plain


def test_the_generated_methods_are_the_same_code(tmp_path: Path) -> None:
    plain = make_samples()
    cache_file = tmp_path / "code.marshal"
    with dataclasses_compiled_once(cache_file):
        make_samples()
    with dataclasses_compiled_once(cache_file):
        cached = make_samples()
    for name in ("Point", "Ranked", "Keyed", "Posted"):
        for method in ("__init__", "__repr__", "__eq__", "__setattr__", "__lt__"):
            ours = getattr(cached[name], method)
            python = getattr(plain[name], method)
            if hasattr(python, "__code__"):
                assert ours.__code__.co_code == python.__code__.co_code, (name, method)
                assert ours.__code__.co_consts == python.__code__.co_consts, (name, method)
                assert ours.__code__.co_filename == python.__code__.co_filename


def test_exec_is_put_back(tmp_path: Path) -> None:
    with dataclasses_compiled_once(tmp_path / "code.marshal"):
        assert "exec" in vars(dataclasses)
    assert "exec" not in vars(dataclasses)
    with pytest.raises(RuntimeError), dataclasses_compiled_once(tmp_path / "code.marshal"):
        raise RuntimeError("a failed import")
    assert "exec" not in vars(dataclasses)


@pytest.mark.parametrize("content", [b"", b"not marshal at all", b"\x00" * 40])
def test_a_damaged_cache_is_ignored_and_replaced(tmp_path: Path, content: bytes) -> None:
    cache_file = tmp_path / "code.marshal"
    cache_file.write_bytes(content)
    with dataclasses_compiled_once(cache_file) as cache:
        assert behaviour(make_samples()) == behaviour_without_cache()
    assert cache.compiled > 0
    with dataclasses_compiled_once(cache_file) as again:
        make_samples()
    assert again.compiled == 0


def test_a_marshalled_value_of_the_wrong_shape_is_ignored(tmp_path: Path) -> None:
    import marshal

    cache_file = tmp_path / "code.marshal"
    cache_file.write_bytes(marshal.dumps({"text": 3, 4: "x"}))
    with dataclasses_compiled_once(cache_file) as cache:
        make_samples()
    assert cache.known == {}
    assert cache.compiled > 0


def test_not_written_where_bytecode_would_not_be(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    with dataclasses_compiled_once(tmp_path / "code.marshal"):
        make_samples()
    assert not (tmp_path / "code.marshal").exists()


def test_an_unwritable_place_is_not_an_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("in the way")
    with dataclasses_compiled_once(blocker / "code.marshal") as cache:
        assert behaviour(make_samples()) == behaviour_without_cache()
    assert cache.compiled > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


def behaviour_without_cache() -> list[Any]:
    return behaviour(make_samples())


FINGERPRINT = """
import dataclasses, inspect, json, sys
from pathlib import Path
from gmscreen.code_cache import compile_source, dataclasses_compiled_once
def load():
    import gmscreen.tui.app, gmscreen.campaign.paths  # what the gmscreen command imports
    from gmscreen.campaign.journal import read_session
    from gmscreen.data import data_path
    # reading a journal generates the event decoders and constructors (compile_source)
    journal = next(data_path("demo", "example", "sessions").glob("*.jsonl"))
    return [repr(event) for event in read_session(journal).events]
if sys.argv[1] == "plain":
    events = load()
else:
    with dataclasses_compiled_once(Path(sys.argv[1])):
        events = load()
out = {"events": events}
for name, module in sorted(sys.modules.items()):
    if not name.startswith("gmscreen"):
        continue
    for cls in vars(module).values():
        if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == name:
            methods = {}
            for m in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"):
                f = cls.__dict__.get(m)
                code = getattr(f, "__code__", None) or getattr(getattr(f, "__wrapped__", None), "__code__", None)
                methods[m] = None if code is None else [code.co_code.hex(), repr(code.co_consts), code.co_names]
            out[f"{name}.{cls.__qualname__}"] = [methods, str(inspect.signature(cls)), cls.__doc__]
print(json.dumps(out, sort_keys=True))
"""


def test_gmscreen_own_classes_are_the_same_through_a_warm_cache(tmp_path: Path) -> None:
    cache_file = tmp_path / "code.marshal"

    def fingerprint(mode: str) -> dict[str, Any]:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        done = subprocess.run(
            [sys.executable, "-c", FINGERPRINT, mode],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        )
        result: dict[str, Any] = json.loads(done.stdout)
        return result

    plain = fingerprint("plain")
    cold = fingerprint(str(cache_file))
    assert cache_file.is_file()
    warm = fingerprint(str(cache_file))
    assert len(plain) > 40  # the model, the events, the rules' records...
    assert len(plain["events"]) > 10
    assert cold == plain
    assert warm == plain


BUNDLED_TOML = ["messages.en.toml", "messages.es.toml", "madness.toml", "merp_special_items.toml"]


@pytest.mark.parametrize("name", BUNDLED_TOML)
def test_bundled_toml_read_through_the_cache_is_what_tomllib_reads(
    tmp_path: Path, name: str
) -> None:
    shutil.copy(data_path(name), tmp_path / name)
    expected = tomllib.loads((tmp_path / name).read_text(encoding="utf-8"))
    cold = read_toml(name, tmp_path)
    assert list((tmp_path / "__pycache__").iterdir())  # kept for the next start-up
    warm = read_toml(name, tmp_path)
    assert cold == expected
    assert warm == expected
    warm.clear()  # each caller gets its own value
    assert read_toml(name, tmp_path) == expected


def test_an_edited_toml_file_is_read_anew(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text('a = 1\n[b]\nc = "d"\n', encoding="utf-8")
    assert read_toml("x.toml", tmp_path) == {"a": 1, "b": {"c": "d"}}
    path.write_text('a = 2\n[b]\nc = "d"\n', encoding="utf-8")  # same size, other text
    assert read_toml("x.toml", tmp_path) == {"a": 2, "b": {"c": "d"}}
    path.write_text("a = [", encoding="utf-8")
    with pytest.raises(tomllib.TOMLDecodeError):
        read_toml("x.toml", tmp_path)


def test_toml_that_marshal_cannot_hold_is_read_without_a_cache(tmp_path: Path) -> None:
    (tmp_path / "when.toml").write_text("at = 2025-03-01T20:00:00Z\n", encoding="utf-8")
    first = read_toml("when.toml", tmp_path)
    assert first == read_toml("when.toml", tmp_path)
    assert first["at"].year == 2025
    assert not list(tmp_path.glob("__pycache__/*"))


def test_generated_code_goes_through_the_open_cache(tmp_path: Path) -> None:
    source = "def double(x):\n    return 2 * x\n"
    cache_file = tmp_path / "code.marshal"
    with dataclasses_compiled_once(cache_file) as first:
        code = compile_source(source, "<double>")
    assert first.compiled == 1
    with dataclasses_compiled_once(cache_file) as second:
        warm = compile_source(source, "<double>")
        other_name = compile_source(source, "<twice>")
    assert second.compiled == 1  # only the other file name was new
    assert warm.co_filename == "<double>" and other_name.co_filename == "<twice>"
    outside = compile_source(source, "<double>")  # no cache open: compiled as usual
    for compiled in (code, warm, outside):
        namespace: dict[str, Any] = {}
        exec(compiled, namespace)
        assert namespace["double"](21) == 42


def test_a_run_that_needed_less_keeps_what_others_needed(tmp_path: Path) -> None:
    cache_file = tmp_path / "code.marshal"
    with dataclasses_compiled_once(cache_file):
        compile_source("a = 1\n", "<a>")
        compile_source("b = 2\n", "<b>")
    with dataclasses_compiled_once(cache_file):
        compile_source("c = 3\n", "<c>")  # new: the file is written again
    with dataclasses_compiled_once(cache_file) as later:
        for name in ("a", "b", "c"):
            compile_source(f"{name} = {' abc'.index(name)}\n", f"<{name}>")
    assert later.compiled == 0


def test_a_mostly_stale_cache_is_not_carried_on(tmp_path: Path) -> None:
    cache_file = tmp_path / "code.marshal"
    with dataclasses_compiled_once(cache_file):
        for n in range(10):
            compile_source(f"old = {n}\n", "<old>")
    with dataclasses_compiled_once(cache_file):
        compile_source("new = 1\n", "<new>")
    with dataclasses_compiled_once(cache_file) as later:
        assert len(later.known) == 1
