"""Help: every key, as the GM's keymap has it, with what it does.

Some ninety lines: more than a 40-row terminal shows, so the frame says when there is more
below (or above) and the key bar offers the keys that scroll, only while they would.
"""

from __future__ import annotations

from collections.abc import Mapping

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from gmscreen.text import inert_line
from gmscreen.tui.commands import COMMANDS, PALETTE_KEY, Scope, effective_keys, key_label
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
        width: 110; max-width: 100%; height: 90%;  /* 80 columns: narrower, its lines wrap */
        border: thick $accent; background: $surface; padding: 0 1;
        border-subtitle-align: right; border-subtitle-color: $text; border-subtitle-style: bold;
    }
    HelpScreen #title { text-style: bold; color: $accent; margin: 1 0; }
    """
    BINDINGS = [
        Binding("escape,question_mark,f1,q", "close", "close"),
        Binding("pagedown", "more(1)", "more"),
        Binding("pageup", "more(-1)", "back up"),
        # the frame takes no focus (its own page keys would hide these from the bar)
        Binding("down", "scroll('down')", show=False),
        Binding("up", "scroll('up')", show=False),
        Binding("home", "scroll('home')", show=False),
        Binding("end", "scroll('end')", show=False),
    ]
    KEY_WORDS = {"close": "help.close", "more(1)": "help.more", "more(-1)": "help.back_up"}

    def __init__(self, t: Translate, keymap: Mapping[str, str]) -> None:
        super().__init__()
        self.t = t
        self.keymap = keymap

    def compose(self) -> ComposeResult:
        with VerticalScroll(can_focus=False):
            yield Static(Content(self.t("help.title")), id="title")
            yield Static(help_text(self.t, self.keymap))
        yield KeyBar(self.t)

    def on_mount(self) -> None:
        scroll = self.query_one(VerticalScroll)
        self.watch(scroll, "scroll_y", self._scrolled)
        self.watch(scroll, "virtual_size", self._scrolled)  # the text laid out, or wrapped anew

    def on_resize(self) -> None:
        self.call_after_refresh(self._scrolled)  # a taller terminal may show it all

    def _scrolled(self) -> None:
        scroll = self.query_one(VerticalScroll)
        below, above = self.offers("more(1)"), self.offers("more(-1)")
        hint = "help.more_below" if below else "help.top_above" if above else None
        scroll.border_subtitle = self.t(hint) if hint else ""
        self.refresh_bindings()  # pgdn / pgup on the key bar: only while they scroll

    def offers(self, action: str) -> bool:
        """The key bar's question (KeyBar): page down only with more below, up with more above."""
        scroll = self.query_one(VerticalScroll)
        if action == "more(1)":
            return scroll.scroll_y < scroll.max_scroll_y
        if action == "more(-1)":
            return scroll.scroll_y > 0
        return True

    def action_scroll(self, where: str) -> None:
        scroll = self.query_one(VerticalScroll)
        match where:
            case "down":
                scroll.scroll_down(animate=False)
            case "up":
                scroll.scroll_up(animate=False)
            case "home":
                scroll.scroll_home(animate=False)
            case _:
                scroll.scroll_end(animate=False)

    def action_more(self, direction: int) -> None:
        scroll = self.query_one(VerticalScroll)
        if direction > 0:
            scroll.scroll_page_down(animate=False)
        else:
            scroll.scroll_page_up(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
