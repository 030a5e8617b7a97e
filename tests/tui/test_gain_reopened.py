"""The gain picker is kept and opened again (it was ~100 ms to build over 200 characters): opened
again it must be, to the GM, the picker a new one would be, whatever stage the last gain left.
Its dimmed background is drawn by our own pass: it must be what Textual draws."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.tui.conftest import CREW, play
from textual.pilot import Pilot
from textual.renderables.background_screen import BackgroundScreen
from textual.visual import Visual, visualize

from gmscreen.campaign.model import Settings
from gmscreen.campaign.paths import make_demo_copy
from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.item_samples import ITEM_SHOTS, merp_sample_campaign
from gmscreen.tui.screens.gain import GainScreen
from gmscreen.tui.screens.gain_kept import KEPT
from gmscreen.tui.screenshots import fixed_clock
from gmscreen.tui.widgets.backdrop import KeptBackground, tinted_lines
from gmscreen.tui.widgets.preset_rows import PresetRows
from gmscreen.tui.widgets.typed_line import TypedLine


def plain(app: GMScreenApp) -> str:
    return app.export_screenshot().replace("&#160;", " ")


async def as_new(app: GMScreenApp, pilot: Pilot[None]) -> str:
    """What a picker built now shows over the same screen: the kept one is let go first."""
    await pilot.press("escape")
    app.uninstall_screen(KEPT)
    await pilot.press("g")
    await pilot.pause()
    assert isinstance(app.screen, GainScreen)
    return plain(app)


def picker(app: GMScreenApp) -> GainScreen:
    assert isinstance(app.screen, GainScreen)
    return app.screen


# Where a gain may leave the picker as it closes: applied after the question, applied at once
# (a fixed amount), left at its question, left at the dice, left with a filter typed.
LEFT_AT = {
    "applied after a question": ["d", "e", "m", "o", "n", "enter", "1", "6", "enter", "enter"],
    "applied at once": ["e", "l", "e", "enter", "x", "enter"],
    "left at the question": ["d", "e", "m", "o", "n", "enter", "escape"],
    "left at the dice": ["f", "r", "i", "e", "n", "d", "enter", "enter", "escape"],
    "left while filtering": ["z", "z", "escape"],
}


def test_a_picker_opened_again_is_the_picker_a_new_one_would_be(table_with: Any) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        for keys in LEFT_AT.values():
            await pilot.press("g")
            first = picker(app)
            await pilot.press(*keys)
            await pilot.pause()
            assert not isinstance(app.screen, GainScreen)
            await pilot.press("j")  # another character: the names in the title change too
            await pilot.press("g")
            await pilot.pause()
            again = picker(app)
            assert again is first  # kept, not built again
            assert again.stage == "pick" and again.done_lines == [] and again.results == []
            assert again.query_one("#filter", TypedLine).value == ""
            assert again.query_one("#presets", PresetRows).option_count == len(again.presets)
            shown = plain(app)
            assert shown == await as_new(app, pilot), keys
            await pilot.press("escape")

    # No check opens by itself after a gain: each gain closes back to the GM's screen.
    play(table_with(*CREW, settings=Settings(auto_check=False)), scenario)


def test_the_picker_opened_again_speaks_the_language_switched_to(table_with: Any) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("g")
        assert "Gain madness" in plain(app)
        await pilot.press("escape", "L")
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause()
        shown = plain(app)
        assert "Ganar PL" in shown and "Gain madness" not in shown
        assert shown == await as_new(app, pilot)

    play(table_with(*CREW), scenario)


def test_a_click_on_a_preset_picks_it(table_with: Any) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("g")
        await pilot.pause()
        dialog = picker(app)
        rows = dialog.query_one("#presets", PresetRows)
        third = dialog.presets[rows.rows[2].key]
        await pilot.click(rows, offset=(4, 3))  # the border's line, then rows 0, 1 and 2
        await pilot.pause()
        assert dialog.preset is third
        assert dialog.stage in ("question", "happened")

    play(table_with(*CREW), scenario)


def same_tint_as_textual(app: GMScreenApp) -> None:
    """The screen below the dialog shown, tinted by our pass, line for line as by Textual."""
    dialog = app.screen
    assert isinstance(dialog, KeptBackground)
    below = BackgroundScreen(app.screen_stack[-2], dialog.styles.background)
    width, height = app.size
    style = dialog.visual_style
    ours = tinted_lines(app, below, width, height, style)
    textual = Visual.to_strips(dialog, visualize(dialog, below), width, height, style)
    assert len(ours) == height
    for n, (line, expected) in enumerate(zip(ours, textual, strict=True)):
        assert list(line) == list(expected), n


def test_the_dimmed_gm_screen_is_what_textual_draws(tmp_path: Path) -> None:
    """The demo's screen (every colour of cards, meters, log) below the picker."""

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("g")
        await pilot.pause()
        same_tint_as_textual(app)

    play(make_demo_copy(tmp_path), scenario)


def test_the_dimmed_item_tables_are_what_textual_draws(tmp_path: Path) -> None:
    """The item tables (their own colours, and text on no style at all) below a refusal."""
    folder = merp_sample_campaign(tmp_path, fixed_clock)

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press(*ITEM_SHOTS["items-refused"])
        await pilot.pause()
        same_tint_as_textual(app)

    play(folder, scenario)
