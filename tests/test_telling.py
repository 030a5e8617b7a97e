"""The words of one rich session for each audience, held whole (#26.8): the GM's log (each
line's pieces: time, who, what, dice, outcome and kind of line), the GM's recap and the
players' story, in English and Spanish, against ``tests/words/rich_session.<lang>.txt``.

The session is ``tests/rich_session.py``'s, then an evening's time: a run of rounds over an
episode's end, an advance, a day's end, and a check repeated after a success. A change of words
shows here as a diff to read; when it is meant, write the files again and read them before
committing: ``.venv/bin/python -m tests.test_telling``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from tests.rich_session import fixed_clock, play_rich_session

from gmscreen.campaign.journal import SessionLog
from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.model import Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.player_safe import player_safe
from gmscreen.campaign.reducer import void_actions
from gmscreen.campaign.rulings import SetMadness
from gmscreen.campaign.store import load_sessions, recover
from gmscreen.campaign.telling import log_lines, recap_lines
from gmscreen.rules import dice
from gmscreen.rules.madness import HOUR

WORDS = Path(__file__).parent / "words"


def play_evening(live: LiveCampaign) -> None:
    """Time at the table after the rich session: Artinar's paranoia (16 rounds) runs out in a
    run of rounds, an advance, the day's end; Gorjon's check repeats after a success."""
    for _ in range(17):
        live.next_round()
    live.advance(2 * HOUR)
    live.end_day()
    live.ruling("gorjon", SetMadness(110), "to see a check again")
    live.check_roll("gorjon", dice.typed("d100", 5))  # a success: still at or over POW 99
    live.check_roll("gorjon", dice.typed("d100", 50))  # a failure
    live.check_kind("gorjon", dice.typed("1d6", 2))


def session(folder: Path) -> SessionLog:
    with open_campaign(folder, rng=random.Random(7), clock=fixed_clock) as live:
        play_rich_session(live)
        play_evening(live)
    (log,) = load_sessions(folder)
    return log


def told(log: SessionLog, lang: str) -> str:
    """The three audiences' words, one section each, a line a line."""
    events = log.events
    out = ["# The GM's log: time | who | what | dice | outcome | kind of line"]
    for line in log_lines(log.header.state, events, void_actions(events), lang):
        pieces = (line.when, line.who_name, line.what, line.dice, line.outcome, line.style)
        marks = (" (carried)" if line.carried else "") + (" (undone)" if line.void else "")
        out.append(" | ".join(pieces) + marks)
    out.append("")
    out.append("# The GM's recap")
    for recap in recap_lines(log.header.state, events, lang):
        out.append(recap.text + (" (undone)" if recap.void else ""))
    out.append("")
    out.append("# The players' story")
    final = recover(log.header.state, [log]).state
    view = player_safe(final, lang, events, start=log.header.state, story=True)
    out.extend(f"{line.when} | {line.text}" for line in view.story)
    return "\n".join(out) + "\n"


@pytest.fixture(scope="module")
def rich_log(tmp_path_factory: pytest.TempPathFactory) -> SessionLog:
    settings = Settings(modules=("madness", "merp-items"), auto_check=False)
    return session(create_campaign(tmp_path_factory.mktemp("told"), "Imrryr", settings))


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_three_audiences_words_for_a_rich_session(rich_log: SessionLog, lang: str) -> None:
    expected = (WORDS / f"rich_session.{lang}.txt").read_text(encoding="utf-8")
    assert told(rich_log, lang) == expected


if __name__ == "__main__":  # write the files again (read the diff before committing)
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        both = Settings(modules=("madness", "merp-items"), auto_check=False)
        log = session(create_campaign(Path(tmp), "Imrryr", both))
        WORDS.mkdir(exist_ok=True)
        for lang in ("en", "es"):
            (WORDS / f"rich_session.{lang}.txt").write_text(told(log, lang), encoding="utf-8")
            print(f"wrote {WORDS / f'rich_session.{lang}.txt'}", file=sys.stderr)
