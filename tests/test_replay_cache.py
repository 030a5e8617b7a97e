"""Replay's cached steps: any step equals folding the session's events up to it.

Undos here may target any earlier action (a journal allows it, the table only undoes the last),
including undos (a redo), so the cache is checked against journals the table never writes.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from gmscreen.campaign import events as ev
from gmscreen.campaign.journal import read_session
from gmscreen.campaign.paths import demo_source
from gmscreen.campaign.reducer import fold
from gmscreen.campaign.replay import Replay

LOG = read_session(demo_source() / "sessions" / "2024-05-03-1.jsonl")
TEMPLATE = next(e for e in LOG.events if isinstance(e.data, ev.Gain))
assert isinstance(TEMPLATE.data, ev.Gain)
GAIN = TEMPLATE.data


def _gain(seq: int, madness: int) -> ev.Event:
    data = replace(GAIN, changes={"madness": [0, madness]})
    return replace(TEMPLATE, seq=seq, action=seq, data=data)


def _undo(seq: int, target: ev.Event) -> ev.Event:
    data = ev.Undo(target.action, isinstance(target.data, ev.Undo))
    return replace(TEMPLATE, seq=seq, action=seq, character=None, data=data)


@st.composite
def sessions(draw: st.DrawFn) -> list[ev.Event]:
    events: list[ev.Event] = []
    for seq in range(1, draw(st.integers(1, 40)) + 1):
        if len(events) > 0 and draw(st.booleans()):
            events.append(_undo(seq, draw(st.sampled_from(events))))
        else:
            events.append(_gain(seq, draw(st.integers(0, 99))))
    return events


@settings(max_examples=200, deadline=None)
@given(sessions(), st.integers(1, 6))
def test_every_step_equals_the_fold_up_to_it(events: list[ev.Event], every: int) -> None:
    replay = Replay(LOG.header.state, events, every)
    for step in range(len(events) + 1):
        assert replay.state_at(step) == fold(LOG.header.state, events[:step]), step


def test_an_undo_of_an_older_action_behind_a_cached_step() -> None:
    # A, a note, B, undo A, undo B: once cached at step 4, step 5 must not bring A back.
    a, b = _gain(1, 30), _gain(3, 40)
    note = replace(TEMPLATE, seq=2, action=2, data=ev.Note("x"))
    events = [a, note, b, _undo(4, a), _undo(5, b)]
    replay = Replay(LOG.header.state, events, every=2)
    assert replay.state_at(5) == fold(LOG.header.state, events) == LOG.header.state.at_event(5)


def test_the_example_session_steps() -> None:
    replay = Replay.from_log(LOG, every=4)
    for step in range(replay.steps + 1):
        assert replay.state_at(step) == fold(replay.start, replay.events[:step])
