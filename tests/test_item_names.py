"""An item is named by its result: the alternative taken and every sub-roll, in both languages.

Every row of Tables 1 and 2 is resolved with each of its alternatives, every die after the
first fixed (highest faces, lowest faces, two seeds), and the name checked against the tree.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator

import pytest

from gmscreen.campaign import events as ev
from gmscreen.campaign.gm_lines import GM_LINES
from gmscreen.campaign.gm_words import Teller, sentence
from gmscreen.campaign.item_names import item_name
from gmscreen.rules.tables import Node, PendingChoice, Resolution, load_tables
from gmscreen.rules.tables_model import LANGS, Lang
from gmscreen.rules.tables_names import SEPARATOR, full_name, plain, summary

TABLES = load_tables()
POLICIES = ("high", "low", "seed-1", "seed-2")


def _cases() -> Iterator[tuple[str, int, int | None]]:
    for table_id in ("merp-1", "merp-2"):
        for row in TABLES[table_id].rows:
            if not row.options:
                yield table_id, row.index, None
            for option in row.options:
                yield table_id, row.index, option.index


def _resolve(table_id: str, row: int, option: int | None, policy: str) -> Resolution:
    """The row picked, the alternative taken, then every die fixed by ``policy``."""
    resolution = Resolution(TABLES, table_id)
    resolution.pick_row(row)
    rng = random.Random(policy)
    while (pending := resolution.pending) is not None:
        if isinstance(pending, PendingChoice):
            if pending.node is resolution.tree:
                assert option is not None
                resolution.choose(option)
            else:  # a column the kind of item leaves open (a daily item's size)
                resolution.choose(0 if policy in ("high", "seed-1") else len(pending.options) - 1)
        elif policy == "high":
            resolution.supply_typed(pending.expr.highest - pending.expr.modifier)
        elif policy == "low":
            resolution.supply_typed(pending.expr.lowest - pending.expr.modifier)
        else:
            resolution.auto(rng)
    return resolution


def _words(text: str) -> set[str]:
    return set(re.findall(r"[\w+×%-]+", text.casefold()))


# The words of an alternative that only says the entry is taken as it reads ("Taken as poisons.")
TAKEN_AS = {"taken", "as", "within", "the", "same", "limits"} | {
    "se", "queda", "quedan", "como", "cambian", "por", "con", "los", "mismos", "límites", "su"
}  # fmt: skip


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(("table_id", "row", "option"), list(_cases()))
def test_the_full_name_carries_the_alternative_and_every_sub_roll(
    table_id: str, row: int, option: int | None, policy: str
) -> None:
    resolution = _resolve(table_id, row, option, policy)
    tree = resolution.tree
    stored = json.loads(json.dumps(resolution.to_dict()))
    for lang in LANGS:
        name = full_name(tree, TABLES, lang)
        assert "…" not in name and "..." not in name
        assert "{" not in name  # and no pointer to a table, "(size on 2e)", "(below)":
        assert not re.search(r"\b\d*d\d+\b", name), name  # no dice written out
        pointer = r"\([^()]*\b(?:[12][a-f]\b|below\b|abajo\b|roll to see|roll for|tira para ver)"
        assert not re.search(pointer, name), name
        chosen = tree.option
        if chosen is not None:
            text = (chosen.text_en if lang == "en" else chosen.text_es).values()
            alternative = plain(text.render(tree.dice, {**tree.row.dice, **chosen.dice}))  # type: ignore[union-attr]
            assert _words(alternative) - TAKEN_AS <= _words(name), (alternative, name)
        else:
            assert plain(tree.text(lang)) in name
        for node in tree.walk():
            if node is not tree:
                assert plain(node.text(lang)) in name, (node.table, name)
            for die in node.dice.values():
                said = ("once a day", "una vez al día") if die.total == 1 else ()
                assert str(die.total) in name or any(s in name for s in said), (node.table, name)
        short = summary(tree, TABLES, lang)
        assert len(short) <= len(name) and "…" not in short and "{" not in short
        assert short.startswith(name.split(SEPARATOR)[0])  # the alternative, as in the name
        for node in tree.walk():
            for die in node.dice.values():
                said = ("once a day", "una vez al día") if die.total == 1 else ()
                assert str(die.total) in short or any(s in short for s in said), (node.table, short)
        # a journaled item reads the same, and players get that very name
        item = {"title": full_name(tree, TABLES, "en"), "tree": stored}
        assert item_name(item, lang) == name


@pytest.mark.parametrize("table_id", ["merp-1", "merp-2"])
def test_two_alternatives_of_one_entry_never_share_a_name(table_id: str) -> None:
    for row in TABLES[table_id].rows:
        for lang in LANGS:
            names = [
                full_name(_resolve(table_id, row.index, o.index, "high").tree, TABLES, lang)
                for o in row.options
            ]
            assert len(set(names)) == len(names), names
            for name in names:
                # "Quality armor (+10), or a quality shield (+10)" names no item
                assert " or a " not in name.split(";")[0] or table_id == "merp-2", name


def _item(table_id: str, top: int, choice: int | None, lang: Lang = "en") -> str:
    resolution = Resolution(TABLES, table_id)
    resolution.supply_typed(top)
    rng = random.Random(5)
    resolution.auto(rng)
    if choice is not None:
        resolution.choose(choice)
        resolution.auto(rng)
    assert resolution.done
    return full_name(resolution.tree, TABLES, lang)


def test_the_summary_says_each_sub_roll_in_few_words() -> None:
    resolution = _resolve("merp-1", TABLES["merp-1"].row_for(92).index, 0, "low")
    short = summary(resolution.tree, TABLES, "en")
    assert short.endswith("; +0, 100% weight, no initiative bonus; no other power; impact critical")
    example = Resolution(TABLES, "merp-2")
    example.supply_typed(30)
    example.supply_typed(9)
    assert summary(example.tree, TABLES, "en") == "Magic item (+5); lock picks"
    assert summary(example.tree, TABLES, "es") == "Objeto mágico (+5); ganzúas"


def test_armor_and_shield_are_named_apart() -> None:
    assert _item("merp-1", 52, 0) == "Quality armor (+10)"
    assert _item("merp-1", 52, 1) == "Quality shield (+10) at 70% of the usual weight"
    assert _item("merp-1", 52, 1, "es") == "Escudo de calidad (+10) con el 70% del peso normal"


def test_a_long_name_keeps_its_end() -> None:
    name = _item("merp-2", 53, None)
    assert name.startswith("Rod with 30 charges of one spell of the player's choice, up to level")
    assert re.fullmatch(r".*up to level [345]", name)


def test_the_size_rolled_replaces_the_pointer_to_its_table() -> None:
    tree = {
        "table": "merp-2", "die": "1d100", "roll": 30, "modifier": 0, "total": 30,
        "source": "rolled", "range": [26, 30], "row": 9, "markers": [], "context": None,
        "text": "Magic item (+5) (size on 2e).", "text_es": "Objeto mágico (+5) (tamaño en 2e).",
        "dice": {}, "choice": None,
        "subrolls": [{
            "table": "merp-2e", "die": "1d10", "roll": 9, "modifier": 0, "total": 9,
            "source": "rolled", "range": [8, 9], "row": 3, "markers": [], "context": "magic",
            "text": "Size: Lock picks.", "text_es": "Tamaño: Ganzúas.", "dice": {},
            "choice": {"key": "magic_column", "label": "Daily or magic item column",
                       "label_es": "Columna diario o mágico", "source": "context"},
            "subrolls": [],
        }],
    }  # fmt: skip
    # as the shipped example journaled it, with its title cut from the entry's first sentence
    item = {"title": "Magic item (+5) (size on 2e).", "tree": {"tree": tree}}
    assert item_name(item, "en") == "Magic item (+5); Size: Lock picks"
    assert item_name(item, "es") == "Objeto mágico (+5); Tamaño: Ganzúas"


def test_a_tree_that_no_longer_fits_the_tables_is_named_from_its_own_texts() -> None:
    # 1a 5-8 before the melee-only fix: the initiative rolled, no reading taken
    node = Node.from_dict(
        {
            "table": "merp-1a", "die": "1d10", "roll": 6, "modifier": 0, "total": 6,
            "source": "rolled", "range": [5, 8], "row": 2, "markers": [], "context": "missile",
            "text": "+15 bonus, 70% weight, +3 initiative for melee (1d5: 3).",
            "text_es": "Bonificación +15, peso 70%, +3 a la iniciativa cuerpo a cuerpo (1d5: 3).",
            "dice": {"initiative": {"expr": "1d5", "dice": [3], "modifier": 0, "total": 3,
                                    "source": "rolled"}},
            "choice": None, "subrolls": [],
        }
    )  # fmt: skip
    assert full_name(node, TABLES, "en") == "+15 bonus, 70% weight, +3 initiative for melee"


def test_a_title_without_a_tree_loses_its_dice_and_pointers() -> None:
    item = {"title": "Money: 13 gold pieces (1d20: 13) (size on 2e).", "tree": None}
    assert item_name(item, "en") == "Money: 13 gold pieces"


def _kept(name_of: Resolution) -> ev.Event:
    item = {
        "id": "merp-1-1",
        "table": "merp-1",
        "title": full_name(name_of.tree, TABLES, "en"),
        "tree": json.loads(json.dumps(name_of.to_dict())),
        "notes": "",
    }
    line = {
        "seq": 7, "action": 7, "at": "2024-05-01T20:00:00.000+00:00", "game": 0,
        "kind": "item_kept", "character": "halbarad", "data": {"item": item},
    }  # fmt: skip
    return ev.Event.from_dict(line)


@pytest.mark.parametrize("lang", LANGS)
def test_the_log_and_the_recap_carry_the_whole_name_and_wrap_it(lang: Lang) -> None:
    """One log line carries the whole name; the log wraps it to its width, never cut."""
    from gmscreen.tui.widgets.roll_log import rows

    resolution = _resolve("merp-1", TABLES["merp-1"].row_for(92).index, 0, "high")
    name = full_name(resolution.tree, TABLES, lang)
    width = 60
    assert len(name) > 2 * width  # a name that needs wrapping
    event = _kept(resolution)
    (line,) = Teller({"halbarad": "Halbarad"}, lang, says=GM_LINES).tell([event])
    assert name in line.what and line.who == "halbarad"
    wrapped = rows(line, width)
    assert len(wrapped) > 2 and all(row.cell_length <= width for row in wrapped)
    whole = " ".join(row.plain.strip() for row in wrapped)
    assert name in whole and "…" not in whole
    assert sentence(line).endswith(name)


def test_the_shipped_example_names_its_items_from_its_own_rolls() -> None:
    from pathlib import Path

    from gmscreen.campaign.store import load

    folder = Path(__file__).resolve().parents[1] / "campaigns" / "merp-party"
    state = load(folder).state
    for character in state.characters:
        for item in character.inventory:
            stored = {"title": item.title, "tree": item.tree}
            node = Node.from_dict(item.tree["tree"])
            for lang in LANGS:
                name = item_name(stored, lang)
                for sub in node.walk():
                    assert plain(sub.text(lang)).split(": ")[-1] in name, (name, sub.table)
                assert "(size on 2e)" not in name and "(tamaño en 2e)" not in name
            assert item.title == item_name(stored, "en")  # the journal holds the whole name
    names = [
        item_name({"title": i.title, "tree": i.tree}, "en") for i in state.characters[1].inventory
    ]
    assert names == ["Magic item (+5); Size: Lock picks"]
