"""The JSON form of event payloads: encoding, and decoding with every key checked.

Decoding builds one function per payload type, once (see :func:`_object_decoder`); a wrong or
missing key raises :class:`EventFormatError` naming it (``data.roll: not a roll (...)``).
:mod:`gmscreen.campaign.events` defines the payloads and reads the event around them.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from dataclasses import MISSING, fields, is_dataclass
from functools import cache
from typing import Any, Union

from gmscreen.campaign.construct import constructor
from gmscreen.code_cache import compile_source
from gmscreen.rules.dice import DiceError, Roll

Changes = dict[str, list[Any]]  # field -> [before, after], plain values


class EventFormatError(ValueError):
    """An event line that does not have the expected shape; the message names the key."""


def encode(value: Any) -> Any:
    """A payload (or any value in one) as plain JSON values; dice as ``Roll.to_dict()``."""
    if isinstance(value, Roll):
        return value.to_dict()
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, tuple | list):
        return [encode(v) for v in value]
    return value


# --- decoding, checked, with a decoder built once per type -------------------------------------

Decoder = Callable[[Any, str], Any]

# What a key holds when it is wrong, for the plain types; the generated decoders inline them.
EXPECTED: dict[type[Any], str] = {
    int: "expected a whole number",
    str: "expected text",
    bool: "expected true or false",
}


def _int(value: Any, key: str) -> int:
    if type(value) is not int:  # not isinstance: a bool is no number here
        raise EventFormatError(f"{key}: {EXPECTED[int]}")
    return value


def _str(value: Any, key: str) -> str:
    if type(value) is not str:
        raise EventFormatError(f"{key}: {EXPECTED[str]}")
    return value


def _bool(value: Any, key: str) -> bool:
    if type(value) is not bool:
        raise EventFormatError(f"{key}: {EXPECTED[bool]}")
    return value


def _roll(value: Any, key: str) -> Roll:
    try:
        return Roll.from_dict(value)
    except (KeyError, TypeError, ValueError, DiceError) as error:
        raise EventFormatError(f"{key}: not a roll ({error})") from None


def _changes(value: Any, key: str) -> Changes:
    if type(value) is not dict:
        raise EventFormatError(f"{key}: expected field -> [before, after]")
    for pair in value.values():
        if type(pair) is not list or len(pair) != 2:
            raise EventFormatError(f"{key}: expected field -> [before, after]")
    return value


def _any_dict(value: Any, key: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise EventFormatError(f"{key}: expected an object")
    return value


def _inputs(value: Any, key: str) -> dict[str, int | str]:
    if isinstance(value, dict):
        for v in value.values():
            # The exact types first: that is all JSON gives, and it is the common case.
            if type(v) is int or type(v) is str:
                continue
            if isinstance(v, bool) or not isinstance(v, int | str):
                break
        else:
            return value
    raise EventFormatError(f"{key}: expected names with numbers or text")


def _optional(tp: Any) -> Any | None:
    """The X of ``X | None``, or None if ``tp`` is not optional."""
    args = typing.get_args(tp)
    if typing.get_origin(tp) in (Union, types.UnionType) and type(None) in args:
        return next(a for a in args if a is not type(None))
    return None


@cache
def decoder(tp: Any) -> Decoder:
    """The checked decoder of values of type ``tp`` (a payload class, or a type in one)."""
    if tp in EXPECTED:
        return {int: _int, str: _str, bool: _bool}[tp]
    if tp is Roll:
        return _roll
    if tp == Changes:
        return _changes
    if tp == dict[str, Any]:
        return _any_dict
    if tp == dict[str, int | str]:
        return _inputs
    inner = _optional(tp)
    if inner is not None:
        decode = decoder(inner)
        return lambda v, k: None if v is None else decode(v, k)
    args = typing.get_args(tp)
    if typing.get_origin(tp) is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = decoder(args[0])

        def _tuple(value: Any, key: str) -> tuple[Any, ...]:
            if not isinstance(value, list):
                raise EventFormatError(f"{key}: expected a list")
            return tuple(item(v, f"{key}[{n}]") for n, v in enumerate(value))

        return _tuple
    if is_dataclass(tp):
        return _object_decoder(tp)
    raise TypeError(f"no decoder for {tp!r}")  # a programming error, caught by the tests


def _check(var: str, name: str, tp: Any, env: dict[str, Any]) -> list[str]:
    """Source lines that check (and decode) ``var``, the raw value of field ``name``."""
    inner = _optional(tp)
    kind = tp if inner is None else inner
    if kind in EXPECTED:  # inline: a call per field is most of the cost of a small payload
        env[kind.__name__] = kind
        message = f"{name}: {EXPECTED[kind]}"
        lines = [f"if type({var}) is not {kind.__name__}:", f"    raise Error({message!r})"]
    else:
        env[f"decode_{var}"] = decoder(kind)
        lines = [f"{var} = decode_{var}({var}, {name!r})"]
    if inner is None:
        return lines
    return [f"if {var} is not None:", *(f"    {line}" for line in lines)]


def _object_decoder(tp: Any) -> Decoder:
    """One function for the dataclass ``tp``: each field read, checked and passed in order.

    Generated once per type (as attrs and cattrs do) so that decoding a payload is one call with
    the checks inline, not a closure per field. It behaves as a loop over the fields would: the
    first bad field in field order is the one named, as ``<key>.<field>: <what was expected>``;
    a missing field names every missing one.
    """
    hints = typing.get_type_hints(tp)
    env: dict[str, Any] = {"Error": EventFormatError, "tp": constructor(tp)}
    body: list[str] = []
    required: list[str] = []
    for n, f in enumerate(fields(tp)):
        var = f"v{n}"
        check = _check(var, f.name, hints[f.name], env)
        if f.default is MISSING and f.default_factory is MISSING:
            required.append(f.name)
            body += [f"{var} = value[{f.name!r}]", *check]
            continue
        # Fields with a default were added later: older journals may leave them out.
        if f.default is not MISSING:
            env[f"default_{var}"], default = f.default, f"default_{var}"
        else:
            env[f"default_{var}"], default = f.default_factory, f"default_{var}()"
        body += [f"if {f.name!r} in value:", f"    {var} = value[{f.name!r}]"]
        body += [f"    {line}" for line in check]
        body += ["else:", f"    {var} = {default}"]
    env["required"] = tuple(required)
    args = ", ".join(f"v{n}" for n in range(len(fields(tp))))
    lines = [
        "def decode(value, key):",
        "    if type(value) is not dict:",
        '        raise Error(f"{key}: expected an object")',
        "    try:",
        *(f"        {line}" for line in body),
        f"        return tp({args})",
        "    except KeyError:",  # only value[name] raises it: the nested decoders convert theirs
        "        missing = [n for n in required if n not in value]",
        """        raise Error(f"{key}: missing {', '.join(missing)}") from None""",
        "    except Error as error:",
        '        raise Error(f"{key}.{error}") from None',
    ]
    exec(compile_source("\n".join(lines), f"<decoder of {tp.__qualname__}>"), env)
    return typing.cast(Decoder, env["decode"])
