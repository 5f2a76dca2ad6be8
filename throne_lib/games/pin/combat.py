"""Attacks, counters, splash, deaths and the end of the match (PIN-ATTACK-*, PIN-DMG-*,
PIN-HQ-4), plus the movement and targeting queries legality shares with resolution."""

from __future__ import annotations

from typing import Any

from throne_lib.games.pin.core import PinCore, to_grave
from throne_lib.games.pin.damage import Defender, Hit, combat_percent, layer_pass, modified
from throne_lib.games.pin.hexes import SIDE_NAMES
from throne_lib.games.pin.state import Unit

# --- movement and targeting queries ----------------------------------------------------


def move_size(m: PinCore, u: Unit) -> str:
    """The size a unit moves as: 悬停 moves as 营 (PIN-MOVE-5)."""
    if "悬停" in m.types(u):
        sizes = (m.card(u).size, m.rules.hover_moves_as)
        return min(sizes, key=m.rules.size_rank)
    return m.card(u).size


def flies(m: PinCore, u: Unit) -> bool:
    """Air units fly unless in chaos (PIN-MOVE-6, PIN-CHAOS-4)."""
    return m.is_air(u) and not u.in_chaos


def ignores_stop(m: PinCore, u: Unit) -> bool:
    """PIN-MOVE-3/-4/-5/-6: ≤ 旅, hover, and flying air units ignore the stop."""
    if flies(m, u) and m.rules.air_ignores_stop:
        return True
    r = m.rules
    return r.size_rank(move_size(m, u)) <= r.size_rank(r.ignore_stop_max_size)


def may_enter_enemy(m: PinCore, u: Unit) -> bool:
    """PIN-MOVE-2/-4: ≤ 营 (and hover) may enter cells holding enemy units."""
    r = m.rules
    return r.size_rank(move_size(m, u)) <= r.size_rank(r.enter_enemy_max_size)


def protection(m: PinCore) -> tuple[set[int], set[int]]:
    """(uids protected by 守护, uids protected from enemy air by 制空), HQs included."""
    st = m.state
    every = [st.units[0], st.units[1], *m.units()]
    guards = [g for g in every if not g.is_hq and m.has(g, "guard")]
    sups = [s for s in every if not s.is_hq and m.has(s, "air_superiority")]
    dist = m.board.distance
    gr, hr, ar = m.rules.guard_radius, m.rules.guard_hq_radius, m.rules.air_superiority_radius
    guarded_ids = set()
    if guards:
        for t in every:
            protectable = t.is_hq or (m.rules.guard_protects_units and not m.has(t, "guard"))
            r = hr if t.is_hq else gr  # PIN-KW-2: two radii, units 1 and the HQ 0
            if protectable and any(
                g.side == t.side and g.uid != t.uid and dist(g.cell, t.cell) <= r for g in guards
            ):
                guarded_ids.add(t.uid)
    denied = set()
    if sups:
        for t in every:
            if any(
                s.side == t.side and s.uid != t.uid and dist(s.cell, t.cell) <= ar for s in sups
            ):
                denied.add(t.uid)
    return guarded_ids, denied


def can_target(
    m: PinCore, attacker: Unit, target: Unit, prot: tuple[set[int], set[int]] | None = None
) -> bool:
    """An enemy unit or HQ in range, not protected by 守护 or 制空 (PIN-ATTACK-1/-2)."""
    if target.side == attacker.side:
        return False
    if m.board.distance(attacker.cell, target.cell) > m.card(attacker).range:
        return False
    guarded_ids, denied = prot if prot is not None else protection(m)
    ignores_guard = any(t in m.rules.guard_ignorers for t in m.types(attacker))
    if not ignores_guard and target.uid in guarded_ids:
        return False
    return not (target.uid in denied and m.is_air(attacker))


def attack_types(m: PinCore, attacker: Unit, target: Unit) -> tuple[str, ...]:
    """The damage types the attacker's owner may pick against this target; a ground unit
    without 防空 hitting an air unit deals 导弹 only (PIN-ATTACK-7)."""
    if (
        m.is_air(target)
        and not m.is_air(attacker)
        and not m.has(attacker, "aa")
        and m.rules.ground_vs_air_on_attacks
    ):
        return ("导弹",)
    return m.card(attacker).damage


def standoff(m: PinCore, attacker: Unit, target: Unit) -> bool:
    """PIN-TYPE-4: a 炮兵 attack from distance ≥ 2 draws no counter."""
    return (
        "炮兵" in m.types(attacker)
        and m.board.distance(attacker.cell, target.cell) >= m.rules.standoff_distance
    )


# --- damage ------------------------------------------------------------------------------


def defender(m: PinCore, u: Unit) -> Defender:
    c = m.card(u)
    return Defender(u.hp, u.ads, u.shield, u.mshield, u.ward, bool(c.kw("reactive")), c.kw("armor"))


def chaos_artillery(m: PinCore, u: Unit) -> bool:
    return u.in_chaos and "炮兵" in m.types(u)


def land(m: PinCore, u: Unit, hit: Hit) -> None:
    d = hit.after
    assert d is not None
    u.hp, u.ads, u.shield, u.mshield, u.ward = d.hp, d.ads, d.shield, d.mshield, d.ward


def hit_unit(m: PinCore, u: Unit, base: int, dtype: str, percent: int) -> Hit:
    """Deal one instance now (effects, chaos tax): modifiers, layers, HP."""
    amount = (
        base if dtype == "直接" and not m.rules.direct_takes_percent else modified(base, percent)
    )
    hit = layer_pass(defender(m, u), amount, dtype, m.rules)
    hit.base, hit.percent = base, percent
    if amount > 0:  # PIN-DMG-1: an instance of 0 is not dealt
        land(m, u, hit)
    return hit


def effect_damage(m: PinCore, u: Unit, base: int, dtype: str, ctx: dict[str, Any]) -> Hit:
    """PIN-EFFECT-2: no 相克, no air rule; the target's own modifiers apply."""
    pct = m.rules.chaos_artillery_percent if chaos_artillery(m, u) else 0
    if dtype == "直接" and not m.rules.direct_takes_percent:
        pct = 0
    before = u.hp
    hit = hit_unit(m, u, base, dtype, pct)
    note_hq(m, u, before, ctx)
    return hit


def note_hq(m: PinCore, u: Unit, before: int, ctx: dict[str, Any]) -> None:
    """Record 【总部受伤】 for the after-windows (not for a counter's own text)."""
    if u.is_hq and u.hp < before and not ctx.get("counter"):
        m.state.after.append((u.side, "hq_damaged", {"ev_unit": u.uid}))


def plan(
    m: PinCore, src: Unit, dst: Unit, base: int, dtype: str, counter: bool, keep_type: bool = False
) -> Hit | None:
    """One attack/counter/splash instance computed from the current state."""
    pct, dealt = combat_percent(
        m.rules,
        m.types(src),
        m.has(src, "aa"),
        m.types(dst),
        dtype,
        chaos_artillery(m, dst),
        counter,
    )
    if keep_type:
        dealt = dtype  # PIN-DMG-14: splash stays 爆炸
    amount = (
        modified(base, pct) if not (dealt == "直接" and not m.rules.direct_takes_percent) else base
    )
    if base <= 0 or amount <= 0:
        return None
    hit = layer_pass(defender(m, dst), amount, dealt, m.rules)
    hit.base, hit.percent = base, pct
    return hit


def counter_hit(m: PinCore, attacker: Unit, target: Unit) -> Hit | None:
    """PIN-ATTACK-6: the target's type that costs the attacker most HP (first on a tie)."""
    best: Hit | None = None
    for dt in m.card(target).damage:
        hit = plan(m, target, attacker, m.attack(target), dt, counter=True)
        if hit is not None and (best is None or hit.hp_loss > best.hp_loss):
            best = hit
    return best


def attack_plan(
    m: PinCore, a: Unit, t: Unit, dtype: str
) -> tuple[Hit | None, Hit | None, list[tuple[Unit, Hit]]]:
    """PIN-ATTACK-9: an attack's main hit, its counter (PIN-ATTACK-5) and, for an
    explosive (爆炸) hit, its splash on the target side's other units in the cell at
    ``splash_percent`` of the base (PIN-DMG-14), all planned from one state:
    :func:`resolve_attack` lands them, :func:`preview` shows them."""
    base = m.attack(a)
    main = plan(m, a, t, base, dtype, counter=False)
    back = None if t.is_hq or standoff(m, a, t) else counter_hit(m, a, t)
    splash: list[tuple[Unit, Hit]] = []
    if (main.dtype if main is not None else dtype) == "爆炸":
        sbase = -(-base * m.rules.splash_percent // 100)
        for o in m.in_cell(t.cell):
            if o.side == t.side and o.uid != t.uid:
                h = plan(m, a, o, sbase, "爆炸", counter=False, keep_type=True)
                if h is not None:
                    splash.append((o, h))
    return main, back, splash


def resolve_attack(m: PinCore, eid: int, uid: int, tid: int, dtype: str) -> None:
    """PIN-ATTACK-9: attack, counter and splash computed from one state, land together."""
    st = m.state
    a, t = m.unit(uid), m.unit(tid)
    if eid in st.cancelled:  # PIN-COUNTER-6
        m.emit("cancelled", "攻击被取消，未造成伤害", eid=eid)
        return
    if a is None or t is None or not can_target(m, a, t) or m.attack(a) <= 0:
        m.emit("fizzle", "攻击者或目标已不在，或目标已不合法：攻击未发生", eid=eid)
        return
    main, back, splash = attack_plan(m, a, t, dtype)
    t_before = t.hp
    lines = []
    if main is not None:
        land(m, t, main)
        lines.append(f"攻击 {m.name(t.uid)}：{main.zh()}")
    else:
        lines.append(f"攻击 {m.name(t.uid)}：伤害为0，未造成伤害")
    if back is not None:
        land(m, a, back)
        lines.append(f"反击 {m.name(a.uid)}：{back.zh()}")
    for o, h in splash:
        land(m, o, h)
        lines.append(f"溅射 {m.name(o.uid)}：{h.zh()}")
    m.emit(
        "attack",
        "；".join(lines),
        unit=uid,
        target=tid,
        main=_hit_dict(main),
        counter=_hit_dict(back),
        splash=[(o.uid, _hit_dict(h)) for o, h in splash],
    )
    note_hq(m, t, t_before, {})
    deaths(m, {})


def _hit_dict(h: Hit | None) -> dict[str, Any] | None:
    if h is None:
        return None
    return {
        "base": h.base,
        "dtype": h.dtype,
        "percent": h.percent,
        "amount": h.amount,
        "layers": h.layers,
        "cancelled_by": h.cancelled_by,
        "hp_loss": h.hp_loss,
    }


def destroy(m: PinCore, u: Unit, ctx: dict[str, Any]) -> None:
    """PIN-DMG-13: to the owner's graveyard (衍生: removed); 【友方单位被摧毁】 recorded."""
    st = m.state
    m.emit("destroyed", f"{m.name(u.uid)}被摧毁", unit=u.uid, card=u.card, side=u.side)
    st.slots[u.cell].remove(u.uid)
    if not st.slots[u.cell]:
        del st.slots[u.cell]
    del st.units[u.uid]
    to_grave(m, u.side, u.card)
    if not ctx.get("counter"):
        st.after.append((u.side, "ally_destroyed", {"ev_unit": u.uid, "card": u.card}))


def deaths(m: PinCore, ctx: dict[str, Any]) -> None:
    """Destroy every unit at HP ≤ 0 (by cell, then slot), then check the HQs."""
    for u in m.units():
        if u.hp <= 0:
            destroy(m, u, ctx)
    check_win(m)


def check_win(m: PinCore) -> None:
    """PIN-HQ-4: an HQ at 0 or below loses at once; both at once is a draw."""
    st = m.state
    fallen = [s for s in (0, 1) if st.units[s].hp <= 0]
    if not fallen:
        return
    if len(fallen) == 2:
        winner = -1 if m.rules.both_hq_fall_draw else 1 - st.active
    else:
        winner = 1 - fallen[0]
    finish(m, winner, "总部被摧毁", "hq")


def finish(m: PinCore, winner: int, why: str, reason: str) -> None:
    """End the match; ``reason`` is the short machine word (``hq``, ``round_limit``, …)."""
    st = m.state
    st.winner, st.phase, st.pending, st.end_reason = winner, "over", None, reason
    for step in st.queue:  # a command or counter card still on its way (PIN-CMD-1)
        if step[0] == "to_grave":
            to_grave(m, step[1], step[2])
        elif step[0] == "command":
            to_grave(m, step[1]["side"], step[1]["card"])
    st.queue.clear()
    st.after.clear()
    result = "平局" if winner < 0 else f"{SIDE_NAMES[winner]}获胜"
    m.emit("over", f"{why}：{result}", winner=winner)


def end_by_round_limit(m: PinCore) -> None:
    """PIN-TURN-7: after the last round the HQ with more HP wins; equal is a draw."""
    h0, h1 = m.state.units[0].hp, m.state.units[1].hp
    m.state.turn -= 1
    finish(
        m,
        -1 if h0 == h1 else (0 if h0 > h1 else 1),
        f"第{m.rules.round_limit}轮结束",
        "round_limit",
    )


def preview(m: PinCore, uid: int, tid: int, dtype: str) -> dict[str, Any]:
    """What an attack would do now, computed by the rules without changing anything
    (PIN-UI-5's preview, the scripted AI's attack score): main hit, counter, splash."""
    a, t = m.state.units[uid], m.state.units[tid]
    main, back, splash = attack_plan(m, a, t, dtype)
    return {"main": main, "counter": back, "splash": [(o.uid, h) for o, h in splash]}
