"""An item keeps the names its roll gave it, and items written before that are named as before.

``tests/data/demo-before-stored-names`` is the demo as gmscreen wrote it before names were
stored (its make_examples.py, unchanged since), and ``campaigns/merp-party`` an older campaign:
every item in their journals and checkpoints must read, and be named, as it was then (the
names below are what that code said). An item rolled now carries its names in its event and in
``campaign.toml``, and those are what every surface says.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from gmscreen.campaign import events as ev
from gmscreen.campaign.codec import parse_toml, to_toml
from gmscreen.campaign.fields import FieldError, decode_item, encode_item
from gmscreen.campaign.item_names import item_name, item_summary
from gmscreen.campaign.model import Item, ItemNames
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.store import load
from gmscreen.rules import merp
from gmscreen.rules.tables import roll_table
from gmscreen.rules.tables_model import Lang
from gmscreen.rules.tables_names import full_name, rolled_names
from gmscreen.rules.tables_nodes import Node

ROOT = Path(__file__).resolve().parents[1]
OLD_DEMO = ROOT / "tests" / "data" / "demo-before-stored-names"
OLD_MERP = ROOT / "campaigns" / "merp-party"
FIXED = datetime(2024, 5, 1, 20, 0, tzinfo=UTC)

# item id -> {lang: (full name, summary)}, as gmscreen named them before names were stored
BEFORE: dict[Path, dict[str, dict[str, tuple[str, str]]]] = {
    OLD_DEMO: {
        "merp-1-1": {
            "en": ("Quality weapon (+10) of high steel", "Quality weapon (+10) of high steel"),
            "es": ("Arma de calidad (+10) de acero alto", "Arma de calidad (+10) de acero alto"),
        },
        "merp-2-1": {
            "en": (
                "5 magic runes with spells of the player's choice, up to level 5",
                "5 magic runes with spells of the player's choice, up to level 5",
            ),
            "es": (
                "5 runas mágicas con hechizos que elige el jugador, hasta nivel 5",
                "5 runas mágicas con hechizos que elige el jugador, hasta nivel 5",
            ),
        },
    },
    OLD_MERP: {
        "merp-1-1": {
            "en": ("Quality weapon (+15) of adarcer. Melee: +5 initiative",) * 2,
            "es": ("Arma de calidad (+15) de adarcer. Cuerpo a cuerpo: +5 a la iniciativa",) * 2,
        },
        "merp-2-1": {
            "en": ("Magic item (+5); Size: Lock picks", "Magic item (+5); lock picks"),
            "es": ("Objeto mágico (+5); Tamaño: Ganzúas", "Objeto mágico (+5); ganzúas"),
        },
    },
}


def _journaled_items(folder: Path) -> Iterator[dict[str, Any]]:
    for log in load(folder).logs:
        for entry in log.events:
            item = getattr(entry.data, "item", None)
            if isinstance(item, dict):
                yield item


@pytest.mark.parametrize("folder", list(BEFORE), ids=lambda p: p.name)
def test_old_journals_and_checkpoints_name_their_items_as_before(folder: Path) -> None:
    expected = BEFORE[folder]
    journaled = list(_journaled_items(folder))
    assert {str(i["id"]) for i in journaled} == set(expected)
    for item in journaled:
        assert "names" not in item  # written before names were stored
        for lang, (full, _) in expected[str(item["id"])].items():
            assert item_name(item, lang) == full
    inventory = [i for c in load(folder).state.characters for i in c.inventory]
    assert inventory
    for kept in inventory:
        assert kept.names is None
        for lang, (full, short) in expected[kept.id].items():
            assert item_name(kept, lang) == full
            assert item_summary(kept, lang) == short


def test_the_demo_written_now_stores_the_names_it_had_before() -> None:
    """The shipped demo (make_examples.py today) says what its older copy said, from storage."""
    demo = ROOT / "src" / "gmscreen" / "data" / "demo" / "party"
    for item in _journaled_items(demo):
        stored = decode_item(item).names
        assert stored is not None
        for lang, (full, short) in BEFORE[OLD_DEMO][str(item["id"])].items():
            assert stored.full[lang] == full and stored.short[lang] == short


def full_name_of(tree: dict[str, Any], lang: Lang) -> str:
    return full_name(Node.from_dict(tree["tree"]), merp.merp_tables(), lang)


def _rolled(seed: int) -> tuple[str, dict[str, Any], ItemNames]:
    rng = random.Random(seed)
    resolution = roll_table(merp.merp_tables(), merp.TABLE_2, rng)
    while resolution.pending is not None and not resolution.done:
        resolution.choose(0)
        resolution.auto(rng)
    full, short = rolled_names(resolution.tree, merp.merp_tables())
    return full["en"], resolution.to_dict(), ItemNames(full, short)


def test_a_roll_stores_its_names_in_the_event_and_the_checkpoint(tmp_path: Path) -> None:
    shutil.copytree(OLD_MERP, tmp_path / "bree")
    title, tree, names = _rolled(7)
    assert names.full["es"] != names.full["en"]
    with open_campaign(tmp_path / "bree", rng=random.Random(1), clock=lambda: FIXED) as live:
        event = live.item_rolled("lindir", merp.TABLE_2, title, tree, names=names)
        assert isinstance(event.data, ev.ItemRolled)
        assert event.data.item["names"] == {"full": names.full, "short": names.short}
        live.item_kept("lindir", str(event.data.item["id"]))
    (kept,) = load(tmp_path / "bree").state.character("lindir").inventory
    assert kept.names == names  # through campaign.toml and back
    written = to_toml(load(tmp_path / "bree").state)
    assert parse_toml(written, tmp_path / "x.toml").character("lindir").inventory == (kept,)


def test_the_stored_names_are_what_every_surface_says() -> None:
    """Names stored with an item win over what today's tables would read off its tree: the
    wording it was rolled with is kept, and naming it loads no tables."""
    title, tree, _ = _rolled(11)
    names = ItemNames({"en": "The Elfstone", "es": "La piedra élfica"}, {"en": "Elfstone"})
    item = Item("merp-2-1", merp.TABLE_2, title, tree, names=names)
    plain = encode_item(item)
    for form in (item, plain):
        assert item_name(form, "en") == "The Elfstone"
        assert item_name(form, "es") == "La piedra élfica"
        assert item_name(form, "fr") == "The Elfstone"  # another language reads the English
        assert item_summary(form, "en") == "Elfstone"
        # a part missing in a language: that item is named from its tree
        assert item_summary(form, "es") == item_summary({**plain, "names": None}, "es")
    assert item_name({**plain, "name": "Aragorn's"}, "es") == "Aragorn's"
    assert item_summary({**plain, "name": "Aragorn's"}, "en") == "Aragorn's: Elfstone"
    assert title == full_name_of(tree, "en") != "The Elfstone"


@pytest.mark.parametrize(
    ("names", "spanish"),
    [
        ({"full": {"en": 3}}, None),
        ({"full": ["x"]}, None),
        ({"short": "x"}, None),
        ("x", None),
        ({"full": {"en": 3, "es": "La espada"}}, "La espada"),
    ],
)
def test_stored_names_of_the_wrong_kind_in_an_event_are_read_from_the_tree(
    names: object, spanish: str | None
) -> None:
    """An event's item is plain JSON that only its decoding checks: the log and the recaps
    name it from its tree where its stored names are not text."""
    title, tree, _ = _rolled(3)
    item = {"id": "merp-2-1", "table": merp.TABLE_2, "title": title, "tree": tree}
    assert item_name({**item, "names": names}, "en") == full_name_of(tree, "en")
    assert item_name({**item, "names": names}, "es") == (spanish or full_name_of(tree, "es"))


@pytest.mark.parametrize(
    ("names", "key"),
    [
        ({"full": {"fr": "x"}}, "item.names.full.fr"),
        ({"full": {"en": 3}}, "item.names.full.en"),
        ({"whole": {}}, "item.names.whole"),
        ({"short": "x"}, "item.names.short"),
        ({"full": {"en": "x" * 10_001}}, "item.names.full.en"),
        ("x", "item.names"),
    ],
)
def test_a_checkpoint_or_kept_item_with_bad_names_says_which_field(names: object, key: str) -> None:
    raw = {"id": "merp-1-1", "table": "merp-1", "title": "Sword", "tree": {}, "names": names}
    with pytest.raises(FieldError) as error:
        decode_item(raw)
    assert error.value.key == key
