"""Constructors for the frozen dataclasses that a replay builds by the ten thousand.

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``, a generic call
that finds the attribute anew each time; most of the cost of building an event, a character or
a madness state is there. For a class with slots the same can be done with each slot's own
setter, bound once. ``constructor(cls)`` generates, once per class, a function that takes every
field positionally, sets each slot and runs ``__post_init__``: what ``cls(*values)`` does (the
checks included), at about half the cost. Values are not defaulted: every field is passed.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar, cast

from gmscreen.code_cache import compile_source

T = TypeVar("T")


def constructor(cls: type[T]) -> Callable[..., T]:
    """``cls(*values)`` with every field given in order; ``cls`` itself if it cannot be faster
    (not a dataclass, a field that is not a slot, or an ``__init__`` that does more)."""
    return cast(Callable[..., T], _constructor(cls))  # type: ignore[arg-type]


@cache  # keeps the generic type out: a cached function's type is not generic
def _constructor(cls: type[Any]) -> Callable[..., Any]:
    if not dataclasses.is_dataclass(cls) or not _plain_init(cls):
        return cls
    names = [f.name for f in dataclasses.fields(cls)]
    env: dict[str, Any] = {"new": object.__new__, "cls": cls}
    for name in names:
        slot = next((k.__dict__[name] for k in cls.__mro__ if name in k.__dict__), None)
        if not isinstance(slot, types.MemberDescriptorType):
            return cls
        env[f"set_{name}"] = slot.__set__
    # Parameters v0, v1...: a field named like a name used here (new, cls, self) cannot clash.
    params = [f"v{n}" for n in range(len(names))]
    lines = [f"def build_{cls.__name__}({', '.join(params)}):", "    self = new(cls)"]
    lines += [f"    set_{name}(self, {param})" for name, param in zip(names, params, strict=True)]
    if hasattr(cls, "__post_init__"):
        lines.append("    self.__post_init__()")
    lines.append("    return self")
    exec(compile_source("\n".join(lines), f"<constructor of {cls.__qualname__}>"), env)
    return cast(Callable[..., Any], env[f"build_{cls.__name__}"])


def _plain_init(cls: type[Any]) -> bool:
    """Whether ``cls.__init__`` is the one dataclasses wrote, taking every field and no more
    (an ``InitVar`` is an argument that is no field)."""
    count = len(dataclasses.fields(cls))
    if any(not f.init for f in dataclasses.fields(cls)):
        return False
    code = getattr(cls.__dict__.get("__init__"), "__code__", None)
    # dataclasses compiles its __init__ from text (no file); a hand-written one may do more.
    return (
        code is not None
        and code.co_filename == "<string>"
        and code.co_argcount + code.co_kwonlyargcount == count + 1  # self
    )
