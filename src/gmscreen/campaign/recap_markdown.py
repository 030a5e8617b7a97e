"""A session's recap as Markdown: what ``gmscreen export`` prints and the replay screen saves.

Two voices: the GM's (:func:`~gmscreen.campaign.telling.recap_lines`: the log's words, every
number, undone events struck through) and the players' (:func:`~gmscreen.campaign.player_safe.
player_safe`: only what they may see). Both are built as plain text; the returned string is where it leaves this module.
Every piece of text is put in through :func:`literal`: names, notes, reasons and item names are
the GM's and the players' words, and a Markdown reader must show them as typed, never as markup.
"""

from __future__ import annotations

import re
from pathlib import Path

from gmscreen.campaign.item_names import item_name
from gmscreen.campaign.journal import SessionLog
from gmscreen.campaign.model import Campaign
from gmscreen.campaign.player_safe import PlayerSafe, SeenCharacter, details, player_safe, seems
from gmscreen.campaign.safe_files import check_component, ensure_folder, replace_file
from gmscreen.campaign.store import recover
from gmscreen.campaign.telling import recap_lines
from gmscreen.campaign.wording import game_time, kind_words, words
from gmscreen.i18n import DEFAULT_LANGUAGE, catalog_for
from gmscreen.rules.madness import band
from gmscreen.rules.madness_data import load_madness_data
from gmscreen.text import inert, inert_line

# The ASCII characters that can start or end Markdown markup in running text (CommonMark with
# GitHub's tables and strikethrough): emphasis, code, links and images, raw HTML and autolinks,
# entities, headings, table cells, strikethrough, and the backslash itself. Each one escaped with
# a backslash reads as itself in every CommonMark reader, and is plain to read in the raw file.
_MARKUP = re.compile(r"([\\`*_\[\]<>#|~&])")


def literal(text: str) -> str:
    """``text`` for one line of the recap, shown as written by any Markdown reader.

    A line feed would end the list item, and what follows could open a heading, a quote or a
    code block: every recap line is a one-line place, so it shows as ``␊`` (as in
    :func:`~gmscreen.text.inert_line`, which renders the control characters too)."""
    return _MARKUP.sub(r"\\\1", inert_line(text))


def item_start(text: str) -> str:
    """:func:`literal` for the first words of a list item, where two more things are markup:
    spaces (they would move the item's indentation: its sub-items would leave it, or it would
    become a code block; a reader shows none of them anyway) and what opens a list or a rule
    (``-``, ``+``, ``1.``, ``1)``)."""
    return _BLOCK_START.sub(r"\1\\\2", literal(text.lstrip()))


_BLOCK_START = re.compile(r"\A(\d*)([-+.)])")


def recap_markdown(
    campaign_name: str,
    log: SessionLog,
    players: bool = False,
    lang: str = DEFAULT_LANGUAGE,
    final: Campaign | None = None,
) -> str:
    """The recap of ``log`` in ``lang`` as Markdown text, ending with a newline. ``final``: the
    campaign as the session left it (default: ``log`` folded from its start; a session of
    several journals gives it, see :mod:`gmscreen.campaign.evenings`)."""
    if final is None:
        final = recover(log.header.state, [log]).state
    if players:
        view = player_safe(final, lang, log.events, start=log.header.state, story=True)
        return players_markdown(view, campaign_name, log.header.id)
    w = words(lang)
    lines = recap_lines(log.header.state, log.events, lang)
    title = w("title.gm", campaign=campaign_name, session=log.header.id)
    out = [f"# {literal(title)}\n"]
    played = w("played", when=log.header.started_at[:16].replace("T", " "))
    out.append(f"*{literal(played.strip())}*\n")  # an emphasis closes only after a non-space
    if not lines:
        out.append(literal(w("no_events")))
    for line in lines:
        text = f"**{literal(game_time(line.game, lang))}**: {literal(line.text.rstrip())}"
        out.append(f"- ~~{text}~~{literal(w('undone'))}" if line.void else f"- {text}")
    out.append(f"\n## {literal(w('standing'))}\n")
    madness = "madness" in final.settings.modules
    for character, (name, state) in zip(final.characters, standing(final, lang), strict=True):
        parts = [state] if madness else []
        if madness:
            parts.append(
                w("madness_of_pow", madness=character.sanity.madness, pow=character.sanity.pow)
            )
        if character.merp is not None:
            m = character.merp
            parts.append(w("points_left", left=m.points_left, total=m.points_total))
        if character.inventory:
            titles = ", ".join(item_name(i, lang) for i in character.inventory)
            parts.append(w("carries", items=titles))
        out.append(f"- {item_start(name)}: " + literal("; ".join(parts)))
    # The one way out to a terminal (export) or a file (replay's e/E): names, notes and item
    # texts come from files, so no control character leaves with them (gmscreen.text).
    return inert("\n".join(out) + "\n")


def standing(state: Campaign, lang: str = DEFAULT_LANGUAGE) -> list[tuple[str, str]]:
    """Each character's name and band in words, for the GM's recap (players: ``player_safe``)."""
    bands = {b.key: b.label.get(lang) for b in load_madness_data().bands}
    out = []
    for c in state.characters:
        said = bands.get(band(c.sanity), "")
        if c.sanity.episode is not None:
            said += f", {kind_words(c.sanity.episode.kind, lang)}"
        out.append((c.name, said))
    return out


def players_markdown(view: PlayerSafe, campaign_name: str, session: str) -> str:
    """The players' recap: :func:`player_safe`'s story and standing, laid out, nothing added."""
    t = catalog_for(view.lang).t
    out = [f"# {literal(t('player.title', campaign=campaign_name, session=session))}\n"]
    if not view.story:
        out.append(literal(t("player.nothing")))
    out.extend(f"- **{literal(line.when)}**: {literal(line.text)}" for line in view.story)
    out.append(f"\n## {literal(t('player.standing', time=view.now))}\n")
    out.extend(f"- {character_line(c, view.lang)}" for c in view.characters)
    return inert("\n".join(out) + "\n")  # names, notes, items from files: see recap_markdown


def character_line(c: SeenCharacter, lang: str) -> str:
    """One character for players: ``Artinar: seems breaking``, then a sub-item for the episode,
    each lasting madness and each item."""
    looks = seems(c, lang)
    head = f"{item_start(c.name)}: {literal(looks)}" if looks else item_start(c.name)
    return "\n".join([head, *(f"  - {literal(text)}" for _, text in details(c, lang))])


EXPORTS_DIR = "exports"


def save_recap(
    folder: Path,
    campaign_name: str,
    log: SessionLog,
    players: bool = False,
    lang: str = DEFAULT_LANGUAGE,
    final: Campaign | None = None,
) -> Path:
    """Write the recap to ``<campaign>/exports/<session>-<gm|players>.md``; returns the path.

    The only file replay writes: atomically (a temporary file with a random name in
    ``exports/``, then a rename), so a reader never sees half a recap. ``exports/`` must be a
    real folder and the name comes from a checked session id, so it never lands elsewhere.
    Raises :class:`~gmscreen.campaign.errors.CampaignError` (an unsafe name or folder) or
    ``OSError``.
    """
    name = check_component(f"{log.header.id}-{'players' if players else 'gm'}.md", "export name")
    target_dir = ensure_folder(folder, EXPORTS_DIR)
    recap = recap_markdown(campaign_name, log, players, lang, final)
    replace_file(target_dir, name, recap.encode())
    return target_dir / name
