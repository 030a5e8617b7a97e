"""Every private name of Textual (and Rich) that gmscreen relies on, in one place.

Textual is pinned (pyproject: textual==8.2.8). The fast drawing (widgets/fast_lines.py, roster,
replay log, timeline, sparkline) and the keys typed ahead (tui/typeahead.py) use a few of its
private names, each named in a comment where it is used; the output-comparison tests would
catch a change less directly. A Textual upgrade fails here first, with the name that moved.
"""

from __future__ import annotations

import importlib
from importlib.metadata import version

import pytest
from rich.style import Style as RichStyle
from textual.app import App
from textual.events import Key
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.style import Style
from textual.widget import Widget
from textual.widgets import OptionList
from textual.widgets.option_list import Option

MODULE_NAMES = [
    ("textual.widget", "_RenderCache"),
    ("textual._context", "active_message_pump"),
    ("textual.renderables._blend_colors", "blend_colors"),
    ("rich._wrap", "divide_line"),
]

CLASS_ATTRIBUTES = [
    (Widget, "_render_content"),
    (Widget, "_render"),
    (Widget, "_get_style"),
    (Widget, "_scroll_update"),
    (ScrollView, "_scroll_update"),
    (App, "_start_widget"),
    (Screen, "_modal_binding_chain"),
    (Key, "_set_forwarded"),
    (OptionList, "_get_option_render"),
    (OptionList, "_update_lines"),
    (OptionList, "_replace_option_prompt"),  # overridden: a rename would leave ours unused
    (OptionList, "_get_left_gutter_width"),
    (OptionList, "_get_visual"),
    (Option, "_set_prompt"),
]

WIDGET_INSTANCE_ATTRIBUTES = ["_render_cache", "_dirty_regions", "_vertical_scrollbar"]
OPTION_LIST_INSTANCE_ATTRIBUTES = [
    "_line_cache",
    "_option_render_cache",
    "_mouse_hovering_over",
    "_option_to_index",
]


def test_textual_is_the_pinned_version() -> None:
    assert version("textual") == "8.2.8"


@pytest.mark.parametrize(("module", "name"), MODULE_NAMES)
def test_private_module_names(module: str, name: str) -> None:
    assert hasattr(importlib.import_module(module), name)


@pytest.mark.parametrize(("cls", "name"), CLASS_ATTRIBUTES)
def test_private_class_attributes(cls: type, name: str) -> None:
    assert hasattr(cls, name)


def test_private_instance_attributes() -> None:
    widget = Widget()
    for name in WIDGET_INSTANCE_ATTRIBUTES:
        assert hasattr(widget, name), name
    options = OptionList("a", "b")
    for name in OPTION_LIST_INSTANCE_ATTRIBUTES:
        assert hasattr(options, name), name
    for name in ("heights", "index_to_line"):  # what the roster reads of _line_cache
        assert hasattr(options._line_cache, name), name
    assert hasattr(Option("a"), "_divider")
    assert hasattr(Style(), "_meta")  # textual.style.Style
    assert hasattr(RichStyle(), "_meta")  # rich.style.Style (the sparkline's)
