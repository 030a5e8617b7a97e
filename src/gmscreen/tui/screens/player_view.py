"""The player view: safe to turn the laptop around. Words only, never a number."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from gmscreen.campaign.player_safe import PlayerSafe, details, note_text, seems
from gmscreen.text import inert_line
from gmscreen.tui.commands import add_bindings
from gmscreen.tui.i18n import Translate
from gmscreen.tui.screens.players import PlayersScreen

BAND_STYLES = {
    "calm": "$success",
    "uneasy": "$success 70%",
    "shaken": "$warning",
    "edge": "bold $warning",
    "breaking": "bold $error",
}


DETAIL_STYLES = {"episode": "bold $warning", "permanent": "$error", "item": ""}


def player_lines(view: PlayerSafe, t: Translate) -> Content:
    """One block per character: name, how they seem, any episode, lasting madness and items.

    Every word comes from :mod:`gmscreen.campaign.player_safe`; this only lays it out and
    styles it (Content from plain strings: a name is never read as markup).
    """
    blocks: list[Content] = []
    for c in view.characters:
        looks = seems(c, view.lang)
        head = Content.assemble(
            (inert_line(c.name), "bold"),
            ("  " + t("card.player", player=c.player), "dim") if c.player else "",
            ("   " + looks, BAND_STYLES.get(c.band, "")) if looks else "",
        )
        lines = [head]
        lines.extend(
            Content.styled("    " + inert_line(text), DETAIL_STYLES[what])  # item names too
            for what, text in details(c, view.lang)
        )
        blocks.append(Content("\n").join(lines))
    if not blocks:
        return Content(t("player.nobody"))
    return Content("\n\n").join(blocks)


def shared_notes(view: PlayerSafe, t: Translate) -> Content:
    """The notes the GM shared this session, oldest first (empty when there are none)."""
    if not view.notes:
        return Content("")
    lines = [Content.styled(t("player.notes"), "bold")]
    for note in view.notes:
        lines.append(
            Content.assemble((note.when + "  ", "dim"), inert_line(note_text(note, view.lang)))
        )
    return Content("\n").join(lines)


class PlayerView(PlayersScreen):
    DEFAULT_CSS = """
    PlayerView { background: $background; }
    PlayerView #banner {
        dock: top; height: 3; content-align: center middle; text-style: bold;
        background: $primary; color: $text;
    }
    PlayerView VerticalScroll { padding: 1 4; }
    PlayerView #now { color: $text-muted; margin-bottom: 1; }
    PlayerView #notes { margin-top: 2; }
    PlayerView #back { dock: bottom; height: 1; color: $text-muted; content-align: center middle; }
    """

    def __init__(self, view: PlayerSafe, t: Translate, keys: str) -> None:
        super().__init__()
        add_bindings(self, [Binding(f"{keys},escape", "close", show=False)])
        self.view = view
        self.t = t

    def compose(self) -> ComposeResult:
        yield Static(Content(self.t("player.banner")), id="banner")
        with VerticalScroll():
            yield Static(id="now")
            yield Static(id="players")
            yield Static(id="notes")
        yield Static(Content(self.t("player.back")), id="back")

    def on_mount(self) -> None:
        self.show(self.view)

    def show(self, view: PlayerSafe) -> None:
        """Show ``view`` (what :func:`player_safe` says the players may see now)."""
        self.view = view
        self.query_one("#now", Static).update(Content(self.t("player.now", time=view.now)))
        self.query_one("#players", Static).update(player_lines(view, self.t))
        notes = self.query_one("#notes", Static)
        notes.update(shared_notes(view, self.t))
        notes.display = bool(view.notes)

    def action_close(self) -> None:
        self.dismiss(None)
