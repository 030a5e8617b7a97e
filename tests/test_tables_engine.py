"""The nested roll engine on the MERP tables: sub-rolls, modifiers, choices, step-wise answers."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gmscreen.rules.dice import DiceError, Roll, picked
from gmscreen.rules.tables import (
    ChoiceOption,
    Node,
    PendingChoice,
    PendingDie,
    Resolution,
    load_tables,
    roll_table,
)
from gmscreen.rules.tables_render import render_tree

TABLES = load_tables()


def _resolve(table: str, top: int, choices: list[str], seed: int = 7) -> Resolution:
    """Force the top roll, roll the rest, and settle choices by option key, in order."""
    resolution = Resolution(TABLES, table)
    resolution.supply_typed(top)
    rng = random.Random(seed)
    resolution.auto(rng)
    keys = list(choices)
    while isinstance(resolution.pending, PendingChoice):
        wanted = keys.pop(0)
        index = [o.key for o in resolution.pending.options].index(wanted)
        resolution.choose(index)
        resolution.auto(rng)
    assert resolution.done
    assert not keys, "unused choices"
    return resolution


def _subtables(node: Node) -> list[tuple[str, int]]:
    return [(c.table, c.modifier) for c in node.children]


@pytest.mark.parametrize("top", [92, 94])
def test_92_and_94_roll_1e_for_the_melee_reading_only(top: int) -> None:
    # RULES.md: only the melee reading of 92 and 94 has an additional critical
    melee = _resolve("merp-1", top, ["melee"]).tree
    assert [t for t, _ in _subtables(melee)][:3] == ["merp-1a", "merp-1b", "merp-1e"]
    missile = _resolve("merp-1", top, ["missile"]).tree
    assert [t for t, _ in _subtables(missile)] == ["merp-1a", "merp-1b"]
    assert not missile.find("merp-1e")


@pytest.mark.parametrize("kind", ["melee", "missile"])
def test_99_doubles_the_critical_and_rolls_1e_for_both_readings(kind: str) -> None:
    tree = _resolve("merp-1", 99, [kind]).tree
    assert _subtables(tree) == [("merp-1a", 1), ("merp-1b", 1), ("merp-1e", 0)]


@pytest.mark.parametrize("face", range(1, 11))
@pytest.mark.parametrize("top", [92, 96])  # 96 reaches 1a's row for 11 (+1)
def test_1a_initiative_is_rolled_and_shown_for_the_melee_reading_only(top: int, face: int) -> None:
    for kind, shown in (("melee", True), ("missile", False)):
        resolution = Resolution(TABLES, "merp-1")
        resolution.supply_typed(top)
        resolution.choose([o.key for o in _options(resolution)].index(kind))
        resolution.supply_typed(face)  # 1a comes first
        bonus = resolution.tree.find("merp-1a")[0]
        assert bonus.raw == face
        total = bonus.roll.total if bonus.roll else 0
        pending = resolution.pending
        assert isinstance(pending, PendingDie)
        rolls_initiative = shown and total >= 5
        assert (pending.name == "initiative") is rolls_initiative, (kind, total)
        resolution.auto(random.Random(face))
        assert ("initiative" in bonus.dice) is rolls_initiative
        assert ("initiative" in bonus.text("en")) is shown
        assert ("iniciativa" in bonus.text("es")) is shown


def test_1a_read_without_a_reading_says_its_initiative_is_melee_only() -> None:
    for row in TABLES["merp-1a"].rows:
        assert "melee only" in row.short("en")
        assert "solo cuerpo a cuerpo" in row.short("es")
    resolution = Resolution(TABLES, "merp-1a")  # rolled on its own, no weapon behind it
    resolution.supply_typed(7)
    assert [o.key for o in _options(resolution)] == ["melee", "missile"]


def _options(resolution: Resolution) -> tuple[ChoiceOption, ...]:
    pending = resolution.pending
    assert isinstance(pending, PendingChoice)
    return pending.options


@pytest.mark.parametrize("kind", ["two_handed_in_one", "one_handed_as_two", "missile"])
def test_95_rolls_1a_and_1b_only(kind: str) -> None:
    assert _subtables(_resolve("merp-1", 95, [kind]).tree) == [("merp-1a", 0), ("merp-1b", 0)]


def test_93_armor_rolls_1f_and_a_location_and_the_shield_does_not() -> None:
    armor = _resolve("merp-1", 93, ["armor"]).tree
    assert [t for t, _ in _subtables(armor)] == ["merp-1f", "merp-1-93-location"]
    assert armor.children[1].die == "1d4"
    assert _subtables(_resolve("merp-1", 93, ["shield"]).tree) == []


@pytest.mark.parametrize("top", range(1, 101))
def test_only_96_to_99_add_one_and_only_to_1a_and_1b(top: int) -> None:
    row = TABLES["merp-1"].row_for(top)
    refs = list(row.rolls) + [r for o in row.options for r in o.rolls]
    for ref in refs:
        expected = 1 if 96 <= top <= 99 and ref.table in ("merp-1a", "merp-1b") else 0
        assert ref.modifier == expected, (top, ref)
    if 96 <= top <= 99:
        assert {r.table for r in refs if r.modifier} == {"merp-1a", "merp-1b"}


def test_the_plus_one_reaches_the_row_for_eleven() -> None:
    resolution = Resolution(TABLES, "merp-1")
    resolution.supply_typed(96)
    resolution.choose(1)  # missile: no inner roll
    pending = resolution.pending
    assert isinstance(pending, PendingDie)
    assert (pending.table.id, pending.expr.text) == ("merp-1a", "1d10+1")
    resolution.supply_typed(10)
    first = resolution.tree.children[0]
    assert (first.raw, first.modifier, first.roll and first.roll.total) == (10, 1, 11)
    assert first.range == (9, 11)


@pytest.mark.parametrize("value", [10, 11])
def test_1b_10_and_11_roll_1c_and_1d(value: int) -> None:
    resolution = Resolution(TABLES, "merp-1")
    resolution.supply_typed(97)
    resolution.choose(0)
    resolution.supply_typed(1)  # 1a +1 = 2
    resolution.supply_typed(value - 1)  # 1b face; +1 gives the value
    node = resolution.tree.children[1]
    assert node.roll is not None and node.roll.total == value
    resolution.auto(random.Random(1))
    assert resolution.done
    assert [t for t, _ in _subtables(node)] == ["merp-1c", "merp-1d"]


def test_100_offers_armor_shield_or_the_players_idea() -> None:
    resolution = Resolution(TABLES, "merp-1")
    resolution.supply_typed(100)
    pending = resolution.pending
    assert isinstance(pending, PendingChoice)
    assert [o.key for o in pending.options] == ["armor", "shield", "own_idea"]
    assert all(o.label_en and o.label_es for o in pending.options)
    armor = _resolve("merp-1", 100, ["armor"]).tree
    assert [t for t, _ in _subtables(armor)] == ["merp-1-100-armor", "merp-1-100-intelligence"]
    assert _subtables(_resolve("merp-1", 100, ["own_idea"]).tree) == []


@pytest.mark.parametrize("top", range(91, 101))
def test_table_2_hash_rows_roll_2a(top: int) -> None:
    choice = {100: ["weapon"], 96: ["rune_book"]}.get(top, [])
    if top in (94,):
        choice = []
    resolution = Resolution(TABLES, "merp-2")
    resolution.supply_typed(top)
    rng = random.Random(3)
    resolution.auto(rng)
    keys = list(choice)
    while isinstance(resolution.pending, PendingChoice):
        options = [o.key for o in resolution.pending.options]
        resolution.choose(options.index(keys.pop(0)) if keys and keys[0] in options else 0)
        resolution.auto(rng)
    got = [(t, m) for t, m in _subtables(resolution.tree) if t == "merp-2a"]
    if top == 96:  # no # on 96 in the seed
        assert got == []
    else:
        assert got == [("merp-2a", 1 if top >= 97 else 0)]


def test_2a_10_rolls_2b_and_2c_and_its_inner_rolls() -> None:
    for value, expected in [
        (10, ["merp-2b", "merp-2c"]),
        (3, ["merp-2a-failure"]),
        (6, ["merp-2a-rr", "merp-2a-realm"]),
        (1, []),
    ]:
        resolution = Resolution(TABLES, "merp-2a")
        resolution.supply_typed(value)
        resolution.auto(random.Random(value))
        assert [t for t, _ in _subtables(resolution.tree)] == expected


def test_adders_multipliers_and_daily_items_roll_2d_and_2e() -> None:
    seen = 0
    for row in TABLES["merp-2"].rows:
        text = row.text("en")
        if text.startswith(("Adder", "Multiplier", "Daily item")):
            seen += 1
            assert [r.table for r in row.rolls][:2] == ["merp-2d", "merp-2e"], row.range_text
            kind = {"Adder": "adder", "Multiplier": "multiplier", "Daily item": "daily"}
            context = next(v for k, v in kind.items() if text.startswith(k))
            assert {r.context for r in row.rolls[:2]} == {context}
    assert seen == 14  # daily 02-03, 41-45, 67-70, 94; adders 6; multipliers 4


def test_2e_columns_follow_the_kind_of_item() -> None:
    adder = Resolution(TABLES, "merp-2e", context="adder")
    adder.supply_typed(2)
    assert adder.done and adder.tree.choice is not None
    assert (adder.tree.choice.key, adder.tree.choice.source) == ("staff_column", "context")
    assert "Staff" in adder.tree.text("en")
    magic = Resolution(TABLES, "merp-2e", context="magic")
    magic.supply_typed(2)
    assert magic.tree.choice is not None and magic.tree.choice.key == "magic_column"
    daily = Resolution(TABLES, "merp-2e", context="daily")
    daily.supply_typed(2)
    pending = daily.pending
    assert isinstance(pending, PendingChoice)
    assert [o.text_en for o in pending.options] == [
        "Staff (150-200 cm).",
        "Cloak, blanket or the like.",
    ]


def test_the_melee_reading_picks_the_melee_column_of_1b() -> None:
    resolution = Resolution(TABLES, "merp-1")
    resolution.supply_typed(92)
    resolution.choose(0)  # melee
    resolution.supply_typed(1)  # 1a
    resolution.supply_typed(7)  # 1b 7-8
    node = resolution.tree.children[1]
    assert node.choice is not None and node.choice.key == "melee"
    assert "Glows" in node.text("en")


def test_table_2_100_offers_three_and_the_staff_rolls_its_spell() -> None:
    resolution = Resolution(TABLES, "merp-2")
    resolution.supply_typed(100)
    pending = resolution.pending
    assert isinstance(pending, PendingChoice)
    assert [o.key for o in pending.options] == ["weapon", "staff", "own_idea"]
    resolution.choose(1)
    staff_spell = resolution.pending
    assert isinstance(staff_spell, PendingDie)
    assert (staff_spell.table.id, staff_spell.expr.text) == ("merp-2-100-staff", "1d10")
    resolution.supply_typed(10)
    assert "Fire ball (level 10)" in resolution.tree.children[0].text("en")
    weapon = _resolve("merp-2", 100, ["weapon"], seed=2).tree
    assert [t for t, _ in _subtables(weapon)] == ["merp-2a", "merp-2f"]


def test_inline_dice_are_pending_dice_and_are_written_into_the_text() -> None:
    resolution = Resolution(TABLES, "merp-1")
    resolution.supply_typed(2)
    pending = resolution.pending
    assert isinstance(pending, PendingDie)
    assert (pending.name, pending.expr.text) == ("gold", "1d20")
    assert resolution.tree.text("en") == "Money: 1d20 gold pieces (1d20)."
    resolution.supply(Roll("1d20", (13,), 0, 13, "rolled"))
    assert resolution.done
    assert resolution.tree.text("en") == "Money: 13 gold pieces (1d20: 13)."
    assert resolution.tree.text("es") == "Dinero: 13 monedas de oro (1d20: 13)."


def test_2a_11_uses_the_dice_not_the_typo() -> None:
    resolution = Resolution(TABLES, "merp-2")
    resolution.supply_typed(99)
    resolution.supply_typed(6)  # level 1d6+4 face
    resolution.supply_typed(10)  # 2a +1 -> 11
    pending = resolution.pending
    assert isinstance(pending, PendingDie) and pending.expr.text == "1d4+1"
    assert (pending.expr.lowest, pending.expr.highest) == (2, 5)


def test_bad_answers_are_refused() -> None:
    resolution = Resolution(TABLES, "merp-1")
    with pytest.raises(ValueError, match="no choice is awaited"):
        resolution.choose(0)
    with pytest.raises(DiceError, match="expected a roll of 1d100"):
        resolution.supply(Roll("1d10", (3,), 0, 3, "rolled"))
    with pytest.raises(DiceError, match="not on a d100"):
        resolution.supply_typed(0)
    with pytest.raises(DiceError, match="rows 1 to 33"):
        resolution.pick_row(33)
    resolution.supply_typed(14)
    with pytest.raises(DiceError, match="no die is awaited"):
        resolution.supply_typed(3)
    with pytest.raises(ValueError, match="pick 1 to 2"):
        resolution.choose(2)
    resolution.choose(1)
    assert resolution.done
    with pytest.raises(DiceError, match="finished"):
        resolution.supply_typed(3)


def test_a_picked_row_is_recorded_as_picked() -> None:
    resolution = Resolution(TABLES, "merp-1")
    resolution.pick_row(24)  # 92
    assert resolution.tree.roll is not None
    assert (resolution.tree.roll.source, resolution.tree.range, resolution.tree.raw) == (
        "picked",
        (92, 92),
        None,
    )
    loc = Resolution(TABLES, "merp-1-93-location")
    loc.supply(picked("1d4", 3))
    assert loc.tree.text("en") == "Arms."


def test_step_by_step_each_sub_roll_appears_as_it_is_made() -> None:
    resolution = Resolution(TABLES, "merp-2")
    resolution.supply_typed("91")
    sizes = []
    while not resolution.done:
        pending = resolution.pending
        if isinstance(pending, PendingChoice):
            resolution.choose(0)
        else:
            assert isinstance(pending, PendingDie)
            sizes.append(sum(1 for _ in resolution.tree.walk()))
            resolution.supply_typed(1)
    # 2d, 2e, 2a appear one after the other; 2a 1 ends it
    assert [n.table for n in resolution.tree.walk()] == ["merp-2", "merp-2d", "merp-2e", "merp-2a"]
    assert sizes == [2, 3, 4]


def test_roll_table_applies_choices_in_order() -> None:
    resolution = roll_table(TABLES, "merp-1", random.Random(4), force=100, choices=[0])
    assert resolution.done
    assert resolution.tree.choice is not None and resolution.tree.choice.key == "armor"
    with pytest.raises(ValueError, match="more choices"):
        roll_table(TABLES, "merp-1", random.Random(4), force=2, choices=[0])


def _random_resolution(seed: int, table: str) -> Resolution:
    rng = random.Random(seed)
    return Resolution(TABLES, table).auto(rng, lambda p: rng.randrange(len(p.options)))


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), table=st.sampled_from([t.id for t in TABLES.main()]))
def test_any_roll_finishes_consistently_and_round_trips(seed: int, table: str) -> None:
    resolution = _random_resolution(seed, table)
    assert resolution.done
    for node in resolution.tree.walk():
        assert node.roll is not None and node.range is not None
        assert node.range[0] <= node.roll.total <= node.range[1]
        assert node.roll.total == node.raw + node.modifier if node.raw is not None else True
        row = TABLES[node.table].rows[node.row_index or 0]
        option = [o for o in row.options if node.choice and o.key == node.choice.key]
        allowed = [r.table for r in row.rolls] + [r.table for o in option for r in o.rolls]
        assert sorted(c.table for c in node.children) == sorted(allowed)
        assert "{" not in node.text("en") and "{" not in node.text("es")
    stored = json.loads(json.dumps(resolution.to_dict()))
    again = Resolution.from_dict(TABLES, stored)
    assert again.tree.to_dict() == resolution.tree.to_dict()
    assert Node.from_dict(stored["tree"]).to_dict() == stored["tree"]


def test_a_pending_resolution_serializes_its_choices() -> None:
    resolution = Resolution(TABLES, "merp-1")
    resolution.supply_typed(14)
    data = resolution.tree.to_dict()
    assert [c["key"] for c in data["choices"]] == ["armor", "shield"]
    again = Resolution.from_dict(TABLES, resolution.to_dict())
    assert isinstance(again.pending, PendingChoice)


def test_render_tree_indents_sub_rolls() -> None:
    tree = _resolve("merp-1", 92, ["melee"], seed=1).tree
    lines = render_tree(tree).splitlines()
    assert lines[0].startswith("merp-1 1d100: 92 (typed) [92] *: Magic weapon")
    assert lines[1] == "  -> Melee weapon (picked)"
    assert lines[2].startswith("  merp-1a 1d10: ")
    assert render_tree(tree, "es").splitlines()[1] == "  -> Arma cuerpo a cuerpo (elegido)"


def test_a_finished_roll_journaled_before_a_rules_fix_still_opens_as_written() -> None:
    # 92's missile reading rolled 1e before the fix: its answers no longer replay on the tables
    melee = _resolve("merp-1", 92, ["melee"], seed=3).to_dict()
    old = json.loads(json.dumps(melee))
    old["inputs"][1] = {"choice": 1}  # the missile reading, with the 1e roll still after it
    with pytest.raises(DiceError):
        Resolution.replay(TABLES, "merp-1", old["inputs"])
    again = Resolution.from_dict(TABLES, old)
    assert again.done
    assert again.tree.to_dict() == melee["tree"]
    assert [t for t, _ in _subtables(again.tree)] == ["merp-1a", "merp-1b", "merp-1e"]
    unfinished = {**old, "done": False}
    with pytest.raises(DiceError):
        Resolution.from_dict(TABLES, unfinished)
