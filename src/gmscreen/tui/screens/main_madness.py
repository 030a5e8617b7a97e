"""The GM's screen's madness dialogs: a gain (and the checks it makes due), a check, every check due.

Each opens from a priority binding through :func:`gmscreen.tui.typeahead.open_screen`, so the
keys typed right after ``g``, ``m`` or ``M`` go into the dialog in the order typed; what follows a
dialog (the checks after a gain, the next check due) opens from its result callback, and gets the
keys typed right after the one that closed the dialog (``close_in_order``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from textual.app import App
from textual.notifications import SeverityLevel
from textual.screen import Screen

from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.model import Campaign, Character
from gmscreen.campaign.undo import ActionGroup
from gmscreen.rules.madness import check_due
from gmscreen.tui.i18n import Translate
from gmscreen.tui.session import CheckAdapter, CheckResult, apply_gain, apply_gain_all
from gmscreen.tui.typeahead import Done, open_screen


class Host(Protocol):
    """What the madness dialogs need of the screen they open over (the GM's screen is one)."""

    live: LiveCampaign
    t: Translate
    lang: str
    rng: random.Random

    @property
    def app(self) -> App[Any]: ...
    @property
    def screen(self) -> Screen[Any]: ...
    @property
    def state(self) -> Campaign: ...
    def need_madness(self) -> bool: ...
    def selected_character(self) -> Character | None: ...
    def targets(self) -> list[str]: ...
    def clear_marks(self) -> None: ...
    def name_of(self, character_id: str) -> str: ...
    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...


def is_due(screen: Host, character_id: str) -> bool:
    if not screen.state.has_character(character_id):
        return False
    character = screen.state.character(character_id)
    return character.awaiting_kind is not None or (
        check_due(character.sanity) and character.sanity.episode is None
    )


async def gain(screen: Host) -> None:
    from gmscreen.tui.screens.gain_kept import kept_gain_screen
    from gmscreen.tui.screens.gain_rolls import Target

    if not screen.need_madness():
        return
    ids = screen.targets()
    if not ids:
        screen.notify(screen.t("app.no_character"), severity="warning")
        return
    targets = [Target(i, screen.state.character(i).name) for i in ids]
    group = ActionGroup()  # every target's gain, each with its own dice: one action, one undo

    def apply(cid: str, key: str, inputs: Any, roll: Any, adjustment: int, happened: str) -> Any:
        return apply_gain(screen.live, cid, key, inputs, roll, adjustment, group, happened)

    def apply_all(cids: Sequence[str], key: str, inputs: Any, happened: str) -> Any:
        return apply_gain_all(screen.live, cids, key, inputs, happened)

    async def gained(result: object) -> None:
        if result is not None:  # the gain went to them: a next gain starts from no marks
            screen.clear_marks()
        if screen.state.settings.auto_check:
            await run_checks(screen, [i for i in ids if is_due(screen, i)])

    dialog = kept_gain_screen(
        screen.app, targets, apply, screen.t, screen.lang, screen.rng, apply_all
    )
    await open_screen(screen.screen, dialog, gained)


def prepare_gain(screen: Host) -> None:
    """Load and build the gain picker ahead (once the GM's screen is up): see
    :func:`gmscreen.tui.screens.gain.prepare_gain_screen`."""
    from gmscreen.tui.screens.gain_kept import prepare_gain_screen

    if "madness" in screen.state.settings.modules:
        prepare_gain_screen(screen.app, screen.t, screen.lang, screen.rng)


async def run_checks(screen: Host, ids: Sequence[str], start: int = 0) -> None:
    """The checks of ``ids`` still due from ``start`` on, one after another (esc stops them)."""
    for n in range(start, len(ids)):
        character_id = ids[n]
        if not is_due(screen, character_id):
            continue
        if len(ids) > 1:
            name = screen.name_of(character_id)
            screen.notify(screen.t("check.running", n=n + 1, total=len(ids), name=name))

        async def checked(result: CheckResult | None, after: int = n + 1) -> None:
            if result is not None:
                await run_checks(screen, ids, after)

        await open_check(screen, character_id, checked)
        return


async def open_check(
    screen: Host, character_id: str, done: Done[CheckResult] | None = None
) -> None:
    from gmscreen.tui.screens.check import CheckScreen

    driver = CheckAdapter(screen.live.start_check(character_id))
    dialog = CheckScreen(
        driver,
        screen.name_of(character_id),
        screen.t,
        screen.lang,
        screen.rng,
        screen.state.settings.fumble_base,
    )
    await open_screen(screen.screen, dialog, done)


async def check(screen: Host) -> None:
    if not screen.need_madness():
        return
    character = screen.selected_character()
    if character is None:
        return
    if not is_due(screen, character.id):
        screen.notify(
            screen.t(
                "app.no_check_due",
                name=character.name,
                madness=character.sanity.madness,
                pow=character.sanity.pow,
            ),
            severity="warning",
        )
        return
    await open_check(screen, character.id)


async def check_all(screen: Host) -> None:
    if not screen.need_madness():
        return
    due = [c.id for c in screen.state.characters if is_due(screen, c.id)]
    if not due:
        screen.notify(screen.t("app.nobody_due"))
        return
    await run_checks(screen, due)
