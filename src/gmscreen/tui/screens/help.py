"""Help: every key, as the GM's keymap has it, with what it does."""

from __future__ import annotations

from collections.abc import Mapping

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from gmscreen.text import inert_line
from gmscreen.tui.commands import (
    COMMANDS,
    PALETTE_KEY,
    Scope,
    add_bindings,
    effective_keys,
    key_label,
)
from gmscreen.tui.i18n import Translate
from gmscreen.tui.widgets.key_bar import KeyBar

SECTIONS: tuple[tuple[str, tuple[Scope, ...]], ...] = (
    ("help.section_roster", ("roster",)),
    ("help.section_main", ("main", "app")),
    ("help.section_dialog", ("dialog",)),
    ("rulings.help_section", ("rulings",)),
    ("help.section_items", ("items",)),
    ("notes.help_section", ("notes",)),
    ("replay.help_section", ("replay",)),
)


def help_text(t: Translate, keymap: Mapping[str, str]) -> Content:
    lines: list[Content] = []
    for title, scopes in SECTIONS:
        if lines:
            lines.append(Content(""))
        lines.append(Content.styled(t(title), "bold $accent underline"))
        for command in COMMANDS:
            if command.scope not in scopes:
                continue
            # the keys come from the GM's config file: shown inert
            keys = inert_line(" ".join(key_label(k, t) for k in effective_keys(command, keymap)))
            lines.append(
                Content.assemble(
                    (f"{keys:>14}", "bold $secondary"),
                    "  ",
                    (t(f"command.{command.id}.name"), "bold"),
                    "  ",
                    (t(f"command.{command.id}.help"), "dim"),
                )
            )
        if "main" in scopes:
            lines.append(
                Content.assemble(
                    (f"{PALETTE_KEY:>14}", "bold $secondary"),
                    "  ",
                    (t("help.palette"), "bold"),
                    "  ",
                    (t("help.palette_help"), "dim"),
                )
            )
    lines += [Content(""), Content.styled(t("help.check_digits"), "dim")]
    lines += [Content.styled(t("help.items_digits"), "dim")]
    lines.append(Content.styled(t("help.remap"), "dim"))
    return Content("\n").join(lines)


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 110; height: 90%; border: thick $accent; background: $surface; padding: 0 1;
    }
    HelpScreen #title { text-style: bold; color: $accent; margin: 1 0; }
    """

    def __init__(self, t: Translate, keymap: Mapping[str, str]) -> None:
        super().__init__()
        add_bindings(
            self,
            [
                Binding("escape,question_mark,f1,q", "close", t("help.close")),
            ],
        )
        self.t = t
        self.keymap = keymap

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Content(self.t("help.title")), id="title")
            yield Static(help_text(self.t, self.keymap))
        yield KeyBar()

    def action_close(self) -> None:
        self.dismiss(None)
