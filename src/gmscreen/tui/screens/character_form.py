"""The character form (new and edit), with a message under each field that is wrong.

It returns plain values keyed by the campaign's field names; the campaign checks them again.
Names are shown exactly as typed: they go into the inputs and labels as plain text.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import msgspec
from textual import on
from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from gmscreen.rules.numbers import whole_or_none
from gmscreen.text import inert_line
from gmscreen.tui.commands import NO_ROLL, bindings
from gmscreen.tui.i18n import Translate
from gmscreen.tui.typeahead import InOrderInput as Input
from gmscreen.tui.typeahead import dismiss_once
from gmscreen.tui.widgets.form_controls import SpaceCheckbox
from gmscreen.tui.widgets.key_bar import KeyBar


class Field(msgspec.Struct, frozen=True):
    key: str
    low: int | None = None  # whole numbers: the range
    high: int | None = None
    edit_only: bool = False
    madness: bool = False  # asked only when the campaign uses the madness module


FIELDS: tuple[Field, ...] = (
    Field("name"),
    Field("player"),
    Field("pow", 1, 100, madness=True),
    Field("app", 0, 100, madness=True),
    Field("chaos", 0, 200, madness=True),
    Field("balance", 0, 200, madness=True),
    Field("law", 0, 200, madness=True),
    Field("madness", 0, 999, edit_only=True, madness=True),
    Field("notes"),
)
DEFAULTS: dict[str, Any] = {"app": 10, "chaos": 0, "balance": 0, "law": 0, "madness": 0}
# The POW a character gets in a campaign without the madness module (the form does not ask:
# the campaign keeps a sanity block for every character, and a later madness module finds it).
POW_WITHOUT_MADNESS = 10


def form_fields(editing: bool, madness: bool = True) -> list[Field]:
    """The fields the form asks for: madness fields only with the madness module."""
    return [f for f in FIELDS if (editing or not f.edit_only) and (madness or not f.madness)]


def validate(
    raw: Mapping[str, str],
    taken: Collection[str],
    t: Translate,
    editing: bool,
    madness: bool = True,
) -> tuple[dict[str, Any], dict[str, str]]:
    """Plain values and, per field, what is wrong with it (an empty dict when all is well)."""
    values: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for field in form_fields(editing, madness):
        text = raw.get(field.key, "")
        if field.low is None:
            values[field.key] = text if field.key == "notes" else text.strip()
            continue
        number = whole_or_none(text)  # ASCII digits, bounded: "²" and 5,000 digits are errors
        if number is None or not field.low <= number <= (field.high or 0):
            errors[field.key] = t("form.error_range", low=field.low, high=field.high)
        else:
            values[field.key] = number
    name = values.get("name", "")
    folded = {n.strip().casefold() for n in taken}
    if not name:
        errors["name"] = t("form.error_name_required")
    elif name.casefold() in folded:
        errors["name"] = t("form.error_name_taken")
    return values, errors


class CharacterForm(ModalScreen[dict[str, Any] | None]):
    DEFAULT_CSS = """
    CharacterForm { align: center middle; }
    CharacterForm > #dialog {
        width: 80; height: auto; max-height: 95%;
        border: thick $accent; background: $surface; padding: 1 2;
    }
    CharacterForm #title { text-style: bold; color: $accent; margin-bottom: 1; }
    CharacterForm Grid { grid-size: 2; grid-columns: 14 1fr; grid-rows: auto; height: auto; }
    CharacterForm Grid Label { padding: 0 1 0 0; }
    CharacterForm .field { height: auto; }
    CharacterForm Input { width: 1fr; }
    CharacterForm .error { color: $error; height: auto; }
    CharacterForm .error.empty { display: none; }
    CharacterForm #hint { margin-top: 1; color: $text-muted; }
    """
    BINDINGS = bindings("dialog", NO_ROLL)

    def __init__(
        self,
        t: Translate,
        taken: Collection[str],
        values: Mapping[str, Any] | None = None,
        madness: bool = True,
    ) -> None:
        super().__init__()
        self.t = t
        self.taken = taken
        self.editing = values is not None
        self.madness = madness  # the campaign uses the madness module: ask its fields
        self.initial = dict(DEFAULTS) | dict(values or {})
        self.submitted = False
        self.typed: set[str] = set()  # the fields typed in: their messages show as typed

    def _fields(self) -> list[Field]:
        return form_fields(self.editing, self.madness)

    def compose(self) -> ComposeResult:
        title = "form.title_edit" if self.editing else "form.title_new"
        with Vertical(id="dialog"):
            yield Static(Content(self.t(title)), id="title")
            with Grid():
                for field in self._fields():
                    yield Label(Content(self.t(f"field.{field.key}")))
                    with Vertical(classes="field"):
                        value = self.initial.get(field.key, "")
                        # An Input draws its value raw: a file's ESC in a name comes in visible
                        # (saved as shown, if the GM saves the form)
                        shown = inert_line(str(value))
                        yield Input(shown, id=f"f-{field.key}", compact=True)
                        yield Static(id=f"e-{field.key}", classes="error empty")
                if self.madness:
                    yield Label(Content(""))
                    with Horizontal(classes="field"):
                        yield SpaceCheckbox(  # space toggles; enter saves the form
                            self.t("field.under_care"),
                            bool(self.initial.get("under_care", False)),
                            id="f-under_care",
                            compact=True,
                        )
            yield Static(Content(self.t("form.hint")), id="hint")
        yield KeyBar(self.t)

    def raw(self) -> dict[str, str]:
        return {f.key: self.query_one(f"#f-{f.key}", Input).value for f in self._fields()}

    def _show(self, errors: Mapping[str, str]) -> None:
        for field in self._fields():
            message = errors.get(field.key, "")
            error = self.query_one(f"#e-{field.key}", Static)
            error.update(Content(message))
            error.set_class(not message, "empty")

    @on(Input.Changed)
    def _revalidate(self, event: Input.Changed) -> None:
        """Each field typed in says at once what is wrong with it (an alignment of 300), and
        stops saying it once it is right; the others wait for enter (a new form is not red)."""
        if event.input.id:
            self.typed.add(event.input.id.removeprefix("f-"))
        errors = validate(self.raw(), self.taken, self.t, self.editing, self.madness)[1]
        self._show(errors if self.submitted else {k: errors[k] for k in errors if k in self.typed})

    @on(Input.Submitted)
    def action_confirm(self) -> None:
        self.submitted = True
        values, errors = validate(self.raw(), self.taken, self.t, self.editing, self.madness)
        self._show(errors)
        if errors:
            first = next(f for f in self._fields() if f.key in errors)
            self.query_one(f"#f-{first.key}", Input).focus()
            return
        if self.madness:
            values["under_care"] = self.query_one("#f-under_care", SpaceCheckbox).value
        dismiss_once(self, values)

    def action_cancel(self) -> None:
        dismiss_once(self, None)
