"""The 出牌阶段 (CH-TURN-5): 剑 attack, 愈, equipment, magic cards, skills, end."""

from __future__ import annotations

from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.combat import Atk, hero_atk, hero_attack_targets
from throne_lib.games.castle.core import (
    answer,
    ask,
    discard_card,
    discard_pile,
    heal_hero,
    log,
    prompt,
    push,
)
from throne_lib.games.castle.magic import magic_actions
from throne_lib.games.castle.skills import skill_actions
from throne_lib.games.castle.state import Prompt, State


def heal_actions(s: State, seat: int, kind: str) -> list[Act]:
    """愈 on itself while damaged, or on any dying/holding hero (CH-CARD-3, CH-DEATH-2);
    李维 may pay a 魔 as 愈 (CH-HERO-3). A dying hero heals only itself (CH-DEATH-1)."""
    p = s.players[seat]
    pays = []
    if "heal" in p.hand:
        pays.append("heal")
    if s.has(seat, "mo_as_yu") and ("mana" in p.hand or "conjured_mana" in p.hand):
        pays.append("mana")
    if not pays:
        return []
    targets: list[int] = []
    if p.dying and not s.rules.dying_can_act:
        targets = [seat]
    else:
        for q in s.clockwise_from(seat, include=True):
            h = s.players[q]
            wants = h.dying or h.hold or (q == seat and kind == "heal" and h.hp < h.max_hp)
            if wants and (q == seat or s.rules.rescue_by_anyone):
                targets.append(q)
    return [Act(kind, (f"h{q}", pay)) for q in targets for pay in pays]


def do_heal(s: State, seat: int, target: str, pay: str) -> None:
    p = s.players[seat]
    cid = "heal" if pay == "heal" else ("conjured_mana" if "conjured_mana" in p.hand else "mana")
    discard_card(s, seat, cid)
    t = int(target[1:])
    gained = heal_hero(s, t, s.rules.yu_heal)
    as_yu = "（魔当做愈）" if pay == "mana" else ""
    log(s, "heal", f"{s.hero_name(seat)} 对 {s.hero_name(t)} 使用愈{as_yu}，恢复{gained}点生命")
    if t != seat:
        s.helped[seat][t] += 1


def attack_payments(s: State, seat: int) -> list[tuple[int, str]]:
    """``(狙击 extras, payment)`` of each way to pay a 剑 attack now; [] when none.
    CH-ATTACK-3: one 剑 attack per turn (unlimited under 拥抱死亡); CH-HERO-8, CH-EQUIP-13."""
    p = s.players[seat]
    if p.sword_attacks and not p.embrace:
        return []
    swords = p.hand.count("sword")
    bow = "weapon" in p.equip and s.cards[p.equip["weapon"]].has("pay_any_two")
    out: list[tuple[int, str]] = []
    if swords:
        extras = swords - 1 if s.has(seat, "snipe") else 0
        out.extend((e, "sword") for e in range(extras + 1))
    if bow and len(p.hand) >= 2:
        extras = min(swords, len(p.hand) - 2) if s.has(seat, "snipe") else 0
        out.extend((e, "two") for e in range(extras + 1))
    return out


def start_attack(s: State, seat: int, a: Atk, extra: int, pay: str) -> None:
    """Pay for the hero's 剑 attack ``a`` and schedule it, then the 出牌阶段 goes on."""
    s.players[seat].sword_attacks += 1
    for _ in range(extra):  # CH-HERO-8: 狙击's extras are 剑, paid with the cost
        discard_card(s, seat, "sword")
    push(s, ("atk", a), ("after_action",), ("play_phase", seat))
    if pay == "sword":
        discard_card(s, seat, "sword")
    else:  # CH-EQUIP-13: any 2 cards instead of 1 剑
        log(s, "pay", f"{s.hero_name(seat)} 以任意2张手牌代替剑（银杉木长弓）")
        ask(s, "discard", seat, "pay", 2)


@prompt("play", "CH-TURN-5")
def play_legal(s: State, pr: Prompt) -> list[Act]:
    seat = pr.seat
    p = s.players[seat]
    acts = heal_actions(s, seat, "heal")
    if p.dying and not s.rules.dying_can_act:
        return acts + [Act("end_play")]
    pays = attack_payments(s, seat)
    if pays:
        for t in hero_attack_targets(s, seat):
            acts.extend(Act("attack", (t, e, pay)) for e, pay in pays)
    for cid in sorted(set(p.hand)):
        if s.cards[cid].family == "equipment":
            acts.append(Act("equip", (cid,)))
    acts.extend(magic_actions(s, seat))
    acts.extend(skill_actions(s, seat))
    return acts + [Act("end_play")]


@answer("play")
def play_answer(s: State, pr: Prompt, act: Act) -> None:
    seat = pr.seat
    if act.kind == "end_play":
        return
    after = (("after_action",), ("play_phase", seat))
    if act.kind == "heal":
        do_heal(s, seat, str(act.args[0]), str(act.args[1]))
        push(s, *after)
    elif act.kind == "attack":
        target, extra, pay = str(act.args[0]), int(act.args[1]), str(act.args[2])
        start_attack(s, seat, hero_atk(s, seat, target, extra), extra, pay)
    elif act.kind == "equip":
        equip(s, seat, str(act.args[0]))
        push(s, *after)
    elif act.kind == "magic":
        from throne_lib.games.castle.magic import cast

        push(s, *after)
        cast(s, seat, act)
    elif act.kind == "skill":
        from throne_lib.games.castle.skills import use_skill

        push(s, *after)
        use_skill(s, seat, act)


def equip(s: State, seat: int, cid: str) -> None:
    """CH-EQUIP-1: onto its own slot; a filled slot's card goes to the discard pile."""
    p = s.players[seat]
    slot = s.cards[cid].slot
    p.hand.remove(cid)
    old = p.equip.get(slot)
    if old:
        discard_pile(s, seat).append(old)
        log(s, "unequip", f"{s.hero_name(seat)} 的{s.cards[old].name}被替换")
    p.equip[slot] = cid
    log(s, "equip", f"{s.hero_name(seat)} 装备 {s.cards[cid].name}")
