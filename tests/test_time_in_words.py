"""Time and checks, as the recaps tell them (#24 "Time in the players' words", "Checks in the
players' words"; #30.7 the order of what happens inside an advance; #30.11 the GM's adjustment).

Read through ``gmscreen export`` (Markdown and JSON, English and Spanish), as a GM would: an
evening with an 18-round episode, an advance and a day's end, and a check repeated after a
success that left madness at POW.
"""

from __future__ import annotations

import json
import random
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.cli import main
from gmscreen.rules import dice
from gmscreen.rules.madness import MINUTE

# A players' or GM's line about time passing, in the words of today and of before (so that a
# run of them is caught whatever the wording): rounds, advances, a day's end, many days.
TIME = re.compile(
    r"^(?:Time passes|Pasa el tiempo|Next round|Siguiente asalto|End of day|Fin del día"
    r"|The day ends|Termina el día|\d+ (?:rounds|days) pass|Pasan \d+ (?:asaltos|días))"
)
ROUNDS = {"en": "18 rounds pass", "es": "Pasan 18 asaltos"}


def fixed_clock() -> datetime:
    return datetime(2025, 3, 1, 20, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = create_campaign(tmp_path_factory.mktemp("evening"), "Imrryr")
    with open_campaign(folder, rng=random.Random(3), clock=fixed_clock) as live:
        live.add_character("Artinar", 13, chaos=43, balance=32, law=47, player="Ann")
        live.add_character("Vadhra", 12, chaos=10, balance=10, law=30)
        live.gain("artinar", "custom", {"amount": 18})
        live.check_roll("artinar", dice.typed("d100", 53))  # over Law 47: a failure
        live.check_kind("artinar", dice.typed("1d6", 4))  # phobia, for 18 rounds
        for _ in range(18):
            live.next_round()  # the 18th ends it
        assert live.character("artinar").sanity.episode is None
        live.advance(4 * MINUTE)
        live.end_day()
        # Vadhra: a success that leaves madness at POW (14 - 2 = 12), then a failure
        live.gain("vadhra", "custom", {"amount": 14})
        first = live.check_roll("vadhra", dice.typed("d100", 5))
        assert first.data.repeat  # type: ignore[union-attr]
        live.check_roll("vadhra", dice.typed("d100", 90))
        live.check_kind("vadhra", dice.typed("1d6", 2))
        # a gain the GM adjusted: 3d6 showed 7, the GM made it +2 more (#30.11)
        live.gain("vadhra", "true_love_dies", roll=dice.typed("3d6", 7), adjustment=2)
    return folder


def _export(folder: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> str:
    assert main(["export", str(folder), *flags]) == 0
    return capsys.readouterr().out


def _players_lines(
    folder: Path, capsys: pytest.CaptureFixture[str], lang: str
) -> dict[str, list[str]]:
    """The players' story in each form: the Markdown recap's lines, the JSON's texts."""
    md = _export(folder, capsys, "--players", "--lang", lang)
    story = md.split("\n## ")[0]
    lines = [re.sub(r"^- \*\*[^*]+\*\*: ", "", line) for line in story.splitlines()]
    data = json.loads(_export(folder, capsys, "--players", "--lang", lang, "--format", "json"))
    return {
        "md": [line for line in lines if line and not line.startswith("#")],
        "json": [line["text"] for line in data["lines"]],
    }


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_players_hear_time_pass_once_between_two_things(
    evening: Path, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    for form, lines in _players_lines(evening, capsys, lang).items():
        timed = [bool(TIME.match(line)) for line in lines]
        assert any(timed), (form, lines)
        runs = [lines[n : n + 2] for n in range(len(lines) - 1) if timed[n] and timed[n + 1]]
        assert runs == [], (form, lang)
        assert not any(re.search(r"\d+ (?:rounds?|asaltos?)", line) for line in lines)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_repeated_check_is_one_outcome_for_the_players(
    evening: Path, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    resists, gives_way = {
        "en": ("Vadhra fights off the horror", "Vadhra's mind gives way"),
        "es": ("Vadhra resiste el horror", "la mente de Vadhra cede"),
    }[lang]
    for form, lines in _players_lines(evening, capsys, lang).items():
        outcomes = [line for line in lines if resists in line or gives_way in line]
        assert outcomes == [gives_way], form


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_gms_recap_tells_a_run_of_rounds_in_one_line(
    evening: Path, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    out = _export(evening, capsys, "--lang", lang)
    told = [re.sub(r"^- \*\*[^*]+\*\*: ", "", line) for line in out.splitlines()]
    rounds = [line for line in told if TIME.match(line) and re.search("round|asalto", line)]
    assert rounds == [ROUNDS[lang]]
    data = json.loads(_export(evening, capsys, "--lang", lang, "--format", "json"))
    (folded,) = [line for line in data["lines"] if ROUNDS[lang] in line["text"]]
    assert len(folded["events"]) == 18  # the line tells each of the 18 events


@pytest.mark.parametrize(("lang", "said"), [("en", "+2 (GM)"), ("es", "+2 (máster)")])
def test_the_gms_recap_keeps_the_gms_adjustment(
    evening: Path, capsys: pytest.CaptureFixture[str], lang: str, said: str
) -> None:
    (line,) = [
        line for line in _export(evening, capsys, "--lang", lang).splitlines() if "3d6" in line
    ]
    assert "3d6: 7" in line and said in line and "+9" in line


def test_what_ends_inside_an_advance_is_told_at_its_time_before_the_time_passing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = create_campaign(tmp_path, "Imrryr")
    with open_campaign(folder, rng=random.Random(3), clock=fixed_clock) as live:
        live.add_character("Bors", 12, chaos=20, balance=10, law=5)
        live.advance(3 * 3600 + 3 * MINUTE + 24)  # 03:03:24
        live.gain("bors", "custom", {"amount": 16})
        live.check_roll("bors", dice.typed("d100", 100))  # a fumble
        live.check_kind("bors", dice.typed("1d6", 1))  # catatonia for 16 rounds: to 03:06:36
        live.advance(24)
        live.advance(4 * MINUTE)  # 03:03:48 to 03:07:48
    lines = _export(folder, capsys).splitlines()
    over = next(n for n, line in enumerate(lines) if re.search("atatonia (?:is over|ends)", line))
    passing = next(n for n, line in enumerate(lines) if "Time passes: 4 minutes" in line)
    assert over < passing, lines
    assert lines[over].startswith("- **day 1, 03:06:36**")
    assert lines[passing].startswith("- **day 1, 03:07:48**")
