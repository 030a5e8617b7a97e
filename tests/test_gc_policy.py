"""gmscreen.gc_policy: the collector paused, frozen and thawed as the policy says, and always
left as it was found. Each test restores the process's collector (the rest of the run)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable, Iterator

import pytest

from gmscreen import gc_policy


@pytest.fixture(autouse=True)
def collector() -> Iterator[None]:
    enabled, threshold = gc.isenabled(), gc.get_threshold()
    gc.unfreeze()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
        if enabled:
            gc.enable()
        else:
            gc.disable()


@pytest.mark.parametrize("enabled", [True, False])
def test_paused_leaves_the_collector_as_it_was(enabled: bool) -> None:
    gc.enable() if enabled else gc.disable()
    with gc_policy.paused():
        assert not gc.isenabled()
    assert gc.isenabled() is enabled
    with pytest.raises(KeyError), gc_policy.paused():
        raise KeyError("a journal that fails half way")
    assert gc.isenabled() is enabled


def test_start_up_is_frozen_and_the_collector_back_with_the_first_frame() -> None:
    first_frame: list[Callable[[], None]] = []
    with gc_policy.paused():
        gc_policy.start_up_done(first_frame.append)
        assert gc.get_freeze_count() > 0  # start-up's objects out of the collector's way
        assert not gc.isenabled()  # not yet: the first frame is start-up too
        (callback,) = first_frame
        young, middle, _ = gc.get_threshold()
        callback()
        assert gc.isenabled()
        # full passes rarer for play; young and middle ones as they were; said twice, the same
        assert gc.get_threshold() == (young, middle, gc_policy.PLAY_FULL_PASS)
        callback()
        assert gc.get_threshold() == (young, middle, gc_policy.PLAY_FULL_PASS)
    assert gc.isenabled()


def test_a_replay_freezes_once_drawn_and_thaws_when_it_goes() -> None:
    later: list[Callable[[], None]] = []
    freeze = gc_policy.ReplayFreeze()
    assert gc.get_freeze_count() == 0  # nothing before it is drawn
    freeze.drawn()
    assert gc.get_freeze_count() > 0
    freeze.left(later.append)
    assert gc.get_freeze_count() == 0
    assert later == []  # nothing was frozen before it: nothing to freeze again
    freeze.drawn()  # a frame drawn after it went (a callback late): no freeze for good
    assert gc.get_freeze_count() == 0


def test_leaving_a_replay_freezes_start_up_again_once_the_screen_is_gone() -> None:
    gc.freeze()  # as start_up_done does
    later: list[Callable[[], None]] = []
    freeze = gc_policy.ReplayFreeze()
    freeze.drawn()
    freeze.left(later.append)
    assert gc.get_freeze_count() == 0  # thawed: the screen's cycles can be collected
    gc.disable()  # only the policy may collect the cycle below
    node = _Node()
    node.me = node  # a cycle, as a closed screen's widgets and their parents make
    alive = weakref.ref(node)
    del node
    run_all(later)
    assert gc.get_freeze_count() > 0
    assert alive() is None  # collected before the freeze, not frozen for good


def run_all(later: list[Callable[[], None]]) -> None:
    """Run the callbacks handed to ``later``, and those they hand on, as the app would."""
    while later:
        later.pop(0)()


class _Node:
    me: object


def test_a_replay_never_drawn_leaves_the_freeze_alone() -> None:
    gc.freeze()
    frozen = gc.get_freeze_count()
    later: list[Callable[[], None]] = []
    gc_policy.ReplayFreeze().left(later.append)
    assert gc.get_freeze_count() == frozen and later == []


def test_full_passes_are_rarer_only_while_a_replay_is_shown() -> None:
    """Young and middle collections as they were; the full one FULL_PASS_RARER times rarer
    from the replay's first frame until it goes, and as before afterwards."""
    young, middle, old = before = gc.get_threshold()
    later: list[Callable[[], None]] = []
    freeze = gc_policy.ReplayFreeze()
    assert gc.get_threshold() == before
    freeze.drawn()
    assert gc.get_threshold() == (young, middle, old * gc_policy.FULL_PASS_RARER)
    freeze.left(later.append)
    run_all(later)
    assert gc.get_threshold() == before
    never_drawn = gc_policy.ReplayFreeze()
    never_drawn.left(later.append)
    assert gc.get_threshold() == before
