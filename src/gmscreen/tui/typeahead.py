"""Keys typed ahead of a screen or dialog that opens go to it, in the order typed.

Textual's app takes each key from its queue, runs its *priority* bindings at once, and otherwise
hands the key to the focused widget; from there it goes up to the screen and the app, and the
ordinary bindings run only once it is back at the app, after the keys typed later have been
handed out too. A key that opened a dialog as an ordinary binding therefore left the keys typed
right after it on the screen below, where they were lost or ran its commands. The recipe, with
Textual's public API only:

1. **Openers are priority bindings.** The command of a key that opens a screen says so
   (``opens`` in :mod:`gmscreen.tui.commands`), which makes its binding a priority one: the app
   runs it as it takes the key and takes no other key until it returns. Its action is marked
   :func:`opener`. The action awaits
   :func:`open_screen`, which first lets the keys already handed to the screen below be handled
   (:func:`keys_settled`: a cursor move typed just before ``delete`` moves the cursor first),
   then pushes the screen and returns once it is mounted and focused. The keys typed meanwhile
   waited in the app's queue: they go to the new screen.
2. **Every other binding runs as its key reaches the screen** (:func:`run_binding_now`, from the
   screen's ``on_key``), so that :func:`keys_settled` sees it done, and a key typed before the
   opener acts before it. It is the one way here to run a key's binding now.
3. **A dialog's closing keys are priority bindings too** (:class:`InOrderDialog`, whose
   ``action_roll``/``action_confirm``/``action_cancel`` go through :func:`close_in_order`). The
   dialog was pushed by the app (step 1), and Textual runs a dialog's result callback on whoever
   pushed it, right after the message being handled (``call_next``): so the callback runs before
   the app takes the key typed after the closing one, and what it opens (a gain's check, the
   next check due) gets that key. A callback that awaits runs as a worker, and the app waits
   for it at most :data:`CALLBACK_WAIT`, so a slow one cannot stop the app taking keys.
4. **A key that reaches a screen no longer shown, or a text box that has lost the focus**
   (typed right after the key that moved it on) goes back to the app as if typed now
   (:func:`pass_on`), and so to what is shown or focused now. :class:`InOrderInput` is a text box
   that runs its tab, enter and cursor keys as they arrive, so a form typed at once, tabs and
   all, gets each field's own text.

A screen may instead run *every* key as it arrives, priority bindings none (the item tables):
what a key opens then opens from the screen's ``on_key``, and the keys typed after it reach the
screen after that and go on by step 4, in order. Nothing can overtake them there, as a priority
binding would (the app runs it while the keys before it are still on their way back).

No private name of Textual is used.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any, Concatenate, ParamSpec, TypeVar

from textual import events
from textual.actions import parse
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widget import Widget

from gmscreen.tui.widgets.text_input import TextInput

R = TypeVar("R")
S = TypeVar("S", bound=Screen[Any])
P = ParamSpec("P")
Done = Callable[[R | None], None] | Callable[[R | None], Awaitable[None]]  # what a screen gives

CALLBACK_WAIT = 2.0  # seconds the app holds the keys for a dialog's awaiting callback, at most

# The screen whose own message queue runs the code now, when that code is ours: a binding run
# by run_binding_now from its on_key, or a result callback it asked for. Waiting for that
# screen's queue to empty from there would wait for ever (it is the one running), and the keys
# it was handed before have been handled already: they reached it first, in order.
_RUNNING_ON: ContextVar[Screen[Any] | None] = ContextVar("gmscreen_running_on", default=None)


async def keys_settled(screen: Screen[Any]) -> None:
    """Return once the keys already handed to ``screen`` have been handled there.

    The app hands a key to the widget focused as it takes it, and the key then goes up from
    parent to parent to the screen. The focus may have moved since (a roll moves it from the
    rows to its result), so every widget that can take the focus is waited for, then their
    parents, level by level, and the screen last: a key handled by a widget is in its parent's
    queue before the wait reaches the parent."""
    if _RUNNING_ON.get() is screen:
        return
    level: set[DOMNode] = {w for w in screen.walk_children(Widget) if w.can_focus}
    while level:
        await asyncio.gather(*(_drained(node) for node in level))
        level = {n.parent for n in level if n.parent is not None and n.parent is not screen}
    await _drained(screen)


async def _drained(node: DOMNode) -> None:
    """Return once ``node`` has handled the messages it has now."""
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def drained() -> None:
        # A Python function, not done.set_result: Textual reads a callback's signature to call
        # it, and a built-in method's is parsed from its text each time (~0.2 ms at load; ten
        # of them, ~2 ms CPU, each time the gain picker opened over the GM's screen).
        done.set_result(None)

    if node.call_later(drained):  # queued behind the keys it has
        await done


def opener(
    action: Callable[Concatenate[S, P], Awaitable[None]],
) -> Callable[Concatenate[S, P], Awaitable[None]]:
    """Mark the action of a key that opens a screen (a priority binding: its command ``opens``):
    the keys typed before its key are handled first (it reads the selection, the journal, as
    they left them)."""

    async def run(screen: S, /, *args: P.args, **kwargs: P.kwargs) -> None:
        await keys_settled(screen)
        if not screen.is_active:
            # A key typed before closed the screen ("escape delete" in the inventory): its
            # action would act on a screen the GM has left (remove an item of a closed
            # inventory), so the key does nothing.
            return
        await action(screen, *args, **kwargs)

    run.__doc__ = action.__doc__
    _OPENERS.add(run)
    return run


_OPENERS: set[Callable[..., Awaitable[None]]] = set()  # the actions marked @opener


def is_opener(kind: type[DOMNode], action: str) -> bool:
    """Whether ``action`` (a binding's, on a ``kind`` of screen) is marked :func:`opener`."""
    _, name, _ = parse(action)
    return getattr(kind, f"action_{name}", None) in _OPENERS


def _result_callback(
    below: Screen[Any], done: Done[R] | None, on_screen: Screen[Any] | None
) -> Callable[[R | None], Awaitable[None]] | None:
    """What :func:`open_screen` gives Textual as the dialog's result callback. Textual runs it
    on whoever pushed the dialog: the app (``on_screen`` is None) or ``on_screen``'s queue."""
    if done is None:
        return None

    async def callback(result: R | None) -> None:
        token = _RUNNING_ON.set(on_screen)
        try:
            outcome = done(result)
            if not inspect.isawaitable(outcome):
                return
            if on_screen is not None:  # only that screen waits: the app goes on taking keys
                await outcome
                return
        finally:
            _RUNNING_ON.reset(token)
        # On the app, which takes no key meanwhile: what the callback opens gets the next one.
        # Bounded: a callback that waits on something slow (or on the GM) must not leave the
        # app taking no key at all; past the bound the keys go on as Textual hands them out.
        finished = asyncio.Event()

        async def run(work: Awaitable[None]) -> None:
            try:
                await work
            finally:
                finished.set()

        below.run_worker(run(outcome), exit_on_error=True)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(finished.wait(), CALLBACK_WAIT)

    return callback


async def open_screen(below: Screen[Any], screen: Screen[R], done: Done[R] | None = None) -> None:
    """Open ``screen`` over ``below`` (``done`` gets what it is dismissed with): the keys typed
    before are handled first, and those typed after go to ``screen``. Call it from an
    :func:`opener`, or from ``done`` of a screen opened with it (the next dialog of a chain)."""
    await keys_settled(below)
    on_screen = _RUNNING_ON.get()
    await below.app.push_screen(screen, _result_callback(below, done, on_screen))
    if screen.focused is None:  # as Textual would, a moment later: the keys need it now
        auto = screen.AUTO_FOCUS if screen.AUTO_FOCUS is not None else screen.app.AUTO_FOCUS
        for widget in screen.query(auto) if auto else ():
            if widget.focusable:
                screen.set_focus(widget)
                break


async def close_in_order(screen: Screen[Any], action: Callable[[], object]) -> None:
    """For a dialog's priority binding whose ``action`` may close it: the keys typed before are
    handled first, then ``action`` runs (if the dialog is still the one shown). Its result
    callback then runs before the app takes the next key (see the module's docstring)."""
    await keys_settled(screen)
    if screen.is_active:
        action()


def dismiss_once(screen: Screen[R], result: R | None) -> None:
    """Dismiss ``screen`` with ``result`` if it is still the one shown: two closing keys typed at
    once (enter then esc, y then n) close it but once, and never the screen below."""
    if screen.is_active:
        screen.dismiss(result)


class InOrderDialog(ModalScreen[R]):
    """A dialog whose roll, confirm and cancel keys may close it: given as priority bindings,
    its ``action_roll``/``action_confirm``/``action_cancel`` run them through
    :func:`close_in_order` (the keys typed after go to what opens next). Subclasses do the work
    in :meth:`roll`, :meth:`confirm` and :meth:`cancel`, and close with :meth:`close`."""

    def roll(self) -> None:
        """Roll the die awaited, if any."""

    def confirm(self) -> None:
        """Go on (and perhaps close)."""

    def cancel(self) -> None:
        """Close without going on."""

    def close(self, result: R | None) -> None:
        dismiss_once(self, result)

    async def action_roll(self) -> None:
        await close_in_order(self, self.roll)

    async def action_confirm(self) -> None:
        await close_in_order(self, self.confirm)

    async def action_cancel(self) -> None:
        await close_in_order(self, self.cancel)


def pass_on(node: Widget, event: events.Key) -> bool:
    """A key that reaches ``node`` once it is no longer where the keys go (its screen no longer
    shown, or, for a widget that can take the focus, the focus moved on) goes to the app again,
    as if typed now, and so to what is shown and focused now."""
    if isinstance(node, Screen):
        moved_on = not node.is_active
    else:
        moved_on = not node.screen.is_active or node.app.focused is not node
    if not moved_on:
        return False
    event.stop()
    event.prevent_default()
    node.app.post_message(events.Key(event.key, event.character))
    return True


async def run_binding_now(screen: Screen[Any], event: events.Key) -> bool:
    """Run the binding ``event`` has on ``screen`` now (its focused widget's, its own or the
    app's, as ``active_bindings`` resolves it, remapped keys too), as the key reaches the screen,
    rather than once it has gone up to the app. A key that reaches it once another screen is
    shown goes on (:func:`pass_on`). Call it from the screen's ``on_key``."""
    if pass_on(screen, event):
        return True
    active = screen.active_bindings.get(event.key)
    if active is None or not active.enabled:
        return False
    token = _RUNNING_ON.set(screen)
    try:
        ran = await screen.app.run_action(active.binding.action, active.node)
    finally:
        _RUNNING_ON.reset(token)
    if ran:
        event.stop()
        event.prevent_default()
    return ran


class InOrderInput(TextInput):
    """A text box that keeps the keys typed ahead in order (see the module's docstring)."""

    async def on_key(self, event: events.Key) -> None:
        if pass_on(self, event):
            return
        if not self.check_consume_key(event.key, event.character):
            await run_binding_now(self.screen, event)
