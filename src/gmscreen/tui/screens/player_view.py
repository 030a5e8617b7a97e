"""The player view: safe to turn the laptop around. Words only, never a number."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from gmscreen.rules.madness import band
from gmscreen.rules.madness_data import load_madness_data
from gmscreen.tui.commands import add_bindings
from gmscreen.tui.format import band_label
from gmscreen.tui.i18n import Translate
from gmscreen.tui.widgets.roster import CharacterLike

BAND_STYLES = {
    "calm": "$success",
    "uneasy": "$success 70%",
    "shaken": "$warning",
    "edge": "bold $warning",
    "breaking": "bold $error",
}


def player_lines(characters: Sequence[CharacterLike], t: Translate, lang: str) -> Content:
    """One block per character: name, how they seem, and any episode others can see."""
    data = load_madness_data()
    blocks: list[Content] = []
    for character in characters:
        state = character.sanity
        key = band(state)
        head = Content.assemble(
            (character.name, "bold"),
            ("  " + t("card.player", player=character.player), "dim") if character.player else "",
            "   ",
            (t("player.seems", band=band_label(key, lang)), BAND_STYLES.get(key, "")),
        )
        lines = [head]
        if state.episode is not None:
            kind = data.kind(state.episode.kind)
            lines.append(
                Content.styled(
                    "    "
                    + t("player.episode", kind=kind.label.get(lang), detail=kind.detail.get(lang)),
                    "bold $warning",
                )
            )
        blocks.append(Content("\n").join(lines))
    if not blocks:
        return Content(t("player.nobody"))
    return Content("\n\n").join(blocks)


class PlayerView(Screen[None]):
    DEFAULT_CSS = """
    PlayerView { background: $background; }
    PlayerView #banner {
        dock: top; height: 3; content-align: center middle; text-style: bold;
        background: $primary; color: $text;
    }
    PlayerView VerticalScroll { padding: 1 4; }
    PlayerView #back { dock: bottom; height: 1; color: $text-muted; content-align: center middle; }
    """

    def __init__(
        self, characters: Sequence[CharacterLike], t: Translate, lang: str, keys: str
    ) -> None:
        super().__init__()
        add_bindings(self, [Binding(f"{keys},escape", "close", show=False)])
        self.characters = list(characters)
        self.t = t
        self.lang = lang

    def compose(self) -> ComposeResult:
        yield Static(Content(self.t("player.banner")), id="banner")
        with VerticalScroll():
            yield Static(id="players")
        yield Static(Content(self.t("player.back")), id="back")

    def on_mount(self) -> None:
        self.show(self.characters)

    def show(self, characters: Sequence[CharacterLike]) -> None:
        self.characters = list(characters)
        self.query_one("#players", Static).update(player_lines(characters, self.t, self.lang))

    def action_close(self) -> None:
        self.dismiss(None)
