"""Replay reads and never writes: no lock, no checkpoint, no journal; only the recaps asked for."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from tests.tui.conftest import CREW, SIZE, build, fixed_clock
from tests.tui.replay_helpers import SESSION, build_replay, copy_example, files_of

from gmscreen.campaign.journal import read_session
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.recap_markdown import recap_markdown
from gmscreen.campaign.store import read_checkpoint
from gmscreen.cli import main as cli_main
from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.replay_app import ReplayApp
from gmscreen.tui.screens.main import MainScreen
from gmscreen.tui.screens.replay import ReplayScreen
from gmscreen.tui.screens.replay_picker import SessionPicker
from gmscreen.tui.widgets.session_table import SessionTable


@pytest.fixture
def example(tmp_path: Path) -> Path:
    return copy_example(tmp_path)


def notes(app: GMScreenApp | ReplayApp) -> list[str]:
    return [str(n.message) for n in app.pop_ups_shown()]


def test_replay_changes_no_file_but_the_exports(
    example: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = files_of(example)

    async def run() -> list[str]:
        app = build_replay(example, session=None)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("enter", "right", "right", "shift+right", "end", "home", "space")
            await pilot.press("space", "e", "E")
            await pilot.pause()
            return notes(app)

    shown = asyncio.run(run())
    after = files_of(example)
    exports = {k: v for k, v in after.items() if k.startswith("exports/")}
    assert sorted(exports) == [f"exports/{SESSION}-gm.md", f"exports/{SESSION}-players.md"]
    assert {k: v for k, v in after.items() if k not in exports} == before  # bytes and mtimes
    gm = example / "exports" / f"{SESSION}-gm.md"
    players = example / "exports" / f"{SESSION}-players.md"
    assert any(str(gm) in text for text in shown) and any(str(players) in text for text in shown)

    # The same recap as gmscreen export prints.
    log = read_session(example / "sessions" / f"{SESSION}.jsonl")
    name = read_checkpoint(example)[0].name
    assert gm.read_text(encoding="utf-8") == recap_markdown(name, log)
    assert cli_main(["export", str(example)]) == 0
    assert capsys.readouterr().out == gm.read_text(encoding="utf-8")
    assert cli_main(["export", str(example), "--players"]) == 0
    assert capsys.readouterr().out == players.read_text(encoding="utf-8")
    assert "madness" not in players.read_text(encoding="utf-8").split("##")[-1]


def test_replay_runs_while_another_gmscreen_holds_the_campaign(example: Path) -> None:
    with open_campaign(example, rng=random.Random(1), clock=fixed_clock):
        assert (example / ".lock").exists()
        held = files_of(example)

        async def run() -> int:
            app = build_replay(example)
            async with app.run_test(size=SIZE) as pilot:
                await pilot.press("end")
                assert isinstance(app.screen, ReplayScreen)
                return app.screen.step

        assert asyncio.run(run()) == 23
        assert files_of(example) == held  # the lock and everything else untouched


def test_r_on_the_gm_screen_replays_and_escape_comes_back(example: Path) -> None:
    async def run() -> None:
        app = build(example)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            app.live.note("a new session starts")  # the live session is listed, and marked
            await pilot.press("R")
            picker = app.screen
            assert isinstance(picker, SessionPicker)
            assert [entry.id for entry in picker.entries][:1] == [SESSION]
            assert len(picker.entries) == 2
            table = picker.query_one(SessionTable)
            assert "(playing now)" in table.get_row_at(1)[0]
            await pilot.press("up", "enter")
            assert isinstance(app.screen, ReplayScreen)
            assert app.screen.session.header.id == SESSION
            await pilot.press("right", "escape", "escape")
            assert isinstance(app.screen, MainScreen)

    asyncio.run(run())


def test_the_picker_of_a_campaign_without_sessions(new_campaign: Path) -> None:
    async def run() -> None:
        app = build(new_campaign)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("R")
            assert isinstance(app.screen, SessionPicker)
            assert app.screen.query_one("#none").display
            await pilot.press("enter", "escape")
            assert isinstance(app.screen, MainScreen)

    asyncio.run(run())


def test_player_typed_names_stay_literal_in_the_picker(table_with) -> None:  # type: ignore[no-untyped-def]
    folder = table_with(*CREW)

    async def run(pilot_app: ReplayApp) -> str:
        async with pilot_app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            return pilot_app.screen.query_one(SessionTable).get_row_at(0)[5]

    assert "[bold]Cym[/]" in asyncio.run(run(build_replay(folder, session=None)))
