"""Hostile text for the "text is inert" tests (#13.2): names built of markup, escape sequences,
right-to-left and zero-width characters, and the checks every output must pass."""

from __future__ import annotations

import random
import re
from pathlib import Path

from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token
from msgspec.structs import replace

from gmscreen.campaign.model import Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.store import read_checkpoint, write_checkpoint
from gmscreen.rules import dice

PIECES = [
    "[",
    "]",
    "[/]",
    "[bold]",
    "[PC]",
    "[$accent]",
    "\\",
    "\x1b]0;x\x07",
    "\x1b]52;c;cHduZWQ=\x07",  # OSC 52: write the clipboard
    "\x1b[2J",
    "\x9b2J",  # the one-byte CSI
    "\x07",
    "\x7f",
    "\u202e",  # right-to-left override
    "\u2067",  # right-to-left isolate
    "مرحبا",
    "עברית",
    "\u200b",  # zero-width space
    "\u200d",  # zero-width joiner
    "Elric",
    "Øst",
    "東京",
    " ",
]

# Characters no output may carry (independent of gmscreen.text, which the tests check): every
# C0 control but the line feed, DEL, the C1 controls, the bidi embeddings/overrides/isolates.
FORBIDDEN = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# What a name keeps as it is when shown: the runs between the characters rendered visibly
_SHOWN_AS_IS = re.compile("[^\n\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]+")

# BMP text without surrogates (a TOML file cannot hold them), hostile pieces mixed in
_LETTERS = st.text(
    alphabet=st.characters(max_codepoint=0xFFFF, exclude_categories=["Cs"]), max_size=6
)
names = (
    st.lists(st.one_of(st.sampled_from(PIECES), _LETTERS), min_size=1, max_size=5)
    .map("".join)
    .filter(lambda name: bool(name.strip()))
)


def forbidden_in(text: str) -> list[str]:
    return sorted({f"U+{ord(c):04X}" for c in FORBIDDEN.findall(text)})


def shown_as_typed(name: str, output: str) -> bool:
    """Every run of ``name`` between the characters shown visibly appears in ``output``
    (``Bad[/]`` as ``Bad[/]``, ``Elric [PC]`` with its ``[PC]``)."""
    return all(part in output for part in _SHOWN_AS_IS.findall(name))


# A Markdown reader: CommonMark with GitHub's tables and strikethrough (markdown-it comes with
# Textual). The recaps are Markdown, so what they show is what it reads, not their raw text.
MARKDOWN = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def markdown_shown(markdown: str | list[Token]) -> str:
    """The text a Markdown reader shows for ``markdown`` (its source, or its tokens), with a
    line break after each paragraph and heading."""
    tokens = MARKDOWN.parse(markdown) if isinstance(markdown, str) else markdown
    parts: list[str] = []
    for token in tokens:
        if token.type in (
            "text",
            "code_inline",
            "code_block",
            "fence",
            "html_inline",
            "html_block",
        ):
            parts.append(token.content)
        parts.append(markdown_shown(token.children or []) if token.children else "")
        if token.type in ("paragraph_close", "heading_close", "softbreak", "hardbreak"):
            parts.append("\n")
    return "".join(parts)


def hostile_campaign(root: Path, name: str, notes: str = "") -> Path:
    """A campaign whose name and only character are ``name`` (the campaign's name as a file
    would hold it), with one session: add, a demon, a failed check and its kind, a note, undo."""
    folder = create_campaign(root, "Hostile", Settings(modules=("madness",)))
    checkpoint, _ = read_checkpoint(folder)
    write_checkpoint(folder, replace(checkpoint, name=name))
    with open_campaign(folder, rng=random.Random(3)) as live:
        live.add_character(name, 13, chaos=43, law=47, balance=32, player=name, notes=notes)
        who = live.state.characters[0].id
        live.gain(who, "demon", {"pow": 40})  # 8, and 6 more: a check is due
        live.gain(who, "friend_dies", None, dice.typed("1d6", "6"))
        live.check_roll(who, dice.typed("d100", "53"))
        live.check_kind(who, dice.typed("1d6", "4"))
        live.note(name, who)
        live.gain(who, "elemental")
        live.undo()
    return folder
