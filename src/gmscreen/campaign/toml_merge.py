"""campaign.toml written into the GM's own document: comments, key order and blank lines survive.

Reading stays ``tomllib`` (fast, and its errors give ``file:line``); writing goes through
tomlkit, which keeps a document's layout.

Values are merged three ways, on the plain values of the TOML layout (``codec.checkpoint_values``):
``base`` is what the game last wrote, ``theirs`` what the file holds now, ``ours`` the game now.
A value only the GM changed keeps the GM's; one only the game changed takes the game's; one both
changed takes the game's (the journal holds how it got there) and is named as a conflict. Lists
of tables with ids (characters, inventories) merge by id.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec
import tomlkit
from tomlkit.exceptions import TOMLKitError
from tomlkit.items import AoT, InlineTable, Table

_MISSING: Any = object()


class Merged(msgspec.Struct):
    """The merged values, and the keys (dotted) the GM changed: kept, or given up for the game's."""

    values: dict[str, Any]
    kept: list[str] = msgspec.field(default_factory=list)
    conflicts: list[str] = msgspec.field(default_factory=list)


def _keyed(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, dict) and "id" in v for v in value)


def merge_values(
    base: Mapping[str, Any], theirs: Mapping[str, Any], ours: Mapping[str, Any]
) -> Merged:
    merged = Merged({})
    merged.values = _merge_tables(base, theirs, ours, "", merged)
    return merged


def _merge_tables(
    base: Mapping[str, Any],
    theirs: Mapping[str, Any],
    ours: Mapping[str, Any],
    at: str,
    out: Merged,
) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key in [*theirs, *(k for k in ours if k not in theirs)]:
        value = _merge(
            base.get(key, _MISSING), theirs.get(key, _MISSING), ours.get(key, _MISSING),
            f"{at}.{key}" if at else str(key), out,
        )  # fmt: skip
        if value is not _MISSING:
            result[key] = value
    return result


def _merge(base: Any, theirs: Any, ours: Any, at: str, out: Merged) -> Any:
    if theirs == base:
        return ours  # the GM did not touch it
    if isinstance(base, dict) and isinstance(theirs, dict) and isinstance(ours, dict):
        return _merge_tables(base, theirs, ours, at, out)
    if _keyed(base) and _keyed(theirs) and _keyed(ours):
        by_id = {str(v["id"]): v for v in base}
        theirs_by_id = {str(v["id"]): v for v in theirs}
        ours_by_id = {str(v["id"]): v for v in ours}
        ids = [*ours_by_id, *(i for i in theirs_by_id if i not in ours_by_id and i not in by_id)]
        merged = [
            _merge(
                by_id.get(i, _MISSING), theirs_by_id.get(i, _MISSING), ours_by_id.get(i, _MISSING),
                f"{at}[{i}]", out,
            )
            for i in ids
        ]  # fmt: skip
        return [v for v in merged if v is not _MISSING]
    if ours == base:
        out.kept.append(at)
        return theirs  # only the GM changed it (or removed it: _MISSING)
    if theirs != ours:
        out.conflicts.append(at)
    return ours


def same_values(a: Any, b: Any) -> bool:
    """Equal as campaign.toml means them: lists of tables with ids in any order."""
    return bool(_normal(a) == _normal(b))


def _normal(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _normal(v) for k, v in value.items()}
    if _keyed(value):
        return {str(v["id"]): _normal(v) for v in value}
    if isinstance(value, list):
        return [_normal(v) for v in value]
    return value


def write_into(text: str, values: Mapping[str, Any]) -> str:
    """``text`` (a TOML document) with ``values`` in it, its comments and layout kept.

    Raises ``ValueError`` if tomlkit cannot take the document (the caller writes it afresh).
    """
    try:
        document = tomlkit.parse(text)
        _apply(document, values)
        return tomlkit.dumps(document)
    except TOMLKitError as error:
        raise ValueError(str(error)) from None


def _apply(table: Any, values: Mapping[str, Any]) -> None:
    for key in [k for k in table if k not in values]:
        del table[key]
    for key, value in values.items():
        if key not in table:
            table[key] = value
            continue
        current = table[key]
        if isinstance(value, dict) and isinstance(current, Table | InlineTable):
            _apply(current, value)
        elif _keyed(value) and isinstance(current, AoT):
            _apply_tables(current, value)
        elif _plain(current) != value:
            table[key] = value  # tomlkit keeps the key's place and its comment


def _plain(item: Any) -> Any:
    unwrap = getattr(item, "unwrap", None)
    return unwrap() if unwrap is not None else item


def _apply_tables(tables: Any, values: list[dict[str, Any]]) -> None:
    """An array of tables merged by id, in the order of ``values`` (the merge keeps the GM's
    order, new ones at the end); each table keeps its comments."""
    wanted = {str(v["id"]): v for v in values}
    for index in reversed(range(len(tables))):
        if str(_plain(tables[index].get("id"))) not in wanted:
            del tables[index]
    present = {str(_plain(t.get("id"))): t for t in tables}
    for key, value in wanted.items():
        if key in present:
            _apply(present[key], value)
        else:
            tables.append(value)
    if [str(_plain(t.get("id"))) for t in tables] != list(wanted):
        # One taken out and put back with its id (a horror removed, then made again) is last
        # in the game's list: the file follows, or the next opening would read another order.
        by_id = {str(_plain(t.get("id"))): t for t in tables}
        for index in reversed(range(len(tables))):
            del tables[index]
        for key in wanted:
            tables.append(by_id[key])
