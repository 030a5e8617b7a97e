"""Public APIs only: no private name of Textual, Rich or CPython outside the allowlist below.

The scan reads src/, tests/ and benchmarks/ (AST, nothing imported for it) and finds:
- ``from textual._x import …``, ``import rich._x``, ``from textual.widget import _Name``;
- ``obj._name`` (and ``getattr(obj, "_name")``, ``setattr``, ``hasattr``, ``delattr``,
  ``monkeypatch.setattr``) where ``_name`` is defined nowhere in our own code: a name we never
  define belongs to someone else's object. Ours are ``def _x``, ``class _X``, ``self._x = ``,
  class attributes, module globals, ``__slots__`` and import aliases;
- and, by importing gmscreen's modules, every method or class attribute of ours that overrides
  a private name of a Textual or Rich base class (``Roster._get_option_render``): defining it
  does not make it ours.

Each allowlisted name has its reason and where it appears. The allowlist may only shrink: a
name no longer used fails too, so its entry goes with its last use.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
import textwrap
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import pytest

import gmscreen

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("src", "tests", "benchmarks")
FOREIGN_PACKAGES = ("textual", "rich")
PRIVATE = re.compile(r"^_[A-Za-z0-9]\w*$")  # _name, not _ nor __dunder__
DUNDER = re.compile(r"^__\w+__$")

# Underscored names that are documented public API of the standard library.
DOCUMENTED = {
    "_replace": "namedtuple's documented copy-with-changes",
    "_asdict": "namedtuple's documented dict view",
    "_fields": "namedtuple's documented field names",
    "_exit": "os._exit, documented: end the process at once (a test's stand-in for a crash)",
}

# Every private name we rely on (Textual 8.2.8), and why: none today (issue 26). Delete an
# entry with its last use.
ALLOWED: dict[str, str] = {}


@dataclass(frozen=True, order=True)
class Use:
    path: str
    line: int
    name: str
    how: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.name} ({self.how})"


def python_files(roots: Iterable[Path]) -> Iterator[Path]:
    for root in roots:
        yield from sorted(root.rglob("*.py"))


def parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def is_private(name: str) -> bool:
    return bool(PRIVATE.match(name)) and not DUNDER.match(name)


def member_names(classes: Iterable[ast.ClassDef]) -> set[str]:
    """The private names these classes define: methods, class attributes, ``__slots__``, and
    ``self._x = …`` in their methods."""
    names: set[str] = set()
    for cls in classes:
        for node in cls.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names.update(n for t in targets for n in _target_names(t))
                if any(isinstance(t, ast.Name) and t.id == "__slots__" for t in targets):
                    names.update(_strings(node.value))
        for inner in ast.walk(cls):
            if isinstance(inner, ast.Assign | ast.AnnAssign | ast.AugAssign):
                targets = inner.targets if isinstance(inner, ast.Assign) else [inner.target]
                names.update(n for t in targets for n in _self_attributes(t))
    return {name for name in names if is_private(name)}


def module_names(tree: ast.Module) -> set[str]:
    """The private names a module defines at its top level (functions, classes, globals,
    import aliases), reached as ``module._x``."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n for t in targets for n in _target_names(t))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
    return {name for name in names if is_private(name)}


def imported_names(tree: ast.Module) -> set[str]:
    """Names a module binds by importing (modules among them)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.asname or a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
    return names


def classes(tree: ast.AST) -> Iterator[ast.ClassDef]:
    return (node for node in ast.walk(tree) if isinstance(node, ast.ClassDef))


def _target_names(target: ast.expr) -> Iterator[str]:
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, ast.Tuple | ast.List):
        for element in target.elts:
            yield from _target_names(element)


def _self_attributes(target: ast.expr) -> Iterator[str]:
    """``self._x = …``: an attribute of the class's own objects (other objects' are not)."""
    if (
        isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id in ("self", "cls")
    ):
        yield target.attr
    elif isinstance(target, ast.Tuple | ast.List):
        for element in target.elts:
            yield from _self_attributes(element)


def _strings(node: ast.expr | None) -> Iterator[str]:
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        for element in node.elts:
            if isinstance(element, ast.Constant) and isinstance(element.value, str):
                yield element.value


def _is_foreign(module: str) -> bool:
    return module.split(".")[0] in FOREIGN_PACKAGES


def private_imports(path: str, tree: ast.Module) -> Iterator[Use]:
    """Imports of a private module or name of Textual or Rich."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and _is_foreign(node.module or ""):
            module = node.module or ""
            for part in module.split("."):
                if is_private(part):
                    yield Use(path, node.lineno, part, f"from {module} import")
            for alias in node.names:
                if is_private(alias.name):
                    yield Use(path, node.lineno, alias.name, f"imported from {module}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if _is_foreign(alias.name):
                    for part in alias.name.split("."):
                        if is_private(part):
                            yield Use(path, node.lineno, part, f"import {alias.name}")


def attribute_uses(
    path: str, tree: ast.Module, members: set[str], modules: set[str]
) -> Iterator[Use]:
    """``x._name`` and ``getattr(x, "_name")`` where ``_name`` is not ours: not a member of any
    class of ours, nor (with ``x`` a name this file imports) a top-level name of our modules."""
    imported = imported_names(tree)

    def ours(name: str, owner: ast.expr | None) -> bool:
        if name in members or name in DOCUMENTED:
            return True
        return name in modules and isinstance(owner, ast.Name) and owner.id in imported

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and is_private(node.attr):
            if not ours(node.attr, node.value):
                yield Use(path, node.lineno, node.attr, "attribute")
        elif isinstance(node, ast.Call) and len(node.args) >= 2:
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name not in ("getattr", "hasattr", "setattr", "delattr"):
                continue
            arg = node.args[1]
            if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                continue
            if is_private(arg.value) and not ours(arg.value, node.args[0]):
                yield Use(path, node.lineno, arg.value, f"{name}()")


def private_overrides() -> Iterator[Use]:
    """What our classes define (methods, class attributes, ``self._x``) that a Textual or Rich
    base class defines too: an override of, or a write into, someone else's private name."""
    theirs: dict[type, set[str]] = {}
    for info in pkgutil.walk_packages(gmscreen.__path__, "gmscreen."):
        if info.name.endswith(".__main__"):  # runs the command when imported
            continue
        module = importlib.import_module(info.name)
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                continue
            bases = [b for b in cls.__mro__[1:] if _is_foreign(b.__module__)]
            if not bases:
                continue
            source, line = inspect.getsourcelines(cls)
            ours = member_names(classes(ast.parse(textwrap.dedent("".join(source)))))
            for name in sorted(ours):
                base = next((b for b in bases if name in _foreign_names(b, theirs)), None)
                if base is not None:
                    where = str(Path(inspect.getfile(cls)).relative_to(ROOT))
                    yield Use(where, line, name, f"{cls.__name__} overrides {base.__name__}'s")


def _foreign_names(base: type, known: dict[type, set[str]]) -> set[str]:
    if base not in known:
        names = {name for name in vars(base) if is_private(name)}
        try:
            source = textwrap.dedent(inspect.getsource(base))
        except (OSError, TypeError):  # built in, or no source
            source = ""
        if source:
            (body,) = ast.parse(source).body
            assert isinstance(body, ast.ClassDef)
            names |= member_names([body])
        known[base] = names
    return known[base]


def scan(roots: Iterable[Path]) -> list[Use]:
    trees = {path: parse(path) for path in python_files(roots)}
    members = member_names(c for tree in trees.values() for c in classes(tree))
    modules = {name for tree in trees.values() for name in module_names(tree)}
    uses: set[Use] = set()
    for path, tree in trees.items():
        shown = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
        uses.update(private_imports(shown, tree))
        uses.update(attribute_uses(shown, tree, members, modules))
    return sorted(uses)


def test_textual_is_the_pinned_version() -> None:
    """The allowlist holds for this Textual: bump the pin on purpose, and run this file."""
    assert version("textual") == "8.2.8"


@pytest.fixture(scope="module")
def found() -> list[Use]:
    return [*scan(ROOT / part for part in SCANNED), *private_overrides()]


def test_no_private_name_outside_the_allowlist(found: list[Use]) -> None:
    outside = [str(use) for use in found if use.name not in ALLOWED]
    assert not outside, "private names of someone else's code:\n" + "\n".join(outside)


def test_every_allowlisted_name_is_still_used(found: list[Use]) -> None:
    """Remove an entry with its last use: the list only shrinks."""
    used = {use.name for use in found}
    assert sorted(set(ALLOWED) - used) == []


def test_the_scan_catches_a_planted_private_name(tmp_path: Path) -> None:
    """``app._driver`` in a test file, and a private import, are found; our own names are not."""
    planted = tmp_path / "test_planted.py"
    planted.write_text(
        "from textual._context import active_message_pump\n"
        "from textual.widget import _RenderCache\n"
        "import rich._wrap\n"
        "class Ours:\n"
        "    def __init__(self) -> None:\n"
        "        self._mine = 1\n"
        "    def _helper(self) -> int:\n"
        "        return self._mine\n"
        "def test_it(app) -> None:\n"
        "    assert app._driver is not None\n"
        "    assert getattr(app, '_closing')\n"
        "    assert Ours()._helper() == Ours()._mine\n"
        "    assert app.__class__ and app.size\n",
        encoding="utf-8",
    )
    names = [(use.line, use.name) for use in scan([tmp_path])]
    assert names == [
        (1, "_context"),
        (2, "_RenderCache"),
        (3, "_wrap"),
        (10, "_driver"),
        (11, "_closing"),
    ]
