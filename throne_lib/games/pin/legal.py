"""Legality: the one place that says what may be done now (PIN-TURN-4, PIN-TURN-8).

``legal_actions`` enumerates every action with its targets; ``why_illegal`` names the
rule an action breaks, for :class:`IllegalAction`.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

from throne_lib.games.pin import combat, effects
from throne_lib.games.pin.actions import PinAction
from throne_lib.games.pin.cards import COMMAND, UNIT
from throne_lib.games.pin.core import PinCore
from throne_lib.games.pin.hexes import CELLS, label, support_line
from throne_lib.games.pin.state import Unit, ref

END = PinAction("end")
PASS = PinAction("pass")


def legal_actions(m: PinCore) -> list[PinAction]:
    st = m.state
    if st.phase == "over":
        return []
    d = st.pending
    if d is not None:
        return _decision(m)
    if st.phase != "action":
        return []
    return [*deploys(m), *plays(m), *unit_actions(m), END]


def _decision(m: PinCore) -> list[PinAction]:
    st = m.state
    d = st.pending
    assert d is not None
    if d.kind == "mulligan":  # PIN-SETUP-3: any sub-multiset of the hand
        counts = sorted(Counter(st.hands[d.seat]).items())
        out = []
        for picks in product(*[range(n + 1) for _, n in counts]):
            cards = [c for (c, _), k in zip(counts, picks, strict=True) for _ in range(k)]
            out.append(PinAction("mulligan", ("+".join(cards) or "-",)))
        return out
    if d.kind == "reveal":  # PIN-SETUP-4/-5
        if st.ties and not m.rules.reveal_any_after_tie:
            return [PinAction("reveal", (st.last_drawn[d.seat],))]
        return [PinAction("reveal", (c,)) for c in sorted(set(st.hands[d.seat]))]
    if d.kind == "draw":  # PIN-TURN-3
        return [PinAction("draw"), PinAction("skip")]
    if d.kind == "window":  # PIN-COUNTER-3
        pairs = effects.playable_counters(m, d.seat, d.data["trigger"], d.data["ctx"])
        return [PinAction("counter", p) for p in pairs] + [PASS]
    if d.kind == "retreat":  # PIN-RETREAT-2/-3
        who = ref(d.data["uid"])
        out = [PinAction("retreat", (who, label(c))) for c in d.data["cells"]]
        if d.data["hand"]:
            out.append(PinAction("retreat", (who, "hand")))
        return out
    if d.kind == "target":  # PIN-EFFECT-1
        return [PinAction("target", (t,)) for t in d.data["options"]]
    return []


def deploys(m: PinCore) -> list[PinAction]:
    """PIN-DEPLOY-1: own support line, no enemy unit there; full cells allowed."""
    st = m.state
    side = st.active
    cells = [c for c in support_line(side) if not m.enemy_in(side, c)]
    out = []
    for card in sorted(set(st.hands[side])):
        c = m.db[card]
        if c.kind == UNIT and c.cost <= st.cp[side]:
            out += [PinAction("deploy", (card, label(cell))) for cell in cells]
    return out


def plays(m: PinCore) -> list[PinAction]:
    """PIN-CMD-1/-2: payable commands with a legal target for each 一个…."""
    st = m.state
    side = st.active
    out = []
    for card in sorted(set(st.hands[side])):
        c = m.db[card]
        if c.kind != COMMAND or c.cost > st.cp[side]:
            continue
        chosen = c.effects[0].chosen
        if chosen is None:
            out.append(PinAction("play", (card, "-")))
        else:
            ctx = {"side": side, "source": None}
            out += [PinAction("play", (card, t)) for t in effects.candidates(m, ctx, chosen)]
    return out


def can_activate(m: PinCore, u: Unit) -> bool:
    st = m.state
    if u.activated or m.card(u).action_cost > st.cp[u.side]:
        return False
    if u.in_chaos and "装甲" in m.types(u):  # PIN-CHAOS-4: armour cannot act
        return False
    return m.rules.activate_on_deploy_turn or u.deployed_turn != st.turn


def can_act(m: PinCore, u: Unit) -> bool:
    """An activated unit with an action left that chaos does not hold back (PIN-ACT-3)."""
    if not u.activated or u.actions <= 0:
        return False
    if u.in_chaos:
        types = m.types(u)
        if "装甲" in types:
            return False
        if "悬停" in types and u.spent >= m.rules.chaos_hover_actions:
            return False
    return not (m.rules.cost_per_attack and m.card(u).action_cost > m.state.cp[u.side])


def move_targets(m: PinCore, u: Unit) -> list[int]:
    """PIN-MOVE-1/-2/-6/-7: free slot; enemy cells only for ≤ 营 and hover."""
    if u.stopped:  # PIN-MOVE-3
        return []
    cells = (
        [c for c in CELLS if c != u.cell]
        if combat.flies(m, u)
        else list(m.board.neighbours[u.cell])
    )
    enter = combat.may_enter_enemy(m, u)
    return [c for c in cells if m.free_slot(c) and (enter or not m.enemy_in(u.side, c))]


def attack_targets(
    m: PinCore, u: Unit, prot: tuple[set[int], set[int]] | None = None
) -> list[Unit]:
    if m.attack(u) <= 0 and not m.rules.zero_attack_may_attack:  # PIN-ATTACK-3
        return []
    st = m.state
    prot = prot if prot is not None else combat.protection(m)
    foes = [st.units[1 - u.side], *(t for t in m.units() if t.side != u.side)]
    return [t for t in foes if combat.can_target(m, u, t, prot)]


def unit_actions(m: PinCore) -> list[PinAction]:
    st = m.state
    side = st.active
    out: list[PinAction] = []
    prot: tuple[set[int], set[int]] | None = None
    for u in m.units():
        if u.side != side:
            continue
        who = ref(u.uid)
        if can_activate(m, u):
            out.append(PinAction("activate", (who,)))
        if not can_act(m, u):
            continue
        out += [PinAction("move", (who, label(c))) for c in move_targets(m, u)]
        if prot is None:
            prot = combat.protection(m)
        for t in attack_targets(m, u, prot):
            for dt in dict.fromkeys(combat.attack_types(m, u, t)):
                out.append(PinAction("attack", (who, ref(t.uid), dt)))
        if not m.card(u).clauses("special") or u.in_chaos:  # PIN-CHAOS-1
            continue
        if u.stopped and not m.rules.special_after_stop:
            continue
        clause = m.card(u).clauses("special")[0]
        chosen = clause.chosen
        if chosen is None:
            out.append(PinAction("special", (who, "-")))
        else:  # PIN-KW-5: only with a legal target
            ctx = {"side": side, "source": u.uid}
            out += [PinAction("special", (who, t)) for t in effects.candidates(m, ctx, chosen)]
    return out


# a card played from the hand: its kind, (rule, why) when it is not such a card in hand,
# the cost's name, (rule, why) when it is but the place or target is not legal
_FROM_HAND = {
    "deploy": (
        UNIT,
        ("PIN-DEPLOY-1", "not a unit card in hand"),
        "deploy cost",
        ("PIN-DEPLOY-1", "deploy only on your own support line, in a cell without enemy units"),
    ),
    "play": (
        COMMAND,
        ("PIN-CMD-1", "not a command card in hand"),
        "cost",
        ("PIN-CMD-2", "not a legal target for this command"),
    ),
}
# the other actions of the 行动阶段: (rule, why) an action of that kind is not legal now
_WHY_NOT = {
    "activate": (
        "PIN-ACT-2",
        "not an own unit that can be activated now (once per turn, cost payable)",
    ),
    "move": ("PIN-MOVE-1", "not a legal move (adjacent, free slot, no enemy cell, not stopped)"),
    "attack": (
        "PIN-ATTACK-1",
        "not a legal attack (activated, action left, target in range, not guarded)",
    ),
    "special": ("PIN-KW-5", "no such special action now"),
}


def why_illegal(m: PinCore, a: PinAction) -> tuple[str, str]:
    """(rule, reason) for an action not in ``legal_actions`` (never for a legal one)."""
    st = m.state
    if st.phase == "over":
        return "PIN-HQ-4", "the match is over"
    d = st.pending
    if d is not None:
        rules = {
            "mulligan": "PIN-SETUP-3",
            "reveal": "PIN-SETUP-4",
            "draw": "PIN-TURN-3",
            "window": "PIN-COUNTER-3",
            "retreat": "PIN-RETREAT-3",
            "target": "PIN-EFFECT-1",
        }
        return rules[d.kind], f"waiting for {d.kind} of seat {d.seat}; not one of its choices"
    side = st.active
    if a.kind in _FROM_HAND:
        kind, not_card, cost, wrong_place = _FROM_HAND[a.kind]
        card = m.db.get(a.args[0])
        if a.args[0] not in st.hands[side] or card is None or card.kind != kind:
            return not_card
        if card.cost > st.cp[side]:
            return "PIN-CP-1", f"{cost} {card.cost} above current CP {st.cp[side]}"
        return wrong_place
    return _WHY_NOT.get(a.kind, ("PIN-TURN-4", f"{a.kind} is not possible in the {st.phase} phase"))
