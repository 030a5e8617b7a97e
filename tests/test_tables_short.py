"""The short form of a GM's table, and the library of every table (#28): the rules layer alone.

Table files come from other people: the properties feed the parser hostile text and check that
the answer is always a table or a ``file:line`` problem, never a traceback.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hostile_text import PIECES

from gmscreen.rules.tables import Resolution, load_tables
from gmscreen.rules.tables_library import Library, TableFile, build_library, parse_toml
from gmscreen.rules.tables_lines import locate_tables
from gmscreen.rules.tables_short import (
    ShortRow,
    ShortTable,
    read_short,
    read_text,
    short_toml,
    toml_string,
)


def library(*texts: str) -> Library:
    files = [TableFile(f"t{n}.toml", text, "campaign") for n, text in enumerate(texts)]
    return build_library(load_tables(), files)


def problems(*texts: str) -> list[str]:
    return [str(p) for p in library(*texts).problems]


def table(body: str, table_id: str = "t", title: str = '"T"') -> str:
    return f'[[tables]]\nid = "{table_id}"\ntitle = {title}\n{body}\n'


def test_a_single_face_and_a_range_cover_the_die() -> None:
    lib = library(table('die = "1d4"\nrows = [[4, "d"], [1, 3, "a-c"]]'))
    rows = lib.tables["t"].rows
    assert [(r.lo, r.hi, r.text("en")) for r in rows] == [(1, 3, "a-c"), (4, 4, "d")]
    assert lib.tables["t"].row_for(4) is rows[1] and not lib.problems


@pytest.mark.parametrize(
    ("die", "low", "high"), [("d6", 1, 6), ("2d6", 2, 12), ("d100", 1, 100), ("1d20+1", 2, 21)]
)
def test_any_dice_expression_is_a_die(die: str, low: int, high: int) -> None:
    lib = library(table(f'die = "{die}"\nrows = [[{low}, {high}, "all"]]'))
    assert (lib.tables["t"].low, lib.tables["t"].high) == (low, high)
    for seed in range(20):
        node = Resolution(lib.tables, "t").auto(random.Random(seed)).tree
        assert node.roll is not None and low <= node.roll.total <= high


def test_weights_make_the_die() -> None:
    lib = library(table('weights = true\nrows = [[3, "Fog"], [1, "Rain"], [2, "Sun"]]'))
    t = lib.tables["t"]
    assert (t.die.text, [(r.lo, r.hi) for r in t.rows]) == ("1d6", [(1, 3), (4, 4), (5, 6)])


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        ('weights = true\ndie = "1d6"\nrows = [[1, "a"], [1, "b"]]', 5, "a weighted table has no die"),
        ('weights = true\nrows = [[1, "a"]]', 5, "the weights add up to 1"),
        ('weights = true\nrows = [[1, "a"], [true, "b"]]', 5, "the weight must be a whole number"),
        ('weights = true\nrows = [[999, "a"], [2, "b"]]', 5, "add up to more than 1,000"),
        ('die = "1d6"\nrows = [[6, 1, "a"]]', 5, "[6, 1] runs backwards"),
        ('die = "1d6"\nrows = [[1, 6, ""]]', 5, "the text is empty"),
        ('die = "1d6"\nrows = [[1, 6, 7]]', 5, "must be a string"),
        ('die = "1d6"\nrows = [[1, 2, 3, "a"]]', 5, "write [lo, hi, text] or [face, text]"),
        ('die = "1d6"\nrows = [[1, 99999999, "a"]]', 5, "is too large"),
        ('die = "100d1000"\nrows = [[100, 100000, "a"]]', 4, "gives 99,901 different totals"),
        ('die = 6\nrows = [[1, 6, "a"]]', 4, "die must be a dice expression in quotes"),
        ('rows = [[1, 6, "a"]]', 1, 'a table needs a die = "1d6"'),
        ('die = "1d6"\nweight = true\nrows = [[1, 6, "a"]]', 5, "unknown key 'weight' (did you mean weights?)"),
        ('die = "1d6"\nplayers = "yes"\nrows = [[1, 6, "a"]]', 5, "players must be true or false"),
        ('die = "1d6"\nrows = [[1, 6, "{200d6}"]]', 5, "{200d6}: "),
        ('die = "1d6"\nrows = [[1, 6, "@Strangers"]]', 5, "write @strangers"),
        ('die = "1d6"\nrows = [[1, 6, {en = "@merp-1", es = "nada"}]]', 5, "must roll the same"),
        ('die = "1d6"\nrows = [[1, 6, "@t"]]', 5, "@t → @t: tables that roll each other never end"),
    ],
)  # fmt: skip
def test_each_problem_names_its_line(body: str, line: int, message: str) -> None:
    said = problems(table(body))
    assert len(said) == 1 and said[0].startswith(f"t0.toml:{line}: table t: ")
    assert message in said[0]


def test_a_bad_id_or_title_is_said_at_its_line() -> None:
    assert problems('[[tables]]\ntitle = "T"\nid = "Bad Id"\n') == [
        "t0.toml:3: id 'Bad Id': use lowercase letters, digits, - and _ (starting and ending "
        "with a letter or digit, at most 64 characters)"
    ]
    assert "t0.toml:3: table t: title is empty" in problems(table("", title='"  "'))


def test_not_toml_is_the_line_of_the_mistake() -> None:
    assert problems('[[tables]]\nid = "t"\ntitle = "T\n') == [
        "t0.toml:3: not valid TOML: Illegal character '\\n'"
    ]
    assert problems("x = 1\n") == ["t0.toml:1: no [[tables]] in this file"]


def test_dice_in_the_text_are_rolled_and_shown() -> None:
    lib = library(table('die = "1d2"\nrows = [[1, 2, "{2d6} rats, {2d6} bats, {tails} and @@x"]]'))
    tree = Resolution(lib.tables, "t").auto(random.Random(4)).tree
    rats, bats = tree.dice["2d6"], tree.dice["2d6 #2"]
    assert tree.text("en") == f"{rats.total} rats, {bats.total} bats, {{tails}} and @x"


def test_references_reach_across_files_and_into_the_bundled_tables() -> None:
    lib = library(
        table('die = "1d2"\nrows = [[1, 2, "See @other, then @merp-1e."]]', "first"),
        table('die = "1d2"\nrows = [[1, 2, "x"]]', "other"),
    )
    tree = Resolution(lib.tables, "first").auto(random.Random(1)).tree
    assert [c.table for c in tree.children] == ["other", "merp-1e"]
    assert tree.text("en") == "See @other, then @merp-1e."
    assert lib.entries["first"].source == "t0.toml" and lib.entries["merp-1"].group == "bundled"


def test_an_email_address_is_no_reference() -> None:
    assert read_text("write to ann@example.org").refs == ()
    assert read_text("(@a-b_c), @a.").refs == ("a-b_c", "a")


def test_ids_are_used_once() -> None:
    said = problems(
        table('die = "1d2"\nrows = [[1, 2, "x"]]', "merp-1"),
        table('die = "1d2"\nrows = [[1, 2, "x"]]', "twice") * 2,
    )
    assert said == [
        "t0.toml:1: table merp-1: id merp-1 is a bundled table's",
        "t1.toml:6: table twice: id twice is used already (t1.toml:1)",
    ]


def test_a_long_cycle_and_a_long_chain_are_said_not_followed() -> None:
    def link(n: int, to: str) -> str:
        return table(f'die = "1d2"\nrows = [[1, 2, "@{to}"]]', f"c{n}")

    files = ["".join(link(n, f"c{n + 1}") for n in range(k, k + 180)) for k in range(0, 900, 180)]
    lib = library(*files[:-1], files[-1].replace("@c900", "@c0"))
    assert str(lib.problems[0]).startswith("t0.toml:5: table c0: @c0 → @c1 → @c2 → @c3")
    assert len(lib.problems) == 900 and not lib.entries.keys() - load_tables().tables.keys()
    deep = "".join(table(f'die = "1d2"\nrows = [[1, 2, "@d{n + 1}"]]', f"d{n}") for n in range(30))
    lib = library(deep + table('die = "1d2"\nrows = [[1, 2, "end"]]', "d30"))
    assert "d19" in lib.tables and "d18" not in lib.tables
    assert "t0.toml:91: table d18: nests tables more than 12 deep" in [str(p) for p in lib.problems]


def test_a_roll_that_lands_on_too_many_tables_is_refused() -> None:
    def fan(table_id: str, to: str) -> str:
        refs = " ".join([f"@{to}"] * 20)
        return table(f'die = "1d2"\nrows = [[1, 2, "{refs}"]]', table_id)

    leaf = table('die = "1d2"\nrows = [[1, 2, "leaf"]]', "leaf")
    lib = library(leaf + fan("f", "leaf") + fan("e", "f") + fan("top", "e"))
    assert "e" in lib.tables and "top" not in lib.tables  # e: 1 + 20 * 21 = 421 tables
    assert [str(p) for p in lib.problems] == [
        "t0.toml:16: table top: one roll would land on more than 1000 tables"
    ]


def test_the_line_finder_reads_past_strings_and_comments() -> None:
    text = (
        '# [[tables]] in a comment\n[[tables]]\nid = "a"  # ]\ntitle = """x\n[[tables]]\n"""\n'
        'rows = [\n  [1, "a ] [ b"],  # ]\n\n  [2, 3,\n   "c"],\n]\n[[ "tables" ]]\nid = "b"\n'
    )
    spots = locate_tables(text)
    assert [(s.line, s.keys, s.rows) for s in spots] == [
        (2, {"id": 3, "title": 4, "rows": 7}, [8, 10]),
        (13, {"id": 14}, []),
    ]


# --- hostile text ------------------------------------------------------------------------------

_TEXT = st.lists(
    st.one_of(
        st.sampled_from(
            [
                *PIECES,
                "{",
                "}",
                "{1d6}",
                "{0d6}",
                "{d}",
                "@",
                "@@",
                "@merp-1.",
                "@X",
                '"',
                "\\",
                "\n",
            ]
        ),
        st.text(max_size=4),
    ),
    max_size=6,
).map("".join)
_NUMBER = st.one_of(st.integers(-3, 30), st.integers(), st.booleans(), st.text(max_size=3))


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return toml_string(str(value))


@st.composite
def short_tables(draw: st.DrawFn) -> str:
    """A short-form file: mostly well formed, every value sometimes hostile."""
    parts: list[str] = []
    for n in range(draw(st.integers(1, 3))):
        parts.append("[[tables]]")
        parts.append(f"id = {_value(draw(st.one_of(st.just(f't{n}'), _TEXT)))}")
        parts.append(f"title = {_value(draw(_TEXT))}")
        if draw(st.booleans()):
            parts.append("weights = true")
        else:
            die = draw(
                st.one_of(st.sampled_from(["1d6", "2d6", "d100", "1d20+1", "1d1", "d0"]), _TEXT)
            )
            parts.append(f"die = {_value(die)}")
        if draw(st.booleans()):
            parts.append(f"players = {_value(draw(_NUMBER))}")
        rows = []
        for _ in range(draw(st.integers(0, 4))):
            cells = [*draw(st.lists(_NUMBER, max_size=3)), draw(_TEXT)]
            rows.append("[" + ", ".join(_value(c) for c in cells) + "]")
        parts.append("rows = [\n  " + ",\n  ".join(rows) + "\n]")
    return "\n".join(parts) + "\n"


@settings(max_examples=400, deadline=None)
@given(short_tables())
def test_a_hostile_short_form_is_a_table_or_a_line(text: str) -> None:
    lib = library(text, text.replace("t0", "u0"))
    count = text.count("\n") + 1
    for problem in lib.problems:
        assert 0 <= problem.line <= count and str(problem).startswith(problem.source)
    for table_id, entry in lib.entries.items():
        if entry.group == "bundled":
            continue
        t = lib.tables[table_id]
        assert [t.row_for(v) for v in range(t.low, t.high + 1)]  # every total has its row
        Resolution(lib.tables, table_id).auto(random.Random(0), lambda pending: 0)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_at_all_is_a_table_or_a_line(text: str) -> None:
    lib = library(text)
    assert all(0 <= p.line <= text.count("\n") + 1 for p in lib.problems)
    data, _, _ = parse_toml(text)
    if data is not None:
        locate_tables(text)


@settings(max_examples=300, deadline=None)
@given(_TEXT, _TEXT, st.integers(1, 5), st.booleans())
def test_the_short_form_written_reads_back_the_same(
    title: str, text: str, weight: int, weights: bool
) -> None:
    if not title.strip() or not text.strip():
        return
    row = ShortRow(1, weight, text, text, weight if weights else 0, 0)
    other = ShortRow(weight + 1, weight + 1, "x", "x", 1 if weights else 0, 0)
    short = ShortTable("t", title, title, f"1d{weight + 1}", (row, other), weights=weights)
    written = short_toml(short, comment=f"from {text}")
    data, _, message = parse_toml(written)
    assert data is not None, message
    spots = locate_tables(written)
    read = read_short(data["tables"][0], spots[0])
    assert (read.title_en, [(r.lo, r.hi, r.text_en) for r in read.rows]) == (
        title,
        [(r.lo, r.hi, r.text_en) for r in short.rows],
    )


@pytest.mark.parametrize(("doc", "ids"), [("docs/TABLES.md", 3), ("README.md", 1)])
def test_the_examples_of_the_docs_load(doc: str, ids: int) -> None:
    """The TOML tables of docs/TABLES.md and README load as they are written."""
    import re
    from pathlib import Path

    text = (Path(__file__).parent.parent / doc).read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```toml\n(.*?)```", text, re.S) if "[[tables]]" in b]
    strangers = table('die = "1d2"\nrows = [[1, 2, "x"]]', "strangers")
    lib = library(*blocks, strangers)
    assert not lib.problems
    assert len(lib.entries) == len(load_tables().tables) + ids + 1
