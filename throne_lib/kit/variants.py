"""Rule variants from the command line: ``--set field=value`` against a game's rules dataclass.

A game registers its rule parameters once (``Game.rules``: the default instance of a
frozen dataclass, or the class when its defaults are the rulebook's, or "module:attr"); ``throne simulate --set …`` and ``throne compare
--set …`` change its fields and hand the result to the match as ``options["rules"]``.
Each value is read by the field's declared type:

- ``int``, ``float``: a number (``base_mana=6``, ``ratio=0.5``);
- ``bool``: ``true/false``, ``yes/no``, ``1/0``, ``on/off``;
- ``str``: the text as given; an ``Enum``: a member's name or value; a ``Literal``: one
  of its values;
- ``X | None``: ``none`` (or ``null``) for None, else an ``X``;
- ``tuple[T, ...]``: comma-separated items (``shuffle_costs=2,4,6``); a tuple of pairs:
  ``name:value`` items (``rarity_limits=普通:5,限定:4``); a fixed tuple likewise;
- anything (also ``dict`` fields such as a role table): a JSON value (``[…]``, ``{…}``).

A nested rules dataclass is reached by a dotted path (城池战: ``base.max_rounds=30``).
An unknown field or a value that does not fit is a :class:`VariantError` (a
``ValueError``) naming the field, the expected type and the valid fields — the command
line prints it as one line, never a traceback.

>>> from throne_lib.kit import registry
>>> changes = parse_sets(registry.get("throne"), ["base_mana=6", "shuffle_costs=1,2"])
>>> changes
{'base_mana': 6, 'shuffle_costs': (1, 2)}
>>> rules = apply_changes(default_rules(registry.get("throne")), changes)
>>> rules.base_mana, rules.shuffle_costs
(6, (1, 2))
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import importlib.util
import json
import sys
import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from throne_lib.kit import registry

_TRUE = ("true", "yes", "1", "on")
_FALSE = ("false", "no", "0", "off")
_NONE = ("none", "null")


class VariantError(ValueError):
    """A ``--set`` that names no field of the game's rules or gives a value that does not
    fit the field's type."""


def default_rules(game: registry.Game) -> Any:
    """``game``'s default rule parameters (``Game.rules``); a :class:`VariantError` when
    the game registers none."""
    rules = game.hook("rules")
    if isinstance(rules, type) and dataclasses.is_dataclass(rules):
        rules = rules()  # a class whose defaults are the rulebook's
    if rules is None or not dataclasses.is_dataclass(rules):
        raise VariantError(f"{game.name} registers no rule parameters (Game.rules) to --set")
    return rules


def field_types(cls: type) -> dict[str, Any]:
    """The declared type of every field of the dataclass ``cls`` (resolved from the
    string annotations of ``from __future__ import annotations`` modules; a compiled
    class without ``__annotations__`` is read from ``dataclasses.fields`` too)."""
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001 - fall back to evaluating each field's type text
        hints = {}
    bare = (tuple, dict, list)  # a compiled (mypyc) class keeps only the bare class
    if hints and not any(hints.get(f.name) in bare for f in dataclasses.fields(cls)):
        return hints
    module = sys.modules.get(cls.__module__)
    space: dict[str, Any] = {**vars(typing), **(vars(module) if module else {})}
    source = _source_annotations(cls)
    out: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        kind = source.get(f.name, hints.get(f.name, f.type))
        if isinstance(kind, str):
            try:
                kind = eval(kind, space)  # noqa: S307 - a type annotation of our own class
            except Exception:  # noqa: BLE001 - unknown: read the value as JSON
                kind = Any
        out[f.name] = kind
    return out


def _source_annotations(cls: type) -> dict[str, str]:
    """The annotation texts of ``cls``'s fields in its module's ``.py`` source (which a
    compiled build keeps beside the extension module); {} when there is none."""
    spec = importlib.util.find_spec(cls.__module__)
    origin = Path(spec.origin) if spec is not None and spec.origin else None
    if origin is None:
        return {}
    path = origin.parent / (cls.__module__.rpartition(".")[2] + ".py")
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            return {
                item.target.id: ast.unparse(item.annotation)
                for item in node.body
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
            }
    return {}


def type_name(kind: Any) -> str:
    """A short name of a type for the error messages: ``int``, ``tuple[int, ...]``."""
    if isinstance(kind, type) and not typing.get_args(kind):
        return kind.__name__
    return str(kind).replace("typing.", "").replace("NoneType", "None")


def describe_fields(rules: Any, prefix: str = "") -> list[str]:
    """``name (type, default value)`` of every field of ``rules``, nested ones dotted."""
    out = []
    hints = field_types(type(rules))
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            out += describe_fields(value, f"{prefix}{f.name}.")
            continue
        shown = f"{value!r}" if len(repr(value)) <= 24 else repr(value)[:21] + "..."
        out.append(f"{prefix}{f.name} ({type_name(hints[f.name])}, {shown})")
    return out


def _valid(rules: Any) -> str:
    return "valid fields: " + "; ".join(describe_fields(rules))


def parse_value(text: str, kind: Any, name: str) -> Any:
    """``text`` read as a value of type ``kind`` (see the module docstring);
    :class:`VariantError` naming ``name`` and the type otherwise."""
    try:
        return _parse(text.strip(), kind)
    except (ValueError, TypeError, KeyError, json.JSONDecodeError):
        raise VariantError(
            f"--set {name}={text}: expected {type_name(kind)}{_example(kind)}"
        ) from None


def _example(kind: Any) -> str:
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if kind is bool:
        return " (true or false)"
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return f" (one of {', '.join(m.name for m in kind)})"
    if origin is typing.Literal:
        return f" (one of {', '.join(map(str, args))})"
    if origin is tuple:
        inner = args[0] if args else Any
        if typing.get_origin(inner) is tuple:
            return " (items name:value separated by commas, or JSON)"
        return " (items separated by commas, or JSON)"
    if origin is dict or kind is dict:
        return " (a JSON object)"
    return ""


def _parse(text: str, kind: Any) -> Any:
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if kind is Any:
        return json.loads(text)
    if origin in (typing.Union, types.UnionType):
        if type(None) in args and text.lower() in _NONE:
            return None
        for k in args:
            if k is type(None):
                continue
            try:
                return _parse(text, k)
            except (ValueError, TypeError, KeyError):
                continue
        raise ValueError(text)
    if kind is bool:
        low = text.lower()
        if low in _TRUE or low in _FALSE:
            return low in _TRUE
        raise ValueError(text)
    if kind is int:
        return int(text)
    if kind is float:
        return float(text)
    if kind is str:
        return text
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        for m in kind:
            if text in (m.name, str(m.value)):
                return m
        raise ValueError(text)
    if origin is typing.Literal:
        for a in args:
            if text == str(a):
                return a
        raise ValueError(text)
    if origin is tuple:
        if text.startswith("["):
            return _from_json(json.loads(text), kind)
        items = [t.strip() for t in text.split(",")] if text else []
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_item(t, args[0]) for t in items)
        if len(items) != len(args):
            raise ValueError(text)
        return tuple(_parse(t, a) for t, a in zip(items, args, strict=True))
    if origin in (dict, list) or kind in (dict, list):
        return _from_json(json.loads(text), kind)
    return json.loads(text)


def _item(text: str, kind: Any) -> Any:
    """One comma-separated item of a tuple: a fixed tuple's parts split by ``:``."""
    if typing.get_origin(kind) is tuple:
        parts = typing.get_args(kind)
        words = text.split(":")
        if len(words) != len(parts):
            raise ValueError(text)
        return tuple(_parse(w.strip(), a) for w, a in zip(words, parts, strict=True))
    return _parse(text, kind)


def _from_json(value: Any, kind: Any) -> Any:
    """A JSON value as the field's type: lists to tuples, object keys to the key type."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is tuple:
        if not isinstance(value, list):
            raise TypeError(value)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_from_json(v, args[0]) for v in value)
        if len(value) != len(args):
            raise ValueError(value)
        return tuple(_from_json(v, a) for v, a in zip(value, args, strict=True))
    if origin is dict:
        if not isinstance(value, dict):
            raise TypeError(value)
        kk, vk = args if args else (Any, Any)
        return {_from_json(_key(k, kk), kk): _from_json(v, vk) for k, v in value.items()}
    if kind is int and (not isinstance(value, int) or isinstance(value, bool)):
        raise TypeError(value)
    if kind is float and (not isinstance(value, int | float) or isinstance(value, bool)):
        raise TypeError(value)
    if kind is str and not isinstance(value, str):
        raise TypeError(value)
    if kind is bool and not isinstance(value, bool):
        raise TypeError(value)
    return value


def _key(key: str, kind: Any) -> Any:
    return int(key) if kind is int else key


def parse_sets(game: registry.Game, sets: Iterable[str]) -> dict[str, Any]:
    """``["field=value", …]`` as ``{field: typed value}`` against ``game``'s rules (a
    nested field as ``outer.inner``); a later ``--set`` of the same field wins."""
    rules = default_rules(game)
    out: dict[str, Any] = {}
    for item in sets:
        name, eq, text = item.partition("=")
        name = name.strip()
        if not eq or not name:
            raise VariantError(f"--set {item!r}: expected field=value; {_valid(rules)}")
        owner, leaf = _owner(rules, name, game)
        kind = field_types(type(owner))[leaf]
        out[name] = parse_value(text, kind, name)
    return out


def _owner(rules: Any, path: str, game: registry.Game) -> tuple[Any, str]:
    """The (nested) rules object holding the dotted field ``path`` and its last name."""
    obj = rules
    parts = path.split(".")
    for i, part in enumerate(parts):
        names = [f.name for f in dataclasses.fields(obj)]
        if part not in names:
            raise VariantError(f"--set {path}: {game.name} has no rule field {path!r}; {_valid(rules)}")  # fmt: skip
        if i == len(parts) - 1:
            return obj, part
        obj = getattr(obj, part)
        if not dataclasses.is_dataclass(obj):
            raise VariantError(f"--set {path}: {'.'.join(parts[: i + 1])} has no fields; {_valid(rules)}")  # fmt: skip
    raise AssertionError(path)  # pragma: no cover - the loop returns


def apply_changes(rules: Any, changes: Mapping[str, Any]) -> Any:
    """``rules`` with the (dotted) fields of ``changes`` replaced; the dataclass's own
    checks (ranges, consistency) run and their error names the change."""
    nested: dict[str, dict[str, Any]] = {}
    flat: dict[str, Any] = {}
    for name, value in changes.items():
        head, dot, rest = name.partition(".")
        if dot:
            nested.setdefault(head, {})[rest] = value
        else:
            flat[name] = value
    for head, inner in nested.items():
        flat[head] = apply_changes(flat.get(head, getattr(rules, head)), inner)
    if not flat:
        return rules
    try:
        return dataclasses.replace(rules, **flat)
    except (ValueError, TypeError) as exc:
        shown = ", ".join(f"{k}={v!r}" for k, v in changes.items())
        raise VariantError(f"--set {shown}: {exc}") from None


def rules_value(game: registry.Game, value: Any) -> Any:
    """The rules object an ``options["rules"]`` value stands for: the default when None,
    itself when an instance, else the default with its (already typed) overrides — a
    dict or a tuple of ``(field, value)`` pairs, as a game's own options give them."""
    base = default_rules(game)
    if value is None:
        return base
    if isinstance(value, type(base)):
        return value
    pairs = dict(value.items() if isinstance(value, Mapping) else value)
    return apply_changes(base, pairs)


def with_changes(game: registry.Game, options: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:  # fmt: skip
    """Match ``options`` with ``changes`` applied to their rules (the game's defaults when
    they name none); unchanged options when there is nothing to change."""
    out = dict(options)
    if changes:
        out["rules"] = apply_changes(rules_value(game, out.get("rules")), changes)
    return out


def changes_text(changes: Mapping[str, Any]) -> str:
    """The changes as one JSON object (tuples as lists), sorted: a results column."""
    return json.dumps(_jsonable(dict(changes)), ensure_ascii=False, sort_keys=True)


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, enum.Enum):
        return value.name
    return value


def check_variant(
    game: registry.Game,
    changes: Mapping[str, Any],
    setups: Sequence[Any] | None = None,
    options: Mapping[str, Any] | None = None,
) -> None:
    """Build one match of ``game`` with the changed rules (``setups``, default the game's
    for its fewest seats; seed 0; the other ``options`` as given): a value the dataclass
    accepts but the engine refuses at setup fails here, once, with the change named, not
    in every worker."""
    if not changes:
        return
    opts = with_changes(game, dict(options or {}), changes)
    if setups is None:
        if game.default_setups is None:
            return
        setups = game.default_setups(game.seats[0])
    try:
        game.new(list(setups), 0, **opts)
    except (ValueError, TypeError, KeyError) as exc:
        shown = ", ".join(f"{k}={v!r}" for k, v in changes.items())
        raise VariantError(f"--set {shown}: the game refuses it: {exc}") from None
