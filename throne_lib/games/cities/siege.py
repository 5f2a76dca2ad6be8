"""Attacks on cities (CW-SIEGE): reach, the attack ops with a city as target and its
defence effects, 爆裂火球 on a city, the 出牌阶段's city actions (南皮 too) and the
指挥阶段 with city groups; a unit's attack stays the castle engine's."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.combat import (
    Atk,
    ask_block,
    attack_distance,
    axe_window,
    bite,
    can_attack_now,
    deal,
    hero_atk,
    hero_range,
    kill_soldier,
    soldier_profile,
    soldier_targets,
)
from throne_lib.games.castle.command import command_groups, order_soldier, orders, soldier_atk
from throne_lib.games.castle.core import OPS, PROMPTS, ask, discard_card, log, push
from throne_lib.games.castle.magic import counter_askers
from throne_lib.games.castle.play import attack_payments, start_attack
from throne_lib.games.castle.state import Prompt, Soldier, State
from throne_lib.games.castle.turn import command_phase
from throne_lib.games.cities.capture import hit
from throne_lib.games.cities.mode import (
    CITY,
    city_name,
    cw_op,
    cw_prompt,
    defence,
    is_city,
    mode,
    ref_name,
    sweep_fallen,
    sync,
    war_of,
)
from throne_lib.games.cities.war import EMPTY

AtkOp = Callable[[State, Atk], None]


# --- attacks on cities (CW-SIEGE) ------------------------------------------------------
def in_reach(s: State, seat: int, city: str, rng: float, swift: bool) -> bool:
    """CW-SIEGE-4: an empty city is in reach of every attack; an opponent's current city
    stands at its owner's seat."""
    owner = war_of(s).owner(city)
    if owner is None or owner == EMPTY or mode(s).rules.city_distance == "any":
        return owner is not None
    return swift or attack_distance(s, seat, owner) <= rng


def city_profile(s: State, seat: int, sol: Soldier) -> tuple[str, int, float, bool]:
    """A soldier's attack on a city: its profile against no unit (a charge stays one)."""
    return soldier_profile(s, sol, f"h{seat}")


def soldier_reaches(s: State, seat: int, sol: Soldier, city: str) -> bool:
    _, _, rng, _ = city_profile(s, seat, sol)
    swift = s.players[seat].swift and s.rules.swift_wind_soldiers
    return in_reach(s, seat, city, rng, swift)


def city_atk(s: State, seat: int, sol: Soldier, target: str) -> Atk:
    """A soldier's attack on the city ``target`` (``c:<id>``), or on a unit (the castle's)."""
    if not is_city(target):
        return soldier_atk(s, seat, sol, target)
    kind, dmg, _, no_save = city_profile(s, seat, sol)
    owner = war_of(s).owner(target.removeprefix(CITY))
    return Atk(sol.ref, target, seat, kind, dmg, False, no_save=no_save,
               tgroup=owner if owner is not None else -1)  # fmt: skip


def city_atk_op(name: str) -> Callable[[AtkOp], AtkOp]:
    """Register the mode's ``name`` op for an attack on a city; an attack on a unit stays
    the castle engine's ``name`` op."""

    def deco(fn: AtkOp) -> AtkOp:
        def run(s: State, a: Atk) -> None:
            (fn if is_city(a.target) else OPS[name])(s, a)

        cw_op(name)(run)
        return fn

    return deco


def _still_target(s: State, a: Atk, city: str) -> bool:
    """Whether ``city`` may still be attacked by the attack's side; logs why not."""
    w = war_of(s)
    if city in w.attack_targets(a.src):
        return True
    log(s, "void", f"{w.table[city].name} 已不是可攻击的城池")
    return False


@city_atk_op("atk")
def _atk(s: State, a: Atk) -> None:
    w = war_of(s)
    city = a.target.removeprefix(CITY)
    log(
        s,
        "attack",
        f"{s.name(a.attacker)} 攻击 {w.table[city].name}" + ("（追击）" if a.follow else ""),
    )
    if not _still_target(s, a, city):
        return
    owner = w.owner(city)
    if owner is not None and owner >= 0:
        s.harm[a.src][owner] += 1
    push(s, ("atk_defend", a))


@city_atk_op("atk_defend")
def _atk_defend(s: State, a: Atk) -> None:
    """CW-SIEGE-7: the owner's hero may block an attack on its current city."""
    owner = war_of(s).owner(a.target.removeprefix(CITY))
    if owner is not None and owner >= 0 and mode(s).rules.owner_blocks and ask_block(s, owner, a):
        return
    push(s, ("atk_hit", a))


@city_atk_op("atk_negated")
def _atk_negated(s: State, a: Atk) -> None:
    """A blocked attack on a city: 合肥's riposte (CW-CITY-8); the axes (CH-EQUIP-11/12)."""
    w = war_of(s)
    city = a.target.removeprefix(CITY)
    log(s, "negated", f"对{w.table[city].name}的攻击被抵挡")
    owner = w.owner(city)
    if owner is not None and owner >= 0 and w.current(owner) == city:
        v = defence(s, owner, "block_riposte")
        if v:
            log(s, "city", f"合肥守城效果：{s.name(a.attacker)} 受到{v}点伤害")
            deal(s, a.attacker, v, owner, "other")
    axe_window(s, a)


@city_atk_op("atk_hit")
def _atk_hit(s: State, a: Atk) -> None:
    """CW-SIEGE-3 + defence effects; CW-SIEGE-11: only the attacker's own hit effects."""
    m = mode(s)
    w = m.war
    city = a.target.removeprefix(CITY)
    if not _still_target(s, a, city):
        return
    owner = w.owner(city)
    recoil = defence(s, owner, "soldier_recoil") if owner is not None and owner >= 0 else None
    dmg = w.attack_damage(a.src, city, a.dmg, "sword" if a.by_hero else "soldier")
    log(s, "hit", f"{s.name(a.attacker)} 命中 {w.table[city].name}（{dmg}点）")
    broke = hit(s, a.src, city, dmg)
    if not a.by_hero and dmg > 0:
        att = s.unit(a.attacker)
        if isinstance(att, Soldier):
            bite(s, att)  # CH-SOLDIER-8 works
            if recoil:
                log(s, "city", f"襄阳守城效果：{s.name(a.attacker)} 受到{recoil}点伤害")
                deal(s, a.attacker, recoil, owner if owner is not None else -1, "other")
    if broke and not a.by_hero and s.step == "command" and m.rules.stop_on_break:
        m.command_done = True  # CW-SIEGE-6


@cw_op("magic_resolve")
def _magic_resolve(s: State, seat: int, cid: str, targets: tuple[str, ...]) -> None:
    """CW-SIEGE-9: 爆裂火球 on an opponent's current city: all its damage to the grain."""
    if targets and is_city(targets[0]):
        hit(s, seat, targets[0].removeprefix(CITY), mode(s).rules.fireball_city_damage)
        return
    OPS["magic_resolve"](s, seat, cid, targets)


# --- the 出牌阶段 (CW-SIEGE-1/2/4/9, 南皮) ---------------------------------------------------
def _dead_target(s: State, act: Act) -> bool:
    """CW-TEAM-5: a dead hero is no target of magic or skills."""
    return act.kind in ("magic", "skill") and any(
        isinstance(x, str) and x[:1] == "h" and x[1:].isdigit() and not s.players[int(x[1:])].alive
        for x in act.args
    )


def city_play_actions(s: State, seat: int) -> list[Act]:
    m = mode(s)
    w = m.war
    p = s.players[seat]
    if w.out[seat] or (p.dying and not s.rules.dying_can_act):
        return []
    acts: list[Act] = []
    targets = w.attack_targets(seat)
    pays = attack_payments(s, seat)
    if pays:
        rng = hero_range(s, seat)
        for city in targets:
            if in_reach(s, seat, city, rng, p.swift):
                acts.extend(Act("attack", (CITY + city, e, pay)) for e, pay in pays)
    if "exploding_fireball" in p.hand and "爆裂火球" in m.rules.city_magic:
        for city in targets:
            owner = w.owner(city)
            if owner is not None and owner >= 0:
                acts.append(Act("magic", ("exploding_fireball", CITY + city)))
    cost = defence(s, seat, "pay_kill_soldier")
    if cost and "nanpi" not in p.used:
        for q in s.clockwise_from(seat):
            if not w.allies(seat, q) and not w.out[q]:
                acts.extend(Act("nanpi", (x.ref,)) for x in s.players[q].soldiers)
    return acts


def _play_legal(s: State, pr: Prompt) -> list[Act]:
    base = [a for a in PROMPTS["play"][0](s, pr) if not _dead_target(s, a)]
    return base[:-1] + city_play_actions(s, pr.seat) + base[-1:]  # end_play stays last


def _play_answer(s: State, pr: Prompt, act: Act) -> None:
    seat = pr.seat
    if act.kind == "attack" and is_city(act.args[0]):
        target, extra, pay = str(act.args[0]), int(act.args[1]), str(act.args[2])
        owner = war_of(s).owner(target.removeprefix(CITY))
        a = replace(hero_atk(s, seat, s.players[seat].ref, extra), target=target,
                    tgroup=owner if owner is not None else -1)  # fmt: skip
        start_attack(s, seat, a, extra, pay)
    elif act.kind == "magic" and len(act.args) > 1 and is_city(act.args[1]):
        cid, target = str(act.args[0]), str(act.args[1])
        discard_card(s, seat, cid)
        log(s, "magic", f"{s.hero_name(seat)} 使用 {s.cards[cid].name} → {city_name(s, target)}")
        push(s, ("after_action",), ("play_phase", seat))
        push(s, ("counter_ask", cid, (target,), (seat,), counter_askers(s, seat), 0))
    elif act.kind == "nanpi":  # 南皮: pay 8 grain of it (CW-GRAIN-7), a soldier dies
        w = war_of(s)
        p = s.players[seat]
        p.used.add("nanpi")
        ref = str(act.args[0])
        cost = defence(s, seat, "pay_kill_soldier") or 0
        log(s, "city", f"{s.hero_name(seat)} 发动南皮守城效果，指定 {s.name(ref)}")
        paid = w.pay_grain(seat, cost)
        sync(s)
        sol = s.unit(ref)
        if paid and isinstance(sol, Soldier):
            kill_soldier(s, s.commander(ref), sol)
            sweep_fallen(s)
        elif not paid:
            log(s, "city", "粮草不足，效果没有发生")
        push(s, ("after_action",), ("play_phase", seat))
    else:
        PROMPTS["play"][1](s, pr, act)


cw_prompt("play", "CH-TURN-5", _play_legal, _play_answer)


# --- the 指挥阶段 (CW-SIEGE-5/6) ----------------------------------------------------------
def city_groups(s: State, seat: int) -> list[str]:
    """CW-SIEGE-5: groups nameable for their city: an opponent's group (its current city
    in reach of an able soldier) or an empty city."""
    w = war_of(s)
    p = s.players[seat]
    able_ = [x for x in p.soldiers if can_attack_now(s, x)]
    if not able_:
        return []
    targets = set(w.attack_targets(seat))
    out: list[str] = []
    for q in s.clockwise_from(seat):
        c = w.current(q)
        if c in targets and any(soldier_reaches(s, seat, x, c) for x in able_):
            out.append(f"h{q}")
    out.extend(CITY + c for c in w.empty if c in targets)
    return out


def group_city(s: State) -> str:
    """The city of the group named in this 指挥阶段, if it may still be attacked."""
    m = mode(s)
    w = m.war
    seat = s.turn_seat
    c = m.command_city or (w.current(s.command_group) if s.command_group >= 0 else None)
    return c if c and c in w.attack_targets(seat) else ""


def all_orders(s: State, seat: int) -> list[Act]:
    acts = orders(s, seat) if s.command_group >= 0 else []
    city = group_city(s)
    if not city:
        return acts
    for sol in s.players[seat].soldiers:
        if s.frenzy_uid >= 0 and sol.uid != s.frenzy_uid:
            continue
        if not can_attack_now(s, sol) or not soldier_reaches(s, seat, sol, city):
            continue
        if s.cards[sol.card].has("berserk"):
            rnd = Act("order", (sol.ref, "random"))
            if rnd not in acts:
                acts.append(rnd)
        else:
            acts.append(Act("order", (sol.ref, CITY + city)))
    return acts


@cw_op("command_phase")
def _command_phase(s: State, seat: int) -> None:
    m = mode(s)
    m.command_city = ""
    m.command_done = False
    command_phase(s, seat, _may_command)


def _may_command(s: State, seat: int) -> bool:
    return bool(command_groups(s, seat) or city_groups(s, seat))


def _pick_legal(s: State, pr: Prompt) -> list[Act]:
    unit = [f"h{q}" for q in command_groups(s, pr.seat)]
    extra = [g for g in city_groups(s, pr.seat) if g not in unit]
    return [Act("command", (g,)) for g in unit + extra] + [Act("skip_command")]


def _pick_answer(s: State, pr: Prompt, act: Act) -> None:
    if act.kind == "command" and is_city(act.args[0]):
        city = str(act.args[0]).removeprefix(CITY)
        mode(s).command_city = city
        log(s, "command", f"{s.hero_name(pr.seat)} 指挥士兵进攻空城 {war_of(s).table[city].name}")
        push(s, ("command_next", pr.seat))
        return
    PROMPTS["command_pick"][1](s, pr, act)


cw_prompt("command_pick", "CW-SIEGE-5", _pick_legal, _pick_answer)


@cw_op("command_next")
def _command_next(s: State, seat: int) -> None:
    m = mode(s)
    p = s.players[seat]
    if not p.alive or p.dying:
        return
    if m.command_done:
        log(s, "command_end", "城池被击破，剩余士兵视为攻击完毕")
        return
    if s.command_group >= 0:
        g = s.players[s.command_group]
        if s.rules.command_ends_on_fall and g.alive and g.hp <= 0:  # CH-COMMAND-4
            log(s, "command_end", f"{s.hero_name(g.seat)} 倒下，剩余士兵视为攻击完毕")
            return
    if s.frenzy_uid >= 0:
        sol = s.unit(f"s{s.frenzy_uid}")
        city = group_city(s)
        if not isinstance(sol, Soldier) or not (
            (s.command_group >= 0 and soldier_targets(s, seat, sol, s.command_group))
            or (city and soldier_reaches(s, seat, sol, city))
        ):
            s.frenzy_uid = -1
    if all_orders(s, seat):
        ask(s, "order", seat)


def _order_legal(s: State, pr: Prompt) -> list[Act]:
    extra = [Act("next_soldier")] if s.frenzy_uid >= 0 else []
    return all_orders(s, pr.seat) + extra + [Act("end_command")]


def _order_answer(s: State, pr: Prompt, act: Act) -> None:
    if act.kind != "order":
        PROMPTS["order"][1](s, pr, act)
        return
    ref, target = str(act.args[0]), str(act.args[1])
    if target != "random" and not is_city(target):
        PROMPTS["order"][1](s, pr, act)
        return
    order_soldier(s, pr.seat, ref, target, _random_targets, city_atk, ref_name)


def _random_targets(s: State, seat: int, sol: Soldier) -> list[str]:
    """CH-SOLDIER-11: the city is one of the group's targets."""
    options = soldier_targets(s, seat, sol, s.command_group) if s.command_group >= 0 else []
    city = group_city(s)
    if city and soldier_reaches(s, seat, sol, city):
        options = [*options, CITY + city]
    return options


cw_prompt("order", "CH-COMMAND-2", _order_legal, _order_answer)


@cw_op("rally_one")
def _rally_one(s: State, seat: int, uid: int, target: str) -> None:
    """CH-SOLDIER-14 with a city as 号令's one target (CW-SIEGE-5)."""
    if not is_city(target):
        OPS["rally_one"](s, seat, uid, target)
        return
    sol = s.unit(f"s{uid}")
    city = target.removeprefix(CITY)
    if not isinstance(sol, Soldier) or group_city(s) != city:
        return
    if not soldier_reaches(s, seat, sol, city):
        return
    sol.attacks += 1
    push(s, ("atk", city_atk(s, seat, sol, target)))
