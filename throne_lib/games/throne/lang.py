"""The small language of the card table's ``keywords`` and ``effects`` columns.

Both columns are parsed with :mod:`ast` against a whitelist — never ``eval``.

``keywords``: a comma-separated list of flags and numbered keywords::

    taunt, armor(2), siege(3)

``effects``: clauses separated by ``;``, each ``trigger: effect, effect``::

    play: damage(3, enemy), draw(1)
    death: summon(skeleton, adjacent)
    skill(mana=2, hp=3): damage(5, enemy_throne)

Arguments are whole numbers, selector names (``enemy``, ``adjacent_allies`` …)
or card ids. The effect functions and their parameter types live in one
registry (:mod:`throne_lib.games.throne.effects`); this module knows Throne's words
(keywords, triggers, selectors); the grammar itself is the kit's
(:mod:`throne_lib.kit.effectlang`, shared with the other games' tables).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any, Literal

from throne_lib.compiled import reduce_dataclass
from throne_lib.kit.effectlang import MAX_CHARS as MAX_CHARS
from throne_lib.kit.effectlang import MAX_NUMBER as MAX_NUMBER
from throne_lib.kit.effectlang import Call as Call
from throne_lib.kit.effectlang import LangError as LangError
from throne_lib.kit.effectlang import (
    check_size,
    clause_parts,
    clause_text,
    effect_call,
    keyword_items,
)
from throne_lib.kit.effectlang import chosen as _chosen
from throne_lib.kit.effectlang import elements as _elements
from throne_lib.kit.effectlang import expr as _expr
from throne_lib.kit.effectlang import src as _src
from throne_lib.kit.effectlang import whole_number as _int

ParamType = Literal["int", "who", "place", "card"]

# Keywords: name -> takes a number? (R-COMBAT-*, R-FLY-*, R-BARRACKS-*, R-GOBLIN-*)
KEYWORDS: dict[str, bool] = {
    "taunt": False,  # 嘲讽 R-COMBAT-5
    "flying": False,  # 飞行 R-FLY-*
    "cavalry": False,  # 骑兵: move 2 unless the move column says otherwise
    "shield": False,  # 圣盾 R-COMBAT-3
    "pierce": False,  # 穿刺: the attack also hits the unit behind the target
    "lifesteal": False,  # 吸血 R-COMBAT-6
    "formation": False,  # 列阵 R-COMBAT-8
    "fortified": False,  # 固守 R-COMBAT-7
    "reborn": False,  # 复生: returns once with 1 HP
    "artisan": False,  # 工匠: may build goblin buildings on its cell (R-GOBLIN-2)
    "aura_load": False,  # 装载光环: adjacent friendly barracks are loaded
    "production": False,  # 产费营: this barracks' soldiers are peasants
    "armor": True,  # 护甲 N (starting armor pool)
    "siege": True,  # 围攻 N (R-SIEGE-2)
    "grow": True,  # 成长 N: +N/+N after each kill by its attack
    "summons": True,  # barracks summons per turn (R-BARRACKS-2)
    "peasant": True,  # 农民 level N: +N mana per turn (R-TURN-3)
    "aura_summon": True,  # adjacent friendly barracks +N summons per turn
    "heal_aura": True,  # heals adjacent allies N at its side's turn start
    "regen": True,  # heals itself N at its side's turn start
}

# What each keyword does (docs/effects.md is generated from this; a test checks
# every keyword has an entry).
KEYWORD_DOCS: dict[str, str] = {
    "taunt": "嘲讽: while it stands, other units of its side in its row cannot be attacked (R-COMBAT-5)",
    "flying": "飞行: takes off each turn start, flies over units and full rows (R-FLY-*)",
    "cavalry": "骑兵: move 2 unless the move column says otherwise (R-UNIT-1)",
    "shield": "圣盾: absorbs one whole damage instance (R-COMBAT-3)",
    "pierce": "穿刺: its attack also hits the enemy unit behind the target",
    "lifesteal": "吸血: heals itself by the damage it deals, even above max HP (R-COMBAT-6)",
    "formation": "列阵: each turn start gives adjacent allies +1 armor (R-COMBAT-8)",
    "fortified": "固守: cannot move, takes 1 less damage per instance (R-COMBAT-7)",
    "reborn": "复生: returns once with 1 HP when it dies",
    "artisan": "工匠: may build a goblin building on its own cell, consumed (R-GOBLIN-2)",
    "aura_load": "装载光环: adjacent friendly barracks are loaded (R-BARRACKS-10)",
    "production": "产费营: a production barracks, its soldiers are peasants (R-BARRACKS-12)",
    "armor": "护甲 N: starts with an armor pool of N (R-COMBAT-4)",
    "siege": "围攻 N: +N damage when it attacks a throne (R-SIEGE-2)",
    "grow": "成长 N: +N/+N after each kill by its attack (R-RACE-2)",
    "summons": "召唤 N: a barracks' summons per turn (R-BARRACKS-2)",
    "peasant": "农民 N: +N mana at each of its side's turn starts (R-TURN-3)",
    "aura_summon": "召唤光环 N: adjacent friendly barracks get +N summons per turn (R-BARRACKS-11)",
    "heal_aura": "治疗光环 N: heals adjacent allies N at its side's turn start (R-GOBLIN-2)",
    "regen": "再生 N: heals itself N at its side's turn start",
}

TRIGGERS: dict[str, str] = {
    "play": "when played or summoned (battlecry); a spell's effect",
    "death": "when it dies (deathrattle)",
    "turn_start": "at the start of each of its side's turns",
    "kill": "after its attack kills a unit",
    "skill": "a hero skill: skill(mana=N, hp=M)",
}

# Selectors for ``who`` (units). The first group asks the player for a target.
CHOSEN_WHO: dict[str, str] = {
    "enemy": "an enemy unit, throne and barracks included",
    "enemy_unit": "an enemy unit that is not a throne or barracks",
    "ally": "a friendly unit, throne and barracks included",
    "ally_unit": "a friendly unit that is not a throne or barracks",
    "unit": "any unit that is not a throne or barracks",
    "ally_barracks": "a friendly barracks",
    "enemy_barracks": "an enemy barracks",
}
AUTO_WHO: dict[str, str] = {
    "self": "the unit that carries the effect",
    "target": "the chosen target",
    "adjacent_allies": "friendly units around the anchor (itself, or a spell's target)",
    "adjacent_enemies": "enemy units around the anchor",
    "adjacent_units": "all units around the anchor",
    "adjacent_barracks": "friendly barracks around the anchor",
    "adjacent_loadable": "friendly barracks and goblin buildings around the anchor (what Load reaches)",
    "all_allies": "every friendly unit except throne and barracks",
    "all_enemies": "every enemy unit except throne and barracks",
    "row_enemies": "enemy units in the anchor's row",
    "enemy_throne": "the enemy throne",
    "own_throne": "your own throne",
    "random_enemy": "one random enemy unit (not throne or barracks)",
}
# Selectors for ``place`` (empty cells).
CHOSEN_PLACE: dict[str, str] = {
    "cell": "an empty cell of your half",
    "any_cell": "any empty cell",
}
AUTO_PLACE: dict[str, str] = {
    "adjacent": "a random empty cell around the anchor",
    "own_half": "a random empty cell of your half",
    "target": "the chosen cell",
}
CHOSEN = frozenset(CHOSEN_WHO) | frozenset(CHOSEN_PLACE)


@dataclass(frozen=True, slots=True)
class Clause:
    trigger: str
    mana: int
    hp: int
    calls: tuple[Call, ...]

    @property
    def chosen(self) -> str | None:
        """The selector that asks the player for a target, if any. (A loop here, not the
        kit's :func:`~throne_lib.kit.effectlang.chosen`: the compiled legal-move generator
        asks it of every playable clause, and a call into uncompiled code costs there.)"""
        for call in self.calls:
            for arg in call.args:
                if isinstance(arg, str) and arg in CHOSEN:
                    return arg
        return None

    def text(self) -> str:
        head = self.trigger
        if self.trigger == "skill":
            head = f"skill(mana={self.mana}, hp={self.hp})"
        return clause_text(head, self.calls)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return reduce_dataclass(self)  # pickled as a constructor call (compiled.py)


def parse_keywords(
    text: str, max_number: int = MAX_NUMBER, max_chars: int = MAX_CHARS
) -> tuple[tuple[str, int], ...]:
    """``"taunt, armor(2)"`` -> ``(("taunt", 1), ("armor", 2))``."""
    text = text.strip()
    if not text:
        return ()
    check_size(text, max_chars)
    out: list[tuple[str, int]] = []
    for name, value, has_arg in keyword_items(text, "taunt or armor(2)", 2, max_number):
        if name not in KEYWORDS:
            raise LangError(f"unknown keyword {name!r}; known: {', '.join(sorted(KEYWORDS))}")
        if KEYWORDS[name] != has_arg:
            hint = f"{name}(N)" if KEYWORDS[name] else name
            raise LangError(f"keyword {name} is written {hint}")
        if any(n == name for n, _ in out):
            raise LangError(f"keyword {name} appears twice")
        out.append((name, value))
    return tuple(out)


def parse_effects(
    text: str,
    specs: dict[str, tuple[ParamType, ...]],
    defaults: dict[str, tuple[int | str, ...]],
    max_number: int = MAX_NUMBER,
    max_chars: int = MAX_CHARS,
) -> tuple[Clause, ...]:
    """Parse the effects column. ``specs`` maps effect name -> parameter types;
    ``defaults`` gives trailing default values. Card ids are returned as strings
    and cross-checked by the loader. Numbers lie within ±``max_number``."""
    text = text.strip()
    if not text:
        return ()
    check_size(text, max_chars)
    clauses: list[Clause] = []
    for head, body in clause_parts(text):
        trigger, mana, hp = _trigger(head, max_number)
        calls = tuple(_call(node, specs, defaults, max_number) for node in _elements(body))
        if not calls:
            raise LangError(f"trigger {trigger} has no effect")
        clause = Clause(trigger, mana, hp, calls)
        chosen = _chosen(calls, CHOSEN)
        if len(set(chosen)) > 1:
            raise LangError(f"one clause may ask for one target, got {', '.join(chosen)}")
        uses_target = any(a == "target" for c in calls for a in c.args)
        if uses_target and not chosen:
            raise LangError("'target' needs a chosen target in the same clause (e.g. enemy, cell)")
        if trigger not in ("play", "skill") and chosen:
            raise LangError(f"trigger {trigger} cannot ask for a target ({chosen[0]})")
        clauses.append(clause)
    return tuple(clauses)


def _trigger(head: str, max_number: int = MAX_NUMBER) -> tuple[str, int, int]:
    node = _expr(head)
    if isinstance(node, ast.Name) and node.id in TRIGGERS and node.id != "skill":
        return node.id, 0, 0
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "skill":
        if node.args:
            raise LangError("skill takes keyword arguments: skill(mana=N, hp=M)")
        values = {"mana": 0, "hp": 0}
        for kw in node.keywords:
            if kw.arg not in values:
                raise LangError(f"skill accepts mana= and hp=, not {kw.arg}=")
            values[kw.arg] = _int(kw.value, f"skill {kw.arg}", max_number)
        return "skill", values["mana"], values["hp"]
    raise LangError(f"unknown trigger {head!r}; known: {', '.join(TRIGGERS)}")


def _call(
    node: ast.expr,
    specs: dict[str, tuple[ParamType, ...]],
    defaults: dict[str, tuple[int | str, ...]],
    max_number: int = MAX_NUMBER,
) -> Call:
    name, node = effect_call(node, specs, "damage(3, enemy)")
    if node.keywords:
        raise LangError(f"effect {name} takes positional arguments only")
    params = specs[name]
    given = list(node.args)
    default = defaults.get(name, ())
    n_required = len(params) - len(default)
    if not n_required <= len(given) <= len(params):
        raise LangError(
            f"{name} expects {_signature(name, params, default)}, got {len(given)} arguments"
        )
    args: list[int | str] = []
    for i, ptype in enumerate(params):
        if i >= len(given):
            args.append(default[i - n_required])
            continue
        arg = given[i]
        where = f"argument {i + 1} of {name}"
        if ptype == "int":
            args.append(_int(arg, where, max_number))
        else:
            if not isinstance(arg, ast.Name):
                raise LangError(f"{where} must be a {_ptype_name(ptype)}, got {_src(arg)!r}")
            value = arg.id
            if ptype == "who" and value not in CHOSEN_WHO and value not in AUTO_WHO:
                raise LangError(
                    f"{where}: unknown target {value!r}; known: {', '.join([*CHOSEN_WHO, *AUTO_WHO])}"
                )
            if ptype == "place" and value not in CHOSEN_PLACE and value not in AUTO_PLACE:
                raise LangError(
                    f"{where}: unknown place {value!r}; known: {', '.join([*CHOSEN_PLACE, *AUTO_PLACE])}"
                )
            args.append(value)
    return Call(name, tuple(args))


def _signature(name: str, params: tuple[ParamType, ...], default: tuple[int | str, ...]) -> str:
    n_required = len(params) - len(default)
    parts = [
        _ptype_name(p) if i < n_required else f"{_ptype_name(p)}={default[i - n_required]}"
        for i, p in enumerate(params)
    ]
    return f"{name}({', '.join(parts)})"


def signature(name: str, params: tuple[ParamType, ...], default: tuple[int | str, ...]) -> str:
    return _signature(name, params, default)


def _ptype_name(ptype: ParamType) -> str:
    return {"int": "number", "who": "target", "place": "place", "card": "card id"}[ptype]
