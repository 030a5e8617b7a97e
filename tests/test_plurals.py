"""Counted words come from the catalog ("1 point", "2 points"), in both languages, never "(s)"."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import gmscreen
from gmscreen.i18n import LANGUAGES, Catalog, load_messages, plural
from gmscreen.rules import dice
from gmscreen.rules.merp import RollRefused
from gmscreen.rules.tables_model import Template
from gmscreen.text import counted


@pytest.mark.parametrize(
    ("lang", "key", "n", "said"),
    [
        ("en", "points", 1, "1 point"),
        ("en", "points", 2, "2 points"),
        ("en", "rolls", 1, "1 roll"),
        ("en", "nights", 0, "0 nights"),
        ("es", "rolls", 1, "1 tirada"),
        ("es", "rolls", 3, "3 tiradas"),
        ("es", "items", 1, "1 objeto"),
        ("es", "nights", 2, "2 noches"),
    ],
)
def test_plural_says_one_and_many(lang: str, key: str, n: int, said: str) -> None:
    assert plural(Catalog(lang, strict=True).t, key, n) == said


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_message_guesses_at_a_plural(lang: str) -> None:
    guessed = [k for k, v in load_messages(lang).items() if re.search(r"\w\((s|es)\)|vez/veces", v)]
    assert guessed == []


def test_a_refused_roll_counts_its_words() -> None:
    one = RollRefused("roll_limit", category="pure_spell_user", limit=1, table="merp-1", made=1)
    two = RollRefused("roll_limit", category="pure_spell_user", limit=2, table="merp-1", made=2)
    assert "at most 1 roll on" in one.message("en") and "at most 2 rolls on" in two.message("en")
    assert "1 tirada en" in one.message("es") and "2 tiradas en" in two.message("es")
    cost = RollRefused("no_points", table="merp-1", cost=1, left=0)
    assert "costs 1 background point," in cost.message("en")


@pytest.mark.parametrize(
    ("source", "value", "said"),
    [
        ("usable {uses} times a day ({uses:roll}).", 1, "usable once a day (1d3: 1)."),
        ("usable {uses} times a day ({uses:roll}).", 2, "usable 2 times a day (1d3: 2)."),
        ("utilizable {uses} veces al día.", 1, "utilizable una vez al día."),
        ("utilizable {uses} veces al día.", 3, "utilizable 3 veces al día."),
    ],
)
def test_a_daily_item_rolled_once_is_usable_once_a_day(source: str, value: int, said: str) -> None:
    uses = dice.typed("1d3", value)
    rendered = Template(source).render({"uses": uses}, {"uses": dice.parse("1d3")})
    assert rendered.replace(" (typed)", "") == said


def _literal_texts(tree: ast.Module) -> Iterator[ast.Constant]:
    """Every string the code says (f-strings' parts too), docstrings left out."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            yield node


def test_no_text_in_the_code_guesses_at_a_plural() -> None:
    """The English-only notices of the campaign layer and the CLI count their words too
    (gmscreen.text.counted), as the catalog's messages do."""
    root = Path(gmscreen.__file__).parent
    guessed = [
        f"{path.relative_to(root)}:{node.lineno}: {node.value!r}"
        for path in sorted(root.rglob("*.py"))
        for node in _literal_texts(ast.parse(path.read_text(encoding="utf-8")))
        if re.search(r"\w\((s|es)\)", str(node.value))
    ]
    assert guessed == []


@pytest.mark.parametrize(("n", "said"), [(0, "0 events"), (1, "1 event"), (2, "2 events")])
def test_counted_says_one_and_many(n: int, said: str) -> None:
    assert counted(n, "event") == said
