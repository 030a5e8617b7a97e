"""The live campaign (LiveCampaign): the one object the screens talk to.

Every method builds events from the rules (see :mod:`actions`), appends them to the session
journal (fsynced) and only then folds them into ``live.state`` and returns them. Invalid input
raises a :class:`CampaignError` subclass with a message for the GM, and nothing is written.
"""

from __future__ import annotations

import contextlib
import random
import threading
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from gmscreen.campaign import actions, notes, rulings
from gmscreen.campaign import events as ev
from gmscreen.campaign import undo as undoing
from gmscreen.campaign.bound_check import BoundCheck as BoundCheck  # was defined here
from gmscreen.campaign.bound_check import LiveChecks
from gmscreen.campaign.errors import CampaignError, InvalidAction, WriteFault
from gmscreen.campaign.fields import FieldError, character_from_dict
from gmscreen.campaign.history import SessionHistory
from gmscreen.campaign.journal import SessionLog
from gmscreen.campaign.live_horrors import LiveHorrors
from gmscreen.campaign.live_items import LiveItems
from gmscreen.campaign.live_undo import Entry as Entry  # was defined here
from gmscreen.campaign.live_undo import LiveUndo
from gmscreen.campaign.lock import CampaignLock
from gmscreen.campaign.model import Campaign, Character
from gmscreen.campaign.reducer import ReplayError, apply
from gmscreen.campaign.session_index import list_entries, write_index
from gmscreen.campaign.session_journal import SessionJournal
from gmscreen.campaign.settings_change import settings_saved
from gmscreen.campaign.store import (
    campaign_file,
    sessions_dir,
    update_checkpoint,
)
from gmscreen.campaign.undo import ActionGroup
from gmscreen.rules import dice, madness
from gmscreen.rules.dice import Roll

Listener = Callable[[Sequence[ev.Event]], None]
SNAPSHOT_EVERY = 256


class LiveCampaign(LiveChecks, LiveItems, LiveHorrors, LiveUndo):
    """An open campaign. Obtain one with :func:`~gmscreen.campaign.opening.open_campaign`;
    ``close()`` it when done.

    The madness check methods are :class:`~gmscreen.campaign.bound_check.LiveChecks`', the MERP
    item methods :class:`~gmscreen.campaign.live_items.LiveItems`', the bestiary's
    :class:`~gmscreen.campaign.live_horrors.LiveHorrors`', undo and redo
    :class:`~gmscreen.campaign.live_undo.LiveUndo`'s: inherited, public methods of this class.
    """

    def __init__(
        self,
        folder: Path,
        lock: CampaignLock,
        state: Campaign,
        disk: bytes,
        rng: random.Random,
        clock: Callable[[], datetime],
        checkpoint_every: int,
        notices: list[str],
        history: SessionHistory | None = None,
    ) -> None:
        self.folder = folder
        # The sessions on disk when the campaign was opened: the newest, as recovery read them
        # (``past_sessions``, the log shows them), and every older one when asked for.
        self.history = history or SessionHistory((), ())
        self.past_sessions = self.history.opened
        self.state = state
        self.rng = rng
        self.notices = notices  # things the GM should be told once (recovery, stale lock)
        self.listeners: list[Listener] = []  # called with the new events after each action
        # Told what the GM must know that is no error of an action (a journal written anew, a
        # checkpoint that failed): the screen shows them; with none, they go to ``notices``.
        self.notice_listeners: list[Callable[[str], None]] = []
        # Set by close() when campaign.toml could not be written: what was kept instead.
        self.close_problem: str | None = None
        self._lock = lock
        self._disk = disk  # campaign.toml as last read or written
        self._written: dict[str, Any] | None = None  # the values last written there
        self._clock = clock
        self._checkpoint_every = checkpoint_every
        self._unsaved = 0
        # Set by the screen to run the periodic checkpoint after the frame (Textual's
        # call_after_refresh); None: at once, inside the action. close() checkpoints either way.
        self.defer_checkpoint: Callable[[Callable[[], None]], object] | None = None
        self._checkpoint_queued = False
        self._indexing = threading.Lock()
        self._session = SessionJournal(sessions_dir(folder), state, clock, self._tell)
        self._base = state
        self._log: list[ev.Event] = []
        self._void: set[int] = set()
        self._snapshots: dict[int, Campaign] = {0: state}

    # --- reading ------------------------------------------------------------------------------

    @property
    def events(self) -> list[Entry]:
        return [Entry(e, e.action in self._void) for e in self._log]

    @property
    def session_path(self) -> Path | None:
        return self._session.path

    @property
    def fault(self) -> WriteFault | None:
        """The write that failed last, until one succeeds again: the campaign is read-only
        meanwhile (every action tries to write, and says so if it still cannot)."""
        return self._session.fault

    @property
    def session_start(self) -> Campaign:
        return self._base

    def character(self, character_id: str) -> Character:
        return self.state.character(character_id)

    def roll(self, expression: str) -> Roll:
        """Roll with the live campaign's own random generator."""
        return dice.roll(expression, self.rng)

    # --- madness ------------------------------------------------------------------------------

    def gain(
        self,
        character_id: str,
        preset_key: str | None = None,
        inputs: Mapping[str, int | str] | None = None,
        roll: Roll | None = None,
        adjustment: int = 0,
        happened: str = "",
        group: ActionGroup | None = None,
        *,
        horror: str | None = None,
        players: str = "",
    ) -> ev.Event:
        """One gain from a built-in preset, or from the campaign's horror ``horror`` (its id:
        its rule, asking nothing, and its own first sighting); ``group``: the gain dialog's, so
        its gains to each target are one action; ``players``: what the players are told it was
        (a one-off "Something else": "a nameless dread"), kept in the event."""
        draft = actions.gain(
            self.state,
            character_id,
            preset_key,
            inputs,
            roll,
            adjustment,
            happened,
            horror=horror,
            players=players,
        )
        return self._one(draft, group)

    def gain_all(
        self,
        character_ids: Sequence[str],
        preset_key: str | None = None,
        inputs: Mapping[str, int | str] | None = None,
        happened: str = "",
        *,
        horror: str | None = None,
        players: str = "",
    ) -> list[ev.Event]:
        """One gain without dice (a fixed amount, or one from ``inputs`` or a horror) to several
        characters at once: one action, so one journal line and one undo. Gains with dice roll
        for each character in turn (:meth:`gain`, one action each: each is a key of its own)."""
        return self._commit(
            [
                actions.gain(
                    self.state,
                    cid,
                    preset_key,
                    inputs,
                    None,
                    0,
                    happened,
                    horror=horror,
                    players=players,
                )
                for cid in character_ids
            ]
        )

    # --- the madness check: bound_check.py -----------------------------------------------------

    # --- time ---------------------------------------------------------------------------------

    def advance(
        self, seconds: int, reason: str = "advance", *, confirmed: bool = False
    ) -> list[ev.Event]:
        """Move the game clock on ``seconds``: one action, however many days it passes.

        Across more than ``actions.ASK_ABOVE_DAYS`` midnights it raises
        :class:`actions.LongAdvance` unless ``confirmed`` (the screen asks the GM first).
        """
        return self._commit(
            actions.advance(self.state, seconds, reason, self.rng, confirmed=confirmed)
        )

    def next_round(self) -> list[ev.Event]:
        return self.advance(self.state.settings.round_seconds, "round")

    def end_day(self) -> list[ev.Event]:
        """Advance to the next midnight."""
        return self.advance(madness.DAY - self.state.clock % madness.DAY, "end_day")

    # --- characters, notes, settings ----------------------------------------------------------

    def add_character(
        self, name: str, pow: int, *, id: str | None = None, **values: Any
    ) -> ev.Event:
        """Add a character; ``values`` are plain field values (``chaos=43``, ``player="Ana"``)."""
        raw = {"id": id or actions.unique_id(self.state, name), "name": name, "pow": pow, **values}
        try:
            character = character_from_dict(raw)
        except FieldError as error:
            raise InvalidAction(str(error)).coded_like(error) from None
        return self._one(actions.add_character(self.state, character))

    def add_characters(self, characters: Sequence[Mapping[str, Any]]) -> list[ev.Event]:
        """Several characters at once (plain field values each, as :meth:`add_character`
        takes them, ``name`` and ``pow`` among them): one action, so one undo takes them all
        back. Refused whole if any one is (the message names which)."""
        drafts: list[actions.Draft] = []
        state = self.state
        for n, values in enumerate(characters, start=1):
            raw = {
                "id": values.get("id") or actions.unique_id(state, str(values.get("name"))),
                **values,
            }
            try:
                character = character_from_dict(raw)
                drafts.append(actions.add_character(state, character))
            except (FieldError, InvalidAction) as error:
                raise InvalidAction(f"character {n}: {error}") from None
            state = state.with_character(character)
        return self._commit(drafts)

    def edit_character(self, character_id: str, **values: Any) -> ev.Event | None:
        """Change plain field values (``pow=14``, ``under_care=True``); None if nothing changed."""
        draft = actions.edit_character(self.state, character_id, values)
        return self._one(draft) if draft else None

    def remove_character(self, character_id: str) -> ev.Event:
        return self._one(actions.remove_character(self.state, character_id))

    def note(
        self,
        text: str,
        character_id: str | None = None,
        shared: bool = False,
        kept: bool = False,
    ) -> ev.Event:
        """A note in the journal (line breaks kept); ``shared``: the players may see it (player
        view, their recap); ``kept``: a handout, shared and kept for the players across
        sessions until the GM stops sharing it (:meth:`edit_note` with ``shared=False``)."""
        return self._one(actions.note(self.state, text, character_id, shared, kept))

    def ruling(self, character_id: str, ask: rulings.Ask, reason: str) -> ev.Event:
        """A GM ruling that corrects one character, with a reason (:mod:`rulings`)."""
        return self._one(rulings.ruling(self.state, character_id, ask, reason))

    def edit_note(
        self, seq: int, text: str, shared: bool, kept: bool | None = None
    ) -> ev.Event | None:
        """Rewrite note ``seq``, this session's or a handout of any (None if nothing changed):
        see campaign/notes.py. ``kept`` None keeps a shared note a handout or not as it was;
        not ``shared``, it is no longer one."""
        draft = notes.edit(self.state, self._log, seq, text, shared, kept)
        return self._one(draft) if draft else None

    def remove_note(self, seq: int) -> ev.Event:
        return self._one(notes.remove(self.state, self._log, seq))

    def change_settings(self, **values: Any) -> ev.Event | None:
        """One save of the settings (``name=`` too): one event, None if nothing changed."""
        draft = settings_saved(self.state, values)
        return self._one(draft) if draft else None

    # --- MERP items: live_items.py; undo and redo: live_undo.py -------------------------------

    # --- saving -------------------------------------------------------------------------------

    def checkpoint(self) -> None:
        """Write campaign.toml now (atomically) into the GM's document: comments and layout kept.

        If the GM edited it while the campaign was open, a readable edit is merged and told (see
        ``notice_listeners``); one that cannot be read is refused (:class:`CampaignFileError`,
        the file left as it is). A file the system refuses to write is :class:`WriteFault`; the
        journal has every event either way.
        """
        try:
            written = update_checkpoint(self.folder, self.state, self._disk, self._written)
        except OSError as error:
            raise self._checkpoint_fault(error) from None
        self._disk, self._written = written.data, written.values
        if written.notice is not None:
            self._tell(written.notice)
        self._unsaved = 0

    def _checkpoint_fault(self, error: OSError) -> WriteFault:
        return WriteFault(campaign_file(self.folder), error, self._kept())

    def _kept(self) -> str:
        kept = f"the journal {self.session_path}" if self.session_path else "the journals"
        return (
            f"campaign.toml was not updated; every event is in {kept}, and opening the "
            "campaign again recovers them."
        )

    def _checkpoint_problem(self, error: CampaignError) -> str:
        """What a checkpoint that failed means for the GM (what was kept instead)."""
        return str(error) if isinstance(error, WriteFault) else f"{error}. {self._kept()}"

    def close(self) -> None:
        """Checkpoint, close the journal, bring the session index up to date, release the lock.

        Never raises for a file: a checkpoint that cannot be written leaves ``close_problem``
        saying so and what was kept (the journal, which the next open recovers).
        """
        if not self._lock.held:
            return
        try:
            self.checkpoint()
        except CampaignError as error:
            self.close_problem = self._checkpoint_problem(error)
        finally:
            self._session.close()
            with self._indexing:  # a refresh under way in a worker ends first
                self._refresh_index()
                try:
                    self._lock.release()
                except OSError as error:  # a read-only or vanished folder: the lock file stays
                    lock = self.folder / ".lock"
                    self.close_problem = (self.close_problem or "") + (
                        f" The lock {lock} could not be removed ({error.strerror}): the next "
                        "gmscreen finds it stale and takes it over."
                    )

    def refresh_index(self) -> None:
        """Bring the session index up to date (best effort; a worker may call it): opening
        leaves it to the screen, after the first frame, and close does it again."""
        with self._indexing:
            if self._lock.held:  # only the lock holder writes the index
                self._refresh_index(closing=False)

    def _refresh_index(self, closing: bool = True) -> None:
        # Tonight's journal is summarized from its events only once no action can run: a
        # worker reads it from the file instead (its entry is keyed by the bytes it read).
        header, path, size = self._session.header, self.session_path, self._session.size
        tonight = (
            [SessionLog(path, header, self._log, size=size)] if closing and header and path else []
        )
        known = [*self.history.opened, *tonight]
        # A cache: never a reason to fail closing (a journal that cannot be read is the
        # recovery's to report), and only the lock holder writes it.
        with contextlib.suppress(CampaignError, OSError):
            write_index(list_entries(sessions_dir(self.folder), known))

    def __enter__(self) -> LiveCampaign:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # --- the one way in -----------------------------------------------------------------------

    def _one(self, draft: actions.Draft, group: ActionGroup | None = None) -> ev.Event:
        return self._commit([draft], group)[0]

    def _now(self) -> str:
        return self._clock().isoformat(timespec="milliseconds")

    def _stamp(self, drafts: Sequence[actions.Draft], action: int | None = None) -> list[ev.Event]:
        first = self.state.last_event + 1
        at = self._now()
        return [
            ev.Event(first + n, action or first, at, game, who, data)
            for n, (who, data, game) in enumerate(drafts)
        ]

    def _journal(self, new: list[ev.Event]) -> None:
        """Write one action to the journal, or raise :class:`WriteFault` (nothing recorded)."""
        if not self._lock.held:
            raise CampaignError("this campaign is closed")
        self._session.write(new, self._log)

    def _tell(self, text: str) -> None:
        if not self.notice_listeners:
            self.notices.append(text)
        for listener in list(self.notice_listeners):
            listener(text)

    def _commit(
        self, drafts: Sequence[actions.Draft], group: ActionGroup | None = None
    ) -> list[ev.Event]:
        if not drafts:
            return []
        new = self._stamp(drafts, undoing.joins(group, len(drafts), self._log, self._void))
        state = self.state
        try:
            for event in new:
                state = apply(state, event)
        except ReplayError as error:
            raise InvalidAction(str(error)).coded_like(error) from None
        self._journal(new)
        self._log.extend(new)
        self.state = state
        if group is not None:
            group.action = new[0].action
        self._after(new)
        return new

    def _after(self, new: list[ev.Event]) -> None:
        size = len(self._log)
        if size // SNAPSHOT_EVERY > max(self._snapshots) // SNAPSHOT_EVERY:
            self._snapshots[size] = self.state
        self._unsaved += len(new)
        if self._unsaved >= self._checkpoint_every and not self._checkpoint_queued:
            if self.defer_checkpoint is None:
                self.periodic_checkpoint()
            else:  # after the frame: the key that crossed the threshold is shown first
                self._checkpoint_queued = True
                self.defer_checkpoint(self.periodic_checkpoint)
        for listener in list(self.listeners):
            listener(new)

    def periodic_checkpoint(self) -> None:
        """The checkpoint every ``checkpoint_every`` events; a failure is told, never raised."""
        self._checkpoint_queued = False
        if not self._lock.held or self._unsaved < self._checkpoint_every:
            return  # closed meanwhile (close checkpointed), or already written
        try:
            self.checkpoint()
        except CampaignError as error:  # the action is journaled: done, whatever this says
            self._unsaved = 0  # tried again after as many events more (and on quit)
            self._tell(self._checkpoint_problem(error))
