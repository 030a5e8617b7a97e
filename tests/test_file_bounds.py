"""Files are bounded: huge numbers, huge texts and deep nesting in campaign.toml, a journal or an
item tree are one message naming the file and line, never a traceback (README, "Limits").
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from gmscreen.campaign import CampaignFileError, InvalidAction, open_campaign
from gmscreen.campaign import events as ev
from gmscreen.campaign.bounds import MAX_CLOCK, MAX_LINE, MAX_NAME, MAX_TEXT
from gmscreen.campaign.model import Campaign, Character
from gmscreen.campaign.reducer import ReplayError, apply
from gmscreen.campaign.store import load, write_checkpoint
from gmscreen.rules.madness import MadnessState

HUGE = "9" * 5000  # Python's int() refuses past 4,300 digits; msgspec past 64 bits
DEEP = 10_000


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    folder = tmp_path / "camp"
    folder.mkdir()
    chars = (Character("artinar", "Artinar", MadnessState(pow=13, chaos=43, law=47)),)
    start = Campaign(name="Bounds", characters=chars)
    write_checkpoint(folder, start)
    with open_campaign(folder, rng=random.Random(1)) as live:
        live.gain("artinar", "custom", {"amount": 3})
        live.note("the bridge")
        live.note("the river")
    write_checkpoint(folder, start)  # as after a crash: opening replays every event
    return folder


def _problems(folder: Path) -> list[str]:
    with pytest.raises(CampaignFileError) as info:
        load(folder)
    return [str(p) for p in info.value.problems]


def _toml(folder: Path, old: str, new: str) -> None:
    path = folder / "campaign.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _line_of(folder: Path, needle: str) -> int:
    lines = (folder / "campaign.toml").read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, start=1) if needle in line)


# --- campaign.toml -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "needle", "message"),
    [
        ("pow = 13", f"pow = {HUGE}", "pow =", "number out of range"),
        ("clock = 0", f"clock = {HUGE}", "clock =", "number out of range"),
        ("clock = 0", "clock = -1", "clock =", "clock: must be from 0 to"),
        ("clock = 0", f"clock = {MAX_CLOCK + 1}", "clock =", "clock: must be from 0 to"),
        ('name = "Artinar"', f'name = "{"x" * (MAX_NAME + 1)}"', 'name = "x', "name: too long"),
        ('name = "Bounds"', f'name = "{"x" * (MAX_NAME + 1)}"', 'name = "x', "name: too long"),
        ('notes = ""', f'notes = "{"n" * (MAX_TEXT + 1)}"', "notes =", "notes: too long"),
        (
            "pow = 13",
            "pow = 13\npermanent = [" + "[" * DEEP + "]" * DEEP + "]",
            "permanent",
            "deep",
        ),
    ],
)
def test_bounds_in_campaign_toml_are_messages_with_a_line(
    campaign: Path, old: str, new: str, needle: str, message: str
) -> None:
    _toml(campaign, old, new)
    (problem,) = _problems(campaign)
    assert f"campaign.toml:{_line_of(campaign, needle)}:" in problem
    assert message in problem


def _item_tree(campaign: Path, tree: str) -> None:
    item = (
        f"""inventory = [{{id = "merp-1-1", table = "merp-1", title = "Sword", tree = '{tree}'}}]"""
    )
    _toml(campaign, "inventory = []", item)


@pytest.mark.parametrize(
    ("tree", "message"),
    [
        ('{"a":' * DEEP + "1" + "}" * DEEP, "inventory[0].tree: nested more than 64 deep"),
        ('{"a":' * 100 + "1" + "}" * 100, "inventory[0].tree: tree" + ".a" * 64),
        (f'{{"a":{HUGE}}}', "inventory[0].tree: tree.…: number out of range"),
        (f'{{"a":{2**60}}}', "inventory[0].tree: tree.a: number out of range"),
        ('{"a":"' + "x" * (MAX_TEXT + 1) + '"}', "inventory[0].tree: tree.a: too long"),
    ],
    ids=["10000 deep", "100 deep", "huge number", "number past", "long text"],
)
def test_an_item_tree_past_the_bounds_is_a_message(campaign: Path, tree: str, message: str) -> None:
    _item_tree(campaign, tree)
    (problem,) = _problems(campaign)
    assert "campaign.toml:" in problem and message in problem


def test_a_100_mb_checkpoint_is_refused_without_reading_it_as_toml(campaign: Path) -> None:
    _toml(campaign, 'notes = ""', f'notes = "{"n" * 100_000_000}"')
    (problem,) = _problems(campaign)
    assert "campaign.toml: is larger than gmscreen reads" in problem


# --- journals ----------------------------------------------------------------------------------


def _journal(folder: Path) -> Path:
    return next((folder / "sessions").glob("*.jsonl"))


def _edit_event(folder: Path, number: int, edit: dict[str, object], data: bool = False) -> None:
    """Line ``number`` of the journal (1 is the header) with ``edit`` merged into it."""
    path = _journal(folder)
    lines = path.read_bytes().split(b"\n")
    raw = json.loads(lines[number - 1])
    (raw["data"] if data else raw).update(edit)
    lines[number - 1] = json.dumps(raw, ensure_ascii=False, separators=(",", ":")).encode()
    path.write_bytes(b"\n".join(lines))


def _raw_event(folder: Path, number: int, old: bytes, new: bytes) -> None:
    path = _journal(folder)
    lines = path.read_bytes().split(b"\n")
    assert old in lines[number - 1]
    lines[number - 1] = lines[number - 1].replace(old, new, 1)
    path.write_bytes(b"\n".join(lines))


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (b'"game":0', b'"game":' + HUGE.encode(), "game: number out of range"),
        (b'"game":0', b'"game":-1', "game: must be at least 0"),
        (
            b'"game":0',
            b'"game":' + str(MAX_CLOCK + 1).encode(),
            f"game: must be at most {MAX_CLOCK}",
        ),
        (b'"amount":3', b'"amount":' + HUGE.encode(), "data.inputs.…: number out of range"),
        (b'"seq":1', b'"seq":' + str(2**60).encode(), "seq: must be at most"),
        (b"[0,3]", b"[0," + HUGE.encode() + b"]", "data.changes.…[1]: number out of range"),
        (b"[0,3]", b"[0," + str(2**60).encode() + b"]", "data.changes.madness[1]: number out of"),
        (b"[0,3]", b"[0," + b"[" * DEEP + b"]" * DEEP + b"]", "nested more than 64 deep"),
        (b"[0,3]", b"[0," + b"[" * 100 + b"]" * 100 + b"]", "nested more than 64 deep"),
    ],
    ids=[
        "huge game",
        "negative game",
        "game past",
        "huge amount",
        "seq past",
        "huge change",
        "change past",
        "10000 deep",
        "100 deep",
    ],
)
def test_bounds_in_a_journal_line_are_messages_with_the_line(
    campaign: Path, old: bytes, new: bytes, message: str
) -> None:
    _raw_event(campaign, 2, old, new)  # the gain: not the last line, so not a torn one
    (problem,) = _problems(campaign)
    assert f"{_journal(campaign).name}:2: not a gmscreen event: " in problem
    assert message in problem


def test_a_long_note_in_a_journal_is_named(campaign: Path) -> None:
    _edit_event(campaign, 3, {"text": "n" * (MAX_TEXT + 1)}, data=True)
    (problem,) = _problems(campaign)
    assert f":3: not a gmscreen event: data.text: too long: more than {MAX_TEXT:,}" in problem


def test_a_100_mb_string_in_a_journal_line_is_refused_by_its_length(campaign: Path) -> None:
    _edit_event(campaign, 3, {"text": "n" * 100_000_000}, data=True)
    (problem,) = _problems(campaign)
    assert f":3: not a gmscreen event: the line is longer than {MAX_LINE:,} bytes" in problem


def test_a_name_past_its_bound_in_an_edit_names_the_event_and_line(campaign: Path) -> None:
    long = "x" * (MAX_NAME + 1)
    _edit_event(campaign, 3, {"kind": "character_edited", "character": "artinar"})
    _edit_event(campaign, 3, {"data": {"changes": {"name": ["Artinar", long]}}})
    (problem,) = _problems(campaign)
    assert f"{_journal(campaign).name}:3: event 2 (character_edited) does not apply" in problem
    assert "name: too long" in problem


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (b'"clock":0', b'"clock":' + HUGE.encode(), "header.…: number out of range"),
        (b'"clock":0', b'"clock":' + b"[" * DEEP + b"]" * DEEP, "nested more than 64 deep"),
    ],
    ids=["huge", "deep"],
)
def test_bounds_in_a_session_header_are_messages_on_line_1(
    campaign: Path, old: bytes, new: bytes, message: str
) -> None:
    _raw_event(campaign, 1, old, new)
    (problem,) = _problems(campaign)
    assert f"{_journal(campaign).name}:1: expected a session header: {message}" in problem


# --- what the table writes stays readable ------------------------------------------------------


def _journals(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted((folder / "sessions").glob("*.jsonl")))


@pytest.mark.parametrize(
    "act",
    [
        lambda live: live.note("n" * (MAX_TEXT + 1)),
        lambda live: live.edit_character("artinar", name="n" * (MAX_NAME + 1)),
        lambda live: live.add_character("n" * (MAX_NAME + 1), 10),
    ],
    ids=["note", "edit", "add"],
)
def test_text_past_the_bound_is_refused_at_the_table_and_nothing_is_written(
    campaign: Path, act: object
) -> None:
    with (
        open_campaign(campaign, rng=random.Random(1)) as live,
        pytest.raises(InvalidAction, match=r"at most|too long"),
    ):
        act(live)  # type: ignore[operator]
    assert b"n" * (MAX_NAME + 1) not in _journals(campaign)
    assert [c.id for c in load(campaign).state.characters] == ["artinar"]


def test_an_event_a_journal_could_not_hold_is_not_applied() -> None:
    state = Campaign(name="x")
    event = ev.Event(
        1,
        1,
        "2024-05-01T20:00:00.000+00:00",
        0,
        None,
        ev.ClockAdvanced(1, "advance", 0, MAX_CLOCK + 1),
    )
    with pytest.raises(ReplayError, match=r"data\.after: must be at most"):
        apply(state, event)
