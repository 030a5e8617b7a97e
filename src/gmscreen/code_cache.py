"""Compile the dataclasses' generated methods once, not at every start-up.

Python's ``dataclasses`` writes each class's ``__init__``, ``__repr__``, ``__eq__``, ``__hash__``
and (frozen) ``__setattr__``/``__delattr__`` as source text and compiles it with ``exec`` every
time the class is created. Python caches the bytecode of modules (``.pyc``) but not of these:
gmscreen's ~60 frozen dataclasses cost ~30 ms of compiling at every launch, about a third of its
own start-up. Inside :func:`dataclasses_compiled_once`, ``dataclasses`` runs that same text
through a cache of compiled code objects kept next to the package's bytecode, keyed by the exact
text (so a changed class is simply compiled anew, as before); so does the code gmscreen generates
itself (:func:`compile_source`: event decoders, fast constructors).

What runs is unchanged: the code object is exactly what ``exec`` would have compiled from the
same text (same file name, no inherited ``__future__`` flags), run with the same namespaces. A
cache that is missing, unreadable, or from another Python is ignored; one that cannot be written
(read-only install, ``PYTHONDONTWRITEBYTECODE``) is not written, as with ``.pyc`` files. Like a
``.pyc``, the file is trusted as code: it lives inside the installed package.
"""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import marshal
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from types import CodeType
from typing import Any

_MISSING = object()


def default_cache_file() -> Path:
    """Beside gmscreen's own ``.pyc`` files, one file per Python version (marshal is too)."""
    folder = Path(__file__).parent / "__pycache__"
    return folder / f"dataclass-code.{sys.implementation.cache_tag}.marshal"


class CodeCache:
    """Compiled code by source text (and file name), read from and written back to ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.known = _read(path)
        self.used: dict[str, CodeType] = {}
        self.compiled = 0  # texts this run had to compile (not in the file)

    def exec(self, source: Any, globals: Any = None, locals: Any = None, /) -> None:
        """``exec`` as ``dataclasses`` calls it, with the compiling done once per text."""
        if isinstance(source, str):
            # exec(text) compiles as "<string>" with no __future__ flags of ours: the same here.
            source = self.compile(source, "<string>")
        builtins.exec(source, globals, locals)

    def compile(self, source: str, filename: str) -> CodeType:
        """``compile(source, filename, "exec")`` with no inherited ``__future__`` flags."""
        key = source if filename == "<string>" else f"{filename}\0{source}"
        code = self.known.get(key)
        if code is None:
            code = compile(source, filename, "exec", dont_inherit=True)
            self.compiled += 1
        self.used[key] = code
        return code

    def save(self) -> None:
        """Write the file again if this run compiled anything new. It keeps what other runs
        used too (a campaign with other events needs other decoders), unless most of it has
        gone stale (classes changed since): then only what this run used."""
        if not self.compiled:
            return
        kept = self.known if len(self.known) <= 2 * len(self.used) else {}
        write_cache_file(self.path, kept | self.used)


def read_cache_file(path: Path) -> object:
    """What :func:`write_cache_file` wrote, or None if it is missing or unreadable."""
    try:
        return marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None


def write_cache_file(path: Path, value: Any) -> None:
    """Write ``value`` (marshal-able) atomically; quietly not where a .pyc would not be written
    (``PYTHONDONTWRITEBYTECODE``, a read-only install), nor if marshal cannot hold it."""
    if sys.dont_write_bytecode:
        return
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        data = marshal.dumps(value)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(data)
        os.replace(temporary, path)  # a reader sees the old file or the new one
    except (OSError, ValueError):
        with contextlib.suppress(OSError):  # nothing written, or no folder to write in
            temporary.unlink(missing_ok=True)


def _read(path: Path) -> dict[str, CodeType]:
    data = read_cache_file(path)
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, CodeType)}


_OPEN: ContextVar[CodeCache | None] = ContextVar("gmscreen_code_cache", default=None)


def compile_source(source: str, filename: str) -> CodeType:
    """Code that gmscreen generates itself (event decoders, fast constructors), compiled through
    the cache of :func:`dataclasses_compiled_once` while one is open, as the dataclasses' is."""
    cache = _OPEN.get()
    if cache is None:
        return compile(source, filename, "exec", dont_inherit=True)
    return cache.compile(source, filename)


@contextmanager
def dataclasses_compiled_once(path: Path | None = None) -> Iterator[CodeCache]:
    """Dataclasses created inside (and :func:`compile_source`) compile through the cache in
    ``path``."""
    cache = CodeCache(path or default_cache_file())
    token = _OPEN.set(cache)
    # ``dataclasses`` finds ``exec`` in its module globals before the builtins: shadowed there
    # for the duration only, and put back as it was.
    previous = dataclasses.__dict__.get("exec", _MISSING)
    dataclasses.exec = cache.exec  # type: ignore[attr-defined]
    try:
        yield cache
    finally:
        _OPEN.reset(token)
        if previous is _MISSING:
            del dataclasses.exec  # type: ignore[attr-defined]
        else:
            dataclasses.exec = previous  # type: ignore[attr-defined]
        cache.save()
