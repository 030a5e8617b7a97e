"""Spanish said of a character needs no gender: "Sister Ylen parece tranquilo" was wrong, and
"tranquila" would be wrong for Artinar. Every Spanish string said of a character is worded so
that nothing in it agrees with the character (issue 30, item 9; README "Languages").

And the item tables' texts point at nothing "below" that is not there until rolled: "(tira para
ver cómo)"; Table 2d's readings tell themselves apart from their first words."""

from __future__ import annotations

import re

import pytest

from gmscreen.i18n import load_messages
from gmscreen.rules.madness_data import load_madness_data
from gmscreen.rules.tables import load_tables
from gmscreen.rules.tables_model import LANGS, Lang

# The catalog's Spanish said of a character: after its name (the player view's bands, the log's
# lines), with its name in it, or of it (the detail pane's "played by").
SAID_OF_A_CHARACTER = (
    *(f"player.looks.{band.key}" for band in load_madness_data().bands),
    "detail.played_by",
    "log.character_edited",
    "log.recovery",
    "log.recovery_blocked",
    "log.character_added",
    "log.character_removed",
    "error.mad_already",
    "error.kind_first",
    "error.no_kind_due",
    "player.story.check.success",
    "player.story.check.failure",
    "player.story.episode",
    "player.ruling.under_care_off",
    "log.ruling.under_care_on",
    "log.ruling.under_care_off",
)
# Adjectives and participles (and "lo" for the character) that would take the character's
# gender: what the old wording used, in both genders.
AGREEING = re.compile(
    r"\b(?:tranquil|inquiet|alterad|seren|loc|encerrad|pres|frustrad|acurrucad|mism|editad"
    r"|curad|sol)[oa]s?\b|\blo lleva\b",
    re.IGNORECASE,
)


def _data_texts() -> list[tuple[str, str]]:
    """madness.toml's Spanish said of a character: gains after a name, kinds, bands."""
    data = load_madness_data()
    out = [(f"preset {p.key}", p.label.es) for p in data.presets.values()]
    for kind in data.kinds:
        out += [(f"kind {kind.key} gm", kind.gm.es), (f"kind {kind.key} player", kind.player.es)]
    return out + [(f"band {band.key}", band.label.es) for band in data.bands]


@pytest.mark.parametrize("key", SAID_OF_A_CHARACTER)
def test_the_catalogs_spanish_said_of_a_character_takes_no_gender(key: str) -> None:
    text = load_messages("es").get(key)
    assert text is not None, key
    assert not AGREEING.search(text), (key, text)


@pytest.mark.parametrize(("where", "text"), _data_texts())
def test_the_madness_datas_spanish_takes_no_gender(where: str, text: str) -> None:
    assert not AGREEING.search(text), (where, text)


def test_the_players_read_each_band_the_same_of_anyone() -> None:
    from gmscreen.campaign.player_safe import band_words

    said = [band_words(band.key, "es", {}) for band in load_madness_data().bands]
    assert said == [
        "está en calma",
        "muestra inquietud",
        "tiene los nervios de punta",
        "está al límite",
        "se está quebrando",
    ]


def _texts(lang: Lang) -> list[tuple[str, str]]:
    """Every row's and alternative's text of the bundled tables, dice as expressions."""
    out = []
    for table in load_tables().tables.values():
        for row in table.rows:
            out.append((f"{table.id} {row.range_text}", row.text(lang)))
            for option in row.options:
                template = option.text_en if lang == "en" else option.text_es
                text = template.render({}, {**row.dice, **option.dice})
                out.append((f"{table.id} {row.range_text} {option.key}", text))
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_no_text_points_below_at_what_is_not_rolled_yet(lang: Lang) -> None:
    texts = _texts(lang)
    pointing = re.compile(r"\([^()]*\b(?:below|abajo)\b[^()]*\)")
    assert [where for where, text in texts if pointing.search(text)] == []
    [returns] = [text for where, text in texts if where == "merp-1 96 melee"]
    assert returns.endswith("(tira para ver cómo)." if lang == "es" else "(roll to see how).")


@pytest.mark.parametrize("lang", LANGS)
def test_table_2d_readings_start_each_its_own_way(lang: Lang) -> None:
    """Each row of Table 2d starts with its own word (they all began "Reino: El reino …")."""
    firsts = [row.text(lang).split()[0] for row in load_tables().tables["merp-2d"].rows]
    assert len(set(firsts)) == len(firsts), firsts
