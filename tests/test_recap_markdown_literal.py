"""The Markdown recaps show the GM's and the players' words as typed (`export`, replay's e/E):
a name, a note, a ruling's reason, an item's name or the campaign's name made of Markdown
(``*x*``, ``_x_``, `` `x` ``, ``[a](b)``, ``# x``, ``a | b``, ``<b>``, ``&amp;``, ``~~x~~``)
is read back by a Markdown reader as the same characters, and adds no markup of its own.

The reader is markdown-it (CommonMark, with GitHub's tables and strikethrough), which Textual
itself depends on: each recap is rendered twice, once with hostile words and once with a plain
name in their place, and the two must have the same structure; the hostile words must be in the
rendered text.
"""

from __future__ import annotations

import random
import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it.token import Token
from msgspec.structs import replace
from tests.hostile_text import MARKDOWN as READER
from tests.hostile_text import markdown_shown

from gmscreen.campaign import events as ev
from gmscreen.campaign import rulings as r
from gmscreen.campaign.model import Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.recap_markdown import literal, recap_markdown
from gmscreen.campaign.store import load_sessions, read_checkpoint, write_checkpoint
from gmscreen.rules import merp
from gmscreen.rules.tables import roll_table
from gmscreen.rules.tables_names import full_name
from gmscreen.text import inert_line

MARKUP = [
    "*",
    "**",
    "_",
    "__",
    "`",
    "```",
    "~",
    "~~",
    "[a](b)",
    "![i](x.png)",
    "[",
    "]",
    "(",
    ")",
    "# ",
    "#",
    "|",
    " | a | b |",
    "|---|---|",
    "<b>",
    "<!--",
    "<http://x.org>",
    "&amp;",
    "&#42;",
    "\\",
    "\\*",
    "> ",
    "- ",
    "1. ",
    "---",
    "===",
    "\n",
    "\n# ",
    "\n\n    code",
    "    ",
    " ",
    "Elric",
    "x",
]
hostile = (
    st.lists(st.sampled_from(MARKUP), min_size=1, max_size=8)
    .map("".join)
    .filter(lambda s: bool(s.strip()) and "\n" not in s.strip())
)
PLAIN = "Elric"


def _session(root: Path, words: str) -> Path:
    """A campaign named ``words`` whose one character, player, notes, ruling's reason, what
    happened and item are all ``words``; one note is undone (a struck-through line)."""
    modules = ("madness", "merp-items")
    folder = create_campaign(root, "Hostile", Settings(modules=modules, auto_check=False))
    checkpoint, _ = read_checkpoint(folder)
    write_checkpoint(folder, replace(checkpoint, name=words))
    one_line = words.replace("\n", " ").strip()  # an item's name is one line, stripped
    profile = {"category": "non_spell_user", "race": "Dúnadan", "points_total": 3}
    with open_campaign(folder, rng=random.Random(3)) as live:
        live.add_character(words, 13, chaos=43, law=47, balance=32, player=words, merp=profile)
        who = live.state.characters[0].id
        live.gain(who, "demon", {"pow": 40}, None, 0, words)
        live.note(words, who, shared=True)
        live.note(words)
        live.undo()
        live.ruling(who, r.SetMadness(3), words)
        resolution = roll_table(merp.merp_tables(), merp.TABLE_1, random.Random(5))
        while resolution.pending is not None and not resolution.done:
            resolution.choose(0)
            resolution.auto(random.Random(5))
        title = full_name(resolution.tree, merp.merp_tables(), "en")
        rolled = live.item_rolled(who, merp.TABLE_1, title, resolution.to_dict())
        assert isinstance(rolled.data, ev.ItemRolled)
        item_id = str(rolled.data.item["id"])
        live.item_kept(who, item_id)
        live.item_renamed(who, item_id, one_line)
    return folder


def _recaps(words: str) -> dict[str, str]:
    with tempfile.TemporaryDirectory() as root:
        folder = _session(Path(root), words)
        checkpoint, _ = read_checkpoint(folder)
        (log,) = load_sessions(folder)
        return {
            f"{lang} {'players' if players else 'gm'}": recap_markdown(
                checkpoint.name, log, players, lang
            )
            for lang in ("en", "es")
            for players in (False, True)
        }


def _structure(tokens: list[Token]) -> list[tuple[str, str, int]]:
    """Every block and inline token but the text itself: what a reader makes of the markup."""
    out: list[tuple[str, str, int]] = []
    for token in tokens:
        if token.type not in ("text", "inline"):
            out.append((token.type, token.tag, token.nesting))
        out.extend(_structure(token.children or []))
    return out


def _shown(tokens: list[Token]) -> str:
    """The text a reader shows, whitespace runs as one space (as a browser draws them)."""
    return _squeeze(markdown_shown(tokens))


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=hostile)
def test_hostile_words_read_as_typed_and_add_no_markup(words: str) -> None:
    plain = {where: READER.parse(text) for where, text in _recaps(PLAIN).items()}
    for where, text in _recaps(words).items():
        tokens = READER.parse(text)
        assert _structure(tokens) == _structure(plain[where]), (where, text)
        shown = _shown(tokens)
        assert _squeeze(inert_line(words)) in shown, (where, text)


def test_each_kind_of_markup_reads_as_itself() -> None:
    for words in ("*bold*", "_em_", "`code`", "[a](http://x)", "# Title", "a | b", "~~gone~~"):
        tokens = READER.parse(f"- {literal(words)}")
        assert _shown(tokens).strip() == words
        assert [t for t, _, _ in _structure(tokens)] == [
            "bullet_list_open",
            "list_item_open",
            "paragraph_open",
            "paragraph_close",
            "list_item_close",
            "bullet_list_close",
        ]


def test_a_line_feed_shows_and_keeps_the_list_whole() -> None:
    assert literal("one\n# two") == "one␊\\# two"
    # the recap's own words, dice and figures are left as they are
    assert literal("plain words, 1d6: 4 (madness 3 → 7)") == "plain words, 1d6: 4 (madness 3 → 7)"
