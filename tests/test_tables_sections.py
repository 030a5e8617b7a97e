"""The tables file read by section (gmscreen.rules.tables_sections) holds what the whole file holds.

Journaled items are named from rows read by section; every name test (test_item_names) goes
through it. Here: every row of the bundled file, both ways, and the fall-back to the whole file.
"""

from __future__ import annotations

import pytest

from gmscreen.rules.tables import load_tables
from gmscreen.rules.tables_model import TableDataError, TableSet, load_table_text
from gmscreen.rules.tables_sections import TableSections, item_rows

WHOLE = load_tables()


@pytest.mark.parametrize("table_id", list(WHOLE.tables))
def test_every_row_read_by_section_is_the_whole_files_row(table_id: str) -> None:
    rows = item_rows()
    table = WHOLE[table_id]
    for row in table.rows:
        # Row holds Templates, which compare by identity: their repr shows every field's source
        assert repr(rows.row(table_id, row.index)) == repr(row)
    assert rows.row(table_id, len(table.rows)) is None
    assert rows.row(table_id, -1) is None


def test_a_table_the_file_does_not_hold_has_no_rows() -> None:
    assert item_rows().row("merp-9", 0) is None


SMALL = """
schema = 1

[[tables]]
id = "t"
title = { en = "T", es = "T" }
die = "1d4"

[[tables.rows]]
range = [1, 2]
text = { en = "Two.", es = "Dos." }
[[tables.rows.options]]
key = "a"
label = { en = "A", es = "A" }
text = { en = "As a.", es = "Como a." }
[[tables.rows.options]]
key = "b"
label = { en = "B", es = "B" }
text = { en = "As b.", es = "Como b." }

[[tables.rows]]
range = [3, 4]
text = { en = "Four.", es = "Cuatro." }
"""


def _sections(text: str) -> tuple[TableSections, list[TableSet]]:
    wholes: list[TableSet] = []  # one entry per time the whole file was asked for

    def whole() -> TableSet:
        wholes.append(load_table_text(text, "small.toml"))
        return wholes[-1]

    return TableSections(text, "small.toml", whole), wholes


def test_a_row_and_its_alternatives_are_one_section() -> None:
    sections, wholes = _sections(SMALL)
    expected = load_table_text(SMALL, "small.toml")
    assert repr(sections.row("t", 0)) == repr(expected.row("t", 0))
    assert [o.key for o in sections.row("t", 0).options] == ["a", "b"]  # type: ignore[union-attr]
    assert repr(sections.row("t", 1)) == repr(expected.row("t", 1))
    assert not wholes  # read by section alone


def test_a_section_that_will_not_parse_alone_is_read_from_the_whole_file() -> None:
    # A header-like line inside a multi-line string: the file is still valid TOML, but its
    # sections are not; the row comes from the whole file.
    text = SMALL.replace(
        'text = { en = "Four."', 'notes = """\n[[tables.rows]]\n"""\ntext = { en = "Four."'
    )
    sections, wholes = _sections(text)
    assert sections.row("t", 1) is not None
    assert repr(sections.row("t", 1)) == repr(load_table_text(text, "small.toml").row("t", 1))
    assert len(wholes) == 1


def test_a_bad_row_fails_as_the_whole_file_does() -> None:
    sections, _ = _sections(SMALL.replace("range = [3, 4]", "range = [4, 3]"))
    with pytest.raises(TableDataError, match="row 4-3: range runs backwards"):
        sections.row("t", 1)


def test_a_table_id_not_written_as_expected_is_read_from_the_whole_file() -> None:
    text = SMALL.replace('id = "t"', "id = 't'")  # the same TOML, quoted otherwise
    sections, wholes = _sections(text)
    assert repr(sections.row("t", 1)) == repr(load_table_text(text, "small.toml").row("t", 1))
    assert wholes
