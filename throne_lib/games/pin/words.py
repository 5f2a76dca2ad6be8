"""PIN's effect words: the registry the card table's ``keywords`` and ``effects`` use.

The grammar is the kit's effect language (:mod:`throne_lib.kit.effectlang`: a
comma-separated list of calls parsed with :mod:`ast` against a whitelist, clauses
``trigger: call, call`` separated by ``;``); the words are this game's own::

    keywords:  guard, ads(1), reactive, armor(10)
    effects:   deploy: draw(1)
               special: damage(15, 爆炸, enemy_same_cell)
               counter(enemy_attack, on_unit): cancel(), retreat(event_target)
               turn_end: when(on_enemy_line), draw(1)

Damage types are written as the rulebook names them (爆炸, 导弹 …). Each word carries
its Chinese rendering, so a card's text is generated from its effects (one source).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Literal

from throne_lib.games.pin.rules import DAMAGE_TYPES
from throne_lib.kit.effectlang import Call as BaseCall
from throne_lib.kit.effectlang import LangError as LangError
from throne_lib.kit.effectlang import chosen as _chosen
from throne_lib.kit.effectlang import clause_parts, clause_text, effect_call, keyword_items
from throne_lib.kit.effectlang import elements as _elements
from throne_lib.kit.effectlang import expr as _expr
from throne_lib.kit.effectlang import src as _src
from throne_lib.kit.effectlang import whole_number as _int

# Keywords (PIN-KW-*): name -> (takes a number?, Chinese)
KEYWORDS: dict[str, tuple[bool, str]] = {
    "guard": (False, "守护"),  # PIN-KW-2
    "aa": (False, "防空"),  # PIN-KW-10
    "air_superiority": (False, "制空"),  # PIN-KW-11
    "missile": (False, "导弹"),  # PIN-KW-9
    "ads": (True, "ADS"),  # PIN-DMG-7
    "shield": (True, "护盾"),  # PIN-DMG-8
    "mshield": (True, "魔法护盾"),  # PIN-DMG-9
    "ward": (True, '"魔法"护盾'),  # PIN-DMG-10
    "reactive": (False, "反应装甲"),  # PIN-DMG-11
    "armor": (True, "装甲"),  # PIN-DMG-12
}
DEFENCE = ("ads", "shield", "mshield", "ward", "reactive", "armor")  # PIN-DMG-6 order

TRIGGERS: dict[str, str] = {
    "deploy": "部署",  # PIN-KW-3
    "special": "特殊",  # PIN-KW-5
    "turn_start": "回合开始",  # PIN-KW-4
    "turn_end": "回合结束",  # PIN-KW-4
    "retreat": "撤退",  # PIN-KW-7
    "play": "指令",  # PIN-CMD-1
    "counter": "反制",  # PIN-COUNTER-2
}
COUNTER_TRIGGERS: dict[str, str] = {  # PIN-COUNTER-2
    "enemy_deploy": "敌方部署",
    "enemy_move": "敌方移动",
    "enemy_attack": "敌方宣告攻击",
    "enemy_command": "敌方指令",
    "ally_destroyed": "友方单位被摧毁",
    "hq_damaged": "总部受伤",
}
NARROWING: dict[str, str] = {"on_unit": "目标为友方单位"}

# Who an effect aims at. Chosen ones ask the card's owner for a target (PIN-EFFECT-1).
CHOSEN_WHO: dict[str, str] = {
    "enemy_unit": "一个敌方单位",
    "enemy_or_hq": "一个敌方单位或敌方总部",
    "ally_unit": "一个友方单位",
    "ally_or_hq": "一个友方单位或本方总部",
    "enemy_same_cell": "同格的一个敌方单位",
    "enemy_adjacent": "与本单位相邻的一个敌方单位",
    "enemy_within2": "距离不超过2的一个敌方单位",
    "enemy_cell": "一个格子内的所有敌方单位",
}
AUTO_WHO: dict[str, str] = {
    "self": "本单位",
    "event_unit": "该单位",
    "event_target": "该目标",
    "enemy_hq": "敌方总部",
    "own_hq": "本方总部",
}
CONDITIONS: dict[str, str] = {"on_enemy_line": "本单位位于敌方支援线"}

ParamType = Literal["int", "dtype", "who", "card", "cond"]
# effect name -> parameter types (PIN-EFFECT-*)
SPECS: dict[str, tuple[ParamType, ...]] = {
    "damage": ("int", "dtype", "who"),  # PIN-EFFECT-2
    "chaos": ("who",),  # PIN-KW-6
    "retreat": ("who",),  # PIN-KW-6
    "draw": ("int",),  # PIN-EFFECT-3
    "heal": ("int", "who"),  # PIN-EFFECT-3
    "restore_mshield": ("int", "who"),  # PIN-EFFECT-3
    "refill_shield": ("who",),  # PIN-EFFECT-3
    "gain_cp": ("int",),  # PIN-CP-3
    "raise_cp_max": ("int",),  # PIN-CP-3
    "spawn": ("card", "int"),  # PIN-EFFECT-5
    "cancel": (),  # PIN-COUNTER-6
    "attack_up": ("int", "who"),  # PIN-EFFECT-6
    "attack_down": ("int", "who"),  # PIN-EFFECT-6
    "hp_up": ("int", "who"),  # PIN-EFFECT-6
    "when": ("cond",),  # PIN-EFFECT-7 (若…)
}


@dataclass(frozen=True, slots=True)
class Call(BaseCall):
    """An effect call of the kit's grammar with its PIN wording."""

    def zh(self) -> str:
        """The rulebook's wording of this effect."""
        a = self.args
        n = self.name
        if n == "damage":
            if a[2] == "self":
                return f"本单位受到{a[0]}点{a[1]}伤害"
            return f"对{_who(a[2])}造成{a[0]}点{a[1]}伤害"
        if n in ("chaos", "retreat"):
            return f"使{_who(a[0])}{'混乱' if n == 'chaos' else '撤退'}"
        if n == "draw":
            return f"抽{a[0]}张牌"
        if n == "heal":
            return f"{_who(a[1])}恢复{a[0]}点生命值"
        if n == "restore_mshield":
            return f"{_who(a[1])}恢复{a[0]}点魔法护盾"
        if n == "refill_shield":
            return f"{_who(a[0])}将护盾恢复至上限"
        if n == "gain_cp":
            return f"获得{a[0]}点指挥点"
        if n == "raise_cp_max":
            return f"指挥点上限+{a[0]}"
        if n == "spawn":
            return f"生成{a[1]}张{{{a[0]}}}"
        if n == "cancel":
            return "取消该事件"
        if n in ("attack_up", "attack_down", "hp_up"):
            word = {"attack_up": "攻击+", "attack_down": "攻击−", "hp_up": "生命+"}[n]
            return f"{_who(a[1])}{word}{a[0]}"
        if n == "when":
            return f"若{CONDITIONS[str(a[0])]}"
        return self.text()


def _who(name: int | str) -> str:
    return CHOSEN_WHO.get(str(name)) or AUTO_WHO.get(str(name), str(name))


@dataclass(frozen=True, slots=True)
class Clause:
    trigger: str  # a key of TRIGGERS
    calls: tuple[Call, ...]
    counter_on: str = ""  # a key of COUNTER_TRIGGERS for trigger == "counter"
    narrow: str = ""  # a key of NARROWING

    @property
    def chosen(self) -> str | None:
        """The selector that asks for a target (one per clause at most)."""
        found = _chosen(self.calls, CHOSEN_WHO)
        return found[0] if found else None

    def text(self) -> str:
        head = self.trigger
        if self.trigger == "counter":
            head = f"counter({self.counter_on}{', ' + self.narrow if self.narrow else ''})"
        return clause_text(head, self.calls)

    def zh(self) -> str:
        body = "，".join(c.zh() for c in self.calls)
        if self.trigger == "play":
            return body
        if self.trigger == "counter":
            narrow = f"·{NARROWING[self.narrow]}" if self.narrow else ""
            what = {"enemy_attack": "取消该次攻击", "enemy_command": "取消该指令"}
            body = body.replace("取消该事件", what.get(self.counter_on, "取消该事件"))
            return f"反制【{COUNTER_TRIGGERS[self.counter_on]}{narrow}】：{body}"
        return f"{TRIGGERS[self.trigger]}：{body}"


def parse_keywords(text: str) -> tuple[tuple[str, int], ...]:
    """``"guard, armor(5)"`` -> ``(("guard", 1), ("armor", 5))`` (PIN-KW-8)."""
    text = text.strip()
    if not text:
        return ()
    out: list[tuple[str, int]] = []
    for name, value, has_arg in keyword_items(text, "guard or armor(5)", 5):
        if name not in KEYWORDS:
            raise LangError(f"unknown keyword {name!r}; known: {', '.join(KEYWORDS)}")
        if name == "ads" and not has_arg:  # PIN-KW-8: a bare ADS means ADS 1
            has_arg = True
        if KEYWORDS[name][0] != has_arg:
            raise LangError(
                f"keyword {name} is written {name}(N)"
                if KEYWORDS[name][0]
                else f"keyword {name} takes no number"
            )
        if value < 0:
            raise LangError(f"keyword {name} needs a whole number ≥ 0, got {value}")
        if any(n == name for n, _ in out):
            raise LangError(f"keyword {name} appears twice")
        out.append((name, value))
    return tuple(out)


def parse_effects(text: str) -> tuple[Clause, ...]:
    """The effects column -> clauses; LangError names what was expected."""
    text = text.strip()
    if not text:
        return ()
    clauses: list[Clause] = []
    for head, body in clause_parts(text):
        trigger, counter_on, narrow = _trigger(head)
        calls = tuple(_call(node) for node in _elements(body))
        if not calls:
            raise LangError(f"trigger {trigger} has no effect")
        chosen = set(_chosen(calls, CHOSEN_WHO))
        if len(chosen) > 1:
            raise LangError(f"one clause may ask for one target, got {', '.join(sorted(chosen))}")
        if chosen and trigger in ("turn_start", "turn_end", "retreat"):
            raise LangError(f"trigger {trigger} cannot ask for a target ({chosen.pop()})")
        clauses.append(Clause(trigger, calls, counter_on, narrow))
    return tuple(clauses)


def _trigger(head: str) -> tuple[str, str, str]:
    node = _expr(head)
    if isinstance(node, ast.Name) and node.id in TRIGGERS and node.id != "counter":
        return node.id, "", ""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "counter":
        names = [a.id for a in node.args if isinstance(a, ast.Name)]
        if len(names) != len(node.args) or not 1 <= len(names) <= 2 or node.keywords:
            raise LangError(
                "counter takes a trigger and an optional narrowing: counter(enemy_attack, on_unit)"
            )
        if names[0] not in COUNTER_TRIGGERS:
            raise LangError(
                f"unknown counter trigger {names[0]!r}; known: {', '.join(COUNTER_TRIGGERS)}"
            )
        narrow = names[1] if len(names) == 2 else ""
        if narrow and (narrow not in NARROWING or names[0] != "enemy_attack"):
            raise LangError(
                f"unknown narrowing {narrow!r} for {names[0]}; known: on_unit (enemy_attack)"
            )
        return "counter", names[0], narrow
    raise LangError(f"unknown trigger {head!r}; known: {', '.join(TRIGGERS)} (counter(TRIGGER))")


def _call(node: ast.expr) -> Call:
    name, node = effect_call(node, SPECS, "draw(1)", sort=False)
    params = SPECS[name]
    if node.keywords or len(node.args) != len(params):
        raise LangError(f"{name} expects {signature(name)}, got {_src(node)!r}")
    args: list[int | str] = []
    for i, (ptype, arg) in enumerate(zip(params, node.args, strict=True)):
        where = f"argument {i + 1} of {name}"
        if ptype == "int":
            value = _int(arg, where)
            if value < 0:
                raise LangError(f"{where} must be ≥ 0, got {value}")
            args.append(value)
            continue
        if not isinstance(arg, ast.Name):
            raise LangError(f"{where} must be a {ptype}, got {_src(arg)!r}")
        word = arg.id
        allowed = {
            "dtype": DAMAGE_TYPES,
            "who": (*CHOSEN_WHO, *AUTO_WHO),
            "cond": tuple(CONDITIONS),
        }.get(ptype)
        if allowed is not None and word not in allowed:
            raise LangError(f"{where}: unknown {ptype} {word!r}; known: {', '.join(allowed)}")
        args.append(word)
    return Call(name, tuple(args))


def signature(name: str) -> str:
    return f"{name}({', '.join(SPECS[name])})"
