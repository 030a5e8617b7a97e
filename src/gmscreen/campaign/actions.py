"""What each table action records: pure builders from the state and the rules to payloads.

Each builder returns drafts ``(character id, payload, game time)``; the live campaign stamps them with
sequence numbers and clocks, journals them, and folds them into the state.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, cast

from msgspec.structs import replace

from gmscreen.campaign import events as ev
from gmscreen.campaign.bounds import MAX_TEXT
from gmscreen.campaign.codec import settings_to_dict, validate_settings
from gmscreen.campaign.errors import InvalidAction
from gmscreen.campaign.fields import (
    EDITABLE,
    FieldError,
    character_to_dict,
    diff,
    encode_item,
    encode_merp,
    with_values,
)
from gmscreen.campaign.horrors import one_line, own_sighting
from gmscreen.campaign.model import Campaign, Character, Item, ItemNames, MerpProfile, Settings
from gmscreen.rules import madness, merp, nights
from gmscreen.rules.dice import DiceError, Roll
from gmscreen.rules.madness import MadnessError, MadnessState

Draft = tuple[str | None, ev.Payload, int]


def _sane(character: Character, sanity: MadnessState, **other: Any) -> Character:
    return replace(character, sanity=sanity, **other)


def _needs_madness(state: Campaign) -> None:
    if "madness" not in state.settings.modules:
        raise InvalidAction(code="madness_off")


def check_due(character: Character) -> bool:
    """A check is due: madness at or over POW, no kind pending, no episode under way."""
    s = character.sanity
    return madness.check_due(s) and character.awaiting_kind is None


def gain(
    state: Campaign,
    character_id: str,
    preset_key: str | None,
    inputs: Mapping[str, int | str] | None,
    roll: Roll | None,
    adjustment: int = 0,
    happened: str = "",
    *,
    horror: str | None = None,
    players: str = "",
) -> Draft:
    """One gain from a built-in preset (``preset_key`` and the GM's ``inputs``) or from the
    campaign's horror ``horror`` (its id: its preset and inputs, asking nothing, and its own
    first sighting). ``happened``: the GM's line on what happened (optional), kept in the event;
    ``players``: what the players are told it was ("a nameless dread"; optional, one line).
    """
    _needs_madness(state)
    c = state.character(character_id)
    sighting = None
    if horror is not None:
        h = state.horror(horror)
        if h is None:
            raise InvalidAction(code="horror.unknown", id=horror)
        if preset_key is not None or inputs:
            raise InvalidAction("a gain from a horror takes the horror's rule: no preset or inputs")
        preset_key, inputs = h.preset, h.inputs
        sighting = h.id if own_sighting(h) else None
    elif preset_key is None:
        raise InvalidAction("a gain needs a preset or a horror")
    try:
        g = madness.gain(
            c.sanity, preset_key, inputs, roll, madness.day_of(state.clock), adjustment, sighting
        )
    except (MadnessError, DiceError) as error:
        raise InvalidAction(str(error)).coded_like(error) from None
    data = ev.Gain(
        g.preset,
        dict(g.inputs),
        g.roll,
        g.base,
        g.adjustment,
        g.amount,
        g.first_time,
        g.day,
        diff(c, _sane(c, g.after)),
        _happened(happened),
        horror,
        _players(players),
    )
    return character_id, data, state.clock


def _players(text: str) -> str:
    """What the players are told a gain was: one line, a name's length, kept as typed."""
    try:
        return one_line(text.strip(), "players", empty_ok=True)
    except FieldError as error:
        raise InvalidAction(str(error)) from None


def _happened(text: str) -> str:
    """The what-happened line as kept: one line (trimmed), at most a note's length."""
    line = text.strip()
    if len(line) > MAX_TEXT:
        raise InvalidAction(f"a note is at most {MAX_TEXT:,} characters, not {len(line):,}")
    return line


def check_roll(state: Campaign, character_id: str, d100: Roll) -> Draft:
    _needs_madness(state)
    c = state.character(character_id)
    if c.awaiting_kind is not None:
        raise InvalidAction(code="kind_first", name=c.name)
    if c.sanity.episode is not None:
        raise InvalidAction(code="mad_already", name=c.name)
    base = state.settings.fumble_base
    try:
        r = madness.resolve_check_roll(c.sanity, d100, base)
    except (MadnessError, DiceError) as error:
        raise InvalidAction(str(error)).coded_like(error) from None
    awaiting = None if r.outcome == "success" else r.outcome
    after = _sane(c, r.after, awaiting_kind=awaiting)
    data = ev.CheckRoll(
        r.roll,
        r.target,
        r.target_value,
        base,
        r.fumble_chance,
        r.fumble_from,
        r.outcome,
        r.drop,
        r.repeat,
        diff(c, after),
    )
    return character_id, data, state.clock


def check_kind(state: Campaign, character_id: str, d6: Roll) -> Draft:
    _needs_madness(state)
    c = state.character(character_id)
    if c.awaiting_kind is None:
        raise InvalidAction(code="no_kind_due", name=c.name)
    try:
        e = madness.start_episode(
            c.sanity,
            d6,
            c.awaiting_kind == "fumble",
            state.clock,
            state.settings.round_seconds,
        )
    except (MadnessError, DiceError) as error:
        raise InvalidAction(str(error)).coded_like(error) from None
    assert e.after.episode is not None
    data = ev.EpisodeStarted(
        e.kind,
        e.kind_roll,
        e.permanent,
        e.amount,
        e.unit,
        e.unit_value,
        e.after.episode.ends_at,
        diff(c, _sane(c, e.after, awaiting_kind=None)),
    )
    return character_id, data, state.clock


# An advance across more midnights than this asks the GM first (the API: ``confirmed=True``).
ASK_ABOVE_DAYS = 30
# The game clock's bound: day 1,000,000 (some 2,700 years), far inside what the checkpoint
# reads (its clock is bounded at 2**62 seconds), so no advance can write a clock it refuses.
MAX_DAYS = 1_000_000
MAX_CLOCK = MAX_DAYS * madness.DAY


class LongAdvance(InvalidAction):
    """An advance across more than :data:`ASK_ABOVE_DAYS` midnights, not confirmed."""

    def __init__(self, days: int) -> None:
        super().__init__(code="advance_long", days=days, limit=ASK_ABOVE_DAYS)
        self.days = days


def advance(
    state: Campaign, seconds: int, reason: str, rng: random.Random, *, confirmed: bool = False
) -> list[Draft]:
    """Time passes: the clock moves, episodes end, and the nights passed recover.

    One action of few events, however long: the clock's move, each episode that ends, and one
    :class:`~gmscreen.campaign.events.DayEnded` for every midnight passed, carrying each
    character's nights in runs (:mod:`gmscreen.rules.nights`). Episodes that end by the last
    midnight come before it (a character's nights in an episode's grip change nothing, so its
    end can go first), the ones after it follow it.
    """
    if seconds <= 0:
        raise InvalidAction(code="time_forward")
    now = state.clock
    until = now + seconds
    if until > MAX_CLOCK:
        raise InvalidAction(code="clock_end", max_days=MAX_DAYS)
    days = nights.midnights(now, until)
    if days > ASK_ABOVE_DAYS and not confirmed:
        raise LongAdvance(days)
    first_day = madness.day_of(now)
    last_midnight = (first_day + days) * madness.DAY
    drafts: list[Draft] = [(None, ev.ClockAdvanced(seconds, reason, now, until), now)]
    later: list[Draft] = []
    recoveries: list[ev.Recovery] = []
    for c in state.characters:
        passage = nights.time_passes_for(c.sanity, now, until, rng)
        if passage.episode_end is not None and passage.ended is not None:
            assert c.sanity.episode is not None
            ended = _sane(c, passage.ended)
            draft = (
                c.id,
                ev.EpisodeEnded(c.sanity.episode.kind, diff(c, ended)),
                passage.episode_end,
            )
            (drafts if days and passage.episode_end <= last_midnight else later).append(draft)
        for run in passage.nights:
            before, after = _sane(c, run.before), _sane(c, run.after)
            recoveries.append(
                ev.Recovery(
                    c.id,
                    run.kind == "blocked",
                    run.roll,
                    run.amount,
                    diff(before, after),
                    day=run.day if days > 1 else None,
                    nights=run.nights,
                    episode=run.episode,
                )
            )
    # In time order, as the clock met them (at the same second, by character id).
    drafts[1:] = sorted(drafts[1:], key=lambda d: (d[2], d[0] or ""))
    later.sort(key=lambda d: (d[2], d[0] or ""))
    if days:
        drafts.append((None, ev.DayEnded(first_day, tuple(recoveries), days), last_midnight))
    return drafts + later


def unique_id(state: Campaign, wanted: str) -> str:
    base = "".join(ch if ch.isalnum() else "-" for ch in wanted.lower()).strip("-") or "pc"
    candidate, n = base, 1
    while state.has_character(candidate):
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def add_character(state: Campaign, character: Character) -> Draft:
    if not character.name.strip():
        raise InvalidAction("a character needs a name")
    if not character.id.strip() or any(ch.isspace() for ch in character.id):
        raise InvalidAction(f"{character.id!r} cannot be an id: use letters, digits and dashes")
    if state.has_character(character.id):
        raise InvalidAction(f"there is already a character with id {character.id!r}")
    return character.id, ev.CharacterAdded(character_to_dict(character)), state.clock


def edit_character(state: Campaign, character_id: str, values: Mapping[str, Any]) -> Draft | None:
    c = state.character(character_id)
    unknown = sorted(set(values) - set(EDITABLE))
    if unknown:
        raise InvalidAction(f"{unknown[0]!r} cannot be edited: edit one of {', '.join(EDITABLE)}")
    try:
        after = with_values(c, values)
    except FieldError as error:
        raise InvalidAction(str(error)).coded_like(error) from None
    if not after.name.strip():
        raise InvalidAction("a character needs a name")
    changes = diff(c, after)
    if not changes:
        return None
    return character_id, ev.CharacterEdited(changes), state.clock


def remove_character(state: Campaign, character_id: str) -> Draft:
    c = state.character(character_id)
    return character_id, ev.CharacterRemoved(character_to_dict(c)), state.clock


def note_text(text: str) -> str:
    """A note's text as kept: its lines as written (a paste of several keeps them all), each
    line break a line feed (``\r\n`` and ``\r`` from a paste are one); not blank, not longer
    than a note may be."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise InvalidAction(code="empty_note")
    if len(text) > MAX_TEXT:
        raise InvalidAction(f"a note is at most {MAX_TEXT:,} characters, not {len(text):,}")
    return text


def note(
    state: Campaign,
    text: str,
    character_id: str | None,
    shared: bool = False,
    kept: bool = False,
) -> Draft:
    """A note; ``kept``: a handout, shared and kept for the players across sessions."""
    text = note_text(text)
    if character_id is not None:
        state.character(character_id)
    return character_id, ev.Note(text, shared or kept, kept), state.clock


def merp_character(state: Campaign, character_id: str) -> Character:
    if "merp-items" not in state.settings.modules:
        raise InvalidAction(code="merp_off")
    c = state.character(character_id)
    if c.merp is None:
        raise InvalidAction(code="no_merp_profile", name=c.name)
    return c


class RollNotAllowed(InvalidAction):
    """A roll the MERP rules refuse (the roll limit, the points left), with no GM override;
    ``refused.message(lang)`` says why in the GM's language."""

    def __init__(self, refused: merp.RollRefused) -> None:
        super().__init__(refused.message("en"))
        self.refused = refused


def roll_refusal(profile: MerpProfile, table: str) -> merp.RollRefused | None:
    """Why one more roll on ``table`` is not allowed for this profile, or None if it is."""
    category = cast(merp.Category, profile.category)
    rolls = {k: v for k, v in profile.rolls.items() if k in merp.TOP_TABLES}
    try:
        merp.check_roll_allowed(category, profile.points_total, rolls, table)
    except merp.RollRefused as refused:
        return refused
    price = merp.COSTS[category][table].points
    if price > profile.points_left:
        # the profile's own count (a GM may have edited it) is the one the campaign enforces
        return merp.RollRefused("no_points", table=table, cost=price, left=profile.points_left)
    return None


def roll_cost(profile: MerpProfile, table: str, override: str | None = None) -> int:
    """What a roll on ``table`` costs this profile: the category's price, or, under a GM
    override, at most the points left."""
    try:
        price = merp.COSTS[cast(merp.Category, profile.category)][table].points
    except KeyError:
        raise InvalidAction(
            f"no price for a {profile.category!r} on {table!r}: the tables are "
            + " and ".join(merp.TOP_TABLES)
        ) from None
    return price if override is None else max(0, min(price, profile.points_left))


def paid_roll(profile: MerpProfile, table: str, override: str | None) -> tuple[int, MerpProfile]:
    """One more roll on ``table``, paid: its cost and the profile after it. The roll limit and
    the points left are enforced here, unless ``override`` names the rule refusing it (the
    GM's call, journaled by the caller); an override of a roll the rules allow is refused."""
    if override is not None and not override.strip():
        raise InvalidAction("an override names the rule it overrides")
    cost = roll_cost(profile, table, override)
    refused = roll_refusal(profile, table)
    if refused is None and override is not None:
        raise InvalidAction(f"nothing to override: the rules allow this roll ({override!r} given)")
    if refused is not None and override is None:
        raise RollNotAllowed(refused)
    if refused is not None and override != refused.key:
        raise InvalidAction(
            f"the override names {override!r}, but the rule refusing the roll is {refused.key!r}"
        )
    made = profile.rolls.get(table, 0) + 1
    after = replace(
        profile, points_spent=profile.points_spent + cost, rolls={**profile.rolls, table: made}
    )
    return cost, after


def new_item_id(character: Character, table: str, made: int) -> str:
    """``merp-1-2`` for the second roll on Table 1; a suffix if that id is taken (an item
    removed and rolled again, a roll left half way)."""
    taken = {i.id for i in (*character.inventory, *character.abandoned)}
    item_id, n = f"{table}-{made}", 1
    while item_id in taken:
        n += 1
        item_id = f"{table}-{made}-{n}"
    return item_id


def item_rolled(
    state: Campaign,
    character_id: str,
    table: str,
    title: str,
    tree: Mapping[str, Any],
    override: str | None = None,
    *,
    names: ItemNames | None = None,
) -> Draft:
    """A roll on a MERP table, paid at the category's price; the roll limit and the points left
    are enforced here, unless ``override`` names the rule refusing it (the GM's call, journaled).
    ``title``: the item's English name; ``names``: what the roll named it in every language."""
    c = merp_character(state, character_id)
    assert c.merp is not None
    cost, merp_after = paid_roll(c.merp, table, override)
    item_id = new_item_id(c, table, merp_after.rolls[table])
    item = encode_item(Item(item_id, table, title, dict(tree), names=names))
    changes = {"merp": [encode_merp(c.merp), encode_merp(merp_after)]}
    return character_id, ev.ItemRolled(item, cost, changes, override), state.clock


def item_kept(state: Campaign, character_id: str, item: Item) -> Draft:
    c = state.character(character_id)
    if c.item(item.id) is not None:
        raise InvalidAction(f"{c.name} already has item {item.id!r}")
    return character_id, ev.ItemKept(encode_item(item)), state.clock


def item_discarded(state: Campaign, character_id: str, item: Item) -> Draft:
    state.character(character_id)
    return character_id, ev.ItemDiscarded(encode_item(item)), state.clock


def _owned(state: Campaign, character_id: str, item_id: str) -> Item:
    c = state.character(character_id)
    item = c.item(item_id)
    if item is None:
        raise InvalidAction(f"{c.name} has no item {item_id!r}")
    return item


def item_note(state: Campaign, character_id: str, item_id: str, text: str) -> Draft | None:
    item = _owned(state, character_id, item_id)
    if item.notes == text:
        return None
    if len(text) > MAX_TEXT:
        raise InvalidAction(f"a note is at most {MAX_TEXT:,} characters, not {len(text):,}")
    return character_id, ev.ItemNoted(item_id, item.notes, text), state.clock


def item_removed(state: Campaign, character_id: str, item_id: str) -> Draft:
    item = _owned(state, character_id, item_id)
    return character_id, ev.ItemRemoved(encode_item(item)), state.clock


def settings_changed(state: Campaign, values: Mapping[str, Any]) -> Draft | None:
    try:
        new: Settings = validate_settings({**settings_to_dict(state.settings), **values})
    except ValueError as error:
        raise InvalidAction(str(error)).coded_like(error) from None
    old_d, new_d = settings_to_dict(state.settings, full=True), settings_to_dict(new, full=True)
    changes = {k: [old_d[k], new_d[k]] for k in old_d if old_d[k] != new_d[k]}
    if not changes:
        return None
    return None, ev.SettingsChanged(changes), state.clock
