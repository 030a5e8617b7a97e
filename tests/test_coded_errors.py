"""A coded error's English text is the English catalog's ``error.<code>``, written only there.

Every code raised in the rules and the campaign is raised for real below, and ``str(error)``
must be exactly the catalog's message filled with the error's values.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from gmscreen.campaign import actions, horror_actions, notes, rulings
from gmscreen.campaign.errors import InvalidAction
from gmscreen.campaign.model import Campaign, Character, Horror, MerpProfile, Settings
from gmscreen.i18n import catalog_for, load_messages, placeholders
from gmscreen.rules import dice, madness, numbers
from gmscreen.rules.errors import CodedError
from gmscreen.rules.madness import Episode, MadnessState

SRC = Path(__file__).resolve().parents[1] / "src" / "gmscreen"

ARTINAR = Character("artinar", "Artinar", MadnessState(pow=13))
FAILED = Character("elric", "Elric", MadnessState(pow=10, madness=12), awaiting_kind="failure")
MAD = Character(
    "moon-glum",
    "Moon Glum",
    MadnessState(pow=10, madness=12, episode=Episode("phobia", 3, "rounds", 0, 18)),
)
BOTH = Settings(modules=("madness", "merp-items"))
ARIOCH = Horror("arioch", "Arioch", "chaos_god")
STATE = Campaign(name="T", settings=BOTH, characters=(ARTINAR, FAILED, MAD), horrors=(ARIOCH,))
NO_MODULES = Campaign(name="T", settings=Settings(modules=()), characters=(ARTINAR,))
HALBARAD = Character(
    "halbarad", "Halbarad", MadnessState(pow=10), merp=MerpProfile("non_spell_user", "Dúnadan", 3)
)

RAISES: dict[str, Callable[[], object]] = {
    "dice_expression": lambda: dice.parse("2d"),
    "dice_count": lambda: dice.parse("101d6"),
    "dice_sides": lambda: dice.parse("1d0"),
    "dice_modifier": lambda: dice.parse("1d6+99999"),
    "typed_not_number": lambda: dice.typed("2d6", "x"),
    "typed_off_die": lambda: dice.typed("d100", "0"),
    "typed_nothing": lambda: dice.typed("1d6", " "),
    "typed_count": lambda: dice.typed("2d6", "1,2,3"),
    "typed_total": lambda: dice.typed("2d6", "13"),
    "picked_range": lambda: dice.picked("1d6", 7),
    "input_not_whole": lambda: madness.gain(MadnessState(pow=10), "demon", {"pow": "3x"}),
    "input_range": lambda: madness.gain(MadnessState(pow=10), "demon", {"pow": 5000}),
    "number_whole": lambda: numbers.parse_whole("²", "POW"),
    "number_signed": lambda: numbers.parse_whole("+-5", "adjustment", signed=True),
    "number_range": lambda: numbers.parse_whole("99", "POW", low=1, high=50),
    "number_at_least": lambda: numbers.parse_whole("0", "points", low=1),
    "number_at_most": lambda: numbers.parse_whole(
        "-9", "adjustment", low=None, high=-10, signed=True
    ),
    "app_lost_too_much": lambda: madness.gain(
        MadnessState(pow=10, app=4), "chaotic_transformation", {"app_lost": 5}
    ),
    "madness_off": lambda: actions.check_roll(NO_MODULES, "artinar", dice.typed("d100", 5)),
    "kind_first": lambda: actions.check_roll(STATE, "elric", dice.typed("d100", 5)),
    "mad_already": lambda: actions.check_roll(STATE, "moon-glum", dice.typed("d100", 5)),
    "no_kind_due": lambda: actions.check_kind(STATE, "artinar", dice.typed("1d6", 5)),
    "time_forward": lambda: actions.advance(STATE, 0, "", random.Random(1)),
    "advance_long": lambda: actions.advance(STATE, 31 * madness.DAY, "", random.Random(1)),
    "clock_end": lambda: actions.advance(STATE, actions.MAX_CLOCK + 1, "", random.Random(1)),
    "empty_note": lambda: actions.note(STATE, "  ", None),
    "no_note": lambda: notes.remove(STATE, [], 7),
    "merp_off": lambda: actions.item_rolled(NO_MODULES, "artinar", "merp-1", "x", {}),
    "no_merp_profile": lambda: actions.item_rolled(STATE, "artinar", "merp-1", "x", {}),
    # GM rulings (campaign/rulings.py)
    "ruling.reason": lambda: rulings.ruling(STATE, "artinar", rulings.SetMadness(3), " "),
    "ruling.no_episode": lambda: rulings.ruling(STATE, "artinar", rulings.EndEpisode(True), "x"),
    "ruling.unknown_kind": lambda: rulings.ruling(
        STATE, "artinar", rulings.AddPermanent("boredom"), "x"
    ),
    "ruling.no_permanent": lambda: rulings.ruling(
        STATE, "artinar", rulings.RemovePermanent("phobia"), "x"
    ),
    "ruling.no_sighting": lambda: rulings.ruling(
        STATE, "artinar", rulings.ForgetSighting("chaos_god"), "x"
    ),
    "ruling.nothing": lambda: rulings.ruling(STATE, "artinar", rulings.SetMadness(0), "x"),
    # the campaign's own horrors (campaign/horror_actions.py)
    "horror.unknown": lambda: actions.gain(STATE, "artinar", None, None, None, horror="mabelode"),
    "horror.name_taken": lambda: horror_actions.add(STATE, " ARIOCH", preset="law_god"),
    "horror.no_gain": lambda: horror_actions.from_gain(STATE, [], set(), "Herald"),
}


def _codes_in_the_source() -> dict[str, set[str]]:
    """Each ``code="..."`` passed in the rules and the campaign, with the values passed along."""
    found: dict[str, set[str]] = {}
    for path in sorted(
        [*SRC.joinpath("rules").glob("*.py"), *SRC.joinpath("campaign").glob("*.py")]
    ):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            names = {k.arg: k.value for k in node.keywords}
            code = names.pop("code", None)
            if isinstance(code, ast.Constant) and isinstance(code.value, str):
                found.setdefault(code.value, set()).update(n for n in names if n is not None)
    return found


def test_every_code_raised_has_an_english_message_with_its_values() -> None:
    english = load_messages("en")
    codes = _codes_in_the_source()
    assert len(codes) >= 20
    for code, values in codes.items():
        assert f"error.{code}" in english, code
        assert placeholders(english[f"error.{code}"]) <= values, code


def test_every_code_raised_is_raised_below() -> None:
    assert set(_codes_in_the_source()) == set(RAISES)


@pytest.mark.parametrize("code", sorted(RAISES))
def test_the_english_text_is_the_catalogs(code: str) -> None:
    with pytest.raises(CodedError) as raised:
        RAISES[code]()
    error = raised.value
    assert error.code == code
    assert str(error) == catalog_for("en").t(f"error.{code}", **error.params)


@pytest.mark.parametrize(
    ("code", "english"),
    [
        ("dice_sides", "'1d0' has dice of 0 sides: use NdM, NdM+K, NdM-K, dM, d100 or d% with 1"),
        ("typed_nothing", "Nothing typed for 1d6."),
        ("input_not_whole", "pow must be a whole number, not 3x"),
        ("input_range", "pow must be from 0 to 1000, not 5000"),
        ("madness_off", "This campaign does not use the madness rules."),
        ("no_kind_due", "No kind of madness is due for Artinar: no check has failed."),
        ("empty_note", "The note is empty."),
    ],
)
def test_some_messages_word_for_word(code: str, english: str) -> None:
    with pytest.raises(CodedError) as raised:
        RAISES[code]()
    assert str(raised.value).startswith(english)


def test_a_wrapped_error_keeps_the_text_code_and_values() -> None:
    state = Campaign(name="T", settings=BOTH, characters=(HALBARAD,))
    with pytest.raises(InvalidAction) as wrapped:
        actions.gain(state, "halbarad", "demon", {"pow": "3x"}, None)
    assert (wrapped.value.code, wrapped.value.params) == (
        "input_not_whole",
        {"field": "pow", "value": "3x"},
    )
    assert str(wrapped.value) == "pow must be a whole number, not 3x"


def test_a_coded_error_takes_no_english_of_its_own() -> None:
    with pytest.raises(TypeError, match="from the catalog"):
        CodedError("some English", code="empty_note")
    assert str(CodedError("plain English")) == "plain English"
    assert CodedError("plain English").code is None


def test_a_code_missing_from_the_catalog_still_raises_readably() -> None:
    error = CodedError(code="no_such_code", expr="1d6")
    assert str(error) == "no_such_code (expr='1d6')"
