"""Attacks (CH-ATTACK), damage (CH-DAMAGE), reach (CH-SEAT-5..8) and falling.

An attack is an :class:`Atk` value carried through the ops ``atk`` → ``atk_defend`` →
(``block`` prompt) → ``atk_negated`` | ``atk_hit`` (CH-ATTACK-5).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from throne_lib.compiled import reduce_dataclass
from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.core import (
    able,
    answer,
    ask,
    discard_card,
    log,
    op,
    pay_swords,
    prompt,
    push,
    yes_no,
    yes_no_prompt,
)
from throne_lib.games.castle.state import Player, Prompt, Soldier, State


@dataclass(frozen=True, slots=True)
class Atk:
    attacker: str  # unit ref
    target: str
    src: int  # source hero seat (the commander for a soldier)
    kind: str  # melee, ranged, charge
    dmg: int
    by_hero: bool
    weapon: str = ""
    aim: bool = False
    no_save: bool = False
    deadly: bool = False
    follow: bool = False
    tgroup: int = -1  # the target's group (its hero's seat) when the attack was made

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return reduce_dataclass(self)  # pickled as a constructor call (compiled.py)


# --- reach ---------------------------------------------------------------------------
def mount_of(p: Player, trait: str) -> bool:
    return "mount" in p.equip and p.equip["mount"] in _MOUNTS[trait]


_MOUNTS = {
    "attack_mount": ("hell_nightmare", "armored_warhorse"),
    "defence_mount": ("silver_pegasus", "griffin_king"),
}


def attack_distance(s: State, a: int, b: int) -> int:
    """CH-SEAT-5 / CH-EQUIP-19: seat distance −1 attack mount, +1 defence mount, ≥ 1."""
    d = s.seat_distance(a, b)
    if mount_of(s.players[a], "attack_mount"):
        d -= 1
    if mount_of(s.players[b], "defence_mount"):
        d += 1
    return max(1, d)


def hero_range(s: State, seat: int) -> float:
    """CH-SEAT-6 / CH-EQUIP-3: base 1; a weapon sets the range."""
    w = s.players[seat].equip.get("weapon")
    if not w:
        return s.rules.hero_base_range
    r = s.cards[w].range
    return r if r else s.rules.default_weapon_range


def hero_attack_kind(s: State, seat: int) -> str:
    w = s.players[seat].equip.get("weapon")
    return "ranged" if w and s.cards[w].has("ranged") else "melee"


def targetable(s: State, ref: str, kind: str) -> bool:
    """CH-SOLDIER-16 潜行 and CH-HERO-18 黑暗旌旗 restrictions."""
    u = s.unit(ref)
    if u is None:
        return False
    if isinstance(u, Soldier):
        return not (s.cards[u.card].has("stealth") and kind in ("ranged", "charge"))
    return not (u.banner and kind == "ranged")


def hero_attack_targets(s: State, seat: int) -> list[str]:
    """CH-ATTACK-2: any unit of another group within range (CH-SEAT-5, CH-SEAT-8)."""
    p = s.players[seat]
    rng = hero_range(s, seat)
    kind = hero_attack_kind(s, seat)
    out: list[str] = []
    for q in s.clockwise_from(seat):
        if not p.swift and attack_distance(s, seat, q) > rng:
            continue
        for ref in [s.players[q].ref] + [x.ref for x in s.players[q].soldiers]:
            if targetable(s, ref, kind):
                out.append(ref)
    return out


def soldier_profile(s: State, sol: Soldier, target: str) -> tuple[str, int, float, bool]:
    """(kind, damage, range, no_save) of a soldier's attack on ``target`` (CH-SOLDIER-*)."""
    c = s.cards[sol.card]
    dmg = s.rules.soldier_attack_damage
    if c.has("charge"):
        t = s.unit(target)
        if isinstance(t, Soldier) and s.cards[t.card].has("anti_charge"):
            return "melee", dmg, 1.0, False  # CH-SOLDIER-3
        return "charge", s.rules.charge_damage, c.range, False
    if c.has("fire_arrow"):
        kind = "ranged" if s.rules.fire_arrow_is_ranged else "melee"
        return kind, int(c.num("fire_arrow")), math.inf, True
    if c.has("ranged"):
        return "ranged", dmg, c.range, False
    return "melee", dmg, c.range or 1.0, False


def soldier_targets(s: State, seat: int, sol: Soldier, group: int) -> list[str]:
    """CH-ATTACK-2: soldiers of the named group; its hero once it has none and HP > 0."""
    q = s.players[group]
    if group == seat or not (q.alive or q.soldiers):
        return []
    refs = [x.ref for x in q.soldiers]
    if not q.soldiers and q.hp > 0:
        refs = [q.ref]
    dist = attack_distance(s, seat, group)
    swift = s.players[seat].swift and s.rules.swift_wind_soldiers
    out = []
    for ref in refs:
        kind, _, rng, _ = soldier_profile(s, sol, ref)
        if (swift or dist <= rng) and targetable(s, ref, kind):
            out.append(ref)
    return out


def can_attack_now(s: State, sol: Soldier) -> bool:
    """CH-COMMAND-3: 民兵, a failed 地精, a cursed soldier or one done can't attack."""
    c = s.cards[sol.card]
    limit = int(c.num("frenzy", 1))
    return not (c.has("obedient") or sol.coward or sol.curse == 2 or sol.attacks >= limit)


# --- damage --------------------------------------------------------------------------
def deal(s: State, ref: str, amount: int, src: int, kind: str, by: str = "") -> int:
    """Damage (or ``kind='loss'``: HP loss, CH-DAMAGE-2) to a unit; returns HP taken.

    ``kind``: attack, magic, other (自爆, 跳跃, poison, 火箭) or loss. 厚皮 prevents the first
    damage each turn (CH-SOLDIER-7); a soldier at ≤ 0 dies (CH-DEATH-10); a hero at ≤ 0
    falls (CH-DEATH-1) and may trigger 抗拒死亡 / 临死挣扎."""
    u = s.unit(ref)
    if u is None or amount <= 0:
        return 0
    cseat = s.commander(ref)
    if isinstance(u, Soldier):
        if kind != "loss" and s.cards[u.card].has("thick_hide") and u.thick_turn != s.turn_no:
            u.thick_turn = s.turn_no
            log(s, "thick_hide", f"{s.name(ref)} 发动 厚皮，抵抗了{amount}点伤害")
            return 0
        u.hp -= amount
        if src >= 0 and src != cseat:
            s.harm[src][cseat] += amount
        word = "损失" if kind == "loss" else "受到"
        log(s, "damage", f"{s.name(ref)} {word}{amount}点伤害（生命{max(u.hp, 0)}）")
        if u.hp <= 0:
            kill_soldier(s, cseat, u)
        return amount
    p = u
    p.hp -= amount
    if src >= 0:
        p.last_source = src
        if src != p.seat:
            s.harm[src][p.seat] += amount
    word = "损失" if kind == "loss" else "受到"
    log(
        s,
        "damage",
        f"{s.hero_name(p.seat)} {word}{amount}点{'生命' if kind == 'loss' else '伤害'}（生命{p.hp}/{p.max_hp}）",
    )
    if p.hp <= 0 and not p.dying and not p.hold:
        p.dying = True
        s.fell_now.append(p.seat)
        log(s, "fall", f"{s.hero_name(p.seat)} 陷入濒死状态")
        if kind != "loss":
            if s.has(p.seat, "death_throes"):  # CH-UI-3: asked, 剑 or not (yes needs one)
                push(s, ("throes_ask", p.seat, by or f"h{src}"))
            if s.has(p.seat, "resist_death"):
                push(s, ("hold_ask", p.seat))
    return amount


def kill_soldier(s: State, seat: int, sol: Soldier) -> None:
    """CH-DEATH-10: no dying state; the card goes to the fallen pile, a token vanishes."""
    s.players[seat].soldiers.remove(sol)
    if not sol.token:
        s.fallen.append(sol.card)
    log(s, "soldier_dies", f"{s.hero_name(seat)}的{s.cards[sol.card].name} 阵亡")


# --- attack resolution (CH-ATTACK-5) ---------------------------------------------------
def hero_atk(s: State, seat: int, target: str, extra: int = 0, follow: bool = False) -> Atk:
    """A hero's attack: 1, 2 under 斧技/剑术 with the weapon, +1 per 狙击 剑 (CH-ATTACK-4)."""
    p = s.players[seat]
    w = p.equip.get("weapon", "")
    wt = s.cards[w].weapon_type if w else ""
    dmg = s.rules.sword_attack_damage
    if (wt == "axe" and s.has(seat, "axe_mastery")) or (
        wt == "sword" and s.has(seat, "sword_mastery")
    ):
        dmg = 2
    return Atk(
        attacker=p.ref, target=target, src=seat, kind=hero_attack_kind(s, seat),
        dmg=dmg + extra, by_hero=True, weapon=w, aim=p.aim,
        deadly=s.has(seat, "deadly_strike"), follow=follow, tgroup=s.commander(target),
    )  # fmt: skip


@op("atk")
def _atk(s: State, a: Atk) -> None:
    tname = s.name(a.target)
    log(s, "attack", f"{s.name(a.attacker)} 攻击 {tname}" + ("（追击）" if a.follow else ""))
    t = s.unit(a.target)
    if t is None:
        return
    if a.tgroup >= 0 and a.tgroup != a.src:
        s.harm[a.src][a.tgroup] += 1  # public tally of hostile acts (CH-AI-2)
    if isinstance(t, Player) and not t.banner and a.kind == "ranged" and banner_can_answer(s, t):
        push(s, ("atk_defend", a))
        ask(s, "banner", t.seat, "attack")
        return
    push(s, ("atk_defend", a))


def banner_can_answer(s: State, p: Player) -> bool:
    """CH-HERO-18: 洛夏 may raise 黑暗旌旗 when chosen by a ranged attack or magic."""
    return (
        s.rules.dark_banner_in_answer
        and s.has(p.seat, "dark_banner")
        and not p.banner
        and able(s, p.seat)
    )  # CH-UI-3: asked whether or not it holds the 魔 to pay (yes is legal only then)


@op("atk_defend")
def _atk_defend(s: State, a: Atk) -> None:
    t = s.unit(a.target)
    if t is None:
        return
    if isinstance(t, Player):
        if t.banner and a.kind == "ranged":
            log(s, "void", f"{s.hero_name(t.seat)} 有黑暗旌旗，攻击无效")
            return
        ignore_armour = a.no_save or (a.aim and a.by_hero)
        armour = t.equip.get("armour", "")
        if armour and not ignore_armour:
            c = s.cards[armour]
            if c.has("negate_melee") and a.kind in ("melee", "charge"):
                r = s.rng.random()
                ok = r < c.num("negate_melee")
                log(s, "roll", f"骑士铠甲 判定{r:.2f}：{'抵消' if ok else '未抵消'}")
                if ok:
                    push(s, ("atk_negated", a))
                    return
            if c.has("negate_first_ranged") and a.kind == "ranged" and t.shield_turn != s.turn_no:
                t.shield_turn = s.turn_no
                log(s, "negate", "钢铁大盾 抵消了本回合第一次远程攻击")
                push(s, ("atk_negated", a))
                return
        if t.mirror and not a.no_save:
            r = s.rng.random()
            ok = r < s.cards["mirror_images"].num("mirror", 0.5)
            log(s, "roll", f"镜影憧憧 判定{r:.2f}：{'回避' if ok else '未回避'}")
            if ok:
                push(s, ("atk_negated", a))
                return
        if ask_block(s, t.seat, a):
            return
    push(s, ("atk_hit", a))


def ask_block(s: State, seat: int, a: Atk) -> bool:
    """CH-ATTACK-6: ``seat`` is asked to block ``a`` unless it can't be blocked (火箭,
    瞄准) or the hero can't act; CH-UI-3: asked whether or not it holds 剑."""
    blockable = not a.no_save and not (a.aim and a.by_hero)
    if blockable and able(s, seat):
        ask(s, "block", seat, a)
        return True
    return False


@prompt("block", "CH-ATTACK-6")
def _block_legal(s: State, pr: Prompt) -> list[Act]:
    a: Atk = pr.data[0]
    need = 2 if a.deadly and a.by_hero else 1
    can = s.players[pr.seat].hand.count("sword") >= need
    return ([Act("block")] if can else []) + [Act("no_block")]


@answer("block")
def _block_answer(s: State, pr: Prompt, act: Act) -> None:
    a: Atk = pr.data[0]
    if act.kind == "block":
        need = 2 if a.deadly and a.by_hero else 1
        pay_swords(s, pr.seat, need)
        log(s, "block", f"{s.hero_name(pr.seat)} 打出{need}张剑抵挡")
        push(s, ("atk_negated", a))
    else:
        push(s, ("atk_hit", a))


@op("atk_negated")
def _atk_negated(s: State, a: Atk) -> None:
    log(s, "negated", f"对{s.name(a.target)}的攻击被抵消")
    if s.unit(a.target) is not None:
        axe_window(s, a)


def axe_window(s: State, a: Atk) -> None:
    """CH-EQUIP-11/12: a hero's negated attack may be forced (熊首战斧) or repeated
    (毁灭战斧)."""
    if not a.by_hero:
        return
    p = s.players[a.src]
    if not p.alive or p.dying or a.attacker != p.ref:
        return
    w = s.cards[a.weapon] if a.weapon else None
    if w is not None and w.has("force_hit") and len(p.hand) >= 2:
        ask(s, "axe", a.src, a, "force_hit")
    elif w is not None and w.has("re_attack"):  # CH-UI-3: asked whether or not it holds 剑
        ask(s, "axe", a.src, a, "re_attack")


@prompt("axe", "CH-EQUIP-11")
def _axe_legal(s: State, pr: Prompt) -> list[Act]:
    can = pr.data[1] != "re_attack" or "sword" in s.players[pr.seat].hand
    return yes_no(can)


@answer("axe")
def _axe_answer(s: State, pr: Prompt, act: Act) -> None:
    a: Atk = pr.data[0]
    if act.kind == "no":
        return
    if pr.data[1] == "force_hit":  # CH-EQUIP-11: discard any 2, the attack hits
        log(s, "axe", f"{s.hero_name(pr.seat)} 发动 熊首战斧，抛弃2张手牌，攻击必然命中")
        push(s, ("atk_hit", a))
        ask(s, "discard", pr.seat, "pay", 2)
    else:  # CH-EQUIP-12: pay 1 剑 and attack the same target again
        pay_swords(s, pr.seat, 1)
        log(s, "axe", f"{s.hero_name(pr.seat)} 发动 毁灭战斧，再次攻击")
        push(s, ("atk", replace(a, follow=True)))


@op("atk_hit")
def _atk_hit(s: State, a: Atk) -> None:
    t = s.unit(a.target)
    if t is None:
        return
    was_down = isinstance(t, Player) and (t.dying or t.hp <= 0)
    log(s, "hit", f"{s.name(a.attacker)} 命中 {s.name(a.target)}")
    dealt = deal(s, a.target, a.dmg, a.src, "attack", a.attacker)
    after = s.unit(a.target)
    killed = after is None or (isinstance(after, Player) and after.hp <= 0 and not was_down)
    # on-hit effects (CH-ATTACK-7: a hit even if 厚皮 prevented the damage)
    if a.by_hero and a.weapon and s.cards[a.weapon].has("poison") and after is not None:
        if s.rules.poison_stacks or after.poison == 0:
            after.poison += 1
        after.poison_src = a.src
        log(s, "poison", f"{s.name(a.target)} 中毒（{after.poison}层）")
    if not a.by_hero and dealt > 0:
        att = s.unit(a.attacker)
        if isinstance(att, Soldier):
            c = s.cards[att.card]
            if c.has("curse") and after is not None and after.curse == 0:
                after.curse = 1
                log(s, "curse", f"{s.name(a.target)} 被诅咒，下一回合无法行动")
            bite(s, att)
    greatsword = a.by_hero and a.weapon and s.cards[a.weapon].has("kill_follow_up")
    if killed and greatsword and (s.rules.greatsword_chain or not a.follow):
        push(s, ("greatsword", a))
    if a.by_hero and dealt > 0 and a.weapon and s.cards[a.weapon].has("discard_or_extra"):
        if isinstance(after, Player):
            if after.hand:
                ask(s, "abyss", after.seat, a)
            else:
                deal(s, a.target, 1, a.src, "attack", a.attacker)
        elif after is not None:
            deal(s, a.target, 1, a.src, "attack", a.attacker)


def bite(s: State, att: Soldier) -> None:
    """CH-SOLDIER-8 咬噬: a soldier whose attack dealt damage heals."""
    c = s.cards[att.card]
    if c.has("bite_heal") and att.hp < att.max_hp:
        att.hp = min(att.max_hp, att.hp + int(c.num("bite_heal")))
        log(s, "bite", f"{s.name(att.ref)} 发动 咬噬，恢复1点生命")


@prompt("abyss", "CH-EQUIP-9")
def _abyss_legal(s: State, pr: Prompt) -> list[Act]:
    hand = s.players[pr.seat].hand
    return [Act("discard", (c,)) for c in sorted(set(hand))] + [Act("take")]


@answer("abyss")
def _abyss_answer(s: State, pr: Prompt, act: Act) -> None:
    a: Atk = pr.data[0]
    if act.kind == "discard":
        discard_card(s, pr.seat, str(act.args[0]))
        log(s, "abyss", f"{s.hero_name(pr.seat)} 抛弃{s.cards[str(act.args[0])].name}（深渊之剑）")
    else:
        log(s, "abyss", f"{s.hero_name(pr.seat)} 不弃牌，深渊之剑额外造成1点伤害")
        deal(s, a.target, 1, a.src, "attack", a.attacker)


@op("greatsword")
def _greatsword(s: State, a: Atk) -> None:
    p = s.players[a.src]
    if p.alive and not p.dying and "sword" in p.hand and greatsword_targets(s, a):
        ask(s, "greatsword", a.src, a)


def greatsword_targets(s: State, a: Atk) -> list[str]:
    group = a.tgroup
    return [r for r in hero_attack_targets(s, a.src) if s.commander(r) == group and r != a.target]


@prompt("greatsword", "CH-EQUIP-8")
def _gs_legal(s: State, pr: Prompt) -> list[Act]:
    a: Atk = pr.data[0]
    p = s.players[pr.seat]
    extras = p.hand.count("sword") - 1 if s.has(pr.seat, "snipe") else 0
    acts = [Act("follow", (r, e)) for r in greatsword_targets(s, a) for e in range(extras + 1)]
    return acts + [Act("decline")]


@answer("greatsword")
def _gs_answer(s: State, pr: Prompt, act: Act) -> None:
    if act.kind == "decline":
        return
    target, extra = str(act.args[0]), int(act.args[1])
    pay_swords(s, pr.seat, 1 + extra)
    log(s, "follow", f"{s.hero_name(pr.seat)} 发动 银合金大剑，消耗剑追击")
    push(s, ("atk", hero_atk(s, pr.seat, target, extra, follow=True)))


@op("hold_ask")
def _hold_ask(s: State, seat: int) -> None:
    p = s.players[seat]
    if p.alive and p.dying:
        ask(s, "hold", seat)


yes_no_prompt("hold", "CH-HERO-12")


@answer("hold")
def _hold_answer(s: State, pr: Prompt, act: Act) -> None:
    if act.kind == "yes":
        p = s.players[pr.seat]
        p.dying = False
        p.hold = 1
        log(s, "hold", f"{s.hero_name(pr.seat)} 发动 抗拒死亡，坚持到下回合结束")


@op("throes_ask")
def _throes_ask(s: State, seat: int, src_ref: str) -> None:
    p = s.players[seat]
    if p.alive and s.unit(src_ref) is not None:  # CH-UI-3: whether or not it holds 剑
        ask(s, "throes", seat, src_ref)


@prompt("throes", "CH-HERO-19")
def _throes_legal(s: State, pr: Prompt) -> list[Act]:
    return yes_no("sword" in s.players[pr.seat].hand)


@answer("throes")
def _throes_answer(s: State, pr: Prompt, act: Act) -> None:
    if act.kind == "no":
        return
    p = s.players[pr.seat]
    n = p.hand.count("sword")
    if s.rules.death_throes_spends:
        pay_swords(s, pr.seat, n)
    log(s, "throes", f"{s.hero_name(pr.seat)} 发动 临死挣扎，反击{s.name(pr.data[0])}（{n}点）")
    tgroup = s.commander(pr.data[0])
    push(s, ("atk", Atk(p.ref, pr.data[0], pr.seat, "melee", n, True, tgroup=tgroup)))
