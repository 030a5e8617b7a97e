"""A session's recap as Markdown: what ``gmscreen export`` prints and the replay screen saves.

Two voices, as in :func:`~gmscreen.campaign.recap.recap`: the GM's (every number, undone
events struck through) and the players' (no number they must not see).
"""

from __future__ import annotations

import os
from pathlib import Path

from gmscreen.campaign.journal import SessionLog
from gmscreen.campaign.recap import game_time, recap, standing, t
from gmscreen.campaign.store import recover


def recap_markdown(campaign_name: str, log: SessionLog, players: bool = False) -> str:
    """The recap of ``log`` as Markdown text, ending with a newline."""
    lines = recap(log.header.state, log.events, players)
    final = recover(log.header.state, [log]).state
    title = t(
        "title.players" if players else "title", campaign=campaign_name, session=log.header.id
    )
    out = [f"# {title}\n"]
    if not players:
        out.append(f"*Played {log.header.started_at[:16].replace('T', ' ')}*\n")
    if not lines:
        out.append(t("no_events"))
    for line in lines:
        text = f"**{game_time(line.event.game)}**: {line.text}"
        out.append(f"- ~~{text}~~{t('undone')}" if line.void else f"- {text}")
    out.append(f"\n## {t('standing')}\n")
    madness = "madness" in final.settings.modules
    for character, (name, words) in zip(final.characters, standing(final), strict=True):
        parts = [words] if madness else []
        if not players and madness:
            parts.append(f"madness {character.sanity.madness} / POW {character.sanity.pow}")
        if character.merp is not None:
            m = character.merp
            parts.append(f"{m.points_left} of {m.points_total} background points left")
        if character.inventory:
            parts.append("carries " + ", ".join(i.title for i in character.inventory))
        out.append(f"- {name}: " + "; ".join(parts))
    return "\n".join(out) + "\n"


EXPORTS_DIR = "exports"


def save_recap(folder: Path, campaign_name: str, log: SessionLog, players: bool = False) -> Path:
    """Write the recap to ``<campaign>/exports/<session>-<gm|players>.md``; returns the path.

    The only file replay writes: atomically (a temporary file in ``exports/``, then a rename),
    so a reader never sees half a recap.
    """
    target_dir = folder / EXPORTS_DIR
    target_dir.mkdir(exist_ok=True)
    target = target_dir / f"{log.header.id}-{'players' if players else 'gm'}.md"
    temporary = target_dir / f".{target.name}.{os.getpid()}.tmp"
    try:
        temporary.write_text(recap_markdown(campaign_name, log, players), encoding="utf-8")
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
    return target
