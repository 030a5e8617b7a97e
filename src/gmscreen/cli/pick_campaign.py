"""``gmscreen`` with no campaign named: list the campaigns found and ask which to open.

A numbered prompt, not a Textual screen: it shows before Textual loads (the list is there at
once, and a campaign picked starts the screen the usual way), reads from any stdin (``echo 2 |
gmscreen`` works, and so do tests without a terminal), and leaves the list in the scrollback,
where the GM can still read the folders once the screen is closed.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from gmscreen.campaign.listing import FoundCampaign, find_campaigns
from gmscreen.text import inert_line

NAME_WIDTH = 32
QUIT = ("", "q", "quit")
PROMPT = "Open which? Type its number and press Enter (Enter alone or q quits): "


def shown(text: str) -> str:
    """A name, path or problem from a file or a person, for one line of the terminal: inert
    (:mod:`gmscreen.text`: ESC shows as ``␛``, a bidi override as ``\\u202e``)."""
    return inert_line(text)


def _name(text: str) -> str:
    text = shown(text)
    return text if len(text) <= NAME_WIDTH else text[: NAME_WIDTH - 1] + "…"


def _line(number: int, campaign: FoundCampaign) -> str:
    if campaign.problem is not None:
        return f"  {number:>3}  {_name(campaign.name):<{NAME_WIDTH}}  cannot be opened: {shown(campaign.problem)}"
    last = campaign.last_played or "not yet"
    sessions = "1 session" if campaign.sessions == 1 else f"{campaign.sessions} sessions"
    return f"  {number:>3}  {_name(campaign.name):<{NAME_WIDTH}}  {last:<11}  {sessions}"


def how_to_start(roots: Sequence[Path], new_dir: Path, invoked: str = "gmscreen") -> str:
    """What to type when there is no campaign yet, starting as the GM started gmscreen."""
    where = " or ".join(shown(str(root)) for root in roots)
    new, demo = f"{invoked} new NAME", f"{invoked} --demo"
    width = max(len(new), len(demo)) + 3
    return (
        f"No campaigns yet (looked in {where}).\n"
        f"  {shown(new):<{width}}create one (in {shown(str(new_dir))}; --dir FOLDER for "
        "elsewhere)\n"
        f"  {shown(demo):<{width}}open a throwaway copy of the demo party\n"
    )


def sections(
    campaigns: Sequence[FoundCampaign], roots: Sequence[Path]
) -> list[tuple[str, list[FoundCampaign]]]:
    """The list's groups, each with its heading: the GM's own campaigns folder by folder, then
    the repository's examples (a checkout's ``./campaigns``), which open as throwaway copies."""
    groups: list[tuple[str, list[FoundCampaign]]] = []
    for examples in (False, True):
        for root in roots:
            here = [c for c in campaigns if c.folder.parent == root and c.example == examples]
            if not here:
                continue
            where = shown(str(root))
            heading = (
                f"Examples in {where} (each opens as a throwaway copy: nothing is saved):"
                if examples
                else f"Campaigns in {where}:"
            )
            groups.append((heading, here))
    return groups


def listing(campaigns: Sequence[FoundCampaign], roots: Sequence[Path]) -> str:
    """The numbered list, grouped by :func:`sections`."""
    lines: list[str] = []
    number = 0
    for heading, here in sections(campaigns, roots):
        lines.append(heading)
        lines.append(f"  {'':>3}  {'name':<{NAME_WIDTH}}  {'last played':<11}  sessions")
        for campaign in here:
            number += 1
            lines.append(_line(number, campaign))
    return "\n".join(lines) + "\n"


def in_list_order(campaigns: Sequence[FoundCampaign], roots: Sequence[Path]) -> list[FoundCampaign]:
    """The campaigns in the order :func:`listing` numbers them."""
    return [c for _, here in sections(campaigns, roots) for c in here]


def pick(
    roots: Sequence[Path],
    new_dir: Path,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    invoked: str = "gmscreen",
) -> FoundCampaign | int:
    """The campaign the GM picks, or the exit status when none is (0: none found, or the GM
    quit; 1: stdin ended without an answer; 130: interrupted). ``invoked``: how the GM ran
    gmscreen, for the commands the list tells them to type."""
    stdin = sys.stdin if stdin is None else stdin
    out = sys.stdout if stdout is None else stdout
    campaigns = in_list_order(find_campaigns(roots), roots)
    if not campaigns:
        out.write(how_to_start(roots, new_dir, invoked))
        return 0
    out.write(listing(campaigns, roots))
    while True:
        out.write(PROMPT)
        out.flush()
        try:
            answer = stdin.readline()
        except KeyboardInterrupt:
            out.write("\n")
            return 130
        if not answer:
            out.write("\nNo campaign picked.\n")
            return 1
        answer = answer.strip()
        if answer.casefold() in QUIT:
            return 0
        if (
            answer.isascii()
            and answer.isdigit()
            and len(answer) <= 6
            and 1 <= int(answer) <= len(campaigns)
        ):
            chosen = campaigns[int(answer) - 1]
            if chosen.problem is None:
                return chosen
            out.write(f"{_name(chosen.name)} cannot be opened: {shown(chosen.problem)}\n")
            continue
        out.write(
            f"{shown(answer)} is not in the list: type a number from 1 to {len(campaigns)}.\n"
        )
