"""Every size, from the stated minimum (80×24) up: each card keeps all its lines (the meter
shortens, the rest wraps), the detail pane shows what a check needs, the log takes its share
of the height and wraps its lines instead of cutting them. Looks: snapshots at three sizes."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from textual.content import Content
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget

from gmscreen.campaign.gm_words import Line
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign, make_demo_copy
from gmscreen.campaign.wording import fumble_range
from gmscreen.rules.madness import check_target, fumble_from
from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.item_samples import merp_sample_campaign
from gmscreen.tui.screens.main import MainScreen
from gmscreen.tui.screenshots import build, fixed_clock
from gmscreen.tui.widgets.detail import DetailPane
from gmscreen.tui.widgets.meter import EMPTY, FULL, OVER
from gmscreen.tui.widgets.roll_log import RollLog, cell_length, content
from gmscreen.tui.widgets.roll_log import rows as line_rows
from gmscreen.tui.widgets.roster import Roster, card
from gmscreen.tui.widgets.wrapping import hanging

SIZES = [(80, 24), (120, 40), (200, 50)]
SIZE_IDS = ["80x24", "120x40", "200x50"]
Snap = Callable[..., bool]
Scenario = Callable[[GMScreenApp, MainScreen, Pilot[None]], Awaitable[None]]


def at(folder: Path, size: tuple[int, int], scenario: Scenario) -> None:
    async def run() -> None:
        app = build(folder)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, MainScreen)
            await scenario(app, screen, pilot)

    asyncio.run(run())


def drawn(widget: Widget) -> list[str]:
    """The rows a widget shows, as text."""
    width, height = widget.size
    return [strip.text for strip in widget.render_lines(Region(0, 0, width, height))]


def words(content: Content) -> list[str]:
    """The words of a card, without the meter's bar (which shortens with the width)."""
    return [w for w in re.split(r"[\s" + FULL + OVER + EMPTY + "]+", content.plain) if w]


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return make_demo_copy(tmp_path)


@pytest.fixture
def merp_only(tmp_path: Path) -> Path:
    return merp_sample_campaign(tmp_path, fixed_clock)


@pytest.mark.parametrize("which", ["demo", "merp_only"])
def test_at_80x24_every_card_keeps_all_its_words_within_the_roster(
    which: str, request: pytest.FixtureRequest
) -> None:
    folder: Path = request.getfixturevalue(which)

    async def scenario(app: GMScreenApp, screen: MainScreen, pilot: Pilot[None]) -> None:
        roster = screen.query_one(Roster)
        width = roster.card_width
        assert 0 < width <= roster.scrollable_content_region.width
        ctx = screen.context()
        for index, character in enumerate(screen.state.characters):
            shown = roster.card_at(index)
            whole = card(character, False, ctx, screen.t)  # as wide as it likes
            assert words(shown) == words(whole), character.name
            assert all(line.cell_length <= width for line in shown.split(allow_blank=True))
            # scrolled to, every line of the card is in view, and drawn within the roster
            roster.highlighted = index
            await pilot.pause()
            rows = [row.strip() for row in drawn(roster)]
            for line in shown.split():
                assert line.plain.strip() in rows, line.plain

    at(folder, (80, 24), scenario)


def test_at_80x24_the_detail_pane_shows_pow_the_target_and_the_fumble_range(
    demo: Path,
) -> None:
    async def scenario(app: GMScreenApp, screen: MainScreen, pilot: Pilot[None]) -> None:
        roster = screen.query_one(Roster)
        text = screen.query_one("#detail-text")
        for index, character in enumerate(screen.state.characters):
            roster.highlighted = index
            await pilot.pause()
            shown = " ".join(row.strip() for row in drawn(text))
            s = character.sanity
            _, target = check_target(s)
            fumbles = fumble_range(fumble_from(s, screen.state.settings.fumble_base), screen.t)
            assert f"POW {s.pow}" in shown, character.name
            assert f"{s.madness}/{s.pow}" in shown
            assert re.search(rf"under (Law|Chaos) {target}; fumbles on {fumbles}\.", shown)
            assert all(len(row.rstrip()) <= text.size.width for row in drawn(text))

    at(demo, (80, 24), scenario)


def test_at_80x24_the_merp_detail_shows_the_points_and_each_table(merp_only: Path) -> None:
    async def scenario(app: GMScreenApp, screen: MainScreen, pilot: Pilot[None]) -> None:
        roster = screen.query_one(Roster)
        text = screen.query_one("#detail-text")
        for index in range(len(screen.state.characters)):
            roster.highlighted = index
            await pilot.pause()
            shown = " ".join(row.strip() for row in drawn(text))
            assert "Background points:" in shown
            assert "Table 1:" in shown and "Table 2:" in shown

    at(merp_only, (80, 24), scenario)


def test_a_characters_items_come_before_the_sparkline(demo: Path, tmp_path: Path) -> None:
    """At 120×40 a MERP character's whole text (its items, its notes) takes the pane, and the
    madness over past events shows only where there is room left below it."""

    async def long(app: GMScreenApp, screen: MainScreen, pilot: Pilot[None]) -> None:
        artinar = screen.state.characters[0]
        shown = " ".join(row.strip() for row in drawn(screen.query_one("#detail-text")))
        assert "• Quality weapon (+10) of high steel" in shown, artinar.name
        assert "swore revenge on the reavers" in shown
        assert not screen.query_one("#spark").display

    async def short(app: GMScreenApp, screen: MainScreen, pilot: Pilot[None]) -> None:
        assert screen.query_one("#spark").display  # a madness-only character: room for it

    at(demo, (120, 40), long)
    folder = create_campaign(tmp_path / "short", "Short")
    with open_campaign(folder, rng=random.Random(1), clock=fixed_clock) as live:
        live.add_character("Bors", 12)
    at(folder, (120, 40), short)


def test_the_log_takes_more_rows_as_the_terminal_grows(demo: Path) -> None:
    heights: list[int] = []

    async def scenario(app: GMScreenApp, screen: MainScreen, pilot: Pilot[None]) -> None:
        log = screen.query_one(RollLog)
        heights.append(log.size.height)
        # the rows in view are the log's last ones (it follows the session)
        assert log.scroll_offset.y == log.max_scroll_y

    for size in SIZES:
        at(demo, size, scenario)
    assert heights == sorted(set(heights))  # strictly more at each size
    assert heights[-1] > 10  # at 200×50: not the ten lines it used to keep


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_every_log_entry_is_drawn_whole_in_rows_of_the_log_width(
    demo: Path, size: tuple[int, int]
) -> None:
    async def scenario(app: GMScreenApp, screen: MainScreen, pilot: Pilot[None]) -> None:
        log = screen.query_one(RollLog)
        width = log.scrollable_content_region.width  # what is seen: not under the scrollbar
        rows = 0
        for entry in log.visible_entries:
            entry_rows = line_rows(entry, width)
            rows += len(entry_rows)
            assert all(row.cell_length <= width for row in entry_rows)
            assert "".join(content(entry).plain.split()) == "".join(
                "".join(row.plain.split()) for row in entry_rows
            )
        assert log.virtual_size.height == rows
        drawn_rows = drawn(log)
        assert all("…" not in row for row in drawn_rows)
        if size == (80, 24):  # the demo's item line is longer than an 80-column log
            assert rows > len(log.visible_entries)

    at(demo, size, scenario)


def test_no_drawn_part_of_a_log_line_starts_with_a_gap(demo: Path) -> None:
    """A part of a line starting with spaces is a text run starting with spaces in an SVG,
    whose spaces librsvg drops ("ArtinarNo recovery"): each gap goes with the part before."""

    async def scenario(app: GMScreenApp, screen: MainScreen, pilot: Pilot[None]) -> None:
        log = screen.query_one(RollLog)
        for y in range(log.size.height):
            segments = [s.text for s in log.render_line(y)]
            for text in segments[1:]:
                assert not re.match(r" +\S", text), segments

    at(demo, (120, 40), scenario)


# What reaches a log line is printable (made inert where it is built): words of narrow and wide
# letters, brackets as markup would have them, and long runs with no space to break at.
FIELD = st.text("ab cdé漢[]/:+-()", max_size=40)


@settings(max_examples=200, deadline=None)
@given(
    when=st.text("D0123456789: ", max_size=12),
    name=FIELD,
    what=FIELD,
    dice=FIELD,
    outcome=FIELD,
    width=st.integers(4, 120),  # room for a wide letter beside the least indent
)
def test_a_log_line_wraps_into_rows_that_lose_nothing(
    when: str, name: str, what: str, dice: str, outcome: str, width: int
) -> None:
    entry = Line("1", 0, when, None, name, what, dice, outcome)
    line = content(entry)
    assert cell_length(entry) == line.cell_length  # the log counts rows from it
    wrapped = line_rows(entry, width)
    assert "".join(line.plain.split()) == "".join("".join(r.plain.split()) for r in wrapped)
    if line.cell_length <= width:
        assert wrapped == [line]


@settings(max_examples=200, deadline=None)
@given(text=st.text("ab cd-é漢 ", max_size=80), width=st.integers(20, 90), start=st.integers(0, 30))
def test_hanging_rows_fit_their_width(text: str, width: int, start: int) -> None:
    rows = hanging(Content(text), width, min(start, len(text)))
    assert all(row.cell_length <= width for row in rows)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_main_screen_at_each_size(
    snap_compare: Snap, demo: Path, size: tuple[int, int]
) -> None:
    assert snap_compare(build(demo), terminal_size=size)


def test_a_merp_only_campaign_at_80x24(snap_compare: Snap, merp_only: Path) -> None:
    assert snap_compare(build(merp_only), terminal_size=(80, 24))


def test_the_detail_pane_fits_a_due_check_at_80x24(snap_compare: Snap, demo: Path) -> None:
    assert snap_compare(build(demo), press=["end"], terminal_size=(80, 24))


def test_the_detail_pane_follows_a_resize(demo: Path) -> None:
    """The meter is made for the pane's width: a wider terminal gives it a longer bar."""
    bars: list[int] = []

    async def scenario(app: GMScreenApp, screen: MainScreen, pilot: Pilot[None]) -> None:
        for size in SIZES:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            pane = screen.query_one(DetailPane)
            meter_row = next(r for r in drawn(pane.query_one("#detail-text")) if EMPTY in r)
            bars.append(sum(meter_row.count(c) for c in (FULL, OVER, EMPTY)))

    at(demo, (80, 24), scenario)
    assert bars[0] < bars[-1]


def test_a_screenshot_keeps_its_spaces(tmp_path: Path) -> None:
    """``make screenshots`` writes SVGs that every renderer draws with their spaces."""
    from gmscreen.tui.screenshots import sample_campaign, shoot

    target = tmp_path / "main.svg"
    asyncio.run(shoot(sample_campaign(tmp_path), (), target, size=(80, 24)))
    svg = target.read_text(encoding="utf-8")
    assert svg.count('xml:space="preserve"') == 1


def test_the_replay_log_takes_more_rows_as_the_terminal_grows(tmp_path: Path) -> None:
    from gmscreen.tui.screenshots import sample_campaign
    from gmscreen.tui.widgets.replay_log import ReplayLog

    folder = sample_campaign(tmp_path)
    heights: list[int] = []
    for size in SIZES:

        async def run(size: tuple[int, int] = size) -> None:
            app = build(folder)
            async with app.run_test(size=size) as pilot:
                await pilot.pause()
                await pilot.press("R", "enter")
                await pilot.pause()
                heights.append(app.screen.query_one(ReplayLog).size.height)

        asyncio.run(run())
    assert heights == sorted(set(heights)) and heights[0] >= 3  # 80×24 keeps a few lines
