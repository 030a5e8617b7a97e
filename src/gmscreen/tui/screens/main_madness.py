"""The GM's screen's madness dialogs: a gain (and the checks it makes due), a check, every check due.

Each opens from a priority binding through :func:`gmscreen.tui.typeahead.open_screen`, so the
keys typed right after ``g``, ``m`` or ``M`` go into the dialog in the order typed; what follows a
dialog (the checks after a gain, the next check due) opens from its result callback, and gets the
keys typed right after the one that closed the dialog (``close_in_order``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gmscreen.rules.madness import check_due
from gmscreen.tui.session import CheckAdapter, apply_gain
from gmscreen.tui.typeahead import open_screen
from gmscreen.tui.widgets.roster import Roster

if TYPE_CHECKING:
    from gmscreen.tui.screens.check import CheckResult
    from gmscreen.tui.screens.main import MainScreen


def is_due(screen: MainScreen, character_id: str) -> bool:
    if not screen.state.has_character(character_id):
        return False
    character = screen.state.character(character_id)
    return character.awaiting_kind is not None or (
        check_due(character.sanity) and character.sanity.episode is None
    )


async def gain(screen: MainScreen) -> None:
    from gmscreen.tui.screens.gain import GainScreen, Target

    if not screen._need_madness():
        return
    ids = screen.query_one(Roster).targets()
    if not ids:
        screen.notify(screen.t("app.no_character"), severity="warning")
        return
    targets = [Target(i, screen.state.character(i).name) for i in ids]

    def apply(cid: str, key: str, inputs: Any, roll: Any, adjustment: int) -> Any:
        try:
            return apply_gain(screen.live, cid, key, inputs, roll, adjustment)
        finally:
            screen.refresh_all()

    async def gained(_: object) -> None:
        screen.refresh_if_changed()
        if screen.state.settings.auto_check:
            await run_checks(screen, [i for i in ids if is_due(screen, i)])

    dialog = GainScreen(targets, apply, screen.t, screen.lang, screen.rng)
    await open_screen(screen, dialog, gained)


async def run_checks(screen: MainScreen, ids: Sequence[str], start: int = 0) -> None:
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


async def open_check(screen: MainScreen, character_id: str, done: Any = None) -> None:
    from gmscreen.tui.screens.check import CheckScreen

    async def checked(result: CheckResult | None) -> None:
        screen.refresh_if_changed()
        if done is not None:
            await done(result)

    driver = CheckAdapter(screen.live.start_check(character_id))
    dialog = CheckScreen(
        driver,
        screen.name_of(character_id),
        screen.t,
        screen.lang,
        screen.rng,
        screen.state.settings.fumble_base,
    )
    dialog.on_step = screen.refresh_all
    await open_screen(screen, dialog, checked)


async def check(screen: MainScreen) -> None:
    if not screen._need_madness():
        return
    character = screen._selected_character()
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


async def check_all(screen: MainScreen) -> None:
    if not screen._need_madness():
        return
    due = [c.id for c in screen.state.characters if is_due(screen, c.id)]
    if not due:
        screen.notify(screen.t("app.nobody_due"))
        return
    await run_checks(screen, due)
