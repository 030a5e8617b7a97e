"""Hypothesis state machine for MERP rolls left half way, resumed and renamed (issue #16).

At every step: the live state equals the refold of the session journal and what a fresh reader
recovers from disk; a table's roll count is the number of paid rolls (fresh, abandoned counted,
resumed from an uncounted one) and never passes the limit; every roll left half way keeps its
dice; a renamed item reads by its name in both languages.
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
from tests.hostile_text import names

from gmscreen.campaign import InvalidAction, LiveCampaign, open_campaign
from gmscreen.campaign.actions import RollNotAllowed
from gmscreen.campaign.item_names import item_name
from gmscreen.campaign.model import Campaign, Character, MerpProfile, Settings
from gmscreen.campaign.reducer import fold
from gmscreen.campaign.store import load, write_checkpoint
from gmscreen.rules import merp
from gmscreen.rules.madness import MadnessState
from gmscreen.rules.tables import Resolution, load_tables

FIXED = datetime(2024, 5, 1, 20, 0, tzinfo=UTC)
TABLES = load_tables()
WHO = "hador"
LIMITS = merp.COSTS["non_spell_user"]


def _rows_with_more(table: str) -> list[int]:
    """The d100s of ``table`` whose entry rolls more: a roll can stop after them."""
    out = []
    for row in TABLES[table].rows:
        resolution = Resolution(TABLES, table)
        resolution.supply_typed(row.lo)
        if not resolution.done:
            out.append(row.lo)
    return out


HALF_WAY = {table: _rows_with_more(table) for table in merp.TOP_TABLES}


class ItemMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.root = Path(tempfile.mkdtemp(prefix="gmscreen-items-stateful-"))
        profile = MerpProfile("non_spell_user", "Dúnadan", points_total=9)
        hador = Character(WHO, "Hador", MadnessState(pow=10), merp=profile)
        campaign = Campaign("T", Settings(modules=("merp-items",)), characters=(hador,))
        write_checkpoint(self.root, campaign)
        self.live: LiveCampaign = open_campaign(
            self.root, rng=random.Random(7), clock=lambda: FIXED, checkpoint_every=3
        )
        self.paid = {table: 0 for table in merp.TOP_TABLES}  # the oracle: rolls paid per table

    def teardown(self) -> None:
        self.live.close()
        shutil.rmtree(self.root, ignore_errors=True)

    @property
    def hador(self) -> Character:
        return self.live.state.character(WHO)

    def _allowed(self, table: str) -> bool:
        return self.paid[table] < LIMITS[table].max_rolls

    @rule(table=st.sampled_from(merp.TOP_TABLES), n=st.integers(0, 50), counted=st.booleans())
    def leave_half_way(self, table: str, n: int, counted: bool) -> None:
        left = Resolution(TABLES, table)
        left.supply_typed(HALF_WAY[table][n % len(HALF_WAY[table])])
        try:
            self.live.item_abandoned(WHO, table, "half", left.to_dict(), counted=counted)
        except RollNotAllowed:
            assert counted and not self._allowed(table)
            return
        self.paid[table] += counted

    @precondition(lambda self: bool(self.hador.abandoned))
    @rule(n=st.integers(0, 10), seed=st.integers(0, 1000), again=st.booleans())
    def resume(self, n: int, seed: int, again: bool) -> None:
        waiting = self.hador.abandoned[n % len(self.hador.abandoned)]
        resolution = Resolution.from_dict(TABLES, waiting.tree)
        first = resolution.inputs[0]
        counted = waiting.tree.get("counted") is not False
        if again:  # one die more, then left again: paid once at most
            resolution.auto(random.Random(seed), choose=lambda pending: 0)
            if resolution.done:
                return
            self.live.item_abandoned(
                WHO, waiting.table, "half", resolution.to_dict(), resumes=waiting.id
            )
            self.paid[waiting.table] += not counted
            return
        resolution.auto(random.Random(seed), choose=lambda pending: 0)
        try:
            self.live.item_resumed(WHO, waiting.id, "done", resolution.to_dict())
        except RollNotAllowed:
            assert not counted and not self._allowed(waiting.table)
            return
        self.paid[waiting.table] += not counted
        kept = self.live.item_kept(WHO, waiting.id)
        assert kept.data.item["tree"]["inputs"][0]["roll"] == first.to_dict()  # type: ignore[union-attr]

    @precondition(lambda self: bool(self.hador.inventory))
    @rule(n=st.integers(0, 10), name=st.one_of(st.just(""), names))
    def rename(self, n: int, name: str) -> None:
        item = self.hador.inventory[n % len(self.hador.inventory)]
        try:
            self.live.item_renamed(WHO, item.id, name)
        except InvalidAction:
            assert "\n" in name or "\r" in name or len(name.strip()) > 200
            return
        renamed = self.hador.item(item.id)
        assert renamed is not None and renamed.name == name.strip()
        if renamed.name:
            for lang in ("en", "es"):
                assert item_name(renamed, lang) == renamed.name

    @rule()
    def reopen(self) -> None:
        before = self.live.state
        self.live.close()
        self.live = open_campaign(
            self.root, rng=random.Random(8), clock=lambda: FIXED, checkpoint_every=3
        )
        assert self.live.state == before

    @invariant()
    def rolls_are_the_rolls_paid(self) -> None:
        profile = self.hador.merp
        assert profile is not None
        for table in merp.TOP_TABLES:
            assert profile.rolls.get(table, 0) == self.paid[table] <= LIMITS[table].max_rolls
        spent = sum(self.paid[t] * LIMITS[t].points for t in merp.TOP_TABLES)
        assert profile.points_spent == spent

    @invariant()
    def every_roll_left_keeps_its_dice(self) -> None:
        for item in self.hador.abandoned:
            resolution = Resolution.from_dict(TABLES, item.tree)
            assert resolution.inputs and not resolution.done

    @precondition(lambda self: bool(self.live.events))
    @invariant()
    def live_equals_refold_and_disk(self) -> None:
        events = [entry.event for entry in self.live.events]
        assert fold(self.live.session_start, events) == self.live.state
        assert load(self.root).state == self.live.state


ItemMachine.TestCase.settings = settings(
    max_examples=15,
    stateful_step_count=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_item_machine = ItemMachine.TestCase
