"""Where replay stepping lands in the example session, and what the picker says about it."""

from __future__ import annotations

from gmscreen.campaign import events as ev
from gmscreen.campaign.journal import read_session
from gmscreen.campaign.paths import demo_source
from gmscreen.campaign.replay_steps import Steps, summarize

LOG = read_session(demo_source() / "sessions" / "2024-05-03-1.jsonl")


def test_stepping_skips_the_undone_gain_both_ways() -> None:
    steps = Steps(LOG.events)
    undone = [n + 1 for n, e in enumerate(LOG.events) if e.action in steps.void]
    assert undone == [5]
    assert isinstance(LOG.events[5].data, ev.Undo)  # step 6 applies the undo
    assert steps.is_void(5) and not steps.is_void(6) and not steps.is_void(0)
    assert steps.next(4) == 6 and steps.previous(6) == 4
    assert steps.previous(0) == 0 and steps.next(steps.last) == steps.last == len(LOG.events)


def test_checks_are_the_check_rolls() -> None:
    steps = Steps(LOG.events)
    assert steps.checks == [
        n + 1 for n, e in enumerate(LOG.events) if isinstance(e.data, ev.CheckRoll)
    ]
    first, second = steps.checks
    assert steps.next_check(0) == first and steps.next_check(first) == second
    assert steps.next_check(second) == second  # no further check: stays
    assert steps.previous_check(second) == first and steps.previous_check(first) == first


def test_summary() -> None:
    summary = summarize(LOG)
    assert (summary.id, summary.events, summary.undone, summary.checks) == (
        "2024-05-03-1",
        23,
        1,
        2,
    )
    assert summary.characters == ("Artinar", "Vadhra of Pan Tang", "Moryn the Red")
