"""Hero skills (CH-HERO) and equipment abilities (闪电魔杖, 飞弹戒指) of the 出牌阶段."""

from __future__ import annotations

from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.combat import banner_can_answer, deal, targetable
from throne_lib.games.castle.core import (
    answer,
    ask,
    discard_pile,
    log,
    mana_count,
    op,
    pay_mana,
    pay_swords,
    prompt,
    push,
    ward_prompt,
    yes_no,
)
from throne_lib.games.castle.state import Player, Prompt, Soldier, State

ALCHEMY = {"alchemy_spearman": 3, "alchemy_archer": 3, "alchemy_crusader": 5}
SKILL_ZH = {
    "fireball": "火球", "alchemy": "造化万物", "spy": "间谍工作", "aim": "瞄准",
    "roar": "熊之咆哮", "embrace": "拥抱死亡", "self_destruct": "自爆", "leap": "跳跃",
    "fire_arrow": "火箭", "banner": "黑暗旌旗", "lightning": "闪电束", "missiles": "飞弹戒指",
}  # fmt: skip


def outside_units(s: State, seat: int, magic: bool) -> list[str]:
    """Units outside the chooser's group (CH-SEAT-8); magic can't choose a bannered hero."""
    out = []
    for q in s.clockwise_from(seat):
        h = s.players[q]
        if not (magic and h.banner):
            out.append(h.ref)
        out.extend(x.ref for x in h.soldiers)
    return out


def adjacent(s: State, a: str, b: str) -> bool:
    """CH-SEAT-7: same group, or the heroes of neighbouring seats."""
    ga = s.commander(a)
    return linked(a, ga, b, s.commander(b), s.neighbours(ga))


def linked(a: str, ga: int, b: str, gb: int, near_a: list[int]) -> bool:
    """CH-SEAT-7 with the groups looked up: units ``a`` of group ``ga`` and ``b`` of ``gb``
    are adjacent if in one group, or both heroes and ``gb`` is a neighbour of ``ga``
    (``near_a``, :meth:`State.neighbours`)."""
    return ga == gb or (a[0] == "h" and b[0] == "h" and gb in near_a)


def contiguous_sets(s: State, units: list[str], k: int) -> list[tuple[str, ...]]:
    """Connected subsets of 1..k units (CH-HERO-2), adjacent as :func:`adjacent` says
    (:func:`linked`), each unit's group and each group's neighbours looked up once, not
    once per pair tried (a soldier's group is a search of every group: ~3% of an ISMCTS
    decision at 7 seats, docs/speed.md)."""
    group = {u: s.commander(u) for u in units}
    near = {g: s.neighbours(g) for g in set(group.values())}
    found: set[tuple[str, ...]] = {(u,) for u in units}
    frontier = set(found)
    for _ in range(k - 1):
        nxt: set[tuple[str, ...]] = set()
        for combo in frontier:
            for u in units:
                if u in combo:
                    continue
                gu = group[u]
                if any(linked(u, gu, c, group[c], near[gu]) for c in combo):
                    nxt.add(tuple(sorted((*combo, u))))
        found |= nxt
        frontier = nxt
    return sorted(found)


def skill_actions(s: State, seat: int) -> list[Act]:
    p = s.players[seat]
    once = s.rules.ability_uses_per_turn
    used = p.used

    def free(name: str) -> bool:
        return once is None or name not in used

    mana = mana_count(p)
    acts: list[Act] = []
    if s.has(seat, "fireball") and mana >= 3 and free("fireball"):
        units = outside_units(s, seat, magic=True)
        for combo in contiguous_sets(s, units, s.rules.fireball_max_targets):
            acts.append(Act("skill", ("fireball", *combo)))
    if s.has(seat, "alchemy"):
        lead = p.leadership
        if lead < 0 or len(p.soldiers) < lead:
            acts.extend(Act("skill", ("alchemy", t)) for t, c in ALCHEMY.items() if mana >= c)
    if s.has(seat, "spy") and free("spy"):
        acts.extend(Act("skill", ("spy", f"h{q}")) for q in s.clockwise_from(seat))
    if s.has(seat, "aim") and mana >= 3 and not p.aim and free("aim"):
        acts.append(Act("skill", ("aim",)))
    if s.has(seat, "bear_roar") and p.hand.count("sword") >= 3 and free("roar"):
        acts.append(Act("skill", ("roar",)))
    if s.has(seat, "embrace_death") and not p.embrace:
        acts.append(Act("skill", ("embrace",)))
    if s.has(seat, "self_destruct") and p.hp >= 2 and mana >= 1 and free("self_destruct"):
        acts.append(Act("skill", ("self_destruct",)))
    if s.has(seat, "leap") and free("leap"):
        acts.extend(
            Act("skill", ("leap", f"h{q}"))
            for q in s.clockwise_from(seat)
            if s.seat_distance(seat, q) >= 2
        )
    if s.has(seat, "fire_arrow") and free("fire_arrow"):
        acts.extend(
            Act("skill", ("fire_arrow", u))
            for u in outside_units(s, seat, magic=False)
            if targetable(s, u, "ranged")
        )
    if s.has(seat, "dark_banner") and not p.banner and mana >= 1 and free("banner"):
        acts.append(Act("skill", ("banner",)))
    treasure = p.equip.get("treasure", "")
    if treasure == "lightning_wand" and mana >= 3 and free("lightning"):
        acts.extend(Act("skill", ("lightning", u)) for u in outside_units(s, seat, magic=True))
    if treasure == "missile_ring" and free("missiles"):
        acts.extend(Act("skill", ("missiles", f"h{q}")) for q in s.clockwise_from(seat))
    return acts


def use_skill(s: State, seat: int, act: Act) -> None:
    p = s.players[seat]
    name = str(act.args[0])
    args = [str(a) for a in act.args[1:]]
    p.used.add(name)
    refs = [a for a in args if a[0] in "hs" and a[1:].isdigit()]
    on = " → " + "、".join(s.name(a) for a in refs) if refs else ""
    log(s, "skill", f"{s.hero_name(seat)} 发动 {SKILL_ZH[name]}{on}")
    if name == "fireball":  # CH-HERO-2/17: 3 魔, 1 magic damage each, 无豁免
        pay_mana(s, seat, 3)
        push(s, ("fireball_hit", seat, tuple(args)))
        _banner_prompt(s, [a for a in args if a[0] == "h"])
    elif name == "alchemy":  # CH-HERO-5
        token = args[0]
        pay_mana(s, seat, ALCHEMY[token])
        c = s.cards[token]
        sol = Soldier(s.next_uid, token, c.hp, c.hp, token=True)
        s.next_uid += 1
        p.soldiers.append(sol)
        log(s, "summon", f"{s.hero_name(seat)} 召唤 {c.name}")
    elif name == "spy":  # CH-HERO-7
        t = int(args[0][1:])
        seen = tuple(s.players[t].hand)
        p.spied[t] = seen
        log(s, "spy", f"{s.hero_name(seat)} 刺探了 {s.hero_name(t)} 的手牌", seat,
            f"{s.hero_name(seat)} 刺探 {s.hero_name(t)} 的手牌：{'、'.join(s.cards[c].name for c in seen) or '无'}")  # fmt: skip
    elif name == "aim":  # CH-HERO-9
        pay_mana(s, seat, 3)
        p.aim = True
    elif name == "roar":  # CH-HERO-10
        pay_swords(s, seat, 3)
        push(s, *[("roar_hit", seat, q) for q in s.clockwise_from(seat)], ("roar_loss", seat))
    elif name == "embrace":  # CH-HERO-13
        p.embrace = True
    elif name == "self_destruct":  # CH-HERO-14
        pay_mana(s, seat, 1)
        x = p.hp - 1 if s.rules.self_destruct_damage == "hp_minus_1" else p.max_hp - p.hp
        p.hp = 1
        for q in s.neighbours(seat):
            deal(s, f"h{q}", x, seat, "other")
    elif name == "leap":  # CH-HERO-15
        t = int(args[0][1:])
        s.pos[seat], s.pos[t] = s.pos[t], s.pos[seat]
        log(s, "leap", f"{s.hero_name(seat)} 与 {s.hero_name(t)} 交换位置")
        deal(s, f"h{t}", 1, seat, "other")
    elif name == "fire_arrow":  # CH-HERO-16
        push(s, ("fire_arrow_hit", seat, args[0]))
        _banner_prompt(s, [args[0]] if args[0][0] == "h" else [])
    elif name == "banner":  # CH-HERO-18
        pay_mana(s, seat, 1)
        p.banner = True
    elif name == "lightning":  # CH-EQUIP-7
        pay_mana(s, seat, 3)
        push(s, ("magic_hit", seat, args[0], 3))
        _banner_prompt(s, [args[0]] if args[0][0] == "h" else [])
    elif name == "missiles":  # CH-EQUIP-10
        push(s, ("missiles", seat, int(args[0][1:])))


def _banner_prompt(s: State, heroes: list[str]) -> None:
    for ref in heroes:
        t = s.players[int(ref[1:])]
        if banner_can_answer(s, t):
            ask(s, "banner", t.seat, "magic")
            return


@op("fireball_hit")
def _fireball_hit(s: State, seat: int, refs: tuple[str, ...]) -> None:
    for ref in refs:
        u = s.unit(ref)
        if isinstance(u, Player) and u.banner:
            continue
        deal(s, ref, 1, seat, "magic")


@op("magic_hit")
def _magic_hit(s: State, seat: int, ref: str, n: int) -> None:
    u = s.unit(ref)
    if not (isinstance(u, Player) and u.banner):
        deal(s, ref, n, seat, "magic")


@op("fire_arrow_hit")
def _fire_arrow_hit(s: State, seat: int, ref: str) -> None:
    u = s.unit(ref)
    if not (isinstance(u, Player) and u.banner):
        deal(s, ref, int(s.cards[s.players[seat].hero].num("fire_arrow", 1)), seat, "other")


@op("roar_hit")
def _roar_hit(s: State, seat: int, q: int) -> None:
    h = s.players[q]
    if not h.alive:
        return
    ask(s, "roar", q, seat)  # CH-UI-3: asked whether or not it holds a 魔


def _stun(s: State, q: int) -> None:
    h = s.players[q]
    if h.stun == 0:
        h.stun = 1
    log(s, "stun", f"{s.hero_name(q)} 被眩晕一回合")


ward_prompt("roar", "CH-HERO-10", "弃1张魔抵御熊之咆哮", lambda s, pr: _stun(s, pr.seat))


@op("roar_loss")
def _roar_loss(s: State, seat: int) -> None:
    for q in s.neighbours(seat):
        deal(s, f"h{q}", 1, seat, "loss")


@op("missiles")
def _missiles(s: State, seat: int, group: int) -> None:
    for _ in range(int(s.cards["missile_ring"].num("missiles", 5))):
        g = s.players[group]
        units = ([] if g.banner or not g.alive else [g.ref]) + [x.ref for x in g.soldiers]
        if not units:
            break
        deal(s, units[s.rng.randrange(len(units))], 1, seat, "magic")
    ask(s, "ring_upkeep", seat)  # CH-UI-3: asked whether or not it holds 3 魔


def _drop_ring(s: State, seat: int) -> None:
    p = s.players[seat]
    if p.equip.get("treasure") == "missile_ring":
        del p.equip["treasure"]
        discard_pile(s, seat).append("missile_ring")
        log(s, "ring", f"{s.hero_name(seat)} 的飞弹戒指消失")


@prompt("ring_upkeep", "CH-EQUIP-10")
def _ring_legal(s: State, pr: Prompt) -> list[Act]:
    return yes_no(mana_count(s.players[pr.seat]) >= 3)


@answer("ring_upkeep")
def _ring_answer(s: State, pr: Prompt, act: Act) -> None:
    if act.kind == "yes":
        pay_mana(s, pr.seat, 3)
        log(s, "ring", f"{s.hero_name(pr.seat)} 消耗3张魔保留飞弹戒指")
    else:
        _drop_ring(s, pr.seat)
