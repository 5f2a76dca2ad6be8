"""The ten heroes, each trait in a real match position (CH-HERO-2..21)."""

from __future__ import annotations

import pytest

from tests.castle.helpers import P, do, scen, settle, texts
from throne_lib.games.castle import CastleRules


def test_li_wei_fireball_contiguous_three() -> None:
    """CH-HERO-2 / CH-HERO-17: pay 3 魔, up to three contiguous units outside the group,
    1 magic damage each, 无豁免; CH-SEAT-7 contiguity."""
    m = scen(
        "lord li_wei hand=mana,mana,conjured_mana",
        "enemy tang_na soldiers=militia,goblin",
        "enemy bai_pa",
        "enemy di_shi",
    )
    sets = [tuple(a.args[1:]) for a in m.legal_actions() if a.args[:1] == ("fireball",)]
    assert ("h1", "s1", "s2") in sets and ("h1", "h2") in sets
    assert not any("s1" in c and "h2" in c and "h1" not in c for c in sets)
    assert all(len(c) <= 3 for c in sets)
    do(m, "skill fireball h1 s1 s2")
    assert P(m, 1).hp == 4 and not P(m, 1).soldiers and P(m, 0).hand == []
    assert not any(a.args[:1] == ("fireball",) for a in m.legal_actions())


def test_li_wei_mana_as_heal_anytime() -> None:
    """CH-HERO-3: 李维 plays 魔 as 愈 in his turn and in rescue windows; not a 魔 spent."""
    m = scen("lord li_wei hp=2/4 hand=mana", "enemy tang_na", "enemy bai_pa", "enemy di_shi")
    do(m, "heal h0 mana")
    assert P(m, 0).hp == 3 and P(m, 0).paid_mana == []
    m2 = scen(
        "lord tang_na hand=sword",
        "enemy bai_pa",
        "enemy li_wei hand=mana",
        "enemy di_shi hp=1/3",
        turn=0,
    )
    P(m2, 0).hand = ["sword"]
    m2.state.players[0].equip = {}
    do(m2, "attack h3 0 sword")
    assert m2.prompt_kind == "rescue" and m2.current_seat == 2
    assert "rescue h3 mana" in texts(m2)
    do(m2, "rescue h3 mana")
    assert P(m2, 3).hp == 1 and not P(m2, 3).dying


def test_di_shi_mana_pool_hand_limit() -> None:
    """CH-HERO-4: 迪什's 魔 don't count toward the hand limit; the hand size shows them."""
    m = scen(
        "lord di_shi hp=1/3 hand=mana,mana,mana,conjured_mana,sword,sword",
        "enemy tang_na",
        "enemy bai_pa",
        turn=0,
    )
    do(m, "end_play")
    assert m.prompt_kind == "discard"
    assert texts(m) == ["discard sword"]
    do(m, "discard sword")
    assert P(m, 0).hand.count("sword") == 1 and len(P(m, 0).hand) == 5
    assert m.observation(1)["players"][0]["hand_size"] == 5


def test_di_shi_alchemy_refills_leadership() -> None:
    """CH-HERO-5: 3 魔 for a 长枪兵/弓箭手, 5 for a 十字军 token, while below leadership,
    any number per turn; CH-SOLDIER-17 tokens; CH-COMMAND-5 they may attack at once."""
    m = scen(
        "enemy di_shi hand=mana,mana,mana,mana,mana,mana soldiers=goblin",
        "lord tang_na",
        "enemy bai_pa",
    )
    acts = texts(m)
    assert "skill alchemy alchemy_crusader" in acts and "skill alchemy alchemy_archer" in acts
    do(m, "skill alchemy alchemy_archer")
    assert [x.card for x in P(m, 0).soldiers] == ["goblin", "alchemy_archer"]
    assert not any("alchemy" in a for a in texts(m))  # leadership 2 is full
    do(m, "end_play")
    assert m.prompt_kind == "command_pick"
    do(m, "command h1")
    assert "order s2 h1" in texts(m)
    do(m, "order s2 h1")
    assert P(m, 1).hp == 4
    assert m.state.fallen == []


def test_lai_en_unlimited_leadership_and_spy() -> None:
    """CH-HERO-6: no leadership limit; CH-HERO-7: once per turn, free, he alone sees the
    hand; the public log names whom he spied on, not what he saw."""
    m = scen(
        "lord lai_en soldiers=militia,militia,militia,militia,militia",
        "enemy tang_na hand=sword,heal",
        "enemy bai_pa",
    )
    assert P(m, 0).leadership == -1
    lines = do(m, "skill spy h1")
    assert "刺探了 唐纳 的手牌" in lines[-1]
    assert "剑" not in lines[-1]
    assert m.observation(0)["spied"] == {"1": ["sword", "heal"]}
    assert m.observation(2)["spied"] == {}
    assert "剑" in m.observation(0)["log"][-1] and "剑" not in m.observation(2)["log"][-1]
    assert not any(a.startswith("skill spy") for a in texts(m))


def test_ge_lei_si_snipe_extra_swords() -> None:
    """CH-HERO-8: each extra 剑 adds 1 if it hits; extras paid up front, lost if negated."""
    m = scen("lord ge_lei_si hand=sword,sword,sword", "enemy tang_na hand=sword", "enemy bai_pa")
    assert "attack h1 2 sword" in texts(m)
    do(m, "attack h1 2 sword", "no_block")
    assert P(m, 1).hp == 2 and P(m, 0).hand == []
    m2 = scen("lord ge_lei_si hand=sword,sword", "enemy tang_na hand=sword", "enemy bai_pa")
    do(m2, "attack h1 1 sword", "block")
    assert P(m2, 1).hp == 5 and P(m2, 0).hand == []


def test_ge_lei_si_aim() -> None:
    """CH-HERO-9: 3 魔: her attacks this turn can't be blocked and ignore armour."""
    m = scen(
        "lord ge_lei_si hand=mana,mana,mana,sword",
        "enemy tang_na hand=sword,sword equip=knight_armor",
        "enemy bai_pa",
    )
    do(m, "skill aim", "attack h1 0 sword")
    assert P(m, 1).hp == 4 and m.current_seat == 0  # no armour roll, no block prompt
    assert not any("骑士铠甲" in x for x in m.log_lines(None))


def test_tang_na_roar() -> None:
    """CH-HERO-10: 3 剑: each other hero discards a 魔 or is stunned; neighbours lose 1;
    CH-STATUS-1: stunned → next turn no 出牌阶段, still draws."""
    m = scen(
        "lord tang_na hand=sword,sword,sword",
        "enemy bai_pa hand=mana",
        "enemy di_shi",
        "enemy li_wei hand=mana",
    )
    do(m, "skill roar")
    assert m.prompt_kind == "roar" and m.current_seat == 1
    do(m, "discard mana")
    assert m.current_seat == 3 and m.prompt_kind == "roar"
    do(m, "take")
    assert P(m, 1).stun == 0 and P(m, 2).stun == 1 and P(m, 3).stun == 1
    assert P(m, 1).hp == 4 and P(m, 3).hp == 3 and P(m, 2).hp == 3  # neighbours lose 1
    do(m, "end_play")
    while m.state.turn_seat != 2:
        m.apply(m.legal_actions()[-1])
    settle(m)  # 迪什's turn start (CH-TURN-3) to its draw and skipped 出牌阶段
    lines = m.log_lines(0)  # seat 0 sees the count of 迪什's draw, not the cards
    start = lines.index("—— 第1轮 迪什 的回合 ——")
    assert "迪什 摸了2张牌" in lines[start:] and "迪什 眩晕，跳过出牌阶段" in lines[start:]
    assert P(m, 2).stun == 0  # the stun lasted that one turn


def test_tang_na_axe_mastery() -> None:
    """CH-HERO-11: with an axe each hit deals 2."""
    m = scen("lord tang_na hand=sword equip=ruin_waraxe", "enemy bai_pa", "enemy di_shi")
    do(m, "attack h1 0 sword")
    assert P(m, 1).hp == 3


def test_fu_lai_xi_er_resist_death() -> None:
    """CH-HERO-12: on a fatal hit he may hold on, act at HP ≤ 0, and dies at the end of
    his next turn unless back to max HP."""
    m = scen(
        "lord tang_na hand=sword", "enemy fu_lai_xi_er hp=1/4 hand=sword,sword", "enemy bai_pa"
    )
    do(m, "attack h1 0 sword", "no_block")
    assert m.prompt_kind == "hold" and m.current_seat == 1
    do(m, "yes")
    assert P(m, 1).hold == 1 and not P(m, 1).dying and P(m, 1).alive
    do(m, "end_play")
    assert P(m, 1).alive  # survives the turn end (not dying)
    while m.state.turn_seat != 1:
        m.apply(m.legal_actions()[-1])
    assert "attack h0 0 sword" in texts(m) or "attack h2 0 sword" in texts(m)  # acts normally
    while m.state.turn_seat == 1 and not m.is_over:
        m.apply(m.legal_actions()[-1])
    assert not P(m, 1).alive


def test_fu_lai_xi_er_embrace_death() -> None:
    """CH-HERO-13: unlimited 剑 attacks this turn, dies at its end, no killer, no rescue."""
    m = scen(
        "enemy fu_lai_xi_er hand=sword,sword,sword", "lord tang_na", "enemy bai_pa", "enemy di_shi"
    )
    do(m, "skill embrace", "attack h1 0 sword", "attack h1 0 sword", "attack h1 0 sword")
    assert P(m, 1).hp == 2
    do(m, "end_play")
    assert not P(m, 0).alive and "阵亡" in " ".join(m.log_lines(None))


def test_bai_pa_self_destruct() -> None:
    """CH-HERO-14: 1 魔, HP ≥ 2: X = HP − 1 to each neighbour, his HP becomes 1."""
    m = scen("lord bai_pa hp=4/5 hand=mana", "enemy tang_na", "enemy li_wei", "enemy di_shi hp=3/3")
    do(m, "skill self_destruct")
    assert P(m, 0).hp == 1 and P(m, 1).hp == 2 and P(m, 3).hp == 0 and P(m, 2).hp == 4
    m2 = scen(
        "lord bai_pa hp=4/5 hand=mana",
        "enemy tang_na",
        "enemy li_wei",
        rules=CastleRules(self_destruct_damage="missing_hp"),
    )
    do(m2, "skill self_destruct")
    assert P(m2, 1).hp == 4


def test_bai_pa_leap_swaps_seats() -> None:
    """CH-HERO-15: a hero at seat distance ≥ 2 swaps seats with him, takes 1; with the
    CH-TURN-1 variant ``turn_passing="by_seat"`` the turn then follows the positions."""
    m = scen("lord bai_pa", "enemy tang_na", "enemy li_wei", "enemy di_shi", "enemy ge_lu_qi",
             rules=CastleRules(turn_passing="by_seat"))  # fmt: skip
    assert {a.args[1] for a in m.legal_actions() if a.args[:1] == ("leap",)} == {"h2", "h3"}
    do(m, "skill leap h2")
    assert m.state.pos[0] == 2 and m.state.pos[2] == 0 and P(m, 2).hp == 3
    do(m, "end_play")
    assert m.state.turn_seat == 1  # the turn began at position 0: next is position 1
    while m.state.turn_seat == 1:
        m.apply(m.legal_actions()[-1])
    assert m.state.turn_seat == 0  # 拜帕 now sits at position 2: his next turn comes early


def test_leap_with_turn_passing_by_hero_keeps_the_starting_order() -> None:
    """CH-TURN-1 Reading ``turn_passing="by_hero"`` (the default): after the same 跳跃
    (CH-HERO-15) the turns still follow the heroes' seating order of the start, so the 城主
    waits a round."""
    assert CastleRules().turn_passing == "by_hero"
    m = scen("lord bai_pa", "enemy tang_na", "enemy li_wei", "enemy di_shi", "enemy ge_lu_qi")
    do(m, "skill leap h2")
    assert m.state.pos[0] == 2 and m.state.pos[2] == 0
    do(m, "end_play")
    order = [m.state.turn_seat]
    while len(order) < 5:
        m.apply(m.legal_actions()[-1])
        if m.state.turn_seat != order[-1]:
            order.append(m.state.turn_seat)
    assert order == [1, 2, 3, 4, 0]
    with pytest.raises(ValueError, match="CH-TURN-1"):
        CastleRules(turn_passing="by_position")


def test_ge_lu_qi_fire_arrow_any_distance_once() -> None:
    """CH-HERO-16: free, 1 damage to any unit outside his group at any distance, 无豁免,
    once per turn; CH-TURN-6 ability_uses_per_turn."""
    m = scen(
        "lord ge_lu_qi",
        "enemy tang_na",
        "enemy bai_pa hand=sword,sword equip=knight_armor",
        "enemy di_shi",
        "enemy li_wei",
    )
    arrows = {a.args[1] for a in m.legal_actions() if a.args[:1] == ("fire_arrow",)}
    assert arrows == {"h1", "h2", "h3", "h4"}
    do(m, "skill fire_arrow h2")
    assert P(m, 2).hp == 4 and m.current_seat == 0
    assert not any(a.args[:1] == ("fire_arrow",) for a in m.legal_actions())
    m2 = scen(
        "lord ge_lu_qi",
        "enemy tang_na",
        "enemy bai_pa",
        rules=CastleRules(ability_uses_per_turn=None),
    )
    do(m2, "skill fire_arrow h1")
    assert any(a.args[:1] == ("fire_arrow",) for a in m2.legal_actions())


def test_ge_lu_qi_fireball_as_li_wei() -> None:
    """CH-HERO-17: 格鲁奇's 火球 is 李维's; CH-HERO-2 fireball_max_targets parameter."""
    m = scen(
        "lord ge_lu_qi hand=mana,mana,mana",
        "enemy tang_na",
        "enemy bai_pa",
        "enemy di_shi",
        rules=CastleRules(fireball_max_targets=2),
    )
    sets = [a.args[1:] for a in m.legal_actions() if a.args[:1] == ("fireball",)]
    assert max(len(c) for c in sets) == 2
    do(m, "skill fireball h1 h2")
    assert P(m, 1).hp == 4 and P(m, 2).hp == 4


def test_luo_xia_dark_banner_in_turn_and_in_answer() -> None:
    """CH-HERO-18: 1 魔: this turn ranged attacks and magic can't choose him; raised in
    answer it voids that attack (cost stays paid); it doesn't cover his soldiers."""
    m = scen("lord luo_xia hand=mana", "enemy tang_na hand=mana,mana,mana", "enemy ge_lu_qi")
    do(m, "skill banner")
    assert P(m, 0).banner
    m2 = scen("lord ge_lu_qi", "enemy luo_xia hand=mana soldiers=militia", "enemy tang_na")
    do(m2, "skill fire_arrow h1")
    assert m2.prompt_kind == "banner" and m2.current_seat == 1
    do(m2, "yes")
    assert P(m2, 1).hp == 5 and P(m2, 1).hand == [] and P(m2, 1).banner
    m3 = scen(
        "lord ge_lei_si hand=sword equip=silverfir_longbow",
        "enemy luo_xia hand=mana",
        "enemy tang_na",
    )
    do(m3, "attack h1 0 sword", "yes")
    assert P(m3, 1).hp == 5 and "黑暗旌旗，攻击无效" in m3.log_lines(None)[-1]
    assert "attack h1 0 sword" not in texts(m3)
    m4 = scen(
        "lord ge_lu_qi", "enemy luo_xia hand=mana flags=banner soldiers=militia", "enemy tang_na"
    )
    assert "skill fire_arrow s1" in texts(m4) and "skill fire_arrow h1" not in texts(m4)


def test_luo_xia_death_throes() -> None:
    """CH-HERO-19: when damage makes him fall he may attack its dealer, melee, ignoring
    distance, for damage = the 剑 in his hand (counted, not spent)."""
    m = scen(
        "lord tang_na hp=5/5 hand=sword",
        "enemy luo_xia hp=1/5 hand=sword,sword,sword",
        "enemy bai_pa",
    )
    do(m, "attack h1 0 sword", "no_block")
    assert m.prompt_kind == "throes" and m.current_seat == 1
    do(m, "yes")
    assert m.current_seat == 0 and m.prompt_kind in ("play", "rescue")
    assert P(m, 0).hp == 2 and P(m, 1).hand.count("sword") == 3
    m2 = scen("lord tang_na hand=sword", "enemy luo_xia hp=1/5", "enemy bai_pa")
    do(m2, "attack h1 0 sword")
    assert m2.prompt_kind == "play"  # no 剑 in hand: no counter


def test_wei_er_pu_si_sword_mastery_and_deadly_strike() -> None:
    """CH-HERO-20: with a sword each hit deals 2; CH-HERO-21: blocking him takes 2 剑, a
    hero holding fewer can't block."""
    m = scen(
        "lord wei_er_pu_si hand=sword equip=silver_alloy_greatsword",
        "enemy tang_na hand=sword",
        "enemy bai_pa",
    )
    do(m, "attack h1 0 sword")
    assert P(m, 1).hp == 3 and m.current_seat == 0  # one 剑 is not enough to block
    m2 = scen("lord wei_er_pu_si hand=sword", "enemy tang_na hand=sword,sword", "enemy bai_pa")
    do(m2, "attack h1 0 sword")
    assert m2.prompt_kind == "block"
    do(m2, "block")
    assert P(m2, 1).hand == [] and P(m2, 1).hp == 5
    m3 = scen("lord wei_er_pu_si hand=sword equip=ruin_waraxe", "enemy tang_na", "enemy bai_pa")
    do(m3, "attack h1 0 sword")
    assert P(m3, 1).hp == 4  # an axe is no sword: 1


def test_activated_traits_follow_turn_rules() -> None:
    """CH-HERO-1 / CH-TURN-6: activated traits only in the user's own 出牌阶段, once per
    turn (造化万物 excepted), costs paid as CH-CARD-1."""
    m = scen("lord tang_na hand=sword", "enemy ge_lu_qi", "enemy bai_pa")
    assert not any(a.kind == "skill" for a in m.legal_actions())  # 3 剑 needed for roar
    m2 = scen("lord tang_na", "enemy ge_lu_qi", "enemy bai_pa", turn=0)
    do(m2, "end_play")
    assert m2.state.turn_seat != 0 or m2.prompt_kind != "play"
