"""Magic cards (CH-MAGIC): targets, the counter window, resolution."""

from __future__ import annotations

from itertools import combinations

from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.combat import banner_can_answer, deal
from throne_lib.games.castle.core import (
    able,
    answer,
    ask,
    discard_card,
    discard_pile,
    draw,
    heal_hero,
    log,
    op,
    prompt,
    push,
    ward_prompt,
    yes_no,
)
from throne_lib.games.castle.state import Prompt, State

TARGETED = {"exploding_fireball", "lesser_disintegration", "paralyzing_finger", "counterspell"}
HARMFUL = {"exploding_fireball", "lesser_disintegration", "paralyzing_finger", "ice_storm"}


def magic_actions(s: State, seat: int) -> list[Act]:
    p = s.players[seat]
    acts: list[Act] = []
    others = [q for q in s.clockwise_from(seat) if not s.players[q].banner]
    for cid in sorted(set(p.hand)):
        if s.cards[cid].family != "magic":
            continue
        if cid == "exploding_fireball" or cid == "paralyzing_finger":
            acts.extend(Act("magic", (cid, f"h{q}")) for q in others)
        elif cid == "lesser_disintegration":
            for q in others:
                h = s.players[q]
                if h.hand:
                    acts.append(Act("magic", (cid, f"h{q}", "hand")))
                acts.extend(Act("magic", (cid, f"h{q}", e)) for e in sorted(h.equip.values()))
        elif cid == "counterspell":  # CH-MAGIC-11 (b): end 定身一指 or 镜影憧憧 on another
            acts.extend(
                Act("magic", (cid, f"h{q}"))
                for q in others
                if s.players[q].frozen or s.players[q].mirror
            )
        else:
            acts.append(Act("magic", (cid,)))
    return acts


def cast(s: State, seat: int, act: Act) -> None:
    """CH-MAGIC-1: pay the card, name targets; a counter window follows, then it resolves."""
    cid = str(act.args[0])
    targets = tuple(str(a) for a in act.args[1:])
    discard_card(s, seat, cid)
    on = f" → {s.name(targets[0])}" if targets else ""
    log(s, "magic", f"{s.hero_name(seat)} 使用 {s.cards[cid].name}{on}")
    if cid in HARMFUL and targets:
        s.harm[seat][int(targets[0][1:])] += 1
    push(s, ("counter_ask", cid, targets, (seat,), counter_askers(s, seat), 0))
    if targets and targets[0][0] == "h":
        t = s.players[int(targets[0][1:])]
        if banner_can_answer(s, t):
            ask(s, "banner", t.seat, "magic")


def counter_askers(s: State, seat: int) -> tuple[int, ...]:
    """CH-MAGIC-12: each other living hero able to play cards, clockwise from the left."""
    out = []
    for q in s.clockwise_from(seat):
        if able(s, q) and (not s.rules.ask_only_able or "counterspell" in s.players[q].hand):
            out.append(q)
    return tuple(out)


@op("counter_ask")
def _counter_ask(
    s: State,
    cid: str,
    targets: tuple[str, ...],
    chain: tuple[int, ...],
    askers: tuple[int, ...],
    i: int,
) -> None:
    if i < len(askers):
        q = askers[i]
        holds = "counterspell" in s.players[q].hand
        if able(s, q) and (holds or not s.rules.ask_only_able):
            ask(s, "counter", q, cid, targets, chain, askers, i)
        else:
            push(s, ("counter_ask", cid, targets, chain, askers, i + 1))
        return
    if (len(chain) - 1) % 2 == 1:  # the top 魔法抵消 cancels the card beneath, and so on
        log(s, "countered", f"{s.cards[cid].name} 被魔法抵消")
        return
    push(s, ("magic_resolve", chain[0], cid, targets))


@prompt("counter", "CH-MAGIC-12")
def _counter_legal(s: State, pr: Prompt) -> list[Act]:
    holds = "counterspell" in s.players[pr.seat].hand
    return ([Act("counter")] if holds else []) + [Act("decline")]


@answer("counter")
def _counter_answer(s: State, pr: Prompt, act: Act) -> None:
    cid, targets, chain, askers, i = pr.data
    if act.kind == "decline":
        push(s, ("counter_ask", cid, targets, chain, askers, i + 1))
        return
    discard_card(s, pr.seat, "counterspell")
    log(s, "counter", f"{s.hero_name(pr.seat)} 使用 魔法抵消")
    s.harm[pr.seat][chain[-1]] += 1
    chain = (*chain, pr.seat)
    push(s, ("counter_ask", cid, targets, chain, counter_askers(s, pr.seat), 0))


@op("magic_resolve")
def _resolve(s: State, seat: int, cid: str, targets: tuple[str, ...]) -> None:
    p = s.players[seat]
    t = s.players[int(targets[0][1:])] if targets else None
    if t is not None and (not t.alive or t.banner):
        log(s, "void", f"{s.cards[cid].name} 失去目标")
        return
    if cid == "mass_heal":  # CH-MAGIC-2
        for q in s.living():
            if s.players[q].alive and not s.players[q].banner:
                heal_hero(s, q, int(s.cards[cid].num("heal_all_heroes", 1)))
        log(s, "mass_heal", "全体英雄各治愈1点伤害")
    elif cid == "exploding_fireball" and t is not None:  # CH-MAGIC-3
        if t.soldiers:
            ask(s, "fb_split", t.seat, seat)
        else:
            deal(s, t.ref, 3, seat, "magic")
    elif cid == "horn_of_plenty":  # CH-MAGIC-4
        draw(s, seat, int(s.cards[cid].num("draw", 2)), "（丰饶号角）")
    elif cid == "swift_wind":  # CH-MAGIC-5
        p.swift = True
        log(s, "swift", f"{s.hero_name(seat)} 本回合攻击无视距离")
    elif cid == "mirror_images":  # CH-MAGIC-6
        p.mirror = True
        log(s, "mirror", f"{s.hero_name(seat)} 产生镜影")
    elif cid == "lesser_disintegration" and t is not None:  # CH-MAGIC-7
        what = targets[1]
        if what == "hand":
            if t.hand:
                lost = t.hand[s.rng.randrange(len(t.hand))]
                discard_card(s, t.seat, lost)
                log(s, "destroy", f"{s.hero_name(t.seat)} 的手牌 {s.cards[lost].name} 被消灭")
        else:
            for slot, e in list(t.equip.items()):
                if e == what:
                    del t.equip[slot]
                    discard_pile(s, t.seat).append(e)
                    log(s, "destroy", f"{s.hero_name(t.seat)} 的{s.cards[e].name}被消灭")
                    break
    elif cid == "paralyzing_finger" and t is not None:  # CH-MAGIC-8, CH-STATUS-3
        if not t.frozen:
            t.frozen = 1
        log(s, "freeze", f"{s.hero_name(t.seat)} 被定身")
    elif cid == "mana_rewind":  # CH-MAGIC-9
        back = 0
        pile = discard_pile(s, seat)
        for m in p.paid_mana_prev:
            if m == "conjured_mana":
                p.hand.append(m)
                back += 1
            elif "mana" in pile:
                pile.remove("mana")
                p.hand.append("mana")
                back += 1
        p.paid_mana_prev = []
        log(s, "rewind", f"{s.hero_name(seat)} 收回{back}张魔")
    elif cid == "ice_storm":  # CH-MAGIC-10
        push(s, *[("ice_hit", seat, q) for q in s.clockwise_from(seat)])
    elif cid == "counterspell" and t is not None:  # CH-MAGIC-11 (b)
        t.frozen = 0
        t.mirror = False
        log(s, "dispel", f"{s.hero_name(t.seat)} 的定身与镜影被解除")


@op("ice_hit")
def _ice_hit(s: State, caster: int, q: int) -> None:
    h = s.players[q]
    if not h.alive or h.banner:
        return
    ask(s, "ice", q, caster)  # CH-UI-3: asked whether or not it holds a 魔


ward_prompt(
    "ice",
    "CH-MAGIC-10",
    "弃1张魔防御冰风暴雨",
    lambda s, pr: deal(s, f"h{pr.seat}", 1, int(pr.data[0]), "magic"),
)


def split_options(s: State, seat: int) -> list[Act]:
    p = s.players[seat]
    units = [p.ref] + [x.ref for x in p.soldiers]
    acts = [Act("take", (x.ref,)) for x in p.soldiers]
    n = len(units)
    rest = 3 - (3 // n) * n
    acts.extend(Act("split", combo) for combo in combinations(units, rest))
    return acts


@prompt("fb_split", "CH-MAGIC-3")
def _fb_legal(s: State, pr: Prompt) -> list[Act]:
    return split_options(s, pr.seat)


@answer("fb_split")
def _fb_answer(s: State, pr: Prompt, act: Act) -> None:
    p = s.players[pr.seat]
    src = int(pr.data[0])
    if act.kind == "take":
        log(s, "split", f"{s.name(str(act.args[0]))} 独自承受爆裂火球")
        deal(s, str(act.args[0]), 3, src, "magic")
        return
    units = [p.ref] + [x.ref for x in p.soldiers]
    base = 3 // len(units)
    shares = {u: base + (1 if u in act.args else 0) for u in units}
    log(s, "split", f"{s.hero_name(pr.seat)} 一组平均承受爆裂火球")
    for u in units:
        deal(s, u, shares[u], src, "magic")


@prompt("banner", "CH-HERO-18")
def _banner_legal(s: State, pr: Prompt) -> list[Act]:
    hand = s.players[pr.seat].hand
    return yes_no("mana" in hand or "conjured_mana" in hand)


@answer("banner")
def _banner_answer(s: State, pr: Prompt, act: Act) -> None:
    if act.kind == "yes":
        from throne_lib.games.castle.core import pay_mana

        pay_mana(s, pr.seat, 1)
        s.players[pr.seat].banner = True
        log(s, "banner", f"{s.hero_name(pr.seat)} 发动 黑暗旌旗，本回合无法成为弓矢和魔法的目标")
