"""城池战's set-up (CW-SETUP) and turns (CW-TURN): the preparation step with its
defence effects and 弃守, draws and hand limits with the city bonuses, turn order among the
players still in, deaths and revival (CW-TEAM-4/5), the end check and 认输 (CW-WIN)."""

from __future__ import annotations

import random

from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.cards import CastleCards
from throne_lib.games.castle.core import OPS, ask, draw, heal_hero, log, push
from throne_lib.games.castle.death import bury, death_victims, killer_of
from throne_lib.games.castle.setup import begin_prep, finish_prep, seated, unbox
from throne_lib.games.castle.state import Player, Prompt, State
from throne_lib.games.castle.turn import discard_phase, draw_phase
from throne_lib.games.cities.mode import (
    CitiesMode,
    cw_op,
    cw_prompt,
    defence,
    deploy,
    mode,
    sync,
    war_of,
)
from throne_lib.games.cities.rules import CitiesRules
from throne_lib.games.cities.table import CityTable
from throne_lib.games.cities.war import CityWar


def new_state(
    cards: CastleCards, table: CityTable, rules: CitiesRules, teams: list[int], seed: int
) -> State:
    """Seats, teams and starting cities; the op stack for the heroes and the 备战阶段."""
    n = len(teams)
    if rules.deck_mode not in ("personal", "shared"):
        raise ValueError(
            f"deck_mode is 'personal' or 'shared', not {rules.deck_mode!r} (CW-DECK-1)"
        )
    if not rules.min_players <= n <= rules.max_players:
        raise ValueError(
            f"城池战 seats {rules.min_players}–{rules.max_players}, not {n} (CW-SETUP-2)"
        )
    base = rules.base
    rng = random.Random(seed)
    positions = list(range(n))
    if rules.random_seating:  # CW-SETUP-4
        rng.shuffle(positions)
    ps = [Player(seat=i, role="player", revealed=True) for i in range(n)]  # CW-TEAM-1
    s = seated(base, cards, rng, seed, ps, positions)
    first = positions.index(0)
    order = s.clockwise_from(first, include=True)
    war = CityWar.deal(table, rules, teams, rng, order)  # CW-SETUP-3/5/6
    groups: dict[int, list[int]] = {}
    for seat, t in enumerate(teams):
        groups.setdefault(t, []).append(seat)
    sides = "；".join("、".join(f"{q}号" for q in g) for g in groups.values())
    goals = war.victory_counts()  # CW-SETUP-3: by team size
    if len(set(goals.values())) == 1:
        goal = f"{next(iter(goals.values()))}座城池"
    else:
        goal = "城池：" + "；".join(
            f"{'、'.join(f'{q}号' for q in g)} {goals[t]}座" for t, g in groups.items()
        )
    log(s, "setup", f"{n}人城池战，队伍：{sides}；先手：{first}号座位；胜利需{goal}")
    s.mode = CitiesMode(war, rules, first)
    full = unbox(s, cards)
    if rules.deck_mode == "personal":  # CW-DECK-1: a full copy each
        s.decks = [list(full) for _ in range(n)]
        s.discards = [[] for _ in range(n)]
    else:  # CW-DECK-1's other reading: the base game's piles (CH-SETUP-7, CH-DECK-6)
        s.deck, s.discard = full, []
    push(s, *[("offer_hero", q, base.hero_offer) for q in order], ("prep_start",))  # CW-SETUP-7
    sync(s)
    return s


@cw_op("prep_start")
def _prep_start(s: State) -> None:
    begin_prep(s, mode(s).first)  # CW-DECK-1: each deck shuffled by the match RNG


@cw_op("prep_end")
def _prep_end(s: State) -> None:
    m = mode(s)
    if not m.rules.supply_recycles:
        s.set_aside.extend(s.supply)
        s.supply = []
    # CH-PREP-5, CW-TEAM-3: leftover mana is conjured; CW-SETUP-7: opening hands from
    # each player's own pile
    finish_prep(s, m.first, conjured=True)


# --- turns (CW-TURN) -------------------------------------------------------------------
@cw_op("declare_ask")
def _no_declare(s: State, seat: int) -> None:
    """CW-TEAM-2: no identities, so no neutral declares."""


@cw_op("turn_start")
def _turn_start(s: State, seat: int) -> None:
    """CW-TURN-2: the preparation step — a dead hero returns (CW-TEAM-5); the castle's
    start-of-turn effects; the current city's defence effect; then 弃守 (CW-ABANDON-1)."""
    m = mode(s)
    p = s.players[seat]
    if not p.alive and m.rules.revive and not m.war.out[seat]:
        c = s.cards[p.hero]
        p.alive, p.dying, p.hold, p.embrace = True, False, 0, False
        p.hp = p.max_hp = c.hp
        p.last_source = -1
        log(s, "return", f"{s.hero_name(seat)} 重返战场（生命{p.hp}）")
    push(s, ("cw_defence_start", seat), ("cw_prep", seat))
    OPS["turn_start"](s, seat)


@cw_op("cw_defence_start")
def _defence_start(s: State, seat: int) -> None:
    """CW-CITY-3/CW-CITY-8: the current city's start-of-turn defence effect."""
    w = war_of(s)
    w.first_hit_taken.clear()  # 建业: "in each turn"
    p = s.players[seat]
    city = w.current(seat)
    if w.out[seat] or city is None or not p.alive:
        return
    before = w.grain[city]
    w.turn_start(seat)  # 许昌's 屯田
    if w.grain[city] != before:
        log(s, "city", f"{w.table[city].name} 屯田，粮草{before}→{w.grain[city]}")
    if defence(s, seat, "deploy_militia") is not None:
        deploy(s, seat, "militia")
    heal = defence(s, seat, "heal_hero_start")
    if heal:
        got = heal_hero(s, seat, heal)
        if got:
            log(s, "city", f"{w.table[city].name} 守城效果：{s.hero_name(seat)} 恢复{got}点生命")
    heal = defence(s, seat, "heal_soldiers_start")
    if heal:
        for sol in p.soldiers:
            sol.hp = min(sol.max_hp, sol.hp + heal)
        log(
            s, "city", f"{w.table[city].name} 守城效果：{s.hero_name(seat)}的士兵各恢复{heal}点生命"
        )


@cw_op("cw_prep")
def _prep_step(s: State, seat: int) -> None:
    """CW-TURN-3 / CW-ABANDON-1/2: the abandon window at the end of the prep step.

    Asked while the player holds a city above its starting city. Abandoning the starting
    city (then its only city) has exactly the effect of 认输 (CW-WIN-4: its cities go
    empty, it is out), so it is offered as 认输 (``concede_actions``), which, like every
    concession, is not one of the current seat's ``legal_actions()``."""
    p = s.players[seat]
    w = war_of(s)
    if not w.out[seat] and p.alive and not p.frozen and len(w.stacks[seat]) > 1:
        ask(s, "cw_prep", seat, 0)  # abandons so far in this prep step (CW-ABANDON-2)


def _prep_legal(s: State, pr: Prompt) -> list[Act]:
    return [Act("keep"), Act("abandon")]


def _prep_answer(s: State, pr: Prompt, act: Act) -> None:
    if act.kind == "abandon":
        w = war_of(s)
        city = w.current(pr.seat)
        log(s, "abandon", f"{s.hero_name(pr.seat)} 弃守{w.table[city or ''].name}")
        w.abandon(pr.seat)
        sync(s)
        done = (int(pr.data[0]) if pr.data else 0) + 1
        limit = mode(s).rules.abandon_limit  # CW-ABANDON-2: none by default
        if (limit is None or done < limit) and len(w.stacks[pr.seat]) > 1:
            ask(s, "cw_prep", pr.seat, done)  # it may abandon its new current city too


cw_prompt("cw_prep", "CW-ABANDON-1", _prep_legal, _prep_answer)


@cw_op("draw_phase")
def _draw_phase(s: State, seat: int) -> None:
    """CH-TURN-4 with 洛阳's extra card (CW-CITY-8)."""
    draw_phase(s, seat, defence(s, seat, "draw_extra") or 0)


@cw_op("discard_phase")
def _discard_phase(s: State, seat: int) -> None:
    """CH-TURN-8 with 邺城's higher hand limit (CW-CITY-8)."""
    discard_phase(s, seat, defence(s, seat, "hand_limit") or 0)


def round_leader(s: State) -> int:
    """CW-TURN-1: the first player; when it is out, the next player still in after it."""
    w = war_of(s)
    first = mode(s).first
    order = turn_order(s)
    for k in range(s.n):
        seat = order.index((order[first] + k) % s.n)
        if not w.out[seat]:
            return seat
    return first


def turn_order(s: State) -> tuple[int, ...]:
    """CW-TURN-1 as CH-TURN-1 (``turn_passing``): ``by_hero``, the seating of the start
    (a 跳跃 swaps seats, never turns); ``by_seat``, the positions now."""
    if mode(s).rules.base.turn_passing == "by_hero":
        return s.start_pos or tuple(s.pos)
    return tuple(s.pos)


@cw_op("next_turn")
def _next_turn(s: State) -> None:
    """CW-TURN-1: the next player still in clockwise (a dead hero's player too);
    CW-WIN-6: the match ends when round ``max_rounds`` ends."""
    m = mode(s)
    w = m.war
    limit = m.rules.max_rounds
    if limit is not None and s.turn_no >= limit * s.n:  # positions swapped by 跳跃
        w.end_by_rounds()
        sync(s)
        return
    seat = -1
    order = turn_order(s)
    by_hero = m.rules.base.turn_passing == "by_hero" and s.turn_seat >= 0
    here = order[s.turn_seat] if by_hero else s.turn_pos
    for k in range(1, s.n + 1):
        cand = order.index((here + k) % s.n)
        if not w.out[cand]:
            seat = cand
            break
    if seat < 0:
        return
    if seat == round_leader(s):
        s.round += 1
        if limit is not None and s.round > limit:
            w.end_by_rounds()
            sync(s)
            return
    push(s, ("turn", seat))


@cw_op("win_check")
def _win_check(s: State) -> None:
    """CW-TEAM-2: the game-end check is CW-WIN-1 to CW-WIN-3, not the roles'."""
    war_of(s).check_win()
    sync(s)


@cw_op("deaths")
def _deaths(s: State) -> None:
    """CW-TEAM-4/5: heroes die as in CH-DEATH-5; cards to the owner's discard pile,
    soldiers stay; the killer draws ``kill_reward`` for an opponent's hero."""
    w = war_of(s)
    victims = [q for q in death_victims(s) if s.players[q].alive]
    for q in victims:
        bury(s, q)
        log(s, "death", f"{s.hero_name(q)} 阵亡，下回合准备流程中复活")
    for q in victims:
        k = killer_of(s, q, victims)
        if k < 0 or w.out[k]:
            continue
        if not w.allies(k, q) and mode(s).rules.kill_reward:
            log(s, "reward", f"{s.hero_name(k)} 消灭对手英雄，摸{mode(s).rules.kill_reward}张牌")
            draw(s, k, mode(s).rules.kill_reward, "（奖励）")


def concede(s: State, seat: int) -> None:
    """CW-WIN-4: every city into the empty area, out at once; a question asked of the
    conceding player is withdrawn."""
    w = war_of(s)
    log(s, "concede", f"{s.hero_name(seat)} 认输")
    w.concede(seat)
    if s.prompt is not None and s.prompt.seat == seat:
        s.prompt = None
    sync(s)
    if s.stage != "over" and s.prompt is None and not s.stack:
        push(s, ("next_turn",))
