"""A campaign with the MERP items and no madness module feels native (issue #16, Build 2): the
key bar offers the keys that work and none that refuse, the character form asks only for what
the campaign uses, and the roster and detail show the MERP standing."""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from gmscreen.campaign.events import CharacterEdited
from gmscreen.tui.app import GMScreenApp
from gmscreen.tui.item_samples import merp_sample_campaign
from gmscreen.tui.screens.character_form import CharacterForm
from gmscreen.tui.screens.merp_profile import MerpProfileForm
from gmscreen.tui.widgets.detail import DetailPane
from gmscreen.tui.widgets.key_bar import KeyBar
from gmscreen.tui.widgets.roster import Roster
from gmscreen.tui.widgets.text_input import TextInput

from .conftest import SIZE, build, fixed_clock, play

EXAMPLE = Path(__file__).parents[2] / "campaigns" / "merp-party"
REFUSED_WITHOUT_MADNESS = {"mark", "gain", "check", "check_all"}
Snap = Callable[..., bool]


@pytest.fixture
def party(tmp_path: Path) -> Path:
    folder = tmp_path / "merp-party"
    shutil.copytree(EXAMPLE, folder)
    return folder


def offered(app: GMScreenApp) -> set[str]:
    """The ids of the commands the key bar shows on the current screen."""
    return app.screen.query_one(KeyBar).shown_commands()


def test_the_key_bar_offers_the_item_keys_and_never_the_madness_ones(party: Path) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        assert {"item_tables", "inventory", "edit_character"} <= offered(app)
        assert not offered(app) & REFUSED_WITHOUT_MADNESS
        await pilot.press("g")  # still a key: it says why it refuses, as before
        await pilot.pause()
        assert not offered(app) & REFUSED_WITHOUT_MADNESS

    play(party, scenario)


def test_a_madness_campaign_keeps_its_keys(tmp_path: Path) -> None:
    from gmscreen.campaign.model import Settings
    from gmscreen.campaign.opening import open_campaign
    from gmscreen.campaign.paths import create_campaign

    folder = create_campaign(tmp_path, "Elric", Settings(modules=("madness",)))
    with open_campaign(folder, rng=random.Random(1), clock=fixed_clock) as live:
        live.add_character("Elric", 12, madness=13)  # at POW: a check is due

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        assert {"mark", "gain", "check"} <= offered(app)
        assert not offered(app) & {"item_tables", "inventory", "edit_character"}

    play(folder, scenario)


def test_a_character_is_created_without_madness_fields(party: Path) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("c")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, CharacterForm)
        asked = {w.id for w in form.query("Input")}
        assert asked == {"f-name", "f-player", "f-notes"}
        assert not form.query("#f-under_care")
        await pilot.press(*"Frodo", "tab", *"Ana", "enter")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, MerpProfileForm)  # the profile is asked next
        await pilot.press("down", "enter", *"Hobbit", "tab", *"3", "enter")
        await pilot.pause()
        await pilot.pause()
        frodo = app.live.state.character("frodo")
        assert frodo.player == "Ana"
        assert frodo.merp is not None
        assert (frodo.merp.category, frodo.merp.race, frodo.merp.points_total) == (
            "semi_spell_user",
            "Hobbit",
            3,
        )
        card = app.screen.query_one(Roster).card_at(app.live.state.characters.index(frodo))
        assert "Semi spell user (elves too) · Hobbit" in card.plain
        assert "3 of 3 background points left" in card.plain
        assert "rolls left: Table 1: 2 · Table 2: 1" in card.plain

    play(party, scenario)


def test_the_merp_profile_is_edited_with_e(party: Path) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        before = app.live.state.character("halbarad").merp
        assert before is not None and before.points_spent == 1
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, CharacterForm)
        await pilot.press("enter")  # name and player as they were
        await pilot.pause()
        await pilot.pause()
        form = app.screen
        assert isinstance(form, MerpProfileForm)  # opened with the profile as it stands
        assert form.query_one("#points", TextInput).value == "4"
        await pilot.press("down", "enter", "end", *" of the North", "tab", "end", "backspace", "6")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.pause()
        after = app.live.state.character("halbarad").merp
        assert after is not None
        assert (after.category, after.race) == ("semi_spell_user", "Dúnadan of the North")
        assert (after.points_total, after.points_left) == (6, 5)
        assert (after.points_spent, dict(after.rolls)) == (1, dict(before.rolls))  # kept
        edits = [e for e in app.live.events if isinstance(e.event.data, CharacterEdited)]
        assert len(edits) == 1  # one journal record

    play(party, scenario)


def test_the_detail_pane_shows_the_standing_and_the_items(party: Path) -> None:
    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        text = str(app.screen.query_one(DetailPane).query_one("#detail-text").render())
        assert "Background points: 3 left of 4 (1 spent)." in text
        assert "Table 1: 1 point a roll, 1 of 2 rolls left." in text
        assert "Items carried (1):" in text
        assert "merp-" not in text  # no table ids, no item ids

    play(party, scenario)


def test_merp_roster_and_detail(snap_compare: Snap, tmp_path: Path) -> None:
    folder = merp_sample_campaign(tmp_path, fixed_clock)
    assert snap_compare(build(folder), terminal_size=SIZE)


def test_the_marker_legend_explains_the_markers_each_table_carries() -> None:
    from gmscreen.i18n import catalog_for
    from gmscreen.rules.merp import merp_tables
    from gmscreen.tui.item_legend import legend

    tables, t = merp_tables(), catalog_for("en").t

    def of(table_id: str) -> str:
        return legend((row.markers for row in tables[table_id].rows), t)

    assert of("merp-1") == (
        "Marks: * rolls Tables 1a and 1b · (+1) next to * adds 1 to their d10 · @ rolls Table 1f"
    )
    assert of("merp-2") == "Marks: # rolls Table 2a · (+1) next to # adds 1 to its d10"
    assert of("merp-1a") == ""  # a table whose rows carry no marker has no legend
    es = legend((row.markers for row in tables["merp-2"].rows), catalog_for("es").t)
    assert es.startswith("Marcas: # tira en la tabla 2a")


def test_the_item_screen_shows_the_marker_legend(snap_compare: Snap, tmp_path: Path) -> None:
    folder = merp_sample_campaign(tmp_path, fixed_clock)
    # Ioreth, a pure spell user, opens on Table 2: its # and (+1) rows
    assert snap_compare(build(folder), press=["t"], terminal_size=SIZE)


def test_the_inventory_shows_names_and_tables_not_ids(party: Path) -> None:
    from textual.widgets import OptionList

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("i")
        await pilot.pause()
        options = app.screen.query_one("#items", OptionList)
        shown = [str(options.get_option_at_index(n).prompt) for n in range(options.option_count)]
        assert shown and all("merp-" not in text for text in shown)  # no item or table ids
        assert shown[0].endswith("\nTable 1")

    play(party, scenario)


def test_a_race_from_the_file_is_shown_inert() -> None:
    from gmscreen.campaign.model import MerpProfile
    from gmscreen.i18n import catalog_for
    from gmscreen.tui.widgets import merp_lines

    class Hostile:
        merp = MerpProfile("non_spell_user", race="Elf\x1b[2J[bold]")
        inventory = ()

    lines = merp_lines.card_lines(Hostile(), catalog_for("en").t, "en")
    assert "\x1b" not in lines[0].plain and "[bold]" in lines[0].plain  # markup stays literal


def test_the_profile_form_shows_its_fields_and_where_enter_went(party: Path) -> None:
    """Race and points are bordered fields (compact ones looked like labels), so the race that
    enter on the category moves to is seen to have the focus: the next tab, to the points, is
    not a skipped race (issue 30, item 5)."""

    async def scenario(app: GMScreenApp, pilot: Pilot[None]) -> None:
        await pilot.press("e", "enter")  # the character form as it was, then the profile
        await pilot.pause()
        form = app.screen
        assert isinstance(form, MerpProfileForm)
        race, points = form.query_one("#race", TextInput), form.query_one("#points", TextInput)
        assert race.styles.border_top[0] and points.styles.border_top[0]  # both drawn boxed
        await pilot.press("down", "enter")  # a category chosen: on to the race, visibly
        assert app.focused is race and race.styles.border_top != points.styles.border_top
        await pilot.press("tab")
        assert app.focused is points and race.styles.border_top != points.styles.border_top

    play(party, scenario)


def test_the_profile_form_fits_80_by_24(snap_compare: Snap, party: Path) -> None:
    assert snap_compare(build(party), press=["e", "enter", "enter"], terminal_size=(80, 24))
