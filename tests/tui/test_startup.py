"""How the command starts the app (gmscreen.cli.app_command)."""

from __future__ import annotations

import gc

from tests.tui.conftest import ARTINAR, SIZE, build
from textual.pilot import Pilot

from gmscreen.cli.app_command import run_app


def test_the_command_runs_the_app_with_the_collector_on(table_with) -> None:  # type: ignore[no-untyped-def]
    """Start-up pauses the cyclic collector (gmscreen.cli.app_command) until the first frame is
    on the screen; it must be running again, with start-up's objects (the GM's screen made for
    the first frame too) frozen out of its way, by the time the GM plays."""
    app = build(table_with(ARTINAR))
    at_first_frame: list[bool] = []
    playing: list[tuple[bool, int, bool]] = []

    def first_frame() -> None:
        if not at_first_frame:
            at_first_frame.append(gc.isenabled())

    async def play(pilot: Pilot[None]) -> None:
        await pilot.press("j")  # a key of play, after start-up
        # gc.get_objects lists what the collector walks: frozen objects are not in it.
        walked = any(o is app.screen for o in gc.get_objects())
        playing.append((gc.isenabled(), gc.get_freeze_count(), walked))
        app.exit()

    app.post_display_hook = first_frame  # type: ignore[method-assign]
    gc.disable()  # as the command does before it imports anything
    try:
        run_app(app, headless=True, size=SIZE, auto_pilot=play)
    finally:
        gc.enable()
        gc.unfreeze()  # the rest of the test run is not start-up
    assert at_first_frame == [False]
    assert playing and playing[0][0] and playing[0][1] > 0
    assert not playing[0][2]  # the GM's screen, made for the first frame, frozen with the rest


def test_the_collector_is_back_on_when_the_command_ends_early(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """--help, or a campaign that is not there: the command returns, the collector runs."""
    import pytest

    from gmscreen.cli import main

    with pytest.raises(SystemExit):
        main(["--help"])
    assert gc.isenabled()
    assert main([str(tmp_path / "no-such-campaign")]) == 2
    assert gc.isenabled()
    assert main(["replay", str(tmp_path / "no-such-campaign")]) == 2  # starts up the same way
    assert gc.isenabled()
