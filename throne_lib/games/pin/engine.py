"""Resolution: actions start sequences of steps; steps run until a decision is needed.

Steps are small tuples on ``state.queue`` (a stack, top = last), so a match can stop
in the middle of a deployment, an attack or a command to wait for a counter window, a
retreat or an effect target (PIN-TURN-8), and be copied there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from throne_lib.games.pin import combat, effects
from throne_lib.games.pin.actions import PinAction
from throne_lib.games.pin.cards import COUNTER
from throne_lib.games.pin.core import PinCore, draw, fresh_unit, from_hand, push, to_grave, to_hand
from throne_lib.games.pin.hexes import SIDE_NAMES, label, parse_cell, support_line
from throne_lib.games.pin.state import Decision, Unit, parse_ref, ref
from throne_lib.games.pin.words import Clause

Ctx = dict[str, Any]


def run(m: PinCore) -> None:
    st = m.state
    while st.queue and st.pending is None and st.phase != "over":
        step = st.queue.pop()
        STEPS[step[0]](m, *step[1:])


# --- actions ---------------------------------------------------------------------------


def perform(m: PinCore, a: PinAction) -> None:
    ACTIONS[a.kind](m, *a.args)


def _mulligan(m: PinCore, cards: str) -> None:
    st = m.state
    seat = st.pending.seat if st.pending else 0
    chosen = [] if cards == "-" else cards.split("+")
    for c in chosen:
        st.hands[seat].remove(c)
    if m.rules.mulligan_to_bottom:  # PIN-SETUP-3: bottom, random order
        st.rng.shuffle(chosen)
        st.decks[seat][:0] = chosen
    else:
        st.decks[seat].extend(chosen)
        st.rng.shuffle(st.decks[seat])
    m.emit("mulligan", f"{SIDE_NAMES[seat]}完成换牌", side=seat)
    if chosen:
        names = "、".join(m.db[c].name for c in chosen)
        m.emit(
            "mulligan_cards",
            f"{SIDE_NAMES[seat]}换掉{names}",
            private=seat,
            side=seat,
            cards=chosen,
        )
    for _ in chosen:
        draw(m, seat)
    st.mulliganed[seat] = True
    st.pending = Decision("mulligan", 1) if seat == 0 else Decision("reveal", 0)


def _reveal(m: PinCore, card: str) -> None:
    st = m.state
    seat = st.pending.seat if st.pending else 0
    st.revealed[seat] = card
    m.emit(
        "reveal_pick",
        f"{SIDE_NAMES[seat]}选定展示牌{m.db[card].name}",
        private=seat,
        side=seat,
        card=card,
    )
    if seat == 0:
        st.pending = Decision("reveal", 1)
        return
    st.pending = None
    a, b = st.revealed
    ca, cb = m.db[a].cost, m.db[b].cost
    m.emit(
        "reveal",
        f"展示：甲 {m.db[a].name}（{ca}） 对 乙 {m.db[b].name}（{cb}）",
        cards=[a, b],
        costs=[ca, cb],
    )
    if ca != cb:  # PIN-SETUP-4
        _begin(m, 0 if ca > cb else 1)
        return
    st.ties += 1  # PIN-SETUP-5
    for side in (0, 1):
        st.hands[side].remove(st.revealed[side])
        st.decks[side].append(st.revealed[side])
        st.rng.shuffle(st.decks[side])
        draw(m, side)
    st.revealed = ["", ""]
    if st.ties >= m.rules.reveal_ties_max:
        first = st.rng.randrange(2)
        m.emit("tie_pick", f"连续{st.ties}次平局，由随机数决定{SIDE_NAMES[first]}先手", first=first)
        st.first, st.active = first, first
        st.phase = "draw"
        push(m, ("start_turn",))
        return
    st.pending = Decision("reveal", 0)


def _begin(m: PinCore, first: int) -> None:
    """PIN-SETUP-6: the first player shuffles its shown card back; the second keeps it."""
    st = m.state
    card = st.revealed[first]
    st.hands[first].remove(card)
    st.decks[first].append(card)
    st.rng.shuffle(st.decks[first])
    st.known[1 - first].append(st.revealed[1 - first])
    st.first, st.active = first, first
    m.emit("first", f"{SIDE_NAMES[first]}先手", first=first)
    push(m, ("start_turn",))


def _paid_draw(m: PinCore) -> None:
    st = m.state
    st.cp[st.active] -= m.rules.paid_draw_cost
    st.paid_draw_used = True
    m.emit("paid_draw", f"{SIDE_NAMES[st.active]}花费{m.rules.paid_draw_cost}指挥点再抽1张牌")
    draw(m, st.active)
    st.pending = None
    st.phase = "action"


def _skip(m: PinCore) -> None:
    m.state.pending = None
    m.state.phase = "action"


def _deploy(m: PinCore, card: str, cell_text: str) -> None:
    st = m.state
    side, cell = st.active, parse_cell(cell_text)
    c = m.db[card]
    st.cp[side] -= c.cost
    from_hand(m, side, card)
    u = new_unit(m, side, card, cell)
    m.emit(
        "deploy",
        f"{SIDE_NAMES[side]}部署{m.name(u.uid)}（部署费{c.cost}）",
        side=side,
        unit=u.uid,
        card=card,
        cell=cell,
    )
    push(m, ("stack_check", u.uid), ("deployed", u.uid, u.cell), ("after",))


def new_unit(m: PinCore, side: int, card: str, cell: int) -> Unit:
    """A fresh unit: full HP, charges and pools, unactivated (PIN-DEPLOY-3)."""
    st = m.state
    u = fresh_unit(m.db, st.next_uid, card, side, cell)
    u.deployed_turn = st.turn
    st.next_uid += 1
    st.units[u.uid] = u
    st.slots.setdefault(cell, []).append(u.uid)
    return u


def _activate(m: PinCore, who: str) -> None:
    st = m.state
    u = st.units[parse_ref(who)]
    c = m.card(u)
    st.cp[u.side] -= c.action_cost
    if not m.rules.interleaved_activations:  # PIN-ACT-5 variant: activating ends the others
        for other in m.units():
            if other.side == u.side and other.activated:
                other.actions = 0
    u.activated, u.actions, u.spent = True, c.actions, 0
    m.emit(
        "activate", f"{m.name(u.uid)}激活（行动费{c.action_cost}，{c.actions}次行动）", unit=u.uid
    )


def spend(m: PinCore, u: Unit) -> None:
    u.actions -= 1
    u.spent += 1


def _move(m: PinCore, who: str, cell_text: str) -> None:
    st = m.state
    u = st.units[parse_ref(who)]
    cell = parse_cell(cell_text)
    spend(m, u)
    start = u.cell
    relocate(m, u, cell)
    near = m.enemy_near(u.side, cell)
    if near and not combat.ignores_stop(m, u):  # PIN-MOVE-3
        u.stopped = True
    stop = "，与敌相邻，停止移动" if u.stopped else ""
    m.emit(
        "move",
        f"{m.card(u).name}({who}) {label(start)} → {label(cell)}{stop}",
        unit=u.uid,
        frm=start,
        to=cell,
    )
    steps: list[tuple[Any, ...]] = []
    if near:  # 【敌方移动】 for the side whose unit it came close to (PIN-COUNTER-2)
        steps.append(("window", 1 - u.side, "enemy_move", {"ev_unit": u.uid}))
    push(m, *steps, ("tax", u.uid), ("after",))


def relocate(m: PinCore, u: Unit, cell: int) -> None:
    st = m.state
    st.slots[u.cell].remove(u.uid)
    if not st.slots[u.cell]:
        del st.slots[u.cell]
    u.cell = cell
    st.slots.setdefault(cell, []).append(u.uid)


def _attack(m: PinCore, who: str, target: str, dtype: str) -> None:
    st = m.state
    u = st.units[parse_ref(who)]
    tid = parse_ref(target)
    spend(m, u)
    if m.rules.cost_per_attack:  # PIN-ACT-4 variant
        st.cp[u.side] -= m.card(u).action_cost
    eid = new_event(m)
    m.emit(
        "declare",
        f"{m.name(u.uid)}宣告攻击{m.name(tid)}（{dtype}）",
        unit=u.uid,
        target=tid,
        dtype=dtype,
        eid=eid,
    )
    ctx = {"ev_unit": u.uid, "ev_target": tid, "eid": eid}
    push(
        m,
        ("window", st.units[tid].side, "enemy_attack", ctx),
        ("attack", eid, u.uid, tid, dtype),
        ("tax", u.uid),
        ("after",),
    )


def new_event(m: PinCore) -> int:
    m.state.next_event += 1
    return m.state.next_event - 1


def _special(m: PinCore, who: str, target: str) -> None:
    u = m.state.units[parse_ref(who)]
    spend(m, u)
    clause = m.card(u).clauses("special")[0]
    m.emit("special", f"{m.name(u.uid)}执行特殊动作：{clause.zh()}", unit=u.uid)
    ctx = {
        "side": u.side,
        "card": u.card,
        "source": u.uid,
        "target": None if target == "-" else target,
    }
    push(m, ("clause", ctx, clause), ("tax", u.uid), ("after",))


def _play(m: PinCore, card: str, target: str) -> None:
    st = m.state
    side = st.active
    c = m.db[card]
    st.cp[side] -= c.cost
    from_hand(m, side, card)
    eid = new_event(m)
    m.emit(
        "command",
        f"{SIDE_NAMES[side]}使用指令{c.name}（{c.cost}）：{m.db.text(card)}",
        side=side,
        card=card,
        target=target,
        eid=eid,
    )
    ctx = {
        "side": side,
        "card": card,
        "source": None,
        "target": None if target == "-" else target,
        "eid": eid,
    }
    push(m, ("window", 1 - side, "enemy_command", {"eid": eid}), ("command", ctx), ("after",))


def _end(m: PinCore) -> None:
    st = m.state
    m.emit("end", f"{SIDE_NAMES[st.active]}结束回合", side=st.active)
    push(m, ("end_phase",))


def _counter(m: PinCore, card: str, target: str) -> None:
    st = m.state
    assert st.pending is not None
    side, wctx = st.pending.seat, st.pending.data["ctx"]
    st.pending = None
    c = m.db[card]
    st.cp[side] -= c.cost
    from_hand(m, side, card)
    clause = c.effects[0]
    m.emit(
        "counter",
        f"{SIDE_NAMES[side]}打出反制{c.name}（{c.cost}）：{m.db.text(card)}",
        side=side,
        card=card,
    )
    ctx = {**wctx, "side": side, "card": card, "source": None, "counter": True}
    ctx["target"] = None if target == "-" else target
    push(m, ("calls", ctx, clause.calls), ("to_grave", side, card))


def _pass(m: PinCore) -> None:
    st = m.state
    assert st.pending is not None
    m.emit("pass", f"{SIDE_NAMES[st.pending.seat]}放弃反制", side=st.pending.seat)
    st.pending = None


def _retreat(m: PinCore, who: str, dest: str) -> None:
    st = m.state
    st.pending = None
    do_retreat(m, st.units[parse_ref(who)], dest)


def _target(m: PinCore, target: str) -> None:
    st = m.state
    assert st.pending is not None
    ctx, clause = st.pending.data["ctx"], st.pending.data["clause"]
    st.pending = None
    push(m, ("calls", {**ctx, "target": target}, clause.calls))


ACTIONS: dict[str, Callable[..., None]] = {
    "mulligan": _mulligan,
    "reveal": _reveal,
    "draw": _paid_draw,
    "skip": _skip,
    "deploy": _deploy,
    "activate": _activate,
    "move": _move,
    "attack": _attack,
    "special": _special,
    "play": _play,
    "end": _end,
    "counter": _counter,
    "pass": _pass,
    "retreat": _retreat,
    "target": _target,
}


# --- steps -----------------------------------------------------------------------------


def _stack_check(m: PinCore, uid: int) -> None:
    """PIN-STACK-3: over the limit right after placing -> the new unit retreats."""
    u = m.unit(uid)
    if u is not None and len(m.state.slots[u.cell]) > m.rules.slots_per_cell:
        m.emit("overstack", f"{label(u.cell)}超过堆叠上限，{m.name(uid)}立即撤退", unit=uid)
        retreat_start(m, u, deploy=True)


def _deployed(m: PinCore, uid: int, cell: int) -> None:
    """PIN-DEPLOY-2: window 【敌方部署】, then the 部署： effect, if the unit stands."""
    u = m.unit(uid)
    if u is None:
        return
    clauses = m.card(u).clauses("deploy")
    steps: list[tuple[Any, ...]] = [("window", 1 - u.side, "enemy_deploy", {"ev_unit": uid})]
    moved = u.cell != cell
    if clauses and not (moved and not m.rules.deploy_retreat_to_cell_triggers_deploy):
        ctx = {"side": u.side, "card": u.card, "source": uid, "target": None}
        steps += [("clause", ctx, cl) for cl in clauses]
    push(m, *steps)


def _clause(m: PinCore, ctx: Ctx, clause: Clause) -> None:
    """Start a unit's or HQ's triggered clause; chaos switches it off (PIN-CHAOS-1)."""
    src = m.unit(ctx["source"]) if ctx.get("source") is not None else None
    if src is not None and src.in_chaos:
        m.emit("chaos_silent", f"{m.name(src.uid)}处于混乱，{clause.zh()}不生效", unit=src.uid)
        return
    chosen = clause.chosen
    if chosen and ctx.get("target") is None:
        options = effects.candidates(m, ctx, chosen)
        if not options:  # PIN-EFFECT-1: skipped without a legal target
            m.emit("no_target", f"{clause.zh()}：没有合法目标，跳过")
            return
        if len(options) > 1:
            m.state.pending = Decision(
                "target", ctx["side"], {"ctx": ctx, "clause": clause, "options": options}
            )
            return
        ctx = {**ctx, "target": options[0]}
    push(m, ("calls", ctx, clause.calls))


def _calls(m: PinCore, ctx: Ctx, calls: tuple[Any, ...]) -> None:
    if not calls:
        return
    if len(calls) > 1:
        push(m, ("calls", ctx, calls[1:]))
    if not effects.do_call(m, ctx, calls[0]) and len(calls) > 1:
        m.state.queue.pop()  # 若… was false: the rest of the clause is skipped


def _command(m: PinCore, ctx: Ctx) -> None:
    st = m.state
    card = m.db[ctx["card"]]
    if ctx["eid"] in st.cancelled:  # PIN-COUNTER-6
        m.emit("cancelled", f"指令{card.name}被取消")
        to_grave(m, ctx["side"], card.id)
        return
    push(m, ("calls", ctx, card.effects[0].calls), ("to_grave", ctx["side"], card.id))


def _to_grave(m: PinCore, side: int, card: str) -> None:
    to_grave(m, side, card)


def _window(m: PinCore, side: int, trigger: str, ctx: Ctx) -> None:
    """PIN-COUNTER-3/-5: the side is asked at every trigger, whatever it holds, so the
    pause tells the opponent nothing; with nothing playable its only answer is the pass
    (``forced_pass``). ``ask_only_able`` is the old shortcut that leaks the hand."""
    if not m.rules.ask_only_able or effects.playable_counters(m, side, trigger, ctx):
        m.state.pending = Decision("window", side, {"trigger": trigger, "ctx": ctx})


def _attack_step(m: PinCore, eid: int, uid: int, tid: int, dtype: str) -> None:
    combat.resolve_attack(m, eid, uid, tid, dtype)


def _tax(m: PinCore, uid: int) -> None:
    """PIN-CHAOS-4: an infantry unit in chaos takes 10 直接 after each action."""
    u = m.unit(uid)
    if u is None or not u.in_chaos or "步兵" not in m.types(u):
        return
    hit = combat.hit_unit(m, u, m.rules.chaos_infantry_direct, "直接", 0)
    m.emit("chaos_tax", f"{m.name(uid)}混乱中行动，受到{hit.zh()}", unit=uid)
    combat.deaths(m, {})


def _after(m: PinCore) -> None:
    """After-windows in event order, the side not on turn first (PIN-COUNTER-3)."""
    st = m.state
    items, st.after = st.after, []
    items.sort(key=lambda it: it[0] == st.active)
    push(m, *[("window", side, trig, ctx) for side, trig, ctx in items])


def _start_turn(m: PinCore) -> None:
    """PIN-TURN-2: CP, refills, activations cleared, then 回合开始： effects."""
    st, r = m.state, m.rules
    st.turn += 1
    side = st.active
    if st.turn > 2 * r.round_limit:  # PIN-TURN-7
        combat.end_by_round_limit(m)
        return
    if st.cp_max[side] < r.cp_auto_cap:
        st.cp_max[side] = min(r.cp_auto_cap, st.cp_max[side] + r.cp_rise)
    st.cp[side] = st.cp_max[side]
    st.paid_draw_used = False
    st.phase = "draw"
    m.emit(
        "turn",
        f"第{st.round}轮 {SIDE_NAMES[side]}的回合开始（指挥点 {st.cp[side]}/{st.cp_max[side]}）",
        side=side,
        turn=st.turn,
    )
    clauses: list[tuple[Any, ...]] = []
    for u in [st.units[side], *m.units()]:
        if u.side != side:
            continue
        c = m.card(u)
        u.ads = c.kw("ads")
        if r.shield_refills:
            u.shield = c.kw("shield")
        u.activated, u.actions, u.spent, u.stopped = False, 0, 0, False
        ctx = {"side": side, "card": u.card, "source": u.uid, "target": None}
        clauses += [("clause", ctx, cl) for cl in c.clauses("turn_start")]
    push(m, *clauses, ("after",), ("draw_phase",))


def _draw_phase(m: PinCore) -> None:
    """PIN-TURN-3: draw 1, then offer the paid draw; the first player's turn 1 skips it."""
    st = m.state
    side = st.active
    if st.turn == 1:
        st.phase = "action"
        return
    for _ in range(m.rules.draws_per_turn):
        draw(m, side)
    if st.decks[side] and st.cp[side] >= m.rules.paid_draw_cost:
        st.pending = Decision("draw", side)
    else:
        st.phase = "action"


def _end_phase(m: PinCore) -> None:
    st = m.state
    side = st.active
    st.phase = "end"
    clauses: list[tuple[Any, ...]] = []
    for u in [st.units[side], *m.units()]:
        if u.side == side:
            ctx = {"side": side, "card": u.card, "source": u.uid, "target": None}
            clauses += [("clause", ctx, cl) for cl in m.card(u).clauses("turn_end")]
    push(m, *clauses, ("after",), ("expire",), ("next_turn",))


def _expire(m: PinCore) -> None:
    """PIN-TURN-5 / PIN-CHAOS-2: chaos ends after 回合结束：; unused actions are lost."""
    st = m.state
    for u in m.units():
        if u.chaos_until == st.turn:
            u.chaos_until = 0
            m.emit("chaos_end", f"{m.name(u.uid)}脱离混乱", unit=u.uid)
        if u.side == st.active:
            u.actions = 0
    if not m.rules.leftover_cp_for_counters:  # PIN-CP-4 variant
        st.cp[st.active] = 0


def _next_turn(m: PinCore) -> None:
    st = m.state
    st.active = 1 - st.active
    push(m, ("start_turn",))


def _retreat_step(m: PinCore, uid: int) -> None:
    u = m.unit(uid)
    if u is not None:
        retreat_start(m, u, deploy=False)


STEPS: dict[str, Callable[..., None]] = {
    "stack_check": _stack_check,
    "deployed": _deployed,
    "clause": _clause,
    "calls": _calls,
    "command": _command,
    "to_grave": _to_grave,
    "window": _window,
    "attack": _attack_step,
    "tax": _tax,
    "after": _after,
    "start_turn": _start_turn,
    "draw_phase": _draw_phase,
    "end_phase": _end_phase,
    "expire": _expire,
    "next_turn": _next_turn,
    "retreat": _retreat_step,
}


# --- retreat (PIN-RETREAT-*) -----------------------------------------------------------


def retreat_options(m: PinCore, u: Unit) -> tuple[list[int], bool]:
    """End cells reachable by a legal path, and whether return to hand is allowed.

    Paths step to adjacent cells without enemy units, may cross friendly (even full)
    cells, never revisit a cell or the start, and end at the first safe cell: no enemy
    unit at distance ≤ 1 and a free slot (PIN-RETREAT-3, -4, -5)."""
    hand = m.rules.retreat_to_hand_from_own_line and u.cell in support_line(u.side)
    enemy_cells = {e.cell for e in m.units() if e.side != u.side}
    danger = {c for e in enemy_cells for c in m.board.within(e, 1)}
    seen = {u.cell}
    frontier = [u.cell]
    ends: list[int] = []
    while frontier:
        nxt = []
        for c in frontier:
            for n in m.board.neighbours[c]:
                if n in seen or n in enemy_cells:
                    continue
                seen.add(n)
                if n not in danger and m.free_slot(n):
                    ends.append(n)
                else:
                    nxt.append(n)
        frontier = nxt
    return sorted(ends), hand


def retreat_start(m: PinCore, u: Unit, deploy: bool) -> None:
    cells, hand = retreat_options(m, u)
    n = len(cells) + hand
    if n == 0:  # PIN-RETREAT-5
        m.emit("retreat_fail", f"{m.name(u.uid)}无处可退，撤退失败，被消灭", unit=u.uid)
        combat.destroy(m, u, {})
        return
    if n == 1:
        do_retreat(m, u, "hand" if hand else label(cells[0]))
        return
    m.state.pending = Decision("retreat", u.side, {"uid": u.uid, "cells": cells, "hand": hand})


def do_retreat(m: PinCore, u: Unit, dest: str) -> None:
    st = m.state
    silent = u.in_chaos
    clauses = m.card(u).clauses("retreat")
    if dest == "hand":  # PIN-RETREAT-2: back to hand, fresh
        st.slots[u.cell].remove(u.uid)
        if not st.slots[u.cell]:
            del st.slots[u.cell]
        del st.units[u.uid]
        m.emit(
            "retreat_hand", f"{m.card(u).name}({ref(u.uid)})撤退返回手牌", unit=u.uid, card=u.card
        )
        to_hand(m, u.side, u.card, public=True)
    else:
        start = u.cell
        relocate(m, u, parse_cell(dest))
        m.emit(
            "retreat",
            f"{m.card(u).name}({ref(u.uid)})撤退 {label(start)} → {dest}",
            unit=u.uid,
            frm=start,
            to=u.cell,
        )
    if clauses and not silent:  # PIN-RETREAT-8 / PIN-KW-7
        source = None if dest == "hand" else u.uid
        ctx = {"side": u.side, "card": u.card, "source": source, "target": None}
        push(m, *[("clause", ctx, cl) for cl in clauses])


def counter_cards(m: PinCore, side: int) -> list[str]:
    return sorted({c for c in m.state.hands[side] if m.db[c].kind == COUNTER})
