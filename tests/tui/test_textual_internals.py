"""Every private name of Textual (and Rich) that gmscreen relies on, in one place.

Textual is pinned (pyproject: textual==8.2.8). The keys typed ahead (tui/typeahead.py) use a few
of its private names, each named in a comment where it is used (the drawing uses none). A
Textual upgrade fails here first, with the name that moved.
"""

from __future__ import annotations

import importlib
from importlib.metadata import version

import pytest
from textual.events import Key
from textual.screen import Screen

MODULE_NAMES = [
    ("textual._context", "active_message_pump"),
]

CLASS_ATTRIBUTES = [
    (Screen, "_modal_binding_chain"),
    (Key, "_set_forwarded"),
]


def test_textual_is_the_pinned_version() -> None:
    assert version("textual") == "8.2.8"


@pytest.mark.parametrize(("module", "name"), MODULE_NAMES)
def test_private_module_names(module: str, name: str) -> None:
    assert hasattr(importlib.import_module(module), name)


@pytest.mark.parametrize(("cls", "name"), CLASS_ATTRIBUTES)
def test_private_class_attributes(cls: type, name: str) -> None:
    assert hasattr(cls, name)
