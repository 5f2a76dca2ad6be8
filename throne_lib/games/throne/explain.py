"""Why an action is illegal: a rule ID and a sentence, for error messages.

Legality itself is decided only by :mod:`throne_lib.games.throne.legal`; this module runs
after an action was found missing from the legal list, to name the rule.
"""

from __future__ import annotations

from throne_lib.games.throne.actions import Action
from throne_lib.games.throne.effects import destroys_chosen
from throne_lib.games.throne.engine import Engine
from throne_lib.games.throne.lang import Clause
from throne_lib.games.throne.legal import (
    attack_targets,
    can_attack,
    can_move,
    legal_actions,
    move_targets,
    play_targets,
    skill_actions,
    summon_actions,
)
from throne_lib.games.throne.state import (
    BARRACKS,
    CAPTAIN,
    MAIN,
    OPEN_FOUND,
    OPENING,
    OVER,
    THRONE,
    Unit,
)


def immune_target(eng: Engine, target: Unit | None, clause: Clause | None) -> bool:
    """The target is destroy-immune and the clause would destroy it (R-THRONE-5)."""
    return (
        target is not None
        and clause is not None
        and eng.destroy_immune(target)
        and destroys_chosen(clause)
    )


def explain_illegal(eng: Engine, a: Action) -> tuple[str, str]:
    st = eng.state
    geo = eng.geo
    name = geo.name
    if st.phase == OVER:
        return "R-THRONE-1", "the match is over"
    if st.phase == CAPTAIN and a.kind not in ("pick", "cancel"):
        return (
            "R-BARRACKS-9",
            "a captain offer is pending: pick one of the offered captains or cancel",
        )
    if st.phase in OPENING and a.kind not in ("replace", "keep", "found"):
        return "R-OPEN-2", "the opening is not finished (replace cards, then build 3 free barracks)"
    if st.phase == MAIN and a.kind in ("replace", "keep", "found", "pick", "cancel"):
        return "R-TURN-12", f"'{a.kind}' is not an action of the main phase"
    s = st.sides[st.turn]
    unit = st.board[a.cell] if 0 <= a.cell < geo.size else None
    target = st.board[a.target] if 0 <= a.target < geo.size else None
    if a.kind in ("move", "attack", "summon", "captain", "extra", "skill", "build"):
        if unit is None:
            return "R-UNIT-1", f"there is no unit on {name(a.cell) if a.cell >= 0 else '?'}"
        if unit.side != st.turn:
            return "R-UNIT-1", f"{eng.db[unit.card].name} on {name(a.cell)} is not yours"
    if a.kind == "move":
        assert unit is not None
        if unit.kind == THRONE and not st.marched:
            return "R-THRONE-4", "the throne does not move before the royal march (round 15)"
        if unit.kind == BARRACKS:
            return "R-BARRACKS-7", "barracks do not move"
        if unit.fortified or unit.kind == "building":
            return "R-COMBAT-7", "fortified units and buildings do not move"
        if not can_move(eng, unit):
            if unit.acted:
                return "R-HERO-2", "this hero used its skill this turn"
            return "R-UNIT-1", "this unit has already moved this turn"
        if target is not None:
            return "R-UNIT-2", f"{name(a.target)} is occupied"
        if a.target not in move_targets(eng, unit):
            lo, hi = sorted((geo.row(a.cell), geo.row(a.target)))
            full = [r + 1 for r in range(lo + 1, hi) if all(st.board[c] for c in geo.row_cells(r))]
            if full and not unit.airborne and geo.dist[a.cell][a.target] <= unit.move:
                return (
                    "R-BOARD-3",
                    f"no free path: full row(s) {full} are walls, and moves are {unit.move} step(s)",
                )
            return (
                "R-UNIT-2",
                f"{name(a.target)} is not reachable in {unit.move} step(s) through empty cells",
            )
    if a.kind == "attack":
        assert unit is not None
        if unit.kind == THRONE and not st.marched:
            return "R-THRONE-4", "the throne does not attack before the royal march (round 15)"
        if not can_attack(eng, unit):
            if unit.acted:
                return "R-HERO-2", "this hero used its skill this turn"
            if unit.attack <= 0:
                return "R-UNIT-1", "a unit with 0 attack cannot attack"
            return "R-UNIT-1", "this unit has already attacked this turn"
        if target is None:
            return "R-UNIT-1", f"there is nothing to attack on {name(a.target)}"
        if geo.dist[a.cell][a.target] > unit.range:
            return "R-UNIT-1", f"{name(a.target)} is out of range {unit.range}"
        if target.airborne and unit.range <= 1 and not unit.airborne:
            return "R-FLY-2", "ground melee units cannot hit a flying unit"
        if a.target not in attack_targets(eng, unit):
            return "R-COMBAT-5", "a taunt unit protects its row: attack the taunt first"
    if a.kind == "play":
        if a.card not in s.hand:
            return "R-TURN-10", f"{a.card} is not in your hand"
        card = eng.db[a.card]
        if card.cost > s.mana:
            return "R-TURN-1", f"{card.name} costs {card.cost} mana, you have {s.mana}"
        if s.name_uses.get(card.name, 0) >= eng.rules.name_uses_per_turn:
            return (
                "R-TURN-9",
                f"{card.name} was used {eng.rules.name_uses_per_turn} times this turn",
            )
        if card.draw_only and len(s.hand) >= eng.rules.hand_limit:
            return "R-TURN-8", "a draw-only spell cannot be cast with a full hand"
        if card.kind in ("soldier", "captain", "token", "building"):
            return "R-SETUP-3", f"a {card.kind} is never played from the hand"
        if a.target not in play_targets(eng, a.card):
            clause = card.target_clause
            if immune_target(eng, target, clause):
                return (
                    "R-THRONE-5",
                    f"the throne is immune to destroy: {card.name} cannot target it",
                )
            if card.kind == "spell":
                return (
                    "R-UNIT-5",
                    f"{name(a.target) if a.target >= 0 else 'no target'} is not a legal target of {card.name}",
                )
            if card.kind == BARRACKS:
                return (
                    "R-BARRACKS-1",
                    "a barracks goes on an empty cell of your half or onto your own barracks",
                )
            return "R-UNIT-5", "units are played onto an empty cell of your own half"
    if a.kind in ("summon", "captain", "extra"):
        assert unit is not None
        if unit.kind != BARRACKS:
            return "R-BARRACKS-4", "only a barracks summons"
        if a.kind == "extra":
            if not eng.is_loaded(unit):
                return "R-BARRACKS-10", "加派 needs a loaded barracks"
            if eng.summons_left(unit) > 0:
                return "R-BARRACKS-10", "加派 is bought once this turn's summons are used up"
            return "R-TURN-1", f"加派 costs {eng.rules.extra_summon_cost} mana"
        if eng.summons_left(unit) <= 0:
            return "R-BARRACKS-2", "this barracks has no summons left this turn"
        if all(st.board[c] is not None for c in geo.around[unit.cell]):
            return "R-BARRACKS-5", "all 8 cells around the barracks are occupied"
        if a.kind == "captain":
            if st.round < eng.rules.captain_round:
                return "R-BARRACKS-9", f"captains come from round {eng.rules.captain_round}"
            if not eng.captain_pool(unit):
                return "R-BARRACKS-9", f"{eng.db[unit.card].name} has no captain pool"
            return "R-TURN-1", "no offered captain is affordable"
        card = eng.db[unit.card]
        if a.card not in card.tiers:
            return "R-BARRACKS-3", f"{a.card} is not a soldier of {card.name}"
        if card.tiers.index(a.card) >= unit.level:
            return "R-BARRACKS-3", f"level {unit.level} does not unlock {eng.db[a.card].name}"
        if a.target not in geo.around[unit.cell]:
            return "R-BARRACKS-5", "soldiers appear on the 8 cells around their barracks"
        if target is not None:
            return "R-BARRACKS-5", f"{name(a.target)} is occupied"
        if a not in summon_actions(eng, unit):
            return "R-TURN-1", f"{eng.db[a.card].name} costs {eng.db[a.card].cost} mana"
    if a.kind == "skill":
        cooling = unit is not None and unit.kind == THRONE and st.sides[st.turn].skill_cooldown > 0
        if unit is not None and not cooling and immune_target(eng, target, eng.db[unit.card].skill):
            return "R-THRONE-5", "the throne is immune to destroy: this skill cannot target it"
        return _explain_skill(eng, a, unit)
    if a.kind == "shuffle":
        if not s.grave:
            return "R-TURN-7", "the graveyard is empty"
        return "R-TURN-7", f"a shuffle costs {eng.rules.shuffle_cost(s.shuffles)} mana now"
    if a.kind == "build":
        return "R-GOBLIN-2", "only an artisan builds, on its own cell, with enough mana"
    if a.kind == "pick":
        return (
            "R-BARRACKS-9",
            "pick one of the offered captains onto a free cell around the barracks",
        )
    if a.kind == "replace" and st.phase == OPEN_FOUND:
        return "R-OPEN-3", "the replacement is over: build your free barracks"
    if a.kind == "replace":
        return "R-OPEN-2", "replace up to 3 non-barracks hand cards while the deck holds barracks"
    if a.kind == "keep" and st.phase == OPEN_FOUND:
        return "R-OPEN-3", "the replacement is over: build your free barracks"
    if a.kind == "found":
        return (
            "R-OPEN-3",
            "build each offered barracks once on an empty cell of your half, at most one production camp",
        )
    if legal_actions(eng):
        return "R-TURN-12", "not legal in this position"
    return "R-TURN-12", "no action is legal"


def _explain_skill(eng: Engine, a: Action, unit: Unit | None) -> tuple[str, str]:
    """Why a skill cannot be used: cooldown, mana (the throne pays more, R-THRONE-6),
    HP, already acted, or the target (R-HERO-2, R-UNIT-5)."""
    st = eng.state
    if unit is None or eng.db[unit.card].skill is None:
        return "R-HERO-2", "this unit has no skill"
    if unit.kind == THRONE and st.sides[st.turn].skill_cooldown > 0:
        return "R-THRONE-6", "the throne skill is on cooldown this turn"
    if unit.acted or unit.attacked:
        return "R-HERO-2", "this hero already acted or attacked this turn"
    mana, hp = eng.skill_cost(unit)
    have = st.sides[st.turn].mana
    if mana > have:
        where = " from the throne" if unit.kind == THRONE else ""
        return "R-TURN-1", f"the skill costs {mana} mana{where}, you have {have}"
    if hp and unit.hp <= hp:
        return "R-HERO-2", f"the skill costs {hp} HP, the unit has {unit.hp}"
    chosen = [t.target for t in skill_actions(eng, unit)]
    if not chosen:
        return "R-UNIT-5", "the skill has no legal target now"
    if a.target not in chosen:
        where = eng.geo.name(a.target) if a.target >= 0 else "no target"
        return "R-UNIT-5", f"{where} is not a legal target of the skill"
    return "R-TURN-12", "not legal in this position"
