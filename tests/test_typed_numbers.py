"""Numbers are ASCII digits with sane sizes (#13.3): the one parser (gmscreen.rules.numbers),
the dice text and gain answers that use it, and every numeric flag of the CLI.

``str.isdigit()`` is true for ``²`` and ``int()`` takes ``٣`` (Arabic-Indic), ``1_000`` and, up
to 4,300 digits, anything; past that it raises. None of it may reach a traceback.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmscreen.cli import main
from gmscreen.rules import dice, madness
from gmscreen.rules.dice import DiceError
from gmscreen.rules.madness import MadnessError, MadnessState
from gmscreen.rules.numbers import MAX_DIGITS, NumberError, parse_whole, whole_or_none

NOT_NUMBERS = ["²", "٣", "１", "1_000", "+-5", "--5", "5-", "", " ", "1 2", "0x10", "1e3", "٣٣"]
HUGE = "9" * 5000

# what a typed number may be: ASCII digits, a sign if allowed, spaces around
ASCII_NUMBER = re.compile(rf"[ \t]*[+-]?[0-9]{{1,{MAX_DIGITS}}}[ \t]*")


@pytest.mark.parametrize("text", [*NOT_NUMBERS, HUGE, "1" * (MAX_DIGITS + 1)])
def test_not_a_number(text: str) -> None:
    assert whole_or_none(text) is None
    assert whole_or_none(text, signed=True) is None
    with pytest.raises(NumberError, match="POW"):
        parse_whole(text, "POW")


@pytest.mark.parametrize(
    ("text", "signed", "value"),
    [("0", False, 0), (" 53 ", False, 53), ("007", False, 7), ("+5", True, 5), ("-5", True, -5)],
)
def test_a_number(text: str, signed: bool, value: int) -> None:
    assert whole_or_none(text, signed=signed) == value


def test_a_sign_only_where_allowed() -> None:
    assert whole_or_none("-5") is None and whole_or_none("+5") is None


@given(st.text(max_size=12))
def test_the_parser_takes_exactly_ascii_digits(text: str) -> None:
    value = whole_or_none(text, signed=True)
    assert (value is not None) == bool(ASCII_NUMBER.fullmatch(text))
    if value is not None:
        assert value == int(text.strip())


def test_the_range_names_the_field_in_both_languages() -> None:
    from gmscreen.i18n import catalog_for

    with pytest.raises(NumberError) as raised:
        parse_whole("99", "POW", low=1, high=50)
    assert str(raised.value) == "POW: 99 is out of range: type a number from 1 to 50"
    spanish = catalog_for("es").t(f"error.{raised.value.code}", **raised.value.params)
    assert spanish.startswith("POW: 99 está fuera de rango")


@pytest.mark.parametrize(
    "typed",
    [
        lambda: dice.typed("d100", "²"),
        lambda: dice.typed("d100", "٣"),
        lambda: dice.typed("d100", HUGE),
        lambda: dice.typed("2d6", "+-5"),
        lambda: dice.typed("2d6", "1_0"),
        lambda: dice.typed("2d6", ",".join("1" * 5000)),
        lambda: dice.parse("1d6+" + "9" * 4400),
        lambda: dice.parse("9" * 4400 + "d6"),
        lambda: dice.parse("1d" + "9" * 4400),
        lambda: dice.parse("٣d6"),
        lambda: dice.parse("1d6+²"),
    ],
)
def test_dice_text_is_a_message_never_a_crash(typed: object) -> None:
    assert callable(typed)
    with pytest.raises(DiceError):
        typed()


@pytest.mark.parametrize("answer", ["²", "٣", HUGE, "1_0"])
def test_a_gain_answer_is_a_message_never_a_crash(answer: str) -> None:
    with pytest.raises(MadnessError) as raised:
        madness.gain(MadnessState(pow=10), "demon", {"pow": answer})
    assert raised.value.code in ("input_not_whole", "input_range")
    assert len(str(raised.value)) < 200  # the 5,000 digits are not printed back


# --- the CLI: every numeric flag of every subcommand --------------------------------------------

FLAG_VALUES = st.one_of(
    st.sampled_from([*NOT_NUMBERS, HUGE, "-1", "0", "101", "99999999999"]),
    st.text(max_size=8),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
)
CHECK = ["check", "--pow", "13", "--madness", "14", "--law", "47", "--d100", "53", "--d6", "4"]
COMMANDS = {
    "check": (
        CHECK,
        [
            "--pow",
            "--chaos",
            "--law",
            "--balance",
            "--madness",
            "--fumble-base",
            "--round-seconds",
            "--seed",
            "--d100",
            "--d6",
        ],
    ),
    "roll": (["roll", "merp-1", "--seed", "1"], ["--d100", "--pick", "--choose", "--seed"]),
}


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    command=st.sampled_from(sorted(COMMANDS)),
    flag_index=st.integers(min_value=0, max_value=9),
    value=FLAG_VALUES,
)
def test_no_flag_value_makes_a_traceback(
    command: str, flag_index: int, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    base, flags = COMMANDS[command]
    flag = flags[flag_index % len(flags)]
    argv = [*base, f"{flag}={value}"]  # flag=value: a value starting with "-" stays a value
    try:
        code = main(argv)
    except SystemExit as exit_:  # argparse's way out for a bad value
        code = exit_.code if isinstance(exit_.code, int) else 2
    _, err = capsys.readouterr()
    assert code in (0, 1, 2), (argv, err)
    if code:
        assert err.count("\n") == 1, err  # one line, no traceback
        assert len(err) < 500


def test_the_acceptance_check_with_a_superscript_two(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "check",
        "--pow",
        "13",
        "--chaos",
        "43",
        "--law",
        "47",
        "--balance",
        "32",
        "--madness",
        "14",
        "--d100",
        "²",
    ]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "--d100" in err and "'²'" in err


def test_a_5000_digit_d100_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--pow", "13", "--madness", "14", "--d100", HUGE]) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and len(err) < 300


# argv as a shell hands it over: any text but NUL, undecodable bytes as lone surrogates
ARGV_TEXT = st.text(
    alphabet=st.characters(exclude_categories=(), exclude_characters="\x00"), max_size=12
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(where=st.integers(min_value=0, max_value=6), value=ARGV_TEXT)
def test_no_text_argument_makes_a_traceback(
    where: int,
    value: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = str(tmp_path_factory.mktemp("campaigns"))
    argv = [
        ["new", value, "--dir", root],
        ["new", "Fine", "--modules", value, "--dir", root],
        ["sessions", value, "--dir", root],
        ["validate", value, "--dir", root],
        ["export", value, "--dir", root],
        ["export", "x", f"--session={value}", "--dir", root],
        ["roll", f"--seed={value}", "merp-1"],
    ][where]
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 2
    _, err = capsys.readouterr()
    assert code in (0, 1, 2), (argv, err)
    if code:
        assert err.count("\n") == 1, err
