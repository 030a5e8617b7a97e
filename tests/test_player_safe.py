"""Every players' surface keeps every secret (#13.1, #24): the surfaces README's *What players
see* lists, each in English and Spanish, after the same rich session (``tests/rich_session.py``),
checked the same way (``tests/player_safe_checks.py``: what must never appear, the digits rule,
what must). :data:`SURFACES` names them as README does, and a test holds the two lists equal.

Each surface is read as it reaches the players: the player view's and show's widgets as drawn
(the whole of each, past any scrolling), what ``serve`` sends a browser's terminal (its
websocket, escape sequences left out), the recaps as printed or saved.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.player_safe_checks import GAME_TIME, assert_player_safe
from tests.rich_session import (
    GM_NOTES,
    SHARED_NOTES,
    Told,
    fixed_clock,
    play_rich_session,
    rich_campaign,
)
from tests.terminals import browser_terminal, drawn_text, free_port, serving
from tests.tui.conftest import SIZE, build
from tests.tui.test_show import drawn, shown_within
from textual.widget import Widget

from gmscreen.campaign import events as ev
from gmscreen.campaign.journal import SessionLog
from gmscreen.campaign.model import Campaign, Character, Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.player_safe import player_safe
from gmscreen.campaign.recap_markdown import players_markdown
from gmscreen.campaign.store import load_sessions, recover
from gmscreen.cli import main
from gmscreen.rules.madness import Episode, MadnessState
from gmscreen.rules.madness_data import MadnessDataError, load_madness_data, parse_madness_data
from gmscreen.tui.replay_app import make_replay_app
from gmscreen.tui.screens.main import MainScreen
from gmscreen.tui.screens.player_view import PlayerView
from gmscreen.tui.show_app import make_show_app

README = Path(__file__).resolve().parents[1] / "README.md"
# A browser's terminal with room for the whole rich session: nothing scrolled away, and no item
# name (up to 172 characters, with "carries") wrapped onto two rows: each is taken out whole
TALL = (480, 120)


def rich_table(root: Path, lang: str) -> Path:
    """An empty campaign in ``lang``, ready for the rich session (no check opens by itself)."""
    settings = Settings(modules=("madness", "merp-items"), auto_check=False, language=lang)
    return create_campaign(root, "Imrryr", settings)


def played(root: Path, lang: str) -> tuple[Path, Told]:
    """A campaign folder in ``lang`` holding one journal: the rich session."""
    folder = rich_table(root, lang)
    with open_campaign(folder, rng=random.Random(7), clock=fixed_clock) as live:
        told = play_rich_session(live)
    return folder, told


def drawn_of(widgets: list[Widget]) -> str:
    """What ``widgets`` draw, as text (containers draw a blank: nothing)."""
    out: list[str] = []
    for widget in widgets:
        visual = widget.render()
        plain = getattr(visual, "plain", visual)
        if widget.display and isinstance(plain, str):
            out.append(plain)
    return "\n".join(out)


# --- each surface: (a root folder, the language) -> (what it shows, the campaign, what was told)


def player_view(root: Path, lang: str) -> tuple[str, Path, Told]:
    """The GM's player view (``p``), opened right after the session was played on the GM's
    table; what the GM does while it is up (a note shared) reaches it."""
    folder = rich_table(root, lang)
    live = open_campaign(folder, rng=random.Random(7), clock=fixed_clock)
    told = play_rich_session(live)
    shown: list[str] = []

    async def run() -> None:
        app = build(live)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("p")
            await pilot.pause()
            assert isinstance(app.screen, PlayerView)
            shown.append(drawn_of(list(app.screen.query(Widget))))
            live.note("The gate opens at dusk", shared=True)
            main_screen = app.screen_stack[0]
            assert isinstance(main_screen, MainScreen)
            main_screen.refresh_all()
            await pilot.pause()
            assert "The gate opens at dusk" in drawn_of(list(app.screen.query(Widget)))

    try:
        asyncio.run(run())
    finally:
        live.close()
    return shown[0], folder, told


def show(root: Path, lang: str) -> tuple[str, Path, Told]:
    """``gmscreen show``, started before the GM plays: it follows the whole session."""
    folder = rich_table(root, lang)
    shown: list[str] = []
    told: list[Told] = []

    async def run() -> None:
        app = make_show_app(folder, strict=True, animations=False)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            with open_campaign(folder, rng=random.Random(7), clock=fixed_clock) as live:
                told.append(play_rich_session(live))
                assert await shown_within(pilot, app, SHARED_NOTES[-1])
                shown.append(drawn(app))

    asyncio.run(run())
    return shown[0], folder, told[0]


def serve(root: Path, lang: str) -> tuple[str, Path, Told]:
    """``gmscreen serve``: what one browser's terminal is sent."""
    pytest.importorskip("textual_serve", reason="the serve extra is not installed")
    folder, told = played(root, lang)
    columns, rows = TALL

    def done(raw: bytes) -> bool:
        return all(note in drawn_text(raw) for note in SHARED_NOTES)

    with serving(folder, free_port()) as url:
        raw = asyncio.run(browser_terminal(url, done, rows=rows, columns=columns))
    return drawn_text(raw), folder, told


def recap_markdown(root: Path, lang: str) -> tuple[str, Path, Told]:
    folder, told = played(root, lang)
    return _printed(["export", str(folder), "--players", "--lang", lang]), folder, told


def recap_json(root: Path, lang: str) -> tuple[str, Path, Told]:
    folder, told = played(root, lang)
    printed = _printed(["export", str(folder), "--players", "--lang", lang, "--format", "json"])
    out = json.loads(printed)
    assert out["players"] is True
    assert [n["text"] for n in out["notes"]] == list(SHARED_NOTES)
    # Every value the file holds, keys left out (they are ours: "game_time", "time_left" …).
    return "\n".join(_values(out)), folder, told


def replay_e(root: Path, lang: str) -> tuple[str, Path, Told]:
    """The players' recap replay's ``E`` saves in ``exports/``."""
    folder, told = played(root, lang)
    (log,) = load_sessions(folder)

    async def run() -> None:
        app = make_replay_app(folder, log.header.id, strict=True, animations=False)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("E")
            await pilot.pause()

    asyncio.run(run())
    saved = folder / "exports" / f"{log.header.id}-players.md"
    return saved.read_text(encoding="utf-8"), folder, told


def _printed(argv: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(argv) == 0
    return out.getvalue()


def _values(value: object) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in _values(v)]
    if isinstance(value, list):
        return [s for v in value for s in _values(v)]
    return [str(value)]


# As README's "What players see" names them, in its table.
SURFACES: dict[str, Callable[[Path, str], tuple[str, Path, Told]]] = {
    "the player view (`p`)": player_view,
    "`gmscreen show`": show,
    "`gmscreen serve` (each browser)": serve,
    "the players' recap, Markdown (`export --players`)": recap_markdown,
    "the players' recap, JSON (`export --players --format json`)": recap_json,
    "the players' recap replay's `E` saves": replay_e,
}


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("surface", list(SURFACES))
def test_every_players_surface_keeps_every_secret(tmp_path: Path, surface: str, lang: str) -> None:
    text, folder, told = SURFACES[surface](tmp_path, lang)
    (log,) = load_sessions(folder)
    final = recover(log.header.state, [log]).state
    assert_player_safe(text, final, log.events, lang, log.header.id, told)


def test_readme_lists_the_surfaces_tested() -> None:
    """README's *What players see* table names exactly the surfaces this module checks."""
    readme = README.read_text(encoding="utf-8")
    section = readme.split("## What players see", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (.+?) \| .* \|$", section, flags=re.MULTILINE)
    listed = [row for row in rows if row not in ("surface", "---")]
    assert listed == list(SURFACES)


@pytest.fixture(scope="module")
def rich(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Told, SessionLog]:
    folder, told = rich_campaign(tmp_path_factory.mktemp("rich"))
    (log,) = load_sessions(folder)
    return folder, told, log


def test_the_gm_recap_marks_the_shared_notes(
    rich: tuple[Path, Told, SessionLog], capsys: pytest.CaptureFixture[str]
) -> None:
    folder, _, _ = rich
    assert main(["export", str(folder)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(f"Note for the players: {SHARED_NOTES[0]}" in line for line in lines)
    assert not any("Ioreth's brother" in line and "players" in line for line in lines)


def test_a_note_is_the_gms_alone_unless_shared(rich: tuple[Path, Told, SessionLog]) -> None:
    _, _, log = rich
    old_line = {
        "seq": 1,
        "action": 1,
        "at": "2024-05-01T20:00:00.000+00:00",
        "game": 0,
        "kind": "note",
        "character": None,
        "data": {"text": "written before notes could be shared"},
    }
    old = ev.Event.from_dict(old_line)
    assert isinstance(old.data, ev.Note) and old.data.shared is False
    assert player_safe(log.header.state, "en", [old]).notes == ()
    shared = ev.Event.from_dict({**old_line, "data": {"text": "told", "shared": True}})
    assert [n.text for n in player_safe(log.header.state, "en", [shared]).notes] == ["told"]
    assert ev.Event.from_dict(shared.to_dict()) == shared


def test_every_kind_needs_a_player_text_in_both_languages() -> None:
    import copy

    from gmscreen.data import read_toml

    raw = read_toml("madness.toml")
    parse_madness_data(copy.deepcopy(raw))
    for key in ("en_player", "es_player"):
        broken = copy.deepcopy(raw)
        del broken["kinds"][5][key]
        with pytest.raises(MadnessDataError, match=f"'suicide' lacks {key}"):
            parse_madness_data(broken)
    copied = copy.deepcopy(raw)
    copied["kinds"][5]["es_player"] = copied["kinds"][5]["es_gm"]
    with pytest.raises(MadnessDataError, match="tells the players the GM's text"):
        parse_madness_data(copied)


def test_the_gms_log_tells_a_shared_note_from_a_gm_note(
    rich: tuple[Path, Told, SessionLog],
) -> None:
    from gmscreen.campaign.gm_lines import GM_LINES
    from gmscreen.campaign.gm_words import Teller
    from gmscreen.tui.widgets.roll_log import content

    _, _, log = rich
    texts = [content(line).plain for line in Teller({}, "en", says=GM_LINES).tell(log.events)]
    assert any(f"Note for the players: {SHARED_NOTES[0]}" in text for text in texts)
    assert any(f"Note: {GM_NOTES[0]}" in text for text in texts)


KINDS = [k.key for k in load_madness_data().kinds]


@given(
    pow_=st.integers(1, 100),
    madness=st.integers(0, 999),
    alignments=st.tuples(st.integers(0, 999), st.integers(0, 999), st.integers(0, 999)),
    episode=st.none() | st.tuples(st.sampled_from(KINDS), st.integers(0, 10**7)),
    permanent=st.lists(st.sampled_from(KINDS), max_size=3),
    clock=st.integers(0, 10**8),
    lang=st.sampled_from(["en", "es"]),
)
def test_no_figure_of_any_character_reaches_the_players(
    pow_: int,
    madness: int,
    alignments: tuple[int, int, int],
    episode: tuple[str, int] | None,
    permanent: list[str],
    clock: int,
    lang: str,
) -> None:
    chaos, balance, law = alignments
    under_way = None
    if episode is not None:
        under_way = Episode(episode[0], madness, "rounds", clock, clock + episode[1])
    sanity = MadnessState(
        pow=pow_,
        chaos=chaos,
        balance=balance,
        law=law,
        madness=madness,
        episode=under_way,
        permanent=tuple(permanent),
    )
    state = Campaign("Imrryr", clock=clock, characters=(Character("a", "Artinar", sanity),))
    view = player_safe(state, lang)
    text = json.dumps(view.to_dict(), ensure_ascii=False) + players_markdown(view, "I", "s")
    assert not re.search(r"\d", GAME_TIME.sub("", text)), text
