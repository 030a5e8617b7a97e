"""A session's recap as Markdown: what ``gmscreen export`` prints and the replay screen saves.

Two voices: the GM's (:func:`~gmscreen.campaign.recap.recap`: every number, undone events
struck through) and the players' (:func:`~gmscreen.campaign.player_safe.player_safe`: only what
they may see). Both are built as plain text; the returned string is where it leaves this module.
"""

from __future__ import annotations

from pathlib import Path

from gmscreen.campaign.journal import SessionLog
from gmscreen.campaign.player_safe import PlayerSafe, SeenCharacter, details, player_safe, seems
from gmscreen.campaign.recap import game_time, recap, standing, words
from gmscreen.campaign.safe_files import check_component, ensure_folder, replace_file
from gmscreen.campaign.store import recover
from gmscreen.i18n import DEFAULT_LANGUAGE, catalog_for
from gmscreen.rules.tables_render import item_title
from gmscreen.text import inert


def recap_markdown(
    campaign_name: str, log: SessionLog, players: bool = False, lang: str = DEFAULT_LANGUAGE
) -> str:
    """The recap of ``log`` in ``lang`` as Markdown text, ending with a newline."""
    final = recover(log.header.state, [log]).state
    if players:
        view = player_safe(final, lang, log.events, start=log.header.state, story=True)
        return players_markdown(view, campaign_name, log.header.id)
    w = words(lang)
    lines = recap(log.header.state, log.events, lang)
    title = w("title.gm", campaign=campaign_name, session=log.header.id)
    out = [f"# {title}\n"]
    out.append(f"*{w('played', when=log.header.started_at[:16].replace('T', ' '))}*\n")
    if not lines:
        out.append(w("no_events"))
    for line in lines:
        text = f"**{game_time(line.event.game, lang)}**: {line.text}"
        out.append(f"- ~~{text}~~{w('undone')}" if line.void else f"- {text}")
    out.append(f"\n## {w('standing')}\n")
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
            titles = ", ".join(
                item_title({"title": i.title, "tree": i.tree, "name": i.name}, lang)
                for i in character.inventory
            )
            parts.append(w("carries", items=titles))
        out.append(f"- {name}: " + "; ".join(parts))
    # The one way out to a terminal (export) or a file (replay's e/E): names, notes and item
    # texts come from files, so no control character leaves with them (gmscreen.text).
    return inert("\n".join(out) + "\n")


def players_markdown(view: PlayerSafe, campaign_name: str, session: str) -> str:
    """The players' recap: :func:`player_safe`'s story and standing, laid out, nothing added."""
    t = catalog_for(view.lang).t
    out = [f"# {t('player.title', campaign=campaign_name, session=session)}\n"]
    if not view.story:
        out.append(t("player.nothing"))
    out.extend(f"- **{line.when}**: {line.text}" for line in view.story)
    out.append(f"\n## {t('player.standing', time=view.now)}\n")
    out.extend(f"- {character_line(c, view.lang)}" for c in view.characters)
    return inert("\n".join(out) + "\n")  # names, notes, items from files: see recap_markdown


def character_line(c: SeenCharacter, lang: str) -> str:
    """One character for players: ``Artinar: seems breaking``, then a sub-item for the episode,
    each lasting madness and each item."""
    looks = seems(c, lang)
    head = f"{c.name}: {looks}" if looks else c.name
    return "\n".join([head, *(f"  - {text}" for _, text in details(c, lang))])


EXPORTS_DIR = "exports"


def save_recap(
    folder: Path,
    campaign_name: str,
    log: SessionLog,
    players: bool = False,
    lang: str = DEFAULT_LANGUAGE,
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
    replace_file(target_dir, name, recap_markdown(campaign_name, log, players, lang).encode())
    return target_dir / name
