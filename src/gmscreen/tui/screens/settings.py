"""The settings screen (``S``): the campaign's name, rule modules, numbers, language, and the
player view's words, checked as they are typed, saved with enter as one journaled event.

The screen only gathers plain values (:func:`validate`); the campaign checks them again when it
saves them (``LiveCampaign.change_settings``). Text is shown as typed: names and words go into
inputs and labels as plain text, never markup.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from gmscreen.campaign.bounds import MAX_NAME
from gmscreen.campaign.model import MAX_EVENING_HOURS, MODULES, Settings
from gmscreen.i18n import LANGUAGES
from gmscreen.rules.madness_data import load_madness_data
from gmscreen.rules.numbers import NumberError, parse_whole
from gmscreen.text import inert_line
from gmscreen.tui.commands import NO_ROLL, bindings
from gmscreen.tui.format import band_label, error_text
from gmscreen.tui.i18n import Translate
from gmscreen.tui.typeahead import InOrderInput as Input
from gmscreen.tui.typeahead import dismiss_once
from gmscreen.tui.widgets.form_controls import Choice, SpaceCheckbox
from gmscreen.tui.widgets.key_bar import KeyBar

# The numbers, with the bounds campaign.toml allows (gmscreen.campaign.codec)
NUMBERS: dict[str, tuple[int, int]] = {
    "fumble_base": (0, 100),
    "round_seconds": (1, 3600),
    "evening_hours": (0, MAX_EVENING_HOURS),  # a pause that is still the same session
}


def band_keys() -> list[str]:
    return [b.key for b in load_madness_data().bands]


def field_keys() -> list[str]:
    """The fields that can be wrong, in the screen's order."""
    return ["name", "modules", *NUMBERS, *(f"words.{k}" for k in band_keys())]


def validate(
    raw: Mapping[str, Any], t: Translate, lang: str
) -> tuple[dict[str, Any], dict[str, str]]:
    """Plain settings from what the screen holds, and per field what is wrong with it.

    ``raw`` has ``name``, the numbers as typed, ``modules`` (a list), ``auto_check``,
    ``language`` and ``words.<band>`` (empty: the bundled words).
    """
    values: dict[str, Any] = {}
    errors: dict[str, str] = {}
    name = str(raw.get("name", "")).strip()
    if not name:
        errors["name"] = t("settings.error_name")
    elif len(name) > MAX_NAME:
        errors["name"] = t("settings.error_long", limit=MAX_NAME)
    else:
        values["name"] = name
    for key, (low, high) in NUMBERS.items():
        try:
            field = t(f"log.setting.{key}")
            values[key] = parse_whole(str(raw.get(key, "")), field, low=low, high=high)
        except NumberError as error:
            errors[key] = error_text(error, t, lang)
    modules = [m for m in MODULES if m in raw.get("modules", ())]
    if modules:
        values["modules"] = modules
    else:
        errors["modules"] = t("settings.error_modules")
    values["auto_check"] = bool(raw.get("auto_check"))
    values["language"] = str(raw.get("language", ""))
    words: dict[str, str] = {}
    for key in band_keys():
        said = str(raw.get(f"words.{key}", "")).strip()
        if len(said) > MAX_NAME:
            errors[f"words.{key}"] = t("settings.error_long", limit=MAX_NAME)
        elif said:
            words[key] = said
    values["player_words"] = words
    return values, errors


def field_id(prefix: str, key: str) -> str:
    """``f-words-calm``: a widget id for a field (``f``) or its message (``e``)."""
    return f"{prefix}-{key.replace('.', '-')}"


class SettingsScreen(ModalScreen[dict[str, Any] | None]):
    """The campaign's settings as a form; dismisses with the values to save, or None."""

    DEFAULT_CSS = """
    SettingsScreen { align: center middle; }
    SettingsScreen > #dialog {
        width: 84; max-width: 100%; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 1 2;
    }
    SettingsScreen #title { text-style: bold; color: $accent; margin-bottom: 1; }
    SettingsScreen #fields { height: auto; max-height: 100%; }
    SettingsScreen Grid { grid-size: 2; grid-columns: 24 1fr; grid-rows: auto; height: auto; }
    SettingsScreen Grid Label { padding: 0 1 0 0; }
    SettingsScreen .field { height: auto; }
    SettingsScreen .checks { height: auto; }
    SettingsScreen Input { width: 1fr; }
    SettingsScreen .error { color: $error; height: auto; }
    SettingsScreen .error.empty { display: none; }
    SettingsScreen #words-title { margin-top: 1; text-style: bold; }
    SettingsScreen #hint { dock: bottom; margin-top: 1; color: $text-muted; height: auto; }
    """
    BINDINGS = bindings("dialog", NO_ROLL)

    def __init__(self, name: str, settings: Settings, t: Translate, lang: str) -> None:
        super().__init__()
        self.t = t
        self.lang = lang
        self.campaign_name = name
        self.settings = settings

    # --- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        t, s = self.t, self.settings
        with Vertical(id="dialog"):
            yield Static(Content(t("settings.title")), id="title")
            with VerticalScroll(id="fields"), Grid():
                yield from self._row("name", self._input("name", self.campaign_name))
                yield Label(Content(t("settings.modules")))
                with Vertical(classes="field"):
                    with Horizontal(classes="checks"):
                        for module in MODULES:
                            label = t(f"settings.module.{module}")
                            on = module in s.modules
                            yield SpaceCheckbox(label, on, id=f"f-module-{module}", compact=True)
                    yield Static(id="e-modules", classes="error empty")
                for key in NUMBERS:
                    value = str(getattr(s, key))
                    yield from self._row(key, self._input(key, value))
                yield Label(Content(""))
                yield SpaceCheckbox(
                    t("settings.auto_check"), s.auto_check, id="f-auto_check", compact=True
                )
                options = [("", t("settings.language_auto"))]
                options += [(lang, t(f"language.{lang}")) for lang in LANGUAGES]
                yield Label(Content(t("settings.language")))
                yield Choice(options, s.language, id="f-language")
                yield Label(Content(t("settings.words")), id="words-title")
                yield Static(Content(t("settings.words_hint")))
                for key in band_keys():
                    field = self._input(f"words.{key}", s.player_words.get(key, ""))
                    field.placeholder = t(f"player.looks.{key}")
                    yield from self._row(f"words.{key}", field, band_label(key, self.lang))
            yield Static(Content(t("settings.hint")), id="hint")
        yield KeyBar(self.t)

    def on_mount(self) -> None:
        self.query_one("#f-name", Input).focus()

    def _input(self, key: str, value: str) -> Input:
        # An Input draws its value raw: text from a file comes in visible (see gmscreen.text)
        return Input(inert_line(value), id=field_id("f", key), compact=True)

    def _row(self, key: str, field: Input, label: str | None = None) -> ComposeResult:
        yield Label(Content(label if label is not None else self.t(f"settings.{key}")))
        with Vertical(classes="field"):
            yield field
            yield Static(id=field_id("e", key), classes="error empty")

    # --- values ------------------------------------------------------------------------------

    def raw(self) -> dict[str, Any]:
        raw: dict[str, Any] = {
            key: self.query_one(f"#{field_id('f', key)}", Input).value
            for key in ("name", *NUMBERS, *(f"words.{k}" for k in band_keys()))
        }
        raw["modules"] = [
            m for m in MODULES if self.query_one(f"#f-module-{m}", SpaceCheckbox).value
        ]
        raw["auto_check"] = self.query_one("#f-auto_check", SpaceCheckbox).value
        raw["language"] = self.query_one("#f-language", Choice).value
        return raw

    def _show(self, errors: Mapping[str, str]) -> None:
        """Each field's message now: a fixed field's old message goes as it is fixed."""
        for key in field_keys():
            message = errors.get(key, "")
            line = self.query_one(f"#{field_id('e', key)}", Static)
            line.update(Content(message))
            line.set_class(not message, "empty")

    @on(Input.Changed)
    @on(SpaceCheckbox.Changed)
    def _revalidate(self) -> None:
        self._show(validate(self.raw(), self.t, self.lang)[1])

    @on(Input.Submitted)
    def action_confirm(self) -> None:
        values, errors = validate(self.raw(), self.t, self.lang)
        self._show(errors)
        if errors:
            first = next(k for k in field_keys() if k in errors)
            focus = "#f-module-madness" if first == "modules" else f"#{field_id('f', first)}"
            self.query_one(focus).focus()
            return
        dismiss_once(self, values)

    def action_cancel(self) -> None:
        dismiss_once(self, None)
