"""The one private name of Textual that gmscreen relies on, in one place.

Textual is pinned (pyproject: textual==8.2.8). Neither the drawing nor the keys typed ahead
(tui/typeahead.py) use a private name now; per-instance bindings (tui/commands.py add_bindings,
relabel_bindings) assign ``DOMNode._bindings``, as harlequin and posting do: Textual has no public
way to give one instance its own bindings. A Textual upgrade fails here first if it moves.
"""

from __future__ import annotations

from importlib.metadata import version

from textual.binding import BindingsMap
from textual.widget import Widget


def test_textual_is_the_pinned_version() -> None:
    assert version("textual") == "8.2.8"


def test_a_widget_keeps_its_bindings_in_a_bindings_map() -> None:
    assert isinstance(Widget()._bindings, BindingsMap)
