"""Actions: small frozen values with a text form (``attack s7 1``) that round-trips.

``kind`` names what is done; ``args`` are unit refs (``h2``, ``s7``), card ids or small
numbers. Every action has a Chinese label for the UI (:func:`label`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from throne_lib.compiled import reduce_dataclass

ArgT = str | int


@dataclass(frozen=True, slots=True)
class Act:
    """``kind`` and its arguments, each a ``str`` or an ``int``.

    The types are checked when an action is built (``TypeError``): a float ``0.0`` or a
    ``True`` equals and hashes like ``0`` / ``1``, so it would pass the legality check
    and then be logged as ``attack h0 0.0 sword``, a text that no longer replays.
    """

    kind: str
    args: tuple[ArgT, ...] = ()

    def __post_init__(self) -> None:
        # Compiled (mypyc), the constructor refuses a kind that is no str or args that are
        # no tuple itself, with its own TypeError; the rest of the contract is checked here
        # (tests/kit/test_bad_input.py). Act stays a native class: for a plain class, mypyc
        # compiles ``act in PASSES`` (a tuple of Acts) as identity tests, not ``__eq__``.
        if type(self.kind) is not str or not self.kind:
            raise TypeError(f"an action kind is a non-empty str, not {self.kind!r}")
        if type(self.args) is not tuple:
            raise TypeError(f"action args are a tuple, not {type(self.args).__name__}")
        for a in self.args:
            if type(a) is not str and (type(a) is not int):
                raise TypeError(
                    f"action {self.kind}: an argument is a str or an int, "
                    f"not {type(a).__name__} {a!r}"
                )

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return reduce_dataclass(self)  # pickled as a constructor call (compiled.py)

    # What ``dataclass`` would generate, written out so that mypyc compiles them: every
    # prompt's legal actions go into a set (CastleMatch.legal_actions), and the generated
    # methods, run by the interpreter, were ~4% of an ISMCTS decision (docs/speed.md).
    def __eq__(self, other: object) -> bool:
        if type(other) is not Act:
            return NotImplemented
        return self.kind == other.kind and self.args == other.args

    def __hash__(self) -> int:
        return hash((self.kind, self.args))

    def text(self) -> str:
        return " ".join([self.kind, *(str(a) for a in self.args)])

    def __str__(self) -> str:
        return self.text()

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "args": list(self.args)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Act:
        if not isinstance(d, dict) or not isinstance(d.get("kind"), str):
            raise TypeError(f"an action dict has a str 'kind', got {d!r}")
        args = d.get("args", ())
        if not isinstance(args, list | tuple):
            raise TypeError(f"an action's 'args' are a list, got {args!r}")
        return cls(d["kind"], tuple(args))

    @classmethod
    def parse(cls, text: str) -> Act:
        if not isinstance(text, str):
            raise TypeError(f"an action text is a str, not {type(text).__name__} {text!r}")
        parts = text.split()
        if not parts or not parts[0].replace("_", "").isalpha():
            raise ValueError(f"not a 城堡之心 action: {text!r} (expected e.g. 'attack s7 0')")
        args: list[ArgT] = [int(p) if p.lstrip("-").isdigit() else p for p in parts[1:]]
        return cls(parts[0], tuple(args))


KIND_ZH = {
    "pick_hero": "选择英雄",
    "draft": "部署士兵",
    "pass": "不再部署",
    "declare": "宣布阵营",
    "attack": "剑攻击",
    "heal": "使用愈",
    "equip": "装备",
    "magic": "使用魔法",
    "skill": "发动技能",
    "end_play": "结束出牌",
    "command": "指挥进攻",
    "skip_command": "不指挥",
    "order": "命令士兵攻击",
    "end_command": "结束指挥",
    "discard": "弃牌",
    "block": "抵挡",
    "no_block": "不抵挡",
    "yes": "是",
    "no": "否",
    "take": "承受伤害",
    "split": "分摊伤害",
    "counter": "魔法抵消",
    "decline": "放弃",
    "rescue": "救援",
    "adopt": "收编士兵",
    "follow": "追击",
}


def label(act: Act) -> str:
    """A short Chinese label (the UI adds names from the match)."""
    return " ".join([KIND_ZH.get(act.kind, act.kind), *(str(a) for a in act.args)])
