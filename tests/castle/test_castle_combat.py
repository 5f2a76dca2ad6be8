"""Attacks, blocks, reach, damage (CH-ATTACK, CH-SEAT, CH-DAMAGE, CH-CARD)."""

from __future__ import annotations

import pytest

from tests.castle.helpers import P, do, scen, texts
from throne_lib.games.castle import CastleRules
from throne_lib.kit.protocol import IllegalAction

FOUR = ("enemy tang_na", "enemy bai_pa", "enemy di_shi")


def test_one_sword_attack_per_turn_and_cost() -> None:
    """CH-ATTACK-3: one 剑 attack per turn, paid with 1 剑; CH-CARD-1: paid before it
    resolves, spent even if blocked; CH-CARD-2: 剑 pays attacks and blocks;
    CH-ATTACK-4: a hero's attack deals 1."""
    m = scen("lord li_wei hand=sword,sword,sword", *FOUR)
    do(m, "attack h1 0 sword")
    assert P(m, 1).hp == 4 and P(m, 0).hand.count("sword") == 2
    assert not [a for a in texts(m) if a.startswith("attack")]
    with pytest.raises(IllegalAction) as err:
        m.apply("attack h3 0 sword")
    assert err.value.rule == "CH-TURN-5"


def test_block_with_sword_negates() -> None:
    """CH-ATTACK-6: the attacked hero may pay 1 剑 to negate; CH-ATTACK-7: negated = no
    damage; CH-TURN-10: off its turn a hero acts only when asked (the block prompt)."""
    m = scen("lord li_wei hand=sword", "enemy tang_na hand=sword", "enemy bai_pa", "enemy di_shi")
    do(m, "attack h1 0 sword")
    assert m.current_seat == 1 and texts(m) == ["block", "no_block"]
    lines = do(m, "block")
    assert P(m, 1).hp == 5 and P(m, 1).hand == [] and "被抵消" in lines[-1]
    assert m.current_seat == 0


def test_soldiers_cannot_block_and_hero_cannot_block_for_them() -> None:
    """CH-ATTACK-6: soldiers can't block, nor a hero for its soldiers; CH-ATTACK-2: a hero
    may attack a soldier or the hero whether or not it has soldiers."""
    m = scen(
        "lord li_wei hand=sword",
        "enemy tang_na hand=sword soldiers=militia",
        "enemy bai_pa",
        "enemy di_shi",
    )
    acts = texts(m)
    assert "attack h1 0 sword" in acts and "attack s1 0 sword" in acts
    do(m, "attack s1 0 sword")
    assert m.current_seat == 0 and not P(m, 1).soldiers and m.state.fallen == ["militia"]


def test_range_and_seat_distance() -> None:
    """CH-SEAT-1/2: a circle, distance the shorter way; CH-SEAT-5/6: range 1 without a
    weapon; CH-SEAT-8: never its own group; dead heroes leave the circle."""
    m = scen(
        "lord li_wei hand=sword soldiers=militia",
        "enemy tang_na",
        "enemy bai_pa",
        "enemy di_shi",
        "enemy ge_lu_qi",
    )
    s = m.state
    assert s.seat_distance(0, 2) == 2 and s.seat_distance(0, 4) == 1 and s.seat_distance(0, 3) == 2
    targets = {a.args[0] for a in m.legal_actions() if a.kind == "attack"}
    assert targets == {"h1", "h4"}
    P(m, 1).alive = False
    assert s.seat_distance(0, 2) == 1 and s.neighbours(0) == [2, 4]


def test_mounts_change_attack_distance() -> None:
    """CH-SEAT-5, CH-EQUIP-19 and CH-EQUIP-15..18: attack mount −1, defence mount +1."""
    m = scen(
        "lord li_wei hand=sword equip=hell_nightmare",
        "enemy tang_na equip=silver_pegasus",
        "enemy bai_pa",
        "enemy di_shi",
        "enemy ge_lu_qi",
    )
    targets = {a.args[0] for a in m.legal_actions() if a.kind == "attack"}
    assert targets == {"h1", "h2", "h3", "h4"}  # −1 brings seat 2 and 3 into reach
    for horse in ("armored_warhorse", "hell_nightmare"):
        m2 = scen(
            f"lord li_wei hand=sword equip={horse}",
            "enemy tang_na",
            "enemy bai_pa",
            "enemy di_shi",
            "enemy ge_lu_qi",
        )
        assert "attack h2 0 sword" in texts(m2)
    for wings in ("griffin_king", "silver_pegasus"):
        m3 = scen(
            "lord li_wei hand=sword", f"enemy tang_na equip={wings}", "enemy bai_pa", "enemy di_shi"
        )
        assert "attack h1 0 sword" not in texts(m3) and "attack h3 0 sword" in texts(m3)


def test_mount_shared_by_group_soldiers() -> None:
    """CH-EQUIP-19: an attack mount serves the rider's soldiers too."""
    m = scen(
        "lord li_wei equip=hell_nightmare soldiers=spearman",
        "enemy tang_na",
        "enemy bai_pa",
        "enemy di_shi",
        "enemy ge_lu_qi",
        at="play",
    )
    do(m, "end_play")
    assert m.prompt_kind == "command_pick"
    assert {a.args[0] for a in m.legal_actions() if a.kind == "command"} == {"h1", "h2", "h3", "h4"}


def test_attack_kinds_and_resolution_order() -> None:
    """CH-ATTACK-1 kinds; CH-ATTACK-5 order: armour, then the block; CH-ATTACK-5 reading
    auto_defence_first: armour rolls before the target is asked."""
    m = scen(
        "lord li_wei hand=sword",
        "enemy tang_na hand=sword equip=knight_armor",
        "enemy bai_pa",
        "enemy di_shi",
    )
    lines = do(m, "attack h1 0 sword")
    assert "骑士铠甲 判定" in lines[1]
    assert m.prompt_kind == ("block" if "未抵消" in lines[1] else "play")


def test_damage_below_zero_and_fall() -> None:
    """CH-DAMAGE-1: damage may take HP below 0, with a source; CH-DAMAGE-3: a hero at ≤0
    falls; CH-DEATH-1: it is dying, keeps hand and equipment."""
    m = scen(
        "lord wei_er_pu_si hand=sword equip=abyss_sword",
        "enemy di_shi hp=1/3 hand=heal,mana",
        "enemy bai_pa",
        "enemy tang_na",
    )
    do(m, "attack h1 0 sword")
    s = m.state
    assert m.prompt_kind == "abyss"  # 深渊之剑 asks; hp already −1
    assert P(m, 1).hp == -1 and P(m, 1).dying and P(m, 1).last_source == 0
    do(m, "take")
    assert P(m, 1).hp == -2 and P(m, 1).equip == {} and s.players[1].hand == ["heal", "mana"]


def test_hp_loss_is_not_damage() -> None:
    """CH-DAMAGE-2: HP loss (熊之咆哮) is prevented by nothing and triggers nothing."""
    m = scen(
        "lord tang_na hand=sword,sword,sword",
        "enemy luo_xia hp=1/5 hand=sword,mana",
        "enemy bai_pa",
        "enemy fu_lai_xi_er hp=1/4 hand=mana",
    )
    do(m, "skill roar")
    while m.current_seat != 0 or m.prompt_kind != "play":
        m.apply("discard mana" if "discard mana" in texts(m) else m.legal_actions()[-1])
    assert P(m, 1).dying and P(m, 3).dying  # no 临死挣扎, no 抗拒死亡 on HP loss
    assert P(m, 3).hold == 0


def test_magic_is_no_attack_and_skill_damage() -> None:
    """CH-DAMAGE-4: magic can't be blocked, armour ignores it; CH-DAMAGE-5: 跳跃 damage is
    neither attack nor magic (only 厚皮 stops it); CH-ATTACK-8 无豁免 ignores armour."""
    m = scen(
        "lord ge_lu_qi hand=mana,mana,mana",
        "enemy tang_na hand=sword equip=knight_armor",
        "enemy bai_pa",
        "enemy di_shi",
    )
    do(m, "skill fireball h1")
    assert P(m, 1).hp == 4 and m.prompt_kind == "play"  # no block prompt, no armour roll
    do(m, "skill fire_arrow h2")
    assert P(m, 2).hp == 4
    m2 = scen(
        "lord bai_pa",
        "enemy tang_na hand=sword",
        "enemy ge_lu_qi equip=knight_armor",
        "enemy di_shi",
    )
    do(m2, "skill leap h2")
    assert P(m2, 2).hp == 2 and m2.prompt_kind == "play"


def test_no_save_vs_thick_hide_reading() -> None:
    """CH-ATTACK-8: 厚皮 still stops 无豁免 damage (no_save_beats_thick_hide = False)."""
    m = scen("lord ge_lu_qi", "enemy tang_na soldiers=horned_demon", "enemy bai_pa", "enemy di_shi")
    lines = do(m, "skill fire_arrow s1")
    assert P(m, 1).soldiers[0].hp == 3 and "厚皮" in lines[-1]


def test_fire_arrow_is_ranged_for_stealth_and_banner() -> None:
    """CH-ATTACK-9: 火箭 is ranged for 潜行 and 黑暗旌旗; it is a skill, not the 剑 attack."""
    m = scen(
        "lord ge_lu_qi hand=sword",
        "enemy luo_xia flags=banner soldiers=great_lynx,militia",
        "enemy bai_pa",
        "enemy di_shi",
    )
    arrows = {a.args[1] for a in m.legal_actions() if a.args and a.args[0] == "fire_arrow"}
    assert "h1" not in arrows and "s1" not in arrows and "s2" in arrows
    do(m, "skill fire_arrow s2")
    assert any(a.kind == "attack" for a in m.legal_actions())


def test_adjacency_contiguous_sets() -> None:
    """CH-SEAT-3 neighbours; CH-SEAT-4 groups in deployment order; CH-SEAT-7: a group or
    neighbouring heroes are adjacent, soldiers of different groups never."""
    from throne_lib.games.castle.skills import adjacent

    m = scen(
        "lord li_wei",
        "enemy tang_na soldiers=militia,goblin",
        "enemy bai_pa soldiers=imp",
        "enemy di_shi",
    )
    s = m.state
    assert [x.card for x in P(m, 1).soldiers] == ["militia", "goblin"]
    assert adjacent(s, "s1", "h1") and adjacent(s, "s1", "s2") and adjacent(s, "h1", "h2")
    assert not adjacent(s, "s1", "s3") and not adjacent(s, "s1", "h2")
    assert s.neighbours(0) == [1, 3]


def test_heal_self_and_no_soldier_heal() -> None:
    """CH-CARD-3: one 愈 restores 1, never above max, never a soldier; CH-CARD-5: no
    per-turn limit on 愈; CH-CARD-4: 魔 has no effect of its own."""
    m = scen("lord tang_na hp=3/5 hand=heal,heal,heal,mana", *FOUR[1:], "enemy li_wei")
    assert "heal h0 heal" in texts(m)
    assert not [a for a in texts(m) if "mana" in a and a.startswith("heal")]
    do(m, "heal h0 heal", "heal h0 heal")
    assert P(m, 0).hp == 5 and "heal h0 heal" not in texts(m)


def test_illegal_action_leaves_match_unchanged() -> None:
    """Bad input: an illegal or malformed action names the rule, changes nothing."""
    m = scen("lord li_wei hand=sword", *FOUR)
    h = m.hash()
    with pytest.raises(IllegalAction, match="CH-TURN-5"):
        m.apply("attack h2 0 sword")
    with pytest.raises(ValueError):
        m.apply("42")
    assert m.hash() == h


def test_sword_attack_damage_parameter() -> None:
    """CH-ATTACK-4: sword_attack_damage is a parameter."""
    m = scen("lord li_wei hand=sword", *FOUR, rules=CastleRules(sword_attack_damage=2))
    do(m, "attack h1 0 sword")
    assert P(m, 1).hp == 3
