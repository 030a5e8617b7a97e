"""The GM's screen's one gain picker, kept (installed) and opened again for each gain.

Opening a new picker over 200 characters cost ~100 ms, most of it Textual mounting, styling and
laying out the same widgets as last time and drawing the same presets; a kept one is shown
again with only what changed (the names, the filter, the stage): see GainScreen.reopen.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from textual.app import App

from gmscreen.tui.i18n import Translate
from gmscreen.tui.screens.gain import GainScreen
from gmscreen.tui.screens.gain_rolls import ApplyGain, ApplyGainAll, Target
from gmscreen.tui.session import GainDone

KEPT = "gain-picker"  # the name the GM's screen's picker is installed under


def kept_gain_screen(
    app: App[Any],
    targets: Sequence[Target],
    apply: ApplyGain,
    t: Translate,
    lang: str,
    rng: random.Random,
    apply_all: ApplyGainAll | None = None,
) -> GainScreen:
    """The gain picker for ``targets``: the app's kept one, opened again, if it speaks ``lang``
    and is closed; else a new one, kept (installed) for the next gain."""
    kept = prepare_gain_screen(app, t, lang, rng)
    if kept is None:  # the picker is open already (under a check it opened): a one-off
        return GainScreen(targets, apply, t, lang, rng, apply_all)
    kept.reopen(targets, apply, apply_all)
    return kept


def prepare_gain_screen(
    app: App[Any], t: Translate, lang: str, rng: random.Random
) -> GainScreen | None:
    """The app's kept picker, closed, built now if there is none for ``lang`` (None if it is
    open). The GM's screen calls it once its first frame is up, so that the evening's first
    ``g`` does not also load and build the picker."""
    if app.is_screen_installed(KEPT):
        kept = app.get_screen(KEPT)
        if kept in app.screen_stack:
            return None
        if isinstance(kept, GainScreen) and kept.lang == lang and kept.rng is rng:
            return kept
        app.uninstall_screen(KEPT)
        kept.remove()  # an uninstalled screen stays mounted otherwise
    dialog = GainScreen([], _not_opened, t, lang, rng)
    app.install_screen(dialog, KEPT)
    return dialog


def _not_opened(*_: object) -> GainDone:
    # A picker prepared ahead gets the real one as it is opened (GainScreen.reopen).
    raise RuntimeError("the gain picker was prepared but never opened")
