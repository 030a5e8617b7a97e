"""The roster as the GM sees it: which lines show, the highlight, marks, scrolling, clicks and
keys (drawn through render_line, read back as text and styles)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from textual.app import App, ComposeResult
from textual.pilot import Pilot

from gmscreen.campaign.model import Item, MerpProfile
from gmscreen.rules.madness import MadnessState
from gmscreen.tui.i18n import Catalog
from gmscreen.tui.widgets.roster import CardContext, Roster, card


@dataclass(frozen=True)
class Someone:
    id: str
    name: str
    player: str
    sanity: MadnessState
    merp: MerpProfile | None = None
    inventory: tuple[Item, ...] = ()


t = Catalog(strict=True).t


CTX = CardContext(now=0, round_seconds=6, fumble_base=1, madness=True, lang="en")
PEOPLE = [
    Someone(f"c{n}", f"Name {n:02d}", "", MadnessState(pow=12, madness=n % 13)) for n in range(30)
]


class RosterApp(App[None]):
    CSS = "Roster { height: 20; }"

    def __init__(self, people: list[Someone]) -> None:
        super().__init__()
        self.people = people
        self.told: list[str | None] = []

    def compose(self) -> ComposeResult:
        roster = Roster(t, id="roster")
        roster.on_highlight = lambda: self.told.append(roster.selected_id)
        yield roster

    def on_mount(self) -> None:
        roster = self.query_one(Roster)
        roster.show(self.people, CTX)
        roster.focus()


def run(scenario: Callable[[RosterApp, Roster, Pilot[None]], Awaitable[None]]) -> None:
    async def go() -> None:
        app = RosterApp(list(PEOPLE))
        async with app.run_test(size=(60, 24)) as pilot:
            await pilot.pause()
            await scenario(app, app.query_one(Roster), pilot)

    asyncio.run(go())


def card_rows(roster: Roster) -> list[tuple[str, int]]:
    """Every line of every card, in order: its text and the card it belongs to."""
    return [
        (line.plain, index)
        for index in range(roster.option_count)
        for line in roster.card_at(index).split(allow_blank=True)
    ]


def shown(roster: Roster) -> list[str]:
    return [roster.render_line(y).text.rstrip() for y in range(roster.size.height)]


def expected(roster: Roster) -> list[str]:
    rows = card_rows(roster)[roster.scroll_offset.y :][: roster.size.height]
    return [text.rstrip() for text, _ in rows] + [""] * (roster.size.height - len(rows))


def highlighted_rows(roster: Roster) -> list[int]:
    """The rows in view drawn in the highlight's background (where they start: a CHECK DUE
    badge has its own)."""
    highlight = roster.get_visual_style("roster--card", "roster--card-highlighted").rich_style
    rows = []
    for y in range(roster.size.height):
        first = next(iter(roster.render_line(y)))
        if first.style is not None and first.style.bgcolor == highlight.bgcolor:
            rows.append(y)
    return rows


def rows_of(roster: Roster, index: int) -> list[int]:
    top = roster.scroll_offset.y
    return [
        row - top
        for row, (_, owner) in enumerate(card_rows(roster))
        if owner == index and 0 <= row - top < roster.size.height
    ]


def test_the_lines_in_view_are_the_cards_lines_and_the_highlight_follows() -> None:
    async def scenario(app: RosterApp, roster: Roster, pilot: Pilot[None]) -> None:
        assert roster.card_at(3).plain == card(PEOPLE[3], False, CTX, t).plain
        assert shown(roster) == expected(roster)
        assert highlighted_rows(roster) == rows_of(roster, 0)
        for _ in range(12):  # past the bottom of the view: it scrolls to keep the card in view
            await pilot.press("j")
        assert roster.highlighted == 12 and roster.scroll_offset.y > 0
        assert shown(roster) == expected(roster)
        assert highlighted_rows(roster) == rows_of(roster, 12) != []
        await pilot.press("end")
        assert roster.selected_id == "c29" and shown(roster) == expected(roster)
        await pilot.press("j")  # after the last: it stays (issue 15: j/k stop at the ends)
        assert roster.selected_id == "c29" and shown(roster) == expected(roster)
        await pilot.press("k")
        assert roster.selected_id == "c28"
        await pilot.press("home", "pagedown")
        assert roster.highlighted is not None and roster.highlighted > 1
        assert app.told[-1] == roster.selected_id

    run(scenario)


def test_a_click_selects_the_card_under_it() -> None:
    async def scenario(app: RosterApp, roster: Roster, pilot: Pilot[None]) -> None:
        rows = card_rows(roster)
        y = next(row for row, (_, owner) in enumerate(rows) if owner == 2) + 1
        await pilot.click(Roster, offset=(3, y))  # (no border; padding 0 1)
        assert roster.selected_id == "c2"
        assert highlighted_rows(roster) == rows_of(roster, 2)
        await pilot.press("end")
        top = roster.scroll_offset.y
        assert top > 0
        y = next(row for row, (_, owner) in enumerate(rows) if owner == 27) - top
        await pilot.click(Roster, offset=(3, y))
        assert roster.selected_id == "c27"

    run(scenario)


def test_marks_show_on_their_cards_and_a_changed_card_is_drawn_again() -> None:
    async def scenario(app: RosterApp, roster: Roster, pilot: Pilot[None]) -> None:
        await pilot.press("space", "j", "j", "space")
        assert roster.marked == {"c0", "c2"}
        assert roster.targets() == ["c0", "c2"]
        assert shown(roster)[0].startswith("◆ Name 00")
        assert shown(roster) == expected(roster)
        assert sum(text.startswith("◆") for text in shown(roster)) == 2
        changed = [*PEOPLE]
        changed[1] = Someone("c1", "Renamed", "Ana", MadnessState(pow=12, madness=12))
        roster.show(changed, CTX)
        await pilot.pause()
        assert shown(roster) == expected(roster)
        assert any("Renamed" in text and "Ana" in text for text in shown(roster))
        roster.show(changed[:3], CTX)  # fewer characters: the rest of the view is empty
        await pilot.pause()
        assert shown(roster) == expected(roster)
        assert roster.marked == {"c0", "c2"} and roster.selected_id == "c2"

    run(scenario)


def test_the_card_under_the_mouse_is_shown_as_hovered() -> None:
    async def scenario(app: RosterApp, roster: Roster, pilot: Pilot[None]) -> None:
        hover = roster.get_visual_style("roster--card", "roster--card-hover").rich_style
        rows = card_rows(roster)
        y = next(row for row, (_, owner) in enumerate(rows) if owner == 3)

        def hovered() -> list[int]:
            return [
                row
                for row in range(roster.size.height)
                if (first := next(iter(roster.render_line(row)))).style is not None
                and first.style.bgcolor == hover.bgcolor
            ]

        assert hovered() == []
        await pilot.hover(Roster, offset=(3, y))
        assert hovered() == rows_of(roster, 3)
        await pilot.hover(Roster, offset=(3, 0))  # the highlighted card shows its highlight
        assert hovered() == []
        assert highlighted_rows(roster) == rows_of(roster, 0)

    run(scenario)
