"""The detail pane's line on an episode's unit shows the figure the rules use, never a negative
number that reads as a bug (issue 30, item 10)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gmscreen.campaign.model import Character
from gmscreen.i18n import catalog_for
from gmscreen.rules.madness import MadnessState, duration_unit
from gmscreen.tui.widgets.detail import detail_lines, unit_line
from gmscreen.tui.widgets.roster import CardContext

ALIGNMENT = st.integers(min_value=0, max_value=200)


def test_a_balance_over_the_alignments_is_rounds_without_a_negative_number() -> None:
    s = MadnessState(pow=12, chaos=20, balance=61, law=10)
    ylen = Character("ylen", "Sister Ylen", s)
    ctx = CardContext(now=0, round_seconds=12, fumble_base=1, madness=True, lang="en")
    pane = [line.plain for line in detail_lines(ylen, "", ctx, catalog_for("en").t)]
    assert "An episode would last in rounds (Balance 61 is not below Chaos 20)." in pane
    assert not any("-41" in line for line in pane)
    assert unit_line(s, catalog_for("es").t) == (
        "Un episodio duraría en asaltos (la Balanza, 61, no es menor que Caos 20)."
    )


def test_a_positive_figure_names_what_it_is_made_of() -> None:
    s = MadnessState(pow=13, chaos=43, balance=32, law=47)  # the rules' worked example
    assert unit_line(s, catalog_for("en").t) == (
        "An episode would last in rounds (Law 47 − Balance 32 = 15)."
    )


@pytest.mark.parametrize("lang", ["en", "es"])
@given(chaos=ALIGNMENT, balance=ALIGNMENT, law=ALIGNMENT)
def test_no_alignments_show_a_negative_figure(
    lang: str, chaos: int, balance: int, law: int
) -> None:
    s = MadnessState(pow=10, chaos=chaos, balance=balance, law=law)
    line = unit_line(s, catalog_for(lang).t)
    assert not re.search(r"[-−] ?\d", line)  # no minus sign before a figure
    unit = catalog_for(lang).t(f"advance.word_{duration_unit(s)[0]}")
    assert unit in line
