"""Run one madness check without the screen, e.g. to test a ruling or a house setting."""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from typing import Any

from gmscreen.cli.common import SEED, number_flag, say
from gmscreen.rules import dice
from gmscreen.rules.dice import DiceError, Roll
from gmscreen.rules.madness import DAY, MAX_STAT, MadnessError, MadnessState, madness_after_episode
from gmscreen.rules.madness_check import CheckSequence
from gmscreen.text import json_text


def configure(parser: argparse.ArgumentParser) -> None:
    def whole(flag: str, high: int | None = MAX_STAT, low: int = 0) -> Callable[[str], int]:
        return number_flag(flag, low=low, high=high)

    parser.add_argument("--pow", type=whole("--pow"), required=True, help="the character's POW")
    parser.add_argument("--chaos", type=whole("--chaos"), default=0, help="Chaos points")
    parser.add_argument("--law", type=whole("--law"), default=0, help="Law points")
    parser.add_argument("--balance", type=whole("--balance"), default=0, help="Balance points")
    parser.add_argument(
        "--madness", type=whole("--madness", None), required=True, help="current Madness Points"
    )
    parser.add_argument(
        "--d100", default="", help="comma list of d100 rolls, one per step (00 is 100)"
    )
    parser.add_argument("--d6", default=None, help="the 1d6 for the kind of madness")
    parser.add_argument(
        "--fumble-base",
        type=whole("--fumble-base", 100),
        default=1,
        help="fumble chance in %% at POW",
    )
    parser.add_argument(
        "--round-seconds",
        type=whole("--round-seconds", DAY, 1),
        default=12,
        help="length of a round",
    )
    parser.add_argument("--seed", type=SEED, default=None, help="seed for the dice not given")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _step_dict(step: Any) -> dict[str, Any]:
    return {
        "roll": step.roll.total,
        "source": step.roll.source,
        "target": step.target,
        "target_value": step.target_value,
        "fumble_chance": step.fumble_chance,
        "fumble_from": step.fumble_from,
        "outcome": step.outcome,
        "madness_before": step.before.madness,
        "madness_after": step.after.madness,
    }


def _result(seq: CheckSequence, start: MadnessState) -> dict[str, Any]:
    result: dict[str, Any] = {
        "due": bool(seq.steps),
        "outcome": seq.outcome,
        "pow": start.pow,
        "madness_before": start.madness,
        "steps": [_step_dict(s) for s in seq.steps],
        "madness": seq.state.madness,
    }
    if seq.episode is not None:
        ep = seq.episode
        result.update(
            kind=ep.kind,
            kind_roll=ep.kind_roll.to_dict(),
            permanent=ep.permanent,
            duration={"amount": ep.amount, "unit": ep.unit},
            unit_value=ep.unit_value,
            madness_after_episode=madness_after_episode(seq.state),
        )
    return result


def _text(result: dict[str, Any]) -> str:
    if not result["due"]:
        return f"No check is due: madness {result['madness_before']} is below POW {result['pow']}."
    lines = [f"Madness {result['madness_before']} against POW {result['pow']}: a check is due."]
    for n, s in enumerate(result["steps"], 1):
        low = s["fumble_from"]
        fumbles = "none" if low > 100 else "00" if low == 100 else f"{low}-00"
        lines.append(
            f"Roll {n}: {s['roll']} under {s['target'].capitalize()} {s['target_value']} "
            f"(fumbles: {fumbles}): {s['outcome']}; madness {s['madness_before']} -> {s['madness_after']}"
        )
    if "kind" in result:
        d = result["duration"]
        lines.append(
            f"{result['kind'].capitalize()} for {d['amount']} {d['unit']}"
            + (", and it stays as a permanent madness" if result["permanent"] else "")
            + f"; then madness becomes {result['madness_after_episode']}."
        )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        typed_rolls = [dice.typed("d100", v) for v in args.d100.split(",") if v.strip()]
    except DiceError as error:
        say(f"gmscreen check: error: --d100: {error}", error=True, one_line=True)
        return 2
    try:
        kind_roll = dice.typed("1d6", args.d6) if args.d6 is not None else None
    except DiceError as error:
        say(f"gmscreen check: error: --d6: {error}", error=True, one_line=True)
        return 2
    try:
        start = MadnessState(
            pow=args.pow, chaos=args.chaos, law=args.law, balance=args.balance, madness=args.madness
        )
        rng = random.Random(args.seed)
        seq = CheckSequence(start, fumble_base=args.fumble_base, round_seconds=args.round_seconds)
        while seq.phase == "roll":
            d100: Roll = typed_rolls.pop(0) if typed_rolls else dice.roll("d100", rng)
            seq.roll(d100)
        if seq.phase == "kind":
            seq.choose_kind(kind_roll if kind_roll is not None else dice.roll("1d6", rng))
    except (DiceError, MadnessError) as error:
        say(f"gmscreen check: error: {error}", error=True, one_line=True)
        return 2
    result = _result(seq, start)
    say(json_text(result) if args.json else _text(result))
    return 0
