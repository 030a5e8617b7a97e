"""The players' recap tells a rich session with no secret in it, in English and Spanish, as
Markdown and as JSON (#13.1): the session is ``tests/rich_session.py``'s, the checks
``tests/player_safe_checks.py``'s (what must never appear, the digits rule, what must)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.player_safe_checks import GAME_TIME, assert_player_safe
from tests.rich_session import GM_NOTES, SHARED_NOTES, Told, rich_campaign

from gmscreen.campaign import events as ev
from gmscreen.campaign.journal import SessionLog
from gmscreen.campaign.model import Campaign, Character
from gmscreen.campaign.player_safe import player_safe
from gmscreen.campaign.recap_markdown import players_markdown
from gmscreen.campaign.store import load_sessions, recover
from gmscreen.cli import main
from gmscreen.rules.madness import Episode, MadnessState
from gmscreen.rules.madness_data import MadnessDataError, load_madness_data, parse_madness_data


@pytest.fixture(scope="module")
def rich(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Told, SessionLog]:
    folder, told = rich_campaign(tmp_path_factory.mktemp("rich"))
    (log,) = load_sessions(folder)
    return folder, told, log


def _export(folder: Path, *flags: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["export", str(folder), "--players", *flags]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_players_recap_in_markdown_keeps_every_secret(
    rich: tuple[Path, Told, SessionLog], lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, told, log = rich
    final = recover(log.header.state, [log]).state
    text = _export(folder, "--lang", lang, capsys=capsys)
    assert_player_safe(text, final, log.events, lang, log.header.id, told)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_players_recap_in_json_keeps_every_secret(
    rich: tuple[Path, Told, SessionLog], lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, told, log = rich
    final = recover(log.header.state, [log]).state
    out = json.loads(_export(folder, "--lang", lang, "--format", "json", capsys=capsys))
    assert out["players"] is True and out["session"] == log.header.id
    assert [n["text"] for n in out["notes"]] == list(SHARED_NOTES)
    # Every value the file holds, keys left out (they are ours: "game_time", "time_left" …).
    values: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        else:
            values.append(str(value))

    walk(out)
    assert_player_safe("\n".join(values), final, log.events, lang, log.header.id, told)


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
    from gmscreen.campaign.gm_words import Teller
    from gmscreen.tui.widgets.roll_log import content

    _, _, log = rich
    texts = [content(line).plain for line in Teller({}, "en").tell(log.events)]
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
