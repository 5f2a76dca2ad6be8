"""Actions and events of a PIN match: small frozen values with text and dict forms.

An action's text is ``KIND ARG...`` (``deploy anv_tanks 002``, ``attack u7 hq1 爆炸``);
:func:`parse_action` reads it back. Units are named ``u7``, HQs ``hq0``/``hq1``, cells by
their three-digit number, cards by id.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

KINDS: dict[str, int] = {  # kind -> number of arguments
    "mulligan": 1,  # PIN-SETUP-3: card ids joined by '+', or '-'
    "reveal": 1,  # PIN-SETUP-4
    "draw": 0,  # PIN-TURN-3 paid draw
    "skip": 0,  # PIN-TURN-3 no paid draw
    "deploy": 2,  # PIN-DEPLOY-1: card, cell
    "play": 2,  # PIN-CMD-1: card, target or '-'
    "activate": 1,  # PIN-ACT-1: unit
    "move": 2,  # PIN-MOVE-1: unit, cell
    "attack": 3,  # PIN-ATTACK-1: unit, target, damage type
    "special": 2,  # PIN-KW-5: unit, target or '-'
    "end": 0,  # PIN-TURN-4
    "counter": 2,  # PIN-COUNTER-1: card, target or '-'
    "pass": 0,  # PIN-COUNTER-3
    "retreat": 2,  # PIN-RETREAT-2/-3: unit, cell or 'hand'
    "target": 1,  # PIN-EFFECT-1: a target chosen as an effect resolves
}


@dataclass(frozen=True, slots=True)
class PinAction:
    """``kind`` and its arguments, all ``str`` (checked when built: ``TypeError``)."""

    kind: str
    args: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if type(self.kind) is not str or type(self.args) is not tuple:
            raise TypeError(f"a PIN action is a str kind and a tuple of str, not {self!r}")
        for a in self.args:
            if type(a) is not str:
                raise TypeError(f"action {self.kind}: arguments are str, not {a!r}")

    def text(self) -> str:
        return " ".join((self.kind, *self.args))

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "args": list(self.args)}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> PinAction:
        if not isinstance(d, dict) or not isinstance(d.get("kind"), str):
            raise TypeError(f"an action dict has a str 'kind', got {d!r}")
        if not all(isinstance(a, str) for a in d.get("args", [])):
            raise TypeError(f"action args are str, got {d!r}")
        return parse_action(" ".join([d["kind"], *d.get("args", [])]))

    def __str__(self) -> str:
        return self.text()


def parse_action(text: str) -> PinAction:
    if not isinstance(text, str):
        raise TypeError(f"an action text is a str, not {type(text).__name__} {text!r}")
    parts = text.split()
    if not parts or parts[0] not in KINDS:
        raise ValueError(f"expected an action ({', '.join(KINDS)}), got {text!r}")
    if len(parts) - 1 != KINDS[parts[0]]:
        raise ValueError(f"{parts[0]} takes {KINDS[parts[0]]} argument(s), got {text!r}")
    return PinAction(parts[0], tuple(parts[1:]))


@dataclass(frozen=True, slots=True)
class PinEvent:
    """Something that happened. ``text`` is the Chinese 战报 line; ``private`` names the
    only seat that may see it (a draw, a secret pick), None = public."""

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    private: int | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "text": self.text, **self.data}
        if self.private is not None:
            d["private"] = self.private
        return d
