"""Keys typed ahead of a screen or dialog that opens go to it, in the order typed.

Textual hands each key to the focused widget as it takes it from its queue, but runs an ordinary
binding only once the key has gone through that widget and back up to the app: by then the keys
typed after it have gone to the same widget. A binding that opens a dialog (from a worker, or
even at once) therefore left the keys typed right after it on the screen below, where they were
lost or ran its commands. Here:

* a key that opens something is a *priority* binding: the app runs it as it takes the key, and
  takes no other key until it returns. Its action calls :func:`open_screen`, which first lets
  the keys typed before it be handled (:func:`keys_settled`: a cursor move typed just before
  ``delete`` moves the cursor first), then pushes the screen and returns once it is mounted and
  focused. The keys typed meanwhile wait in the app's queue, then go to the new screen.
* the screens that have such keys run their other bindings as each key reaches them
  (:func:`run_bindings_now`), so that :func:`keys_settled` sees them done.
* a dialog's keys that may close it (enter, esc, r) are priority bindings too, whose action runs
  through :func:`close_in_order`: once the keys typed before are handled, it runs, and if it
  closed the dialog, the app takes the next key only once the callback of whoever opened the
  dialog (:func:`open_screen`) is done. A gain's check, the next check due, opened from that
  callback, so gets the keys typed after the closing key; without one, the screen below does.
* :class:`InOrderInput`, a text box, runs the keys it does not type (tab, enter, the cursor
  moves) as they arrive, and hands on the keys that reach it after the focus has moved on: a
  form filled in at once, tabs and all, gets each field's own text.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import weakref
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace
from typing import Any, Concatenate, ParamSpec, TypeVar

from textual import events
from textual._context import active_message_pump
from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widget import Widget

from gmscreen.tui.widgets.backdrop import KeptBackground
from gmscreen.tui.widgets.text_input import TextInput

R = TypeVar("R")
S = TypeVar("S", bound=Screen[Any])
P = ParamSpec("P")
Done = Callable[[R | None], None] | Callable[[R | None], Awaitable[None]]  # what a screen gives


async def keys_settled(screen: Screen[Any]) -> None:
    """Return once the keys already handed to ``screen`` (its focused widget, then each parent up
    to the screen, as a key bubbles) have been handled there. From the screen's own handler
    (its ``on_key``) they have: they reached it in order, the one it handles now last."""
    if active_message_pump.get(None) is screen:
        return
    node: DOMNode | None = screen.focused or screen
    loop = asyncio.get_running_loop()
    while node is not None:
        done: asyncio.Future[None] = loop.create_future()
        if node.call_later(done.set_result, None):  # queued behind the keys it has
            await done
        if node is screen:
            return
        node = node.parent


def opener(
    action: Callable[Concatenate[S, P], Awaitable[None]],
) -> Callable[Concatenate[S, P], Awaitable[None]]:
    """For the action of a priority binding: the keys typed before its key are handled first
    (it reads the selection, the journal, as they left them)."""

    async def run(screen: S, /, *args: P.args, **kwargs: P.kwargs) -> None:
        await keys_settled(screen)
        await action(screen, *args, **kwargs)

    run.__doc__ = action.__doc__
    return run


CALLBACK_WAIT = 2.0  # seconds close_in_order holds the keys for a dialog's callback, at most

# each screen opened by open_screen: set once the callback it was opened with has run, after it closed
_CALLBACK_DONE: weakref.WeakKeyDictionary[Screen[Any], asyncio.Event] = weakref.WeakKeyDictionary()


async def open_screen(below: Screen[Any], screen: Screen[R], done: Done[R] | None = None) -> None:
    """Open ``screen`` over ``below`` (``done`` gets what it is dismissed with), from a priority
    binding: the keys typed before are handled first, and those typed after go to ``screen``.

    ``done`` runs on ``below`` (not on the app, which :func:`close_in_order` keeps waiting for it);
    what it opens with this function gets the keys typed after the one that closed ``screen``."""
    await keys_settled(below)
    finished = _CALLBACK_DONE[screen] = asyncio.Event()

    async def callback(result: R | None) -> None:
        try:
            if done is not None:
                outcome = done(result)
                if inspect.isawaitable(outcome):
                    await outcome
        finally:
            finished.set()

    token = active_message_pump.set(below)  # push_screen runs the callback on the caller's pump
    try:
        mounted = below.app.push_screen(screen, callback)
    finally:
        active_message_pump.reset(token)
    await mounted
    if screen.focused is None:  # as Textual would, a moment later: the keys need it now
        auto = screen.AUTO_FOCUS if screen.AUTO_FOCUS is not None else screen.app.AUTO_FOCUS
        for widget in screen.query(auto) if auto else ():
            if widget.focusable:
                screen.set_focus(widget)
                break


async def close_in_order(screen: Screen[Any], action: Callable[[], object]) -> None:
    """For a dialog's priority binding (its ``_action_<name>``, which Textual runs rather than
    ``action_<name>``) whose ``action`` may close it: the keys typed before are handled first;
    if it closed the dialog, this returns (and the app takes the next key) once the callback it
    was opened with (:func:`open_screen`) is done: the keys typed after go to what that opens."""
    await keys_settled(screen)
    if screen.app.screen is not screen:
        return
    action()
    finished = _CALLBACK_DONE.get(screen)
    if finished is not None and screen not in screen.app.screen_stack:
        # Bounded: a callback that waited on something slow (or on the GM) must not leave the
        # app taking no key at all; past the bound the keys go on as Textual hands them out.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(finished.wait(), CALLBACK_WAIT)


def priority(bindings: Iterable[Binding]) -> list[Binding]:
    """The same bindings, run by the app as it takes their key (for :class:`InOrderDialog`)."""
    return [replace(binding, priority=True) for binding in bindings]


class InOrderDialog(KeptBackground[R]):
    """A dialog whose roll, confirm and cancel keys may close it: given as :func:`priority`
    bindings, they run through :func:`close_in_order` (the keys typed after go to what opens
    next). Its ``action_<name>`` methods do the work. (Its dimmed background is drawn once per
    change of the screen below: see KeptBackground.)"""

    def action_roll(self) -> None:
        """Roll the die awaited, if any."""

    def action_confirm(self) -> None:
        """Go on (and perhaps close)."""

    def action_cancel(self) -> None:
        """Close without going on."""

    async def _action_roll(self) -> None:
        await close_in_order(self, self.action_roll)

    async def _action_confirm(self) -> None:
        await close_in_order(self, self.action_confirm)

    async def _action_cancel(self) -> None:
        await close_in_order(self, self.action_cancel)


def pass_on(screen: Screen[Any], event: events.Key) -> bool:
    """A key that reaches ``screen`` once another is shown (typed right after the key that closed
    it, or that opened one from its ``on_key``) goes to the one shown, as if typed now."""
    if screen.app.screen is screen:
        return False
    event.stop()
    event.prevent_default()
    screen.app.post_message(events.Key(event.key, event.character))
    return True


async def run_bindings_now(screen: Screen[Any], event: events.Key) -> bool:
    """Run the binding ``event`` has on ``screen`` (its focused widget's, its own or the app's)
    as the key reaches the screen, rather than once it has gone up to the app. A key that
    reaches it once closed goes on (:func:`pass_on`)."""
    if pass_on(screen, event):
        return True
    if screen.app.screen is not screen:
        return False
    for namespace, keys in screen._modal_binding_chain:
        for binding in keys.key_to_bindings.get(event.key, ()):
            if not binding.priority and await screen.app.run_action(binding.action, namespace):
                event.stop()
                event.prevent_default()
                return True
    return False


class InOrderInput(TextInput):
    """A text box that keeps the keys typed ahead in order (see the module's docstring)."""

    async def on_key(self, event: events.Key) -> None:
        if pass_on(self.screen, event):
            return
        focused = self.screen.focused
        if focused is not self and isinstance(focused, Widget):
            event.stop()
            event.prevent_default()
            key = events.Key(event.key, event.character)
            key._set_forwarded()  # (not a key from the terminal: the app would hand it out again)
            focused.post_message(key)
            return
        if not self.check_consume_key(event.key, event.character):
            await run_bindings_now(self.screen, event)
