"""The player view: safe to turn the laptop around. Words only, never a number.

Its layout is ``gmscreen show``'s too (:func:`show_players`). Every word comes from
:mod:`gmscreen.campaign.player_safe`; every piece of text that came from a person or a file (a
name, a player, the campaign's own words for a band, an item, a note) is drawn through
:func:`said`, plain (never markup) and inert (:func:`gmscreen.text.inert_line`).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from gmscreen.campaign.player_safe import PlayerSafe, details, note_text, seems
from gmscreen.text import inert_line
from gmscreen.tui.commands import by_id
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


def said(text: str, style: str = "") -> Content:
    """``text`` as the players read it: plain (never markup), inert (no control character
    reaches the terminal), one line. Every text of a players' screen passes here."""
    return Content.styled(inert_line(text), style)


def player_lines(view: PlayerSafe, t: Translate) -> Content:
    """One block per character: name, how they seem, any episode, lasting madness and items.

    Every word comes from :mod:`gmscreen.campaign.player_safe`; this only lays it out and
    styles it.
    """
    blocks: list[Content] = []
    for c in view.characters:
        looks = seems(c, view.lang)  # the campaign's own words for the band, maybe
        head = Content.assemble(
            said(c.name, "bold"),
            said("  " + t("card.player", player=c.player), "dim") if c.player else "",
            said("   " + looks, BAND_STYLES.get(c.band, "")) if looks else "",
        )
        lines = [head]
        lines.extend(
            said("    " + text, DETAIL_STYLES[what])  # item names too
            for what, text in details(c, view.lang)
        )
        blocks.append(Content("\n").join(lines))
    if not blocks:
        return said(t("player.nobody"))
    return Content("\n\n").join(blocks)


def shared_notes(view: PlayerSafe, t: Translate) -> Content:
    """The notes the GM shared this session, oldest first (empty when there are none)."""
    if not view.notes:
        return Content("")
    lines = [said(t("player.notes"), "bold")]
    for note in view.notes:
        lines.append(
            Content.assemble(said(note.when + "  ", "dim"), said(note_text(note, view.lang)))
        )
    return Content("\n").join(lines)


def show_players(screen: Screen[None], view: PlayerSafe, t: Translate) -> None:
    """Lay ``view`` out on a players' screen (its ``#now``, ``#players`` and ``#notes``)."""
    screen.query_one("#now", Static).update(said(t("player.now", time=view.now)))
    screen.query_one("#players", Static).update(player_lines(view, t))
    notes = screen.query_one("#notes", Static)
    notes.update(shared_notes(view, t))
    notes.display = bool(view.notes)


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
    # The key that opened it closes it too: the same binding id, so a [keys] remap moves both.
    BINDINGS = [
        Binding("escape", "close", show=False),
        Binding(by_id("player_view").keys, "close", show=False, id="player_view"),
    ]

    def __init__(self, view: PlayerSafe, t: Translate) -> None:
        super().__init__()
        self.view = view
        self.t = t

    def compose(self) -> ComposeResult:
        yield Static(said(self.t("player.banner")), id="banner")
        with VerticalScroll():
            yield Static(id="now")
            yield Static(id="players")
            yield Static(id="notes")
        yield Static(said(self.t("player.back")), id="back")

    def on_mount(self) -> None:
        self.show(self.view)

    def show(self, view: PlayerSafe) -> None:
        """Show ``view`` (what :func:`player_safe` says the players may see now)."""
        self.view = view
        show_players(self, view, self.t)

    def action_close(self) -> None:
        self.dismiss(None)
