"""campaign.toml is written into the GM's own document: comments, key order and blank lines
survive every checkpoint, and an edit made while the campaign is open is merged and told."""

from __future__ import annotations

import random
import tomllib
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmscreen.campaign.errors import CampaignFileError
from gmscreen.campaign.model import Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.store import campaign_file, read_checkpoint


def clock() -> datetime:
    return datetime(2025, 3, 1, 20, 0, tzinfo=UTC)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    folder = create_campaign(tmp_path, "Imrryr", Settings(auto_check=False))
    with open_campaign(folder, rng=random.Random(1), clock=clock) as live:
        live.add_character("Artinar", 13, chaos=43, balance=32, law=47, player="Ana")
        live.add_character("Vadhra", 11, chaos=60, law=10, player="Bea")
    return folder


COMMENTS = [
    "# Our campaign, since 2019: edit between sessions",
    "# house rule: fumbles on 99-00",
    "# ---- the party ----",
    "# Artinar: Ana's sorcerer",
    "# Vadhra joined in spring",
]


def annotate(folder: Path) -> str:
    """The GM's edit between sessions: comments on their own lines and after values, blank lines."""
    path = campaign_file(folder)
    text = path.read_text(encoding="utf-8")
    text = f"{COMMENTS[0]}\n\n" + text
    text = text.replace("[settings]\n", f"[settings]\n{COMMENTS[1]}\n")
    first, rest = text.split("[[characters]]\n", 1)
    second, third = rest.split("[[characters]]\n", 1)
    text = (
        f"{first}{COMMENTS[2]}\n\n[[characters]]\n{COMMENTS[3]}\n{second}\n\n"
        f"{COMMENTS[4]}\n[[characters]]\n{third}"
    )
    text = text.replace("pow = 13\n", "pow = 13  # rolled at the table\n")
    path.write_text(text, encoding="utf-8")
    read_checkpoint(folder)  # still a campaign
    return text


def test_comments_and_blank_lines_survive_play_checkpoints_and_quit(folder: Path) -> None:
    before = annotate(folder)
    with open_campaign(folder, rng=random.Random(2), clock=clock, checkpoint_every=2) as live:
        live.gain("artinar", "elemental")
        live.gain("vadhra", "demon", {"pow": 16})  # the periodic checkpoint
        live.note("a note")
        live.next_round()
        state = live.state
    text = campaign_file(folder).read_text(encoding="utf-8")
    for comment in [*COMMENTS, "# rolled at the table"]:
        assert text.count(comment) == 1, comment
    assert "pow = 13  # rolled at the table\n" in text
    assert text.count("\n\n") >= before.count("\n\n")  # the blank lines too
    assert read_checkpoint(folder)[0] == state  # and the values are the new ones
    saved = tomllib.loads(text)
    assert [c["madness"] for c in saved["characters"]] == [2, 3]
    assert saved["last_event"] == state.last_event


def test_the_key_order_of_the_file_is_kept(folder: Path) -> None:
    path = campaign_file(folder)
    text = path.read_text(encoding="utf-8")
    # The GM moved name above everything, and player to the end of Artinar's table.
    text = text.replace('name = "Imrryr"\n', "")
    text = text.replace('player = "Ana"\n', "")
    text = text.replace("schema = 1\n", 'name = "Imrryr"\nschema = 1\n')
    text = text.replace("under_care = false\n", 'under_care = false\nplayer = "Ana"\n', 1)
    path.write_text(text, encoding="utf-8")
    with open_campaign(folder, rng=random.Random(2), clock=clock) as live:
        live.gain("artinar", "elemental")
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines.index('name = "Imrryr"') < lines.index("schema = 1")
    assert lines.index("under_care = false") + 1 == lines.index('player = "Ana"')


def test_an_edit_while_the_campaign_is_open_is_kept_and_told(folder: Path) -> None:
    path = campaign_file(folder)
    with open_campaign(folder, rng=random.Random(2), clock=clock) as live:
        live.gain("artinar", "elemental")
        live.checkpoint()
        # The GM, in an editor, while the game runs: a comment, Vadhra's player, a setting.
        text = path.read_text(encoding="utf-8")
        text = text.replace('player = "Bea"', 'player = "Beatriz"  # her full name')
        text = text.replace("fumble_base = 1", "fumble_base = 2")
        path.write_text("# edited during the session\n" + text, encoding="utf-8")
        live.gain("vadhra", "elemental")
        live.checkpoint()
        notice = live.notices[-1]
        written = path.read_text(encoding="utf-8")
        assert "# edited during the session" in written and "# her full name" in written
        saved = tomllib.loads(written)
        assert saved["settings"]["fumble_base"] == 2  # the GM's
        assert saved["characters"][1]["player"] == "Beatriz"
        assert [c["madness"] for c in saved["characters"]] == [2, 2]  # the game's
        live.gain("artinar", "elemental")
        live.checkpoint()  # a later checkpoint keeps the GM's edit too
    assert "edited while the campaign was open" in notice
    assert "characters[vadhra].player" in notice and "settings.fumble_base" in notice
    state = read_checkpoint(folder)[0]
    assert state.character("vadhra").player == "Beatriz"
    assert state.settings.fumble_base == 2
    assert state.character("artinar").sanity.madness == 4
    with open_campaign(folder, rng=random.Random(3), clock=clock) as live:
        assert live.state.character("vadhra").player == "Beatriz"  # next time it is opened


def test_a_value_changed_by_the_gm_and_in_play_keeps_the_games_and_says_so(folder: Path) -> None:
    path = campaign_file(folder)
    with open_campaign(folder, rng=random.Random(2), clock=clock) as live:
        live.checkpoint()
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("madness = 0", "madness = 9", 1), encoding="utf-8")
        live.gain("artinar", "elemental")
        live.checkpoint()
        notice = live.notices[-1]
    assert "characters[artinar].madness also changed in play" in notice
    assert read_checkpoint(folder)[0].character("artinar").sanity.madness == 2


def test_a_broken_edit_while_open_is_refused_and_left_as_it_is(folder: Path) -> None:
    path = campaign_file(folder)
    with open_campaign(folder, rng=random.Random(2), clock=clock) as live:
        broken = path.read_text(encoding="utf-8").replace("pow = 13", "pow = ")
        path.write_text(broken, encoding="utf-8")
        live.gain("artinar", "elemental")
        with pytest.raises(CampaignFileError):
            live.checkpoint()
        assert path.read_text(encoding="utf-8") == broken
        path.write_text(broken.replace("pow = \n", "pow = 13\n"), encoding="utf-8")
    assert read_checkpoint(folder)[0].character("artinar").sanity.madness == 2


COMMENT_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=30
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(comments=st.lists(st.tuples(st.integers(0, 10_000), COMMENT_TEXT), max_size=8))
def test_any_comment_anywhere_survives_a_checkpoint(
    folder: Path, comments: list[tuple[int, str]]
) -> None:
    path = campaign_file(folder)
    pristine = path.read_bytes()
    journals = set((folder / "sessions").iterdir())
    try:
        lines = pristine.decode("utf-8").split("\n")
        for where, words in comments:
            lines.insert(where % len(lines), f"# {words}")
        path.write_text("\n".join(lines), encoding="utf-8")
        try:
            read_checkpoint(folder)
        except CampaignFileError:
            return  # not TOML any more (a comment inside a table header's line): not this test
        with open_campaign(folder, rng=random.Random(2), clock=clock) as live:
            live.gain("artinar", "elemental")
            state = live.state
        text = path.read_text(encoding="utf-8")
        for _, words in comments:
            assert f"# {words}" in text
        assert read_checkpoint(folder)[0] == state
    finally:
        path.write_bytes(pristine)  # the next example starts from the same campaign
        for new in set((folder / "sessions").iterdir()) - journals:
            new.unlink()
