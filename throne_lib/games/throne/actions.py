"""Actions and events: small frozen values with a text form (R-BOARD-6 cell names).

Action text forms::

    move b2 b3            attack d5 d6          play fireball e5
    play shield_wall c2   summon c2 militia c3  captain c2
    pick rivet_captain c3 cancel                extra c2
    skill d1 e5           build c3 turret       shuffle
    end                   replace fireball      keep
    found militia_camp b2
"""

from __future__ import annotations

import operator
from dataclasses import asdict, dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from throne_lib.compiled import reduce_dataclass
from throne_lib.games.throne.board import Geometry, geometry

# kind -> the fields its text names, in order ("cell", "target", "card")
ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "move": ("cell", "target"),
    "attack": ("cell", "target"),
    "play": ("card", "target?"),
    "summon": ("cell", "card", "target"),
    "captain": ("cell",),
    "pick": ("card", "target"),
    "cancel": (),
    "extra": ("cell",),
    "skill": ("cell", "target?"),
    "build": ("cell", "card"),
    "shuffle": (),
    "end": (),
    "replace": ("card",),
    "keep": (),
    "found": ("card", "target"),
}


# An action's fields as they are, whatever their annotations say (Action.__post_init__).
_FIELD_VALUES = operator.attrgetter("kind", "cell", "target", "card")


# A plain Python class even in the compiled build (docs/speed.md): a compiled class would
# check the field types itself, with mypyc's message, and take ``True`` for the int 1; the
# checks below, with their messages, are the contract (tests/test_harden_actions.py).
@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Action:
    """One legal move of a player. ``cell``/``target`` are cell indices or -1.

    The field types are checked when an action is built (``TypeError``; an unknown kind
    is a ``ValueError``), so a float cell such as ``0.0`` — equal to ``0`` and hashing
    alike — can never pass the legality check and then break the engine half-way.
    Whether a cell lies on the board is the match's question (``IllegalAction``).
    """

    kind: str
    cell: int = -1
    target: int = -1
    card: str = ""

    def __post_init__(self) -> None:
        # The fields as they are (Any), not as annotated: compiled, ``self.cell`` would be
        # converted to the annotated int first (mypyc's TypeError; True taken for 1).
        kind, cell, target, card = _FIELD_VALUES(self)
        # ``type(x) is int`` rejects bool, float and numpy ints in one cheap test
        if (
            type(cell) is not int
            or type(target) is not int
            or type(card) is not str
            or type(kind) is not str
        ):
            _bad_types(self)
        if kind not in ACTION_FIELDS:
            raise ValueError(f"unknown action kind {kind!r}; kinds: {', '.join(ACTION_FIELDS)}")

    def text(self, geo: Geometry | None = None) -> str:
        g = geo or geometry()
        parts = [self.kind]
        for f in ACTION_FIELDS[self.kind]:
            name = f.rstrip("?")
            value = getattr(self, name)
            if name == "card":
                parts.append(value)
            elif 0 <= value < g.size:
                parts.append(g.name(value))
            elif value != -1:  # off the board: still printable, for the error message
                parts.append(f"#{value}")
        return " ".join(parts)

    def __str__(self) -> str:
        return self.text()

    @classmethod
    def from_text(cls, text: str, geo: Geometry | None = None) -> Action:
        if not isinstance(text, str):
            raise TypeError(f"an action text is a str, not {type(text).__name__} {text!r}")
        g = geo or geometry()
        words = text.split()
        if not words or words[0] not in ACTION_FIELDS:
            raise ValueError(f"unknown action {text!r}; kinds: {', '.join(ACTION_FIELDS)}")
        kind, rest = words[0], words[1:]
        fields = ACTION_FIELDS[kind]
        required = [f for f in fields if not f.endswith("?")]
        if not len(required) <= len(rest) <= len(fields):
            raise ValueError(f"action {text!r}: '{kind}' takes {' '.join(fields) or 'nothing'}")
        values: dict[str, Any] = {}
        for f, word in zip(fields, rest, strict=False):
            name = f.rstrip("?")
            values[name] = word if name == "card" else g.parse(word)
        return cls(kind, **values)

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v not in (-1, "")}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        """The inverse of :meth:`to_dict`; ``ValueError``/``TypeError`` naming the field."""
        if not isinstance(data, dict):
            raise TypeError(f"an action is a JSON object, got {type(data).__name__}")
        unknown = sorted(set(data) - {"kind", "cell", "target", "card"})
        if unknown:
            raise ValueError(f"unknown action field(s): {', '.join(map(str, unknown))}")
        if "kind" not in data:
            raise ValueError("an action needs a 'kind'")
        return cls(**data)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return reduce_dataclass(self)  # pickled as a constructor call (compiled.py)


def _bad_types(a: Action) -> None:
    for name, want in (("kind", str), ("cell", int), ("target", int), ("card", str)):
        value = getattr(a, name)
        if type(value) is not want:
            raise TypeError(
                f"Action.{name} must be {want.__name__}, got {type(value).__name__} {value!r:.40}"
            )


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened; the 战报 and the analytics read these."""

    kind: str
    round: int
    side: int
    actor: str = ""  # card id of the acting unit or played card
    cell: int = -1
    target: str = ""  # card id of the unit acted upon
    target_cell: int = -1
    amount: int = 0
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        d = {"kind": self.kind, "round": self.round, "side": self.side}
        for k, default in _EVENT_DEFAULTS:
            v = getattr(self, k)
            if v != default:  # cell 0 (a1) is a real cell: compare with each field's default
                d[k] = v
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        return cls(**data)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return reduce_dataclass(self)  # pickled as a constructor call (compiled.py)


_EVENT_DEFAULTS: tuple[tuple[str, object], ...] = (
    ("actor", ""),
    ("cell", -1),
    ("target", ""),
    ("target_cell", -1),
    ("amount", 0),
    ("note", ""),
)
