"""The GM's screen's madness dialogs: a gain (and the checks it makes due), a check, every check due.

Each opens from a priority binding through :func:`gmscreen.tui.typeahead.open_screen`, so the
keys typed right after ``g``, ``m`` or ``M`` go into the dialog in the order typed; what follows a
dialog (the checks after a gain, the next check due) opens from its result callback, and gets the
keys typed right after the one that closed the dialog (``close_in_order``).
"""

from __future__ import annotations

from collections.abc import Sequence

from gmscreen.tui.module_keys import due
from gmscreen.tui.screens.check import CheckScreen
from gmscreen.tui.screens.flow import Flow, MarksUsed
from gmscreen.tui.screens.gain import GainScreen, Target
from gmscreen.tui.session import CheckAdapter, CheckResult, GainDone
from gmscreen.tui.typeahead import Done, open_screen


def is_due(flow: Flow, character_id: str) -> bool:
    state = flow.live.state
    return state.has_character(character_id) and due(state.character(character_id))


async def gain(flow: Flow, ids: Sequence[str]) -> None:
    """The gain picker for ``ids`` (the marked characters, or the selected one)."""
    live = flow.live
    targets = [Target(i, flow.name(i)) for i in ids]

    async def gained(result: list[GainDone] | None) -> None:
        if result is not None:  # the gain went to them: a next gain starts from no marks
            flow.screen.post_message(MarksUsed())
        if live.state.settings.auto_check:
            await run_checks(flow, [i for i in ids if is_due(flow, i)])

    dialog = GainScreen(targets, live, flow.t, flow.lang, flow.rng)
    await open_screen(flow.screen, dialog, gained)


async def run_checks(flow: Flow, ids: Sequence[str], start: int = 0) -> None:
    """The checks of ``ids`` still due from ``start`` on, one after another (esc stops them)."""
    for n in range(start, len(ids)):
        character_id = ids[n]
        if not is_due(flow, character_id):
            continue
        if len(ids) > 1:
            name = flow.name(character_id)
            flow.say(flow.t("check.running", n=n + 1, total=len(ids), name=name))

        async def checked(result: CheckResult | None, after: int = n + 1) -> None:
            if result is not None:
                await run_checks(flow, ids, after)

        await open_check(flow, character_id, checked)
        return


async def open_check(flow: Flow, character_id: str, done: Done[CheckResult] | None = None) -> None:
    driver = CheckAdapter(flow.live.start_check(character_id))
    fumble_base = flow.live.state.settings.fumble_base
    name = flow.name(character_id)
    dialog = CheckScreen(driver, name, flow.t, flow.lang, flow.rng, fumble_base)
    await open_screen(flow.screen, dialog, done)


async def check(flow: Flow, character_id: str) -> None:
    """``m``: the selected character's check, if one is due."""
    if not is_due(flow, character_id):
        character = flow.live.state.character(character_id)
        sanity = character.sanity
        text = flow.t(
            "app.no_check_due", name=character.name, madness=sanity.madness, pow=sanity.pow
        )
        flow.say(text, "warning")
        return
    await open_check(flow, character_id)


async def check_all(flow: Flow) -> None:
    """``M``: every check due, one after another."""
    due_now = [c.id for c in flow.live.state.characters if is_due(flow, c.id)]
    if not due_now:
        flow.say(flow.t("app.nobody_due"))
        return
    await run_checks(flow, due_now)
