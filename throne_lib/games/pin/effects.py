"""The effect words at work: targets and what each call does (PIN-EFFECT-*, PIN-KW-6,
PIN-COUNTER-*). Effects ignore range, 守护 and 制空 (PIN-CMD-3)."""

from __future__ import annotations

from typing import Any

from throne_lib.games.pin import combat
from throne_lib.games.pin.cards import COUNTER
from throne_lib.games.pin.core import PinCore, draw, push, to_hand
from throne_lib.games.pin.hexes import SIDE_NAMES, label, parse_cell, support_line
from throne_lib.games.pin.state import Unit, parse_ref, ref
from throne_lib.games.pin.words import Call

Ctx = dict[str, Any]
_RADIUS = {"enemy_same_cell": 0, "enemy_adjacent": 1, "enemy_within2": 2}


def candidates(m: PinCore, ctx: Ctx, selector: str) -> list[str]:
    """Every legal choice for a chosen selector, as action arguments (u7, hq1, 009)."""
    side = ctx["side"]
    enemies = [u for u in m.units() if u.side != side]
    if selector == "enemy_unit":
        return [ref(u.uid) for u in enemies]
    if selector == "enemy_or_hq":
        return [ref(u.uid) for u in enemies] + [ref(1 - side)]
    if selector == "ally_unit":
        return [ref(u.uid) for u in m.units() if u.side == side]
    if selector == "ally_or_hq":
        return [ref(u.uid) for u in m.units() if u.side == side] + [ref(side)]
    if selector == "enemy_cell":
        return [label(c) for c in sorted({u.cell for u in enemies})]
    if selector in _RADIUS:
        src = m.unit(ctx["source"]) if ctx.get("source") is not None else None
        if src is None:
            return []
        r = _RADIUS[selector]
        return [ref(u.uid) for u in enemies if m.board.distance(u.cell, src.cell) <= r]
    raise ValueError(f"not a chosen selector: {selector}")


def playable_counters(m: PinCore, side: int, trigger: str, ctx: Ctx) -> list[tuple[str, str]]:
    """(card, target) pairs the side may play in this window (PIN-COUNTER-1/-2/-5)."""
    st = m.state
    out: list[tuple[str, str]] = []
    for card_id in sorted(set(st.hands[side])):
        card = m.db[card_id]
        if card.kind != COUNTER or card.cost > st.cp[side]:
            continue
        clause = card.effects[0]
        if clause.counter_on != trigger:
            continue
        if clause.narrow == "on_unit":
            target = m.unit(ctx.get("ev_target", -1))
            if target is None or target.is_hq:
                continue
        chosen = clause.chosen
        if chosen:
            out += [(card_id, t) for t in candidates(m, {**ctx, "side": side}, chosen)]
        else:
            out.append((card_id, "-"))
    return out


def _targets(m: PinCore, ctx: Ctx, who: str) -> list[Unit]:
    """The units/HQs a call acts on now; gone targets are skipped (PIN-EFFECT-1)."""
    side = ctx["side"]
    uid: int | None
    if who == "self":
        uid = ctx.get("source")
    elif who == "event_unit":
        uid = ctx.get("ev_unit")
    elif who == "event_target":
        uid = ctx.get("ev_target")
    elif who == "enemy_hq":
        uid = 1 - side
    elif who == "own_hq":
        uid = side
    elif who == "enemy_cell":
        cell = parse_cell(ctx["target"])
        return [u for u in m.in_cell(cell) if u.side != side]
    else:
        uid = parse_ref(ctx["target"]) if ctx.get("target") else None
    u = m.unit(uid) if uid is not None else None
    return [u] if u is not None else []


def do_call(m: PinCore, ctx: Ctx, call: Call) -> bool:
    """Resolve one call; False when a 若… condition fails (PIN-EFFECT-7)."""
    st = m.state
    side = ctx["side"]
    a = call.args
    n = call.name
    if n == "when":
        src = m.unit(ctx["source"]) if ctx.get("source") is not None else None
        ok = src is not None and src.cell in support_line(1 - src.side)
        if not ok:
            m.emit("condition", f"条件不满足（{call.zh()}），效果跳过")
        return ok
    if n == "draw":
        for _ in range(int(a[0])):
            draw(m, side)
        return True
    if n in ("gain_cp", "raise_cp_max"):  # PIN-CP-3: current CP may pass the max, not the cap
        gain, cap = int(a[0]), m.rules.cp_max_cap
        if n == "raise_cp_max":
            st.cp_max[side] = min(cap, st.cp_max[side] + gain)
        if n == "gain_cp" or m.rules.cp_max_effect_raises_current:
            st.cp[side] = min(cap, st.cp[side] + gain)
        kind, what = (
            ("cp", f"获得{a[0]}点指挥点") if n == "gain_cp" else ("cp_max", f"指挥点上限+{a[0]}")
        )
        m.emit(kind, f"{SIDE_NAMES[side]}{what}（{st.cp[side]}/{st.cp_max[side]}）", side=side)
        return True
    if n == "spawn":  # PIN-EFFECT-5
        card = str(a[0])
        for _ in range(int(a[1])):
            to_hand(m, side, card, public=True)
        m.emit("spawn", f"{SIDE_NAMES[side]}生成{a[1]}张{m.db[card].name}", side=side, card=card)
        return True
    if n == "cancel":  # PIN-COUNTER-6
        if "eid" in ctx:
            st.cancelled.add(ctx["eid"])
        return True
    who = str(a[-1])
    targets = _targets(m, ctx, who)
    if not targets:
        m.emit("no_target", f"{call.zh()}：目标已不在，跳过")
        return True
    if n == "retreat":  # PIN-RETREAT-8: one by one, by cell number, then slot
        units = [u for u in targets if not u.is_hq]
        for u in units:
            m.emit("retreat_order", f"{m.name(u.uid)}被命令撤退", unit=u.uid)
        push(m, *[("retreat", u.uid) for u in units])
        return True
    for u in targets:
        _act(m, ctx, call, u)
    if n == "damage":
        combat.deaths(m, ctx)
    return True


def _act(m: PinCore, ctx: Ctx, call: Call, u: Unit) -> None:

    n, a = call.name, call.args
    c = m.card(u)
    if n == "damage":
        hit = combat.effect_damage(m, u, int(a[0]), str(a[1]), ctx)
        m.emit(
            "effect_damage", f"{m.name(u.uid)}受到{hit.zh()}", unit=u.uid, hit=combat._hit_dict(hit)
        )
    elif n == "chaos" and not u.is_hq:  # PIN-CHAOS-2/-3
        st = m.state
        u.chaos_until = st.turn + (2 if st.active == u.side else 1)
        m.emit("chaos", f"{m.name(u.uid)}陷入混乱（至第{u.chaos_until}回合结束）", unit=u.uid)
    elif n == "heal":
        u.hp = min(u.max_hp, u.hp + int(a[0]))
        m.emit("heal", f"{m.name(u.uid)}恢复{a[0]}点生命值（{u.hp}/{u.max_hp}）", unit=u.uid)
    elif n == "restore_mshield":
        u.mshield = min(c.kw("mshield"), u.mshield + int(a[0]))
        m.emit(
            "mshield", f"{m.name(u.uid)}恢复魔法护盾（{u.mshield}/{c.kw('mshield')}）", unit=u.uid
        )
    elif n == "refill_shield":
        u.shield = c.kw("shield")
        m.emit("shield", f"{m.name(u.uid)}护盾恢复至上限{u.shield}", unit=u.uid)
    elif n in ("attack_up", "attack_down") and not u.is_hq:  # PIN-EFFECT-6
        u.attack_bonus += int(a[0]) if n == "attack_up" else -int(a[0])
        m.emit("buff", f"{m.name(u.uid)}{call.zh()}（攻击{m.attack(u)}）", unit=u.uid)
    elif n == "hp_up" and not u.is_hq:
        u.max_hp += int(a[0])
        u.hp += int(a[0])
        m.emit("buff", f"{m.name(u.uid)}生命+{a[0]}（{u.hp}/{u.max_hp}）", unit=u.uid)
