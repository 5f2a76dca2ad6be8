"""Stacking, deployment, activation, movement and attacks (PIN-STACK, -DEPLOY, -ACT,
-MOVE, -TYPE, -ATTACK)."""

from __future__ import annotations

import dataclasses

from conftest import PosFn, act, illegal, texts

from throne_lib.games.pin.rules import PIN_RULES


def test_stacking_limit_counts_hq_and_both_sides(pos: PosFn) -> None:
    """PIN-STACK-1 / PIN-HQ-1: two slots; the HQ fills one; units of both sides count."""
    m = pos("""
        unit u2 甲 anv_militia 009 activated act=2
        unit u3 甲 anv_rifles 004
        unit u5 乙 aur_pilgrims 008
        unit u6 甲 anv_militia 008
    """)
    moves = texts(m, "move")
    assert "move u2 003" in moves  # HQ + one unit
    assert "move u2 004" in moves
    assert "move u2 008" not in moves  # 甲 + 乙 fill 008
    act(m, "move u2 003")
    assert m.state.slots[3] == [0, 2]  # PIN-STACK-5: the HQ holds slot 1
    m2 = pos("unit u2 甲 anv_rifles 004 activated act=2\nunit u3 甲 anv_rifles 003\n")
    assert "move u2 003" not in texts(m2, "move")  # PIN-STACK-2: full cell


def test_deploy_only_own_line_without_enemy_units(pos: PosFn) -> None:
    """PIN-DEPLOY-1: own support line, cells with no enemy unit; full cells allowed."""
    m = pos(
        """
        unit u2 乙 aur_hoverknights 002
        unit u3 甲 anv_rifles 004
        unit u4 甲 anv_rifles 004
        hand 甲 anv_rifles anv_1starm
        """,
        cp="3/16",
    )
    cells = {
        a.args[1] for a in m.legal_actions() if a.kind == "deploy" and a.args[0] == "anv_rifles"
    }
    assert cells == {"001", "003", "004", "005"}
    assert not any(a.args[0] == "anv_1starm" for a in m.legal_actions() if a.kind == "deploy")
    illegal(m, "deploy anv_1starm 001", "PIN-CP-1")
    illegal(m, "deploy anv_rifles 002", "PIN-DEPLOY-1")
    illegal(m, "deploy anv_rifles 009", "PIN-DEPLOY-1")


def test_deploy_into_full_cell_retreats(pos: PosFn) -> None:
    """PIN-STACK-3 / PIN-STACK-4: the new unit retreats at once; to a cell it counts as
    deployed (部署： resolves); to hand nothing resolves and the cost is lost."""
    m = pos(
        """
        unit u3 甲 anv_rifles 004
        unit u4 甲 anv_rifles 004
        hand 甲 anv_recon
        deck 甲 anv_militia anv_tanks
        """,
        cp="10/16",
    )
    act(m, "deploy anv_recon 004")
    d = m.state.pending
    assert d is not None and d.kind == "retreat" and d.seat == 0
    opts = texts(m)
    assert "retreat u5 hand" in opts and "retreat u5 005" in opts
    act(m, "retreat u5 005")
    assert m.unit(5).cell == 5
    assert m.state.hands[0] == ["anv_tanks"]  # 部署：抽1张牌 resolved
    assert m.state.cp[0] == 7
    m = pos(
        """
        unit u3 甲 anv_rifles 004
        unit u4 甲 anv_rifles 004
        hand 甲 anv_recon
        deck 甲 anv_militia anv_tanks
        """,
        cp="10/16",
    )
    act(m, "deploy anv_recon 004")
    act(m, "retreat u5 hand")
    assert m.state.hands[0] == ["anv_recon"] and m.state.cp[0] == 7  # no draw, no refund


def test_deploy_sequence_window_before_deploy_effect(pos: PosFn) -> None:
    """PIN-DEPLOY-2 / PIN-KW-3: pay → place → check → 【敌方部署】 → 部署：; the trap's chaos
    switches the 部署： effect off."""
    m = pos(
        """
        hand 甲 anv_recon
        hand 乙 aur_chaostrap
        deck 甲 anv_militia
        """,
        cp="10/16",
    )
    act(m, "deploy anv_recon 001")
    assert m.state.pending is not None and m.state.pending.kind == "window"
    assert m.current_seat == 1
    act(m, "counter aur_chaostrap -")
    assert m.unit(2).in_chaos and m.state.hands[0] == []  # no draw


def test_new_unit_fresh_and_may_activate_at_once(pos: PosFn) -> None:
    """PIN-DEPLOY-3: full HP, charges and pools, unactivated; activation allowed the same
    turn (a parameter turns it off)."""
    m = pos("hand 甲 anv_1starm\n")
    act(m, "deploy anv_1starm 002")
    u = m.unit(2)
    assert (u.hp, u.ads, u.activated) == (70, 1, False)
    assert "activate u2" in texts(m)
    rules = dataclasses.replace(PIN_RULES, activate_on_deploy_turn=False)
    m = pos("hand 甲 anv_1starm\n", rules=rules)
    act(m, "deploy anv_1starm 002")
    assert "activate u2" not in texts(m)


def test_activation_pays_once_and_gives_action_count(pos: PosFn) -> None:
    """PIN-ACT-1 / PIN-ACT-2 / PIN-ACT-4: pay the action cost once, get the action count;
    once per turn; attacks need no second payment."""
    m = pos(
        """
        unit u2 甲 anv_tanks 008
        unit u3 乙 aur_templars 013
        unit u4 乙 aur_templars 014
        """,
        cp="5/16",
    )
    act(m, "activate u2")
    assert m.state.cp[0] == 3 and m.unit(2).actions == 2
    illegal(m, "activate u2", "PIN-ACT-2")
    act(m, "attack u2 u3 动能")
    act(m, "attack u2 u4 动能")
    assert m.state.cp[0] == 3
    rules = dataclasses.replace(PIN_RULES, cost_per_attack=True)
    m = pos("unit u2 甲 anv_tanks 008\nunit u3 乙 aur_templars 013\n", cp="5/16", rules=rules)
    act(m, "activate u2")
    act(m, "attack u2 u3 动能")
    assert m.state.cp[0] == 1


def test_each_move_attack_special_spends_one_action(pos: PosFn) -> None:
    """PIN-ACT-3: without an action left nothing more; unused actions are lost (PIN-TURN-5)."""
    m = pos("unit u2 甲 anv_howitzer 002\n")
    act(m, "activate u2")
    act(m, "move u2 007")
    assert m.unit(2).actions == 0
    assert not texts(m, "move") and not texts(m, "attack")
    illegal(m, "move u2 012", "PIN-MOVE-1")


def test_interleaved_activations(pos: PosFn) -> None:
    """PIN-ACT-5: activating another unit ends no activation (variant: it does)."""
    lines = "unit u2 甲 anv_rifles 002\nunit u3 甲 anv_rifles 004\n"
    m = pos(lines)
    act(m, "activate u2")
    act(m, "move u2 007")
    act(m, "activate u3")
    assert "move u2 012" in texts(m)
    m = pos(lines, rules=dataclasses.replace(PIN_RULES, interleaved_activations=False))
    act(m, "activate u2")
    act(m, "activate u3")
    assert m.unit(2).actions == 0


def test_move_one_step_into_free_cell(pos: PosFn) -> None:
    """PIN-MOVE-1: a ground unit steps to an adjacent cell with a free slot."""
    m = pos("unit u2 甲 anv_1starm 002 activated act=2\n")
    assert {a.args[1] for a in m.legal_actions() if a.kind == "move"} == {
        "001",
        "003",
        "007",
        "008",
    }


def test_size_tags_and_enemy_cells(pos: PosFn) -> None:
    """PIN-MOVE-2 / PIN-MOVE-4: ≤ 营 may enter a cell holding an enemy unit; 团+ may not."""
    base = "unit u9 乙 aur_templars 008\n"
    for card, size, may in (
        ("anv_militia", "连", True),
        ("anv_sappers", "营", True),
        ("anv_howitzer", "团", False),
        ("anv_rifles", "旅", False),
        ("anv_1starm", "师", False),
    ):
        m = pos(base + f"unit u2 甲 {card} 002 activated act=1\n")
        assert m.card(m.unit(2)).size == size
        assert ("move u2 008" in texts(m)) is may, card


def test_stop_by_size_tag(pos: PosFn) -> None:
    """PIN-MOVE-3 / PIN-MOVE-4: a move ending next to an enemy stops 师; ≤ 旅 go on."""
    base = "unit u9 乙 aur_templars 013\n"
    m = pos(base + "unit u2 甲 anv_1starm 002 activated act=2\n")
    act(m, "move u2 008")
    assert m.unit(2).stopped and not texts(m, "move")
    assert "attack u2 u9 动能" in texts(m)  # it may still attack
    m = pos(base + "unit u2 甲 anv_rifles 002 activated act=2\n")
    act(m, "move u2 008")
    assert not m.unit(2).stopped and texts(m, "move")


def test_stop_only_by_own_move(pos: PosFn) -> None:
    """PIN-MOVE-3 Reading: adjacency at activation stops nothing: a 师 may step away."""
    m = pos("unit u9 乙 aur_templars 013\nunit u2 甲 anv_1starm 008 activated act=2\n")
    assert "move u2 003" in texts(m)


def test_hover_moves_as_battalion(pos: PosFn) -> None:
    """PIN-MOVE-5: a 悬停 旅 enters enemy cells and ignores the stop."""
    m = pos("unit u9 乙 aur_templars 008\nunit u2 甲 anv_hovertank 002 activated act=2\n")
    assert "move u2 008" in texts(m)
    act(m, "move u2 008")
    assert not m.unit(2).stopped


def test_air_units_fly_anywhere(pos: PosFn) -> None:
    """PIN-MOVE-6: one move reaches any cell with a free slot, not enemy cells above 营;
    air ignores the stop."""
    m = pos("""
        unit u9 乙 aur_templars 016
        unit u8 乙 aur_templars 021
        unit u2 甲 anv_bomber 001 activated act=1
    """)
    dests = {a.args[1] for a in m.legal_actions() if a.kind == "move"}
    assert "022" in dests and "016" not in dests and "021" not in dests and "001" not in dests
    m = pos("unit u9 乙 aur_templars 016\nunit u2 甲 anv_interceptor 001 activated act=2\n")
    act(m, "move u2 022")
    assert not m.unit(2).stopped


def test_enemy_line_and_hq_cell_enterable(pos: PosFn) -> None:
    """PIN-MOVE-7: an HQ neither blocks nor stops; its cell has one free slot."""
    m = pos("unit u2 甲 anv_1starm 014 activated act=2\n")
    act(m, "move u2 020")
    assert m.unit(2).cell == 20 and not m.unit(2).stopped


def test_types_default_range_and_actions(pdb) -> None:  # type: ignore[no-untyped-def]
    """PIN-TYPE-1 / PIN-TYPE-2 / PIN-TYPE-3: classes, ranges, actions; 悬停/装甲 takes the highest."""
    assert dict(PIN_RULES.type_actions) == {
        "步兵": 2,
        "装甲": 2,
        "炮兵": 1,
        "悬停": 2,
        "战机": 2,
        "轰炸机": 1,
    }
    assert pdb["anv_hovertank"].range == 2 and pdb["anv_hovertank"].actions == 2
    assert pdb["anv_bomber"].range == 99 and pdb["anv_bomber"].is_air
    assert not pdb["anv_hovertank"].is_air  # hover is ground


def test_artillery_range_and_standoff(pos: PosFn) -> None:
    """PIN-TYPE-4: distance ≥ 2 draws no counter; at distance 1 it does."""
    m = pos("unit u2 甲 anv_howitzer 008 activated act=1\nunit u3 乙 aur_templars 013\n")
    act(m, "attack u2 u3 爆炸")
    assert m.unit(2).hp == 25 - 19  # counter 15 +25% (步兵→炮兵)


def test_versus_matrix_best_pair(pos: PosFn, pdb) -> None:  # type: ignore[no-untyped-def]
    """PIN-TYPE-5 / PIN-TYPE-6: 相克 from the table; several types take the highest pair."""
    from throne_lib.games.pin.damage import versus_percent

    assert versus_percent(PIN_RULES, ("步兵",), ("装甲",)) == -25
    assert versus_percent(PIN_RULES, ("悬停", "装甲"), ("步兵",)) == 25
    assert versus_percent(PIN_RULES, ("步兵",), ("步兵", "炮兵")) == 25
    assert versus_percent(PIN_RULES, ("战机",), ()) == 0  # an HQ has no type


def test_attack_in_range_enemy_only(pos: PosFn) -> None:
    """PIN-ATTACK-1: distance ≤ range (own cell included); friends never."""
    m = pos("""
        unit u2 甲 anv_militia 008 activated act=2
        unit u3 乙 aur_templars 008
        unit u4 乙 aur_templars 013
        unit u5 乙 aur_templars 019
        unit u6 甲 anv_rifles 009
    """)
    targets = {a.args[1] for a in m.legal_actions() if a.kind == "attack"}
    assert targets == {"u3", "u4"}


def test_guard_protects_hq_and_units(pos: PosFn) -> None:
    """PIN-ATTACK-2 / PIN-KW-2: a 守护 unit shields its HQ and non-守护 units in its cell;
    artillery and bombers ignore it; a guard in chaos guards nothing."""
    lines = """
        unit u3 乙 aur_pilgrims 020
        unit u4 乙 aur_templars 014
        unit u5 乙 aur_runeguard 014
        unit u2 甲 anv_rifles 015 activated act=2
    """
    m = pos(lines)
    targets = {a.args[1] for a in m.legal_actions() if a.kind == "attack"}
    assert targets == {"u3", "u5"}  # HQ and templars guarded; guards targetable
    m = pos(lines.replace("anv_rifles", "anv_howitzer"))
    assert {"hq1", "u4"} <= {a.args[1] for a in m.legal_actions() if a.kind == "attack"}
    m = pos(lines.replace("aur_pilgrims 020", "aur_pilgrims 020 chaos=9"))
    assert "hq1" in {a.args[1] for a in m.legal_actions() if a.kind == "attack"}


def test_zero_attack_cannot_attack(pos: PosFn) -> None:
    """PIN-ATTACK-3: a unit whose attack is 0 (chaos) cannot attack."""
    m = pos("unit u2 甲 anv_rifles 008 activated act=2 chaos=5\nunit u3 乙 aur_templars 013\n")
    assert not texts(m, "attack")


def test_counter_is_simultaneous_both_may_die(pos: PosFn) -> None:
    """PIN-ATTACK-4: both computed first, both land, then deaths: both die."""
    m = pos("""
        unit u2 甲 anv_rifles 008 activated act=2 hp=5
        unit u3 乙 aur_templars 013 hp=5
    """)
    act(m, "attack u2 u3 普通")
    assert m.unit(2) is None and m.unit(3) is None


def test_no_counter_cases(pos: PosFn) -> None:
    """PIN-ATTACK-5: no counter from an HQ, from attack 0 (chaos), from standoff."""
    m = pos("""
        unit u2 甲 anv_rifles 008 activated act=2
        unit u3 乙 aur_templars 013 chaos=9
    """)
    act(m, "attack u2 u3 普通")
    assert m.unit(2).hp == 30


def test_counter_type_picked_for_most_hp_loss(pos: PosFn) -> None:
    """PIN-ATTACK-6: the counter uses the target's type that costs the attacker most HP."""
    m = pos("""
        unit u3 乙 aur_dragons 013
        unit u2 甲 anv_1starm 008 activated act=2
    """)
    events = act(m, "attack u2 u3 动能")
    counter = next(e for e in events if e.kind == "attack").data["counter"]
    assert counter["dtype"] == "电浆"  # 爆炸 would meet ADS 1


def test_ground_vs_air_forced_missile(pos: PosFn) -> None:
    """PIN-ATTACK-7 / PIN-KW-10: ground without 防空 hits air with 导弹 −50%; 防空 keeps its
    own type at full strength."""
    m = pos("unit u3 乙 aur_lions 008\nunit u2 甲 anv_rifles 008 activated act=2\n")
    assert texts(m, "attack") == {"attack u2 u3 导弹"}
    act(m, "attack u2 u3 导弹")
    assert m.unit(3).hp == 25 - 8
    m = pos(
        "unit u3 甲 anv_interceptor 018\nunit u2 乙 aur_stormhover 018 activated act=2\n",
        active="乙",
    )
    assert texts(m, "attack") == {"attack u2 u3 电浆"}
    act(m, "attack u2 u3 电浆")
    assert m.unit(3).hp == 5


def test_air_superiority_blocks_enemy_air(pos: PosFn) -> None:
    """PIN-KW-11: enemy air cannot attack other units or the HQ within 1 of a 制空 unit."""
    m = pos("""
        unit u3 乙 aur_lions 014
        unit u4 乙 aur_templars 015
        unit u5 乙 aur_templars 022
        unit u2 甲 anv_bomber 003 activated act=1
    """)
    targets = {a.args[1] for a in m.legal_actions() if a.kind == "attack"}
    assert targets == {"u3", "u5"}
    m = pos("""
        unit u3 乙 aur_lions 014
        unit u4 乙 aur_templars 015
        unit u2 甲 anv_howitzer 009 activated act=1
    """)
    assert "u4" in {a.args[1] for a in m.legal_actions() if a.kind == "attack"}


def test_attack_order_window_then_damage(pos: PosFn) -> None:
    """PIN-ATTACK-9 / PIN-COUNTER-6: declare (action spent) → window → the cancelled attack
    deals nothing, draws no counter."""
    m = pos(
        """
        unit u2 甲 anv_tanks 008 activated act=2
        unit u3 乙 aur_templars 013
        hand 乙 aur_mirror
        """,
    )
    act(m, "attack u2 u3 动能")
    assert m.unit(2).actions == 1 and m.current_seat == 1
    assert texts(m) == {"counter aur_mirror -", "pass"}
    act(m, "counter aur_mirror -")
    assert m.unit(3).hp == 30 and m.unit(2).hp == 45 and m.current_seat == 0
    assert m.state.graves[1] == ["aur_mirror"] and m.state.cp[1] == 17
