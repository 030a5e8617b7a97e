"""Hypothesis state machine: gains, checks, time, the campaign's own horrors and handouts, undo,
redo, checkpoints and reopening.

Undo reaches back past a reopen: the oracle's (before, after) pairs carry over every reopen.

At every step the live state equals the refold of the session journal, and equals what a fresh
reader recovers from disk (checkpoint + journal replay); reopening gives the same state back.
"""

from __future__ import annotations

import random
import shutil
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from msgspec.structs import replace

from gmscreen.campaign import InvalidAction, LiveCampaign, open_campaign
from gmscreen.campaign.model import Campaign, Character
from gmscreen.campaign.reducer import fold
from gmscreen.campaign.store import load, write_checkpoint
from gmscreen.rules import dice
from gmscreen.rules.madness import MadnessState

IDS = ("artinar", "elric", "moonglum")
HORRORS = ("Arioch", "Mabelode", "Herald of Arioch", "Ариох")
RULES = ("chaos_god", "demon", "amount")
FIXED = datetime(2024, 5, 1, 20, 0, tzinfo=UTC)


def _start(folder: Path) -> None:
    chars = (
        Character("artinar", "Artinar", MadnessState(pow=13, chaos=43, balance=32, law=47)),
        Character("elric", "Elric", MadnessState(pow=18, chaos=70, balance=10, law=5)),
        Character(
            "moonglum", "Moonglum", MadnessState(pow=9, chaos=5, balance=50, law=8, under_care=True)
        ),
    )
    write_checkpoint(folder, Campaign(name="Stateful", characters=chars))


class TableMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.root = Path(tempfile.mkdtemp(prefix="gmscreen-stateful-"))
        self.folder = self.root / "c"
        self.folder.mkdir()
        _start(self.folder)
        self.live: LiveCampaign = open_campaign(
            self.folder, rng=random.Random(7), clock=lambda: FIXED, checkpoint_every=5
        )
        # An oracle for undo and redo that does not use the journal: (before, after) per action.
        self.done: list[tuple[Campaign, Campaign]] = []
        self.undone: list[tuple[Campaign, Campaign]] = []

    def _acted(self, before: Campaign) -> None:
        if self.live.state.last_event != before.last_event:
            self.done.append((before, self.live.state))
            self.undone.clear()

    def teardown(self) -> None:
        self.live.close()
        shutil.rmtree(self.root, ignore_errors=True)

    @rule(
        who=st.sampled_from(IDS),
        preset=st.sampled_from(["friend_dies", "demon", "elemental", "chaos_god", "custom"]),
        number=st.integers(0, 40),
        die=st.integers(1, 6),
    )
    def gain(self, who: str, preset: str, number: int, die: int) -> None:
        before = self.live.state
        self._gain(who, preset, number, die)
        self._acted(before)

    def _gain(self, who: str, preset: str, number: int, die: int) -> None:
        if preset == "friend_dies":
            self.live.gain(who, preset, roll=dice.typed("1d6", die))
        elif preset == "demon":
            self.live.gain(who, preset, {"pow": number})
        elif preset == "custom":
            self.live.gain(who, preset, {"amount": number})
        else:
            self.live.gain(who, preset)

    # --- the campaign's own horrors and the handouts ---------------------------------------------

    @rule(name=st.sampled_from(HORRORS), how=st.sampled_from(RULES), number=st.integers(0, 40))
    def add_horror(self, name: str, how: str, number: int) -> None:
        before = self.live.state
        try:
            if how == "amount":
                self.live.add_horror(name, amount=number, players=f"dread {number}")
            else:
                inputs = {"pow": number} if how == "demon" else None
                self.live.add_horror(name, preset=how, inputs=inputs)
        except InvalidAction:  # the name is taken
            assert any(h.name == name for h in before.horrors)
            return
        self._acted(before)

    @rule(pick=st.integers(0, 9), number=st.integers(0, 40), rename=st.booleans())
    def edit_horror(self, pick: int, number: int, rename: bool) -> None:
        horrors = self.live.state.horrors
        if not horrors:
            return
        horror = horrors[pick % len(horrors)]
        before = self.live.state
        values: dict[str, object] = {"players": f"seen {number}"}
        if rename:
            values = {"amount": number}
        if self.live.edit_horror(horror.id, **values) is not None:
            self._acted(before)

    @rule(pick=st.integers(0, 9))
    def remove_horror(self, pick: int) -> None:
        horrors = self.live.state.horrors
        if horrors:
            before = self.live.state
            self.live.remove_horror(horrors[pick % len(horrors)].id)
            self._acted(before)

    @rule(who=st.sampled_from(IDS), pick=st.integers(0, 9))
    def gain_from_horror(self, who: str, pick: int) -> None:
        horrors = self.live.state.horrors
        if horrors:
            before = self.live.state
            self.live.gain(who, horror=horrors[pick % len(horrors)].id)
            self._acted(before)

    @rule(text=st.sampled_from(["a map\nof the city", "a coin of bone", "x"]), kept=st.booleans())
    def note(self, text: str, kept: bool) -> None:
        before = self.live.state
        self.live.note(text, shared=True, kept=kept)
        self._acted(before)

    @rule(pick=st.integers(0, 9), shared=st.booleans(), keep=st.booleans())
    def rewrite_handout(self, pick: int, shared: bool, keep: bool) -> None:
        handouts = self.live.state.handouts
        if handouts:
            handout = handouts[pick % len(handouts)]
            before = self.live.state
            if self.live.edit_note(handout.id, handout.text + "!", shared, keep) is not None:
                self._acted(before)

    @rule(who=st.sampled_from(IDS), d100=st.integers(1, 100))
    def check_roll(self, who: str, d100: int) -> None:
        check = self.live.start_check(who)
        if check.phase == "roll":
            before = self.live.state
            check.roll(dice.typed("d100", d100))
            self._acted(before)
        else:
            try:
                self.live.check_roll(who, dice.typed("d100", d100))
            except InvalidAction:
                return
            raise AssertionError("a check roll that was not due was accepted")

    @rule(who=st.sampled_from(IDS), d6=st.integers(1, 6))
    def check_kind(self, who: str, d6: int) -> None:
        if self.live.start_check(who).phase == "kind":
            before = self.live.state
            self.live.check_kind(who, dice.typed("1d6", d6))
            self._acted(before)
            assert self.live.start_check(who).phase == "done"

    @rule(seconds=st.sampled_from([12, 60, 600, 3600, 20_000, 86_400, 3 * 86_400]))
    def advance(self, seconds: int) -> None:
        before = self.live.state
        self.live.advance(seconds)
        self._acted(before)
        assert self.live.state.clock == before.clock + seconds

    @rule()
    def end_day(self) -> None:
        before = self.live.state
        self.live.end_day()
        self._acted(before)
        assert self.live.state.clock % 86_400 == 0

    @rule()
    def undo(self) -> None:
        could = self.live.can_undo()
        assert could == bool(self.done)
        undone = self.live.undo()
        assert (undone is not None) == could
        if undone is not None:
            pair = self.done.pop()
            self.undone.append(pair)
            assert _without_seq(self.live.state) == _without_seq(pair[0])
            assert self.live.can_redo()

    @rule()
    def redo(self) -> None:
        could = self.live.can_redo()
        assert could == bool(self.undone)
        assert (self.live.redo() is not None) == could
        if could:
            pair = self.undone.pop()
            self.done.append(pair)
            assert _without_seq(self.live.state) == _without_seq(pair[1])

    @rule()
    def checkpoint(self) -> None:
        self.live.checkpoint()

    @rule()
    def reopen(self) -> None:
        before = self.live.state
        self.live.close()
        self.live = open_campaign(
            self.folder, rng=random.Random(8), clock=lambda: FIXED, checkpoint_every=5
        )
        assert self.live.state == before
        # Undo reaches back into the sessions before (the oracle's actions stay undoable);
        # redo does not: what the last session undid stays undone.
        self.undone.clear()
        assert self.live.can_undo() == bool(self.done)
        assert not self.live.can_redo()

    @precondition(lambda self: bool(self.live.events))
    @invariant()
    def live_equals_refold(self) -> None:
        events = [entry.event for entry in self.live.events]
        assert fold(self.live.session_start, events) == self.live.state

    @invariant()
    def live_equals_disk(self) -> None:
        assert load(self.folder).state == self.live.state

    @invariant()
    def madness_never_negative(self) -> None:
        for c in self.live.state.characters:
            assert c.sanity.madness >= 0


def _without_seq(state: Campaign) -> Campaign:
    return replace(state, last_event=0)


TableMachine.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_table_machine = TableMachine.TestCase
