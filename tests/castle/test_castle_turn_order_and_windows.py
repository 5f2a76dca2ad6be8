"""Issue 33, 城堡之心: turns pass by hero (CH-TURN-1), and what a seat sees of another
seat's turn start and of rescue and counter windows does not depend on what it cannot see
(CH-UI-3, CH-ROLE-7, CH-DEATH-3, CH-MAGIC-12)."""

from __future__ import annotations

from collections import Counter

from tests.castle.helpers import P, do, scen
from throne_lib.games.castle import CastleMatch
from throne_lib.games.castle.agents import ScriptedAgent


def test_leap_onto_the_lord_costs_him_no_turn() -> None:
    """CH-TURN-1 (turn_passing="by_hero", the default): a 拜帕 who leaps onto the 城主
    (CH-HERO-15) swaps seats, not turns — every living hero still has one turn per round,
    and the round begins with the 城主's turn."""
    m = scen("lord tang_na", "enemy li_wei", "enemy bai_pa", "enemy di_shi", "enemy ge_lu_qi",
             turn=2)  # fmt: skip
    do(m, "skill leap h0")
    assert m.state.pos[0] == 2 and m.state.pos[2] == 0  # the seats are swapped
    do(m, "end_play")
    order = [(m.state.turn_seat, m.state.round)]
    while len(order) < 6:
        m.apply(m.legal_actions()[-1])
        if m.state.turn_seat != order[-1][0]:
            order.append((m.state.turn_seat, m.state.round))
    assert order == [(3, 1), (4, 1), (0, 2), (1, 2), (2, 2), (3, 2)]


def test_scripted_matches_give_every_hero_one_turn_per_round() -> None:
    """CH-TURN-1: in scripted 5-seat matches (拜帕 leaps whenever it likes) no hero has two
    turns between two turns of the 城主, and the 城主 begins every round."""
    for seed in range(6):
        m = CastleMatch(players=5, seed=seed)
        agents = [ScriptedAgent(seed, s) for s in range(5)]
        lord = next(p.seat for p in m.state.players if p.role == "lord")
        since_lord: Counter[int] = Counter()
        last = (-1, -1)
        while not m.is_over:
            m.apply(agents[m.current_seat].choose(m))
            now = (m.state.turn_seat, m.state.turn_no)
            if now != last and m.state.stage == "battle" and not m.is_over:
                last = now
                if now[0] == lord:
                    since_lord.clear()
                since_lord[now[0]] += 1
                assert since_lord[now[0]] == 1, (seed, now, m.state.round)
        assert m.state.round <= m.state.turn_no


def _same_view(a: CastleMatch, b: CastleMatch, seat: int) -> None:
    assert a.current_seat == b.current_seat
    assert a.observation(seat) == b.observation(seat)


def test_every_turn_start_looks_alike_neutral_or_not() -> None:
    """CH-UI-3 / CH-ROLE-7: a neutral who may declare and a 援军 who may not are asked
    alike at their turn start; seat 1 (who knows neither) sees the same step, prompt and
    deck size whichever seat 4 is."""
    base = ["lord tang_na", "enemy li_wei", "enemy bai_pa", "enemy di_shi"]
    neutral = scen(*base, "neutral ge_lu_qi", "reinforcement luo_xia", turn=3)
    reinf = scen(*base, "reinforcement ge_lu_qi", "neutral luo_xia", turn=3)
    _same_view(neutral, reinf, 1)
    for m in (neutral, reinf):
        m.apply("end_play")
        while m.prompt_kind != "declare":  # the windows of 迪什's turn end: pass
            m.apply(m.legal_actions()[-1])
    _same_view(neutral, reinf, 1)
    obs = neutral.observation(1)
    assert obs["step"] == "start" and obs["prompt"] == {"kind": "awaiting", "mine": False}
    assert neutral.current_seat == reinf.current_seat == 4
    assert len(neutral.legal_actions()) == 3 and reinf.legal_actions() == [
        reinf.parse("declare keep")
    ]
    for m in (neutral, reinf):
        m.apply("declare keep")
    _same_view(neutral, reinf, 1)
    assert neutral.prompt_kind == "play"


def test_rescue_window_asks_everyone_holding_or_not() -> None:
    """CH-DEATH-3 / CH-UI-3: after 李维 falls, the rescue window asks every able hero in
    turn, so seat 3 sees the same wait whether seat 2 holds an 愈 or not."""
    with_heal = scen("lord tang_na hand=sword", "enemy li_wei hp=1/4", "enemy bai_pa hand=heal",
                     "enemy di_shi")  # fmt: skip
    without = scen("lord tang_na hand=sword", "enemy li_wei hp=1/4", "enemy bai_pa hand=sword",
                   "enemy di_shi")  # fmt: skip
    asked = []
    for m in (with_heal, without):
        m.apply("attack h1 0 sword")
        m.apply("no_block")  # 李维 is asked to block too, 剑 or not (none here)
    while with_heal.prompt_kind == "rescue":
        _same_view(with_heal, without, 3)
        asked.append(with_heal.current_seat)
        for m in (with_heal, without):
            m.apply("decline")
    _same_view(with_heal, without, 3)
    assert asked == [0, 1, 2, 3] and P(with_heal, 1).dying
    assert with_heal.observation(3)["prompt"] == {"kind": "play", "mine": False, "seat": 0}


def test_counter_window_asks_everyone_holding_or_not() -> None:
    """CH-MAGIC-12 / CH-UI-3: a counter window asks each other able hero, holding 魔法抵消 or
    not; being asked (or the pause) tells seat 1 nothing about seat 2's hand."""
    holder = scen(
        "lord tang_na hand=horn_of_plenty", "enemy li_wei", "enemy bai_pa hand=counterspell"
    )
    other = scen("lord tang_na hand=horn_of_plenty", "enemy li_wei", "enemy bai_pa hand=sword")
    for m in (holder, other):
        m.apply("magic horn_of_plenty")
    for seat in (1, 2):
        _same_view(holder, other, 1)
        assert holder.current_seat == seat and holder.prompt_kind == "counter"
        for m in (holder, other):
            m.apply("decline")
    _same_view(holder, other, 1)
    assert len(P(holder, 0).hand) == 2


def test_forced_pass_is_the_only_answer_or_none() -> None:
    """CH-UI-3: a seat with nothing to answer may pass at once (its UI does): the match
    names that pass, and nothing when the seat has a choice."""
    m = scen("lord tang_na hand=horn_of_plenty", "enemy li_wei", "enemy bai_pa hand=counterspell")
    assert m.forced_pass() is None  # the 城主's 出牌阶段
    m.apply("magic horn_of_plenty")
    assert m.current_seat == 1 and m.forced_pass() == m.parse("decline")
    m.apply("decline")
    assert m.current_seat == 2 and m.forced_pass() is None  # holds 魔法抵消: a choice
