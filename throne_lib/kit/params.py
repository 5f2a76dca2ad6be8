"""Rule overrides read from outside (a log header, a JSON file): checked against the
rules dataclass's field types before they reach the engine.

A log header's ``options.rules`` is a JSON object of the fields that differ from the
rulebook. An unknown key, a string where a number belongs or a list where an object
belongs must be a ``ValueError`` naming the key and the expected type (the log reader
turns it into ``FILE:1``), not a ``TypeError`` deep inside a turn.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any


def _fits(value: Any, kind: Any) -> bool:
    origin = typing.get_origin(kind)
    if kind is Any:
        return True
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, k) for k in typing.get_args(kind))
    if kind is type(None):
        return value is None
    if kind is bool:
        return isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind is str:
        return isinstance(value, str)
    if origin in (tuple, list):
        args = typing.get_args(kind)
        if not isinstance(value, list | tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_fits(v, args[0]) for v in value)
        if args and origin is tuple:
            return len(args) == len(value) and all(
                _fits(v, a) for v, a in zip(value, args, strict=True)
            )
        return True
    if origin is dict or kind is dict:
        return isinstance(value, Mapping)
    if dataclasses.is_dataclass(kind):
        return isinstance(value, Mapping | kind)
    return True  # a type this checker does not know: the dataclass checks it


def _name(kind: Any) -> str:
    return getattr(kind, "__name__", None) or str(kind).replace("typing.", "")


def check_overrides(cls: type, data: object, what: str) -> dict[str, Any]:
    """``data`` as a dict of overrides of the dataclass ``cls``: a JSON object whose keys
    are fields of ``cls`` and whose values fit the fields' types (an int is a float, a
    list a tuple; nested dataclasses are objects, checked by their own reader). Raises
    ``ValueError`` naming ``what``, the key and the expected type."""
    if not isinstance(data, Mapping):
        raise ValueError(f"{what}: expected an object of rule overrides, got {type(data).__name__}")
    hints = typing.get_type_hints(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key not in names:
            raise ValueError(f"{what}: unknown rule parameter {key!r}")
        if not _fits(value, hints[key]):
            raise ValueError(
                f"{what}: {key} must be {_name(hints[key])}, got {type(value).__name__} {value!r:.40}"
            )
        out[key] = value
    return out
