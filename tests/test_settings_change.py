"""Settings saved as one event: the name and the settings together, undone together, kept."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gmscreen.campaign import InvalidAction, LiveCampaign, open_campaign
from gmscreen.campaign import events as ev
from gmscreen.campaign.model import Campaign, Character, Settings
from gmscreen.campaign.store import read_checkpoint, write_checkpoint
from gmscreen.rules.madness import MadnessState

FIXED = datetime(2024, 5, 1, 20, 0, tzinfo=UTC)


def _open(folder: Path) -> LiveCampaign:
    return open_campaign(folder, rng=random.Random(1), clock=lambda: FIXED)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "c"
    path.mkdir()
    chars = (Character("artinar", "Artinar", MadnessState(pow=13, chaos=43)),)
    write_checkpoint(path, Campaign(name="Old name", settings=Settings(), characters=chars))
    return path


def test_one_save_is_one_event_and_one_undo(folder: Path) -> None:
    live = _open(folder)
    event = live.change_settings(
        name="  The Dragon Isles ",
        fumble_base=20,
        modules=["madness", "merp-items"],
        player_words={"breaking": "is falling apart"},
    )
    assert isinstance(event, ev.Event) and isinstance(event.data, ev.SettingsChanged)
    assert event.data.changes["name"] == ["Old name", "The Dragon Isles"]
    assert set(event.data.changes) == {"name", "fumble_base", "modules", "player_words"}
    assert live.state.name == "The Dragon Isles"
    assert live.state.settings.fumble_base == 20
    assert live.state.settings.player_words == {"breaking": "is falling apart"}
    live.undo()
    assert live.state.name == "Old name"
    assert live.state.settings == Settings()


def test_the_save_survives_a_reopen_and_the_checkpoint(folder: Path) -> None:
    live = _open(folder)
    live.change_settings(name="New", round_seconds=10, player_words={"calm": "looks fine"})
    live.close()
    again = _open(folder)
    assert again.state.name == "New"
    assert again.state.settings.round_seconds == 10
    assert again.state.settings.player_words == {"calm": "looks fine"}
    again.close()
    on_disk, _ = read_checkpoint(folder)
    assert on_disk.name == "New" and on_disk.settings.player_words == {"calm": "looks fine"}


@pytest.mark.parametrize(
    "values",
    [
        {"name": "   "},
        {"name": "two\nlines"},
        {"fumble_base": 101},
        {"round_seconds": 0},
        {"modules": []},
        {"player_words": {"nonsense": "x"}},
        {"player_words": {"calm": ""}},
    ],
)
def test_a_bad_value_writes_nothing(folder: Path, values: dict[str, object]) -> None:
    live = _open(folder)
    before = len(live.events)
    with pytest.raises(InvalidAction):
        live.change_settings(**values)
    assert len(live.events) == before and live.state.name == "Old name"


def test_saving_what_is_there_is_no_event(folder: Path) -> None:
    live = _open(folder)
    assert live.change_settings(name="Old name", fumble_base=Settings().fumble_base) is None
    assert live.events == []


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", ("seems calm", "is breaking down")), ("es", ("está en calma", "se está quebrando"))],
)
def test_the_player_view_reads_naturally(lang: str, words: tuple[str, str]) -> None:
    from gmscreen.campaign.player_safe import player_safe, seems

    people = (
        Character("a", "Artinar", MadnessState(pow=13, madness=1)),
        Character("b", "Bors", MadnessState(pow=10, madness=12)),
    )
    view = player_safe(Campaign("T", characters=people), lang)
    assert [seems(c, lang) for c in view.characters] == list(words)
    own = Settings(player_words={"breaking": "is falling apart"})
    view = player_safe(Campaign("T", settings=own, characters=people), lang)
    assert [seems(c, lang) for c in view.characters] == [words[0], "is falling apart"]


def test_the_evening_hours_are_a_setting_saved_undone_and_kept(folder: Path) -> None:
    """How long a pause may be within one session (gmscreen.campaign.evenings): left out of
    campaign.toml while it is the default, so older files read and re-encode as they were."""
    assert "evening_hours" not in (folder / "campaign.toml").read_text(encoding="utf-8")
    live = _open(folder)
    event = live.change_settings(evening_hours=3)
    assert isinstance(event, ev.Event) and isinstance(event.data, ev.SettingsChanged)
    assert event.data.changes == {"evening_hours": [6, 3]}
    live.undo()
    assert live.state.settings.evening_hours == 6
    live.redo()
    live.close()
    assert read_checkpoint(folder)[0].settings.evening_hours == 3
    again = _open(folder)
    with pytest.raises(InvalidAction, match="evening_hours"):
        again.change_settings(evening_hours=49)
    again.close()
