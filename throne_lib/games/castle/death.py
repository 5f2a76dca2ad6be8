"""Dying, rescue, death, rewards and penalties, adoption (CH-DEATH) and the end (CH-WIN)."""

from __future__ import annotations

from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.combat import kill_soldier
from throne_lib.games.castle.core import (
    answer,
    ask,
    discard_pile,
    draw,
    eff_camp,
    log,
    op,
    prompt,
    push,
    yes_no_prompt,
)
from throne_lib.games.castle.play import do_heal, heal_actions
from throne_lib.games.castle.rules import ROLE_ZH
from throne_lib.games.castle.state import Player, Prompt, State


def in_danger(s: State) -> bool:
    return any(p.alive and (p.dying or p.hold) for p in s.players)


@op("after_action")
def _after_action(s: State) -> None:
    """CH-DEATH-3 (a): once the action that made a hero fall has resolved."""
    if s.fell_now:
        s.fell_now.clear()
        if "after_fall" in s.rules.rescue_windows and in_danger(s):
            push(s, ("rescue_window", "after_fall"))


@op("rescue_window")
def _rescue_window(s: State, why: str) -> None:
    if not in_danger(s):
        return
    helpers = tuple(s.clockwise_from(s.turn_seat, include=True))
    push(s, ("rescue_ask", helpers, 0))


def rescue_options(s: State, seat: int) -> list[Act]:
    from throne_lib.games.castle.core import able

    p = s.players[seat]
    if not p.alive or p.frozen or p.stun == 2:
        return []
    if not p.dying and not able(s, seat):
        return []
    return [Act("rescue", a.args) for a in heal_actions(s, seat, "rescue") if a.args]


@op("rescue_ask")
def _rescue_ask(s: State, helpers: tuple[int, ...], i: int) -> None:
    if i >= len(helpers) or not in_danger(s):
        return
    q = s.players[helpers[i]]
    if rescue_options(s, helpers[i]) or (not s.rules.ask_only_able and q.alive and not q.frozen):
        ask(s, "rescue", helpers[i], helpers, i)
    else:
        push(s, ("rescue_ask", helpers, i + 1))


@prompt("rescue", "CH-DEATH-3")
def _rescue_legal(s: State, pr: Prompt) -> list[Act]:
    return rescue_options(s, pr.seat) + [Act("decline")]


@answer("rescue")
def _rescue_answer(s: State, pr: Prompt, act: Act) -> None:
    helpers, i = pr.data
    if act.kind == "decline":
        push(s, ("rescue_ask", helpers, i + 1))
        return
    do_heal(s, pr.seat, str(act.args[0]), str(act.args[1]))
    push(s, ("rescue_ask", helpers, i))


def death_victims(s: State) -> list[int]:
    """CH-DEATH-5: who dies at this turn end (dying, 死亡拥抱, a 抗拒死亡 run out), in
    clockwise order from the seat whose turn it is."""
    return [
        q
        for q in s.clockwise_from(s.turn_seat, include=True)
        if s.players[q].dying
        or s.players[q].embrace
        or (s.players[q].hold == 2 and q == s.turn_seat)
    ]


def leave_play(p: Player) -> None:
    """The hero is gone (dead, or out of 城池战): CH-STATUS-5, statuses end with the unit."""
    p.alive = p.dying = p.embrace = p.mirror = p.banner = p.aim = p.swift = False
    p.hold = p.poison = p.stun = p.curse = p.frozen = 0


def bury(s: State, q: int) -> None:
    """CH-DEATH-7: the hero dies; its hand (a conjured 魔 leaves the game) and equipment
    go to the discard pile its cards use."""
    p = s.players[q]
    embrace = p.embrace
    leave_play(p)
    p.embrace = embrace  # the reward reads it (CH-DEATH-6)
    pile = discard_pile(s, q)
    pile.extend(c for c in p.hand if c != "conjured_mana")
    p.hand = []
    pile.extend(p.equip.values())
    p.equip = {}


def killer_of(s: State, q: int, victims: list[int]) -> int:
    """CH-DEATH-6: the living hero that killed ``q`` (its last damage source; none after
    死亡拥抱, which it consumes), or -1."""
    p = s.players[q]
    k = -1 if p.embrace else p.last_source
    p.embrace = False
    if k < 0 or k == q or k in victims or not s.players[k].alive:
        return -1
    return k


@op("deaths")
def _deaths(s: State) -> None:
    """CH-DEATH-5: all who die this turn end die together, then rewards and soldiers."""
    victims = death_victims(s)
    if not victims:
        return
    for q in victims:  # CH-DEATH-7
        p = s.players[q]
        bury(s, q)
        if s.rules.reveal_on_death:
            p.revealed = True
        log(s, "death", f"{s.hero_name(q)} 阵亡，身份：{ROLE_ZH[p.role]}")
    ops: list[tuple[object, ...]] = []
    for q in victims:
        _reward(s, q, victims)
        camp = eff_camp(s.players[q])
        adopters: tuple[int, ...] = ()
        if camp:  # CH-UI-3: every living hero is asked, whatever its hidden camp
            adopters = tuple(r for r in s.clockwise_from(q) if r not in victims)
        ops.append(("adopt_ask", q, adopters, 0))
        ops.append(("adopt_end", q))
    push(s, *ops)


def _reward(s: State, q: int, victims: list[int]) -> None:
    """CH-DEATH-6 (killer = last source) and CH-DEATH-8 (by the victim's camp)."""
    p = s.players[q]
    k = killer_of(s, q, victims)
    if k < 0:
        return
    killer = s.players[k]
    camp = eff_camp(p) if p.role != "lord" else "lord"
    if camp == "enemy":
        log(s, "reward", f"{s.hero_name(k)} 消灭敌军，获得摸3张牌的奖励")
        draw(s, k, 3, "（奖励）")
    elif camp == "castle":
        if eff_camp(killer) == "enemy":
            log(s, "reward", f"{s.hero_name(k)} 消灭援军，获得摸3张牌的奖励")
            draw(s, k, 3, "（奖励）")
        elif killer.role == "lord":
            lost = list(killer.hand) + list(killer.equip.values())
            discard_pile(s, k).extend(c for c in lost if c != "conjured_mana")
            killer.hand, killer.equip = [], {}
            log(s, "penalty", f"城主{s.hero_name(k)} 消灭援军，损失全部手牌及装备卡")


@op("adopt_ask")
def _adopt_ask(s: State, dead: int, adopters: tuple[int, ...], i: int) -> None:
    if i >= len(adopters) or not s.players[dead].soldiers:
        return
    if s.players[adopters[i]].alive:
        ask(s, "adopt", adopters[i], dead, adopters, i)
    else:
        push(s, ("adopt_ask", dead, adopters, i + 1))


def adopt_options(s: State, seat: int, dead: int) -> list[Act]:
    p = s.players[seat]
    if not p.alive or (p.leadership >= 0 and len(p.soldiers) >= p.leadership):
        return []
    if eff_camp(p) != eff_camp(s.players[dead]):  # CH-DEATH-9: the same camp only
        return []
    return [Act("adopt", (x.ref,)) for x in s.players[dead].soldiers]


@prompt("adopt", "CH-DEATH-9")
def _adopt_legal(s: State, pr: Prompt) -> list[Act]:
    return adopt_options(s, pr.seat, int(pr.data[0])) + [Act("decline")]


@answer("adopt")
def _adopt_answer(s: State, pr: Prompt, act: Act) -> None:
    dead, adopters, i = pr.data
    if act.kind == "decline":
        push(s, ("adopt_ask", dead, adopters, i + 1))
        return
    uid = int(str(act.args[0])[1:])
    d = s.players[dead]
    sol = next(x for x in d.soldiers if x.uid == uid)
    d.soldiers.remove(sol)
    s.players[pr.seat].soldiers.append(sol)
    log(s, "adopt", f"{s.hero_name(pr.seat)} 将{s.cards[sol.card].name}收入麾下")
    push(s, ("adopt_ask", dead, adopters, i))


@op("adopt_end")
def _adopt_end(s: State, dead: int) -> None:
    for sol in list(s.players[dead].soldiers):
        kill_soldier(s, dead, sol)


def end_game(s: State, result: list[float], rule: str, text: str, winner: str) -> None:
    """CH-WIN-1: reveal everything, mark each seat, name the rule that ended the game and
    the winner (the winning side's role in Chinese, a mode's team, or ``DRAW``)."""
    s.result = result
    s.end_rule = rule
    s.winner = winner
    s.stage = "over"
    s.prompt = None
    s.stack.clear()
    for p in s.players:
        p.revealed = True
    log(s, "game_over", f"游戏结束：{text}（{rule}）")


def _side_result(s: State, winners: set[int]) -> list[float]:
    out = []
    for p in s.players:
        won = p.seat in winners and (p.alive or s.rules.dead_share_win)
        out.append(1.0 if won else -1.0)
    return out


@op("win_check")
def _win_check(s: State) -> None:
    lord = next(p for p in s.players if p.role == "lord")
    if not lord.alive:  # CH-WIN-2
        alive = [p for p in s.players if p.alive]
        if len(alive) == 1 and alive[0].role == "neutral" and not alive[0].defected:
            end_game(
                s,
                _side_result(s, {alive[0].seat}),
                "CH-WIN-2",
                "中立成为唯一存活的势力",
                ROLE_ZH["neutral"],
            )
        else:
            enemies = {p.seat for p in s.players if p.role == "enemy"}
            end_game(
                s, _side_result(s, enemies), "CH-WIN-2", "城主被消灭，敌军胜利", ROLE_ZH["enemy"]
            )
        return
    if any(p.alive and p.role == "enemy" for p in s.players):
        return
    if _castle_wins(s):
        return
    ask_list = tuple(  # CH-WIN-4
        q
        for q in s.clockwise_from(s.turn_seat, include=True)
        if s.players[q].role == "neutral" and not s.players[q].camp_fixed
    )
    for q in ask_list:
        if s.players[q].camp == "castle":
            s.players[q].camp_fixed = True
    asks = [("defect_ask", q) for q in ask_list if not s.players[q].camp_fixed]
    push(s, *asks, ("win_check3",))


def _castle_wins(s: State) -> bool:
    """CH-WIN-3: no neutral alive, or every living neutral of camp 援军."""
    neutrals = [p for p in s.players if p.alive and p.role == "neutral"]
    if all(p.camp == "castle" for p in neutrals):
        castle = {p.seat for p in s.players if p.role in ("lord", "reinforcement")}
        if s.rules.defector_wins:
            castle |= {p.seat for p in s.players if p.defected}
        text = "所有敌军被消灭，城主与援军胜利"
        end_game(s, _side_result(s, castle), "CH-WIN-3", text, ROLE_ZH["lord"])
        return True
    return False


@op("win_check3")
def _win_check3(s: State) -> None:
    _castle_wins(s)


@op("defect_ask")
def _defect_ask(s: State, q: int) -> None:
    if s.players[q].alive and not s.players[q].camp_fixed:
        ask(s, "defect", q)


yes_no_prompt("defect", "CH-WIN-4")


@answer("defect")
def _defect_answer(s: State, pr: Prompt, act: Act) -> None:
    p = s.players[pr.seat]
    p.camp_fixed = True
    p.revealed = p.declared = True
    if act.kind == "yes":
        p.camp, p.defected = "castle", True
        log(s, "defect", f"{s.hero_name(pr.seat)}（中立）选择投靠")
    else:
        p.camp = "enemy"
        log(s, "defect", f"{s.hero_name(pr.seat)}（中立）拒绝投靠，转为敌军阵营")
