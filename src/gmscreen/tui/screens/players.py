"""What a players' screen is: the GM's player view (``p``) and ``gmscreen show``'s screen (which
``gmscreen serve`` hands to each browser).

The players look at it, so the app draws nothing over it that :mod:`gmscreen.campaign.player_safe`
did not decide: no pop-up (see :class:`gmscreen.tui.app_base.BaseApp`, which holds them back
while one is up). A small module of its own: the app imports it at start-up, the screens' layout
(and what it reads) only when a players' screen first opens.
"""

from __future__ import annotations

from textual.screen import Screen


class PlayersScreen(Screen[None]):
    """A screen the players read: while one is in the app's screen stack (shown, or under a
    window the GM opened over it), no pop-up is drawn."""
