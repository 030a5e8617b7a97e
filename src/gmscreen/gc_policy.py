"""When the cyclic garbage collector runs: gmscreen's one process-wide policy.

gmscreen makes tens of thousands of objects that live on (modules, Textual's styles, the
campaign and its widgets at start-up; the events of a journal it reads; a replayed session's
states and lines). The collector, started by counts of new objects, would walk them again and
again for nothing. Reference counting frees everything that is not in a cycle meanwhile.

Three moments, each with documented :mod:`gc` calls only (``disable``/``enable``,
``freeze``/``unfreeze``, ``collect``, ``set_threshold``); no collection is run by hand on the
key path.

- **Start-up** (``gmscreen`` and ``gmscreen replay``): :func:`paused` around the imports and the
  opening, :func:`start_up_done` just before the app runs: what start-up made is frozen (later
  collections skip it) and the collector comes back once the first frame is on the screen,
  with full passes ten times rarer than CPython's default.
- **Reading a journal**: :func:`paused` (JSON makes no cycles).
- **A replay screen**: one :class:`ReplayFreeze`: the session is frozen once it is drawn and
  full passes are rarer while it is shown; thawed and collected when the screen goes (its
  widgets hold their parents: cycles).

No Textual here: the campaign layer uses :func:`paused` too.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager

FULL_PASS_RARER = 100  # full passes that much rarer while a replay is shown (ReplayFreeze)
PLAY_FULL_PASS = 100  # middle passes between two full ones during play (CPython's default: 10)


@contextmanager
def paused() -> Iterator[None]:
    """No cyclic collection inside; the collector as it was afterwards (also on an error).

    Process-wide, so other threads' cycles wait too: keep it to work that makes many objects
    and no cycles (imports and opening, a journal's parse)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def start_up_done(when_first_frame: Callable[[Callable[[], None]], None]) -> None:
    """Call just before the app runs: start-up's objects frozen for good, and the collector
    (paused by :func:`paused`) back on once the first frame is on the screen.

    The first frame is start-up too: with the collector on, some thirty young collections of
    the objects it makes ran inside it (5-8 ms). ``when_first_frame`` schedules a callback for
    then (``BaseApp.when_ready``); if the first frame never comes, :func:`paused` turns the
    collector back on when the command ends."""
    gc.freeze()
    when_first_frame(first_frame_drawn)


def first_frame_drawn() -> None:
    """The first frame is on the screen: what the app made to draw it (the GM's screen: its
    widgets, their styles and drawn lines, living as long as the app) is frozen out of the
    collector's way like the rest of start-up, and the collector runs again for play. Left in,
    every full pass walked them again: over 200 characters a full pass took 60-80 ms, and one
    came with every second gain picker opened (benchmarks/bench_tui.py).

    Full passes are made rarer for play too (:data:`PLAY_FULL_PASS`): what they walk then is
    the evening's objects, nearly all alive (its events, log lines, the kept gain picker), and
    over 200 characters each one still took 12-49 ms, six in twenty gains, each inside a key's
    frame; young and middle passes, which free the cycles a frame leaves, stay as they are."""
    gc.freeze()
    young, middle, old = gc.get_threshold()
    gc.set_threshold(young, middle, max(old, PLAY_FULL_PASS))
    gc.enable()


class ReplayFreeze:
    """A replay screen's one freeze: a session (events, cached states, log lines, the widgets'
    render caches once drawn) lives as long as the screen, and left in the collector's way made
    each full pass stall a frame (8-25 ms on a 10,000-event session, ~100 ms before frozen).

    :meth:`drawn` once the screen's first frame is on the screen; :meth:`left` when it goes:
    everything is thawed so the screen's cycles can be collected, and what was frozen before
    (start-up, see :func:`start_up_done`) is frozen again once they are."""

    def __init__(self) -> None:
        self._frozen_before = gc.get_freeze_count() > 0
        self._state = "shown"  # -> "frozen" -> "left"
        self._threshold: tuple[int, int, int] | None = None

    def drawn(self) -> None:
        if self._state != "shown":  # never after left(): that freeze would last for good
            return
        gc.freeze()
        self._state = "frozen"
        # A jump's frame leaves thousands of young objects (a Strip alone holds seven little
        # caches), so full passes came every ~50 jumps, inside a frame, 5-60 ms each even with
        # the session frozen (bench_replay): rarer while the replay is shown, as they were
        # once it goes. Young and middle passes stay as they are (~1 ms, in the frame).
        young, middle, old = self._threshold = gc.get_threshold()
        gc.set_threshold(young, middle, old * FULL_PASS_RARER)

    def left(self, later: Callable[[Callable[[], None]], object]) -> None:
        """``later`` runs a callback once the messages already queued are handled
        (``App.call_later``). Called from the screen's unmount."""
        was_frozen, self._state = self._state == "frozen", "left"
        if self._threshold is not None:
            gc.set_threshold(*self._threshold)
            self._threshold = None
        if not was_frozen:
            return
        gc.unfreeze()
        if self._frozen_before:
            # Collected while the screen is still referenced, its objects would be frozen
            # again with the rest, for good. The first callback's message is sent by the
            # screen itself (and Textual is still taking it down meanwhile); from the second
            # one on, nothing holds it.
            def next_message() -> None:
                later(_collect_and_freeze)

            later(next_message)


def _collect_and_freeze() -> None:
    gc.collect()
    gc.freeze()
