"""Equipment (CH-EQUIP): slots, armour, weapons, treasures, mounts."""

from __future__ import annotations

from tests.castle.helpers import P, do, scen, texts
from throne_lib.games.castle import CastleMatch


def test_equip_slots_replace_old_card() -> None:
    """CH-EQUIP-1: own 出牌阶段, any number, four slots; a filled slot discards the old
    card; CH-EQUIP-4: equipment leaves play to the discard pile; CH-EQUIP-19 one mount."""
    m = scen(
        "lord tang_na hand=abyss_sword,ruin_waraxe,hell_nightmare,griffin_king,knight_armor",
        "enemy bai_pa",
        "enemy di_shi",
    )
    do(
        m,
        "equip abyss_sword",
        "equip hell_nightmare",
        "equip knight_armor",
        "equip ruin_waraxe",
        "equip griffin_king",
    )
    assert P(m, 0).equip == {
        "weapon": "ruin_waraxe",
        "mount": "griffin_king",
        "armour": "knight_armor",
    }
    assert m.state.discard == ["abyss_sword", "hell_nightmare"]


def test_default_weapon_range() -> None:
    """CH-EQUIP-3: a weapon without a range has 1; 银合金大剑 2; 银杉木长弓 unlimited."""
    seats = ("enemy bai_pa", "enemy di_shi", "enemy li_wei", "enemy ge_lu_qi")
    for weapon, reach in (
        ("poisoned_dagger", {"h1", "h4"}),
        ("silver_alloy_greatsword", {"h1", "h2", "h3", "h4"}),
        ("silverfir_longbow", {"h1", "h2", "h3", "h4"}),
    ):
        m = scen(f"lord tang_na hand=sword equip={weapon}", *seats)
        assert {a.args[0] for a in m.legal_actions() if a.kind == "attack"} == reach, weapon


def test_knight_armor_fifty_percent_melee() -> None:
    """CH-EQUIP-5: each melee attack negated with 50% (match RNG), before the block; not
    against ranged; CH-RNG-2 a draw below 0.5 succeeds, logged publicly."""
    seen = set()
    for seed in range(10):
        text = (
            f"castle players=3 seed={seed} round=1 turn=0 at=play\n"
            "seat 0 lord tang_na hand=sword\nseat 1 enemy bai_pa equip=knight_armor\n"
            "seat 2 enemy di_shi\ndeck=sword\ndiscard="
        )
        m = CastleMatch.from_scenario(text)
        lines = do(m, "attack h1 0 sword")
        roll = float(lines[1].split("判定")[1][:4])
        assert ("抵消" in lines[1] and "未" not in lines[1]) == (roll < 0.5)
        assert P(m, 1).hp == (5 if roll < 0.5 else 4)
        seen.add(roll < 0.5)
    assert seen == {True, False}
    m2 = scen(
        "lord tang_na hand=sword equip=silverfir_longbow",
        "enemy bai_pa equip=knight_armor",
        "enemy di_shi",
    )
    lines = do(m2, "attack h1 0 sword")
    assert not any("骑士铠甲" in x for x in lines) and P(m2, 1).hp == 4


def test_steel_greatshield_first_ranged_each_turn() -> None:
    """CH-EQUIP-6: the first ranged attack each turn is negated; aim doesn't use it up."""
    m = scen(
        "lord tang_na hand=sword,sword soldiers=archer,thrall_rider equip=silverfir_longbow",
        "enemy bai_pa equip=steel_greatshield",
        "enemy di_shi",
    )
    lines = do(m, "attack h1 0 sword")
    assert "钢铁大盾" in " ".join(lines) and P(m, 1).hp == 5
    do(m, "end_play", "command h1", "order s1 h1")
    assert P(m, 1).hp == 4
    m2 = scen(
        "lord ge_lei_si hand=sword,mana,mana,mana equip=silverfir_longbow",
        "enemy bai_pa equip=steel_greatshield",
        "enemy di_shi",
    )
    do(m2, "skill aim", "attack h1 0 sword")
    assert P(m2, 1).hp == 4 and P(m2, 1).shield_turn == -1


def test_lightning_wand() -> None:
    """CH-EQUIP-7: once per turn, 3 魔: 3 magic damage to any unit outside the group."""
    m = scen(
        "lord tang_na hand=mana,mana,mana,mana,mana,mana equip=lightning_wand",
        "enemy bai_pa",
        "enemy di_shi",
        "enemy li_wei",
    )
    assert "skill lightning h2" in texts(m)
    do(m, "skill lightning h2")
    assert P(m, 2).hp == 0 and P(m, 2).dying
    while m.current_seat != 0:
        m.apply("decline")
    assert not any(a.startswith("skill lightning") for a in texts(m))


def test_silver_alloy_greatsword_follow_up() -> None:
    """CH-EQUIP-8: a kill with it lets the wearer pay 1 剑 to attack another unit of that
    group at once; follow-ups don't use up the 剑 attack and may chain."""
    m = scen(
        "lord tang_na hand=sword,sword,sword equip=silver_alloy_greatsword",
        "enemy bai_pa soldiers=militia,goblin",
        "enemy di_shi",
    )
    do(m, "attack s1 0 sword")
    assert m.prompt_kind == "greatsword"
    assert set(texts(m)) == {"follow s2 0", "follow h1 0", "decline"}
    do(m, "follow s2 0")
    assert m.prompt_kind == "greatsword"
    do(m, "follow h1 0")
    assert P(m, 1).hp == 4 and not P(m, 1).soldiers and P(m, 0).hand == []


def test_abyss_sword_discard_or_extra() -> None:
    """CH-EQUIP-9: damage with it makes the hero discard a card of its choice or take 1
    more; a soldier takes the extra 1 (abyss_vs_soldier)."""
    m = scen(
        "lord tang_na hand=sword,sword equip=abyss_sword",
        "enemy bai_pa hand=heal,mana soldiers=horned_demon:3",
        "enemy di_shi",
    )
    do(m, "attack h1 0 sword")
    assert m.prompt_kind == "abyss" and set(texts(m)) == {"discard heal", "discard mana", "take"}
    do(m, "discard mana")
    assert P(m, 1).hp == 4 and P(m, 1).hand == ["heal"]
    m2 = scen(
        "lord tang_na hand=sword equip=abyss_sword",
        "enemy bai_pa soldiers=spearman",
        "enemy di_shi",
    )
    do(m2, "attack s1 0 sword")
    assert not P(m2, 1).soldiers  # 1 + 1 extra kills the 2-HP 长枪兵


def test_missile_ring_random_points_and_upkeep() -> None:
    """CH-EQUIP-10: 5 points one by one, each to a random living unit of the chosen
    group; then pay 3 魔 or the ring is discarded."""
    m = scen(
        "lord tang_na hand=mana,mana,mana equip=missile_ring",
        "enemy bai_pa soldiers=militia,goblin",
        "enemy di_shi",
    )
    lines = do(m, "skill missiles h1")
    hits = [x for x in lines if "伤害" in x]
    assert len(hits) == 5
    assert m.prompt_kind == "ring_upkeep"
    do(m, "yes")
    assert P(m, 0).equip.get("treasure") == "missile_ring" and P(m, 0).hand == []
    m2 = scen("lord tang_na equip=missile_ring", "enemy bai_pa", "enemy di_shi")
    do(m2, "skill missiles h1")
    assert P(m2, 1).hp == 0 and "treasure" not in P(m2, 0).equip
    assert "missile_ring" in m2.state.discard


def test_bearhead_waraxe_force_hit() -> None:
    """CH-EQUIP-11: a negated attack with it may hit after all by discarding any 2 cards."""
    m = scen(
        "lord tang_na hand=sword,heal,mana equip=bearhead_waraxe",
        "enemy bai_pa hand=sword",
        "enemy di_shi",
    )
    do(m, "attack h1 0 sword", "block")
    assert m.prompt_kind == "axe"
    do(m, "yes")
    assert m.prompt_kind == "discard"
    do(m, "discard heal", "discard mana")
    assert P(m, 1).hp == 3  # 斧技: 2


def test_ruin_waraxe_re_attack() -> None:
    """CH-EQUIP-12: after each negation the wearer may pay 1 剑 to attack again."""
    m = scen(
        "lord bai_pa hand=sword,sword,sword equip=ruin_waraxe",
        "enemy di_shi hand=sword",
        "enemy li_wei",
    )
    do(m, "attack h1 0 sword", "block", "yes")
    assert m.current_seat == 0 and P(m, 1).hp == 2 and P(m, 0).hand == ["sword"]


def test_silverfir_longbow_any_two_cards() -> None:
    """CH-EQUIP-13: range unlimited, attacks ranged, 剑 attack payable with any 2 cards."""
    m = scen(
        "lord tang_na hand=heal,mana equip=silverfir_longbow",
        "enemy bai_pa",
        "enemy di_shi",
        "enemy li_wei",
        "enemy ge_lu_qi",
    )
    assert "attack h2 0 two" in texts(m)
    do(m, "attack h2 0 two")
    assert m.prompt_kind == "discard"
    do(m, "discard heal", "discard mana")
    assert P(m, 2).hp == 2 and P(m, 0).hand == []


def test_poisoned_dagger() -> None:
    """CH-EQUIP-14 / CH-STATUS-4: a hit adds a poison token; at the start of the unit's
    next turn it takes 1 per token (tokens stack), source the wielder."""
    m = scen("lord tang_na hand=sword equip=poisoned_dagger", "enemy bai_pa", "enemy di_shi")
    do(m, "attack h1 0 sword")
    assert P(m, 1).poison == 1 and P(m, 1).hp == 4
    do(m, "end_play")
    assert P(m, 1).hp == 3 and P(m, 1).poison == 0 and P(m, 1).last_source == 0


def test_attack_mounts_and_defence_mounts() -> None:
    """CH-EQUIP-15 地狱梦魇, CH-EQUIP-16 重装战马 (−1); CH-EQUIP-17 银色飞马, CH-EQUIP-18
    狮鹫之王 (+1): attack distance only, not seat distance."""
    m = scen(
        "lord tang_na hand=sword equip=armored_warhorse",
        "enemy bai_pa equip=griffin_king",
        "enemy di_shi",
        "enemy li_wei",
        "enemy ge_lu_qi",
    )
    assert m.state.seat_distance(0, 2) == 2
    from throne_lib.games.castle.combat import attack_distance

    assert attack_distance(m.state, 0, 2) == 1 and attack_distance(m.state, 0, 1) == 1
    assert attack_distance(m.state, 2, 1) == 2
