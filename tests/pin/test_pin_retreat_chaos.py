"""Retreat and chaos (PIN-RETREAT-1…8, PIN-CHAOS-1…5)."""

from __future__ import annotations

from conftest import PosFn, act, texts

from throne_lib.games.pin.engine import retreat_options


def test_retreat_causes_and_owner_decides(pos: PosFn) -> None:
    """PIN-RETREAT-1 / PIN-RETREAT-2 / PIN-KW-6: 乙's 相位放逐 makes 甲's unit retreat; 甲
    chooses; an HQ is never a retreat target."""
    m = pos("unit u2 甲 anv_rifles 008\nhand 乙 aur_banish\n", active="乙")
    assert texts(m, "play") == {"play aur_banish u2"}
    act(m, "play aur_banish u2")
    assert m.state.pending.kind == "retreat" and m.current_seat == 0


def test_return_to_hand_only_from_own_line_and_fresh(pos: PosFn) -> None:
    """PIN-RETREAT-2: from its own support line the owner may return it to hand, fresh."""
    m = pos("unit u2 甲 anv_rifles 002 hp=3 atk=5 chaos=9\nhand 乙 aur_banish\n", active="乙")
    act(m, "play aur_banish u2")
    assert "retreat u2 hand" in texts(m)
    act(m, "retreat u2 hand")
    assert m.state.hands[0] == ["anv_rifles"] and m.unit(2) is None
    assert "anv_rifles" in m.state.known[0]
    m = pos("unit u2 甲 anv_rifles 008\nhand 乙 aur_banish\n", active="乙")
    act(m, "play aur_banish u2")
    assert not any(a.args[1] == "hand" for a in m.legal_actions())


def test_path_crosses_full_friendly_cells_never_enemy_cells(pos: PosFn) -> None:
    """PIN-RETREAT-3: full friendly cells are crossed, not ended in; enemy cells are
    never entered, not even by a 营."""
    m = pos("""
        unit u2 甲 anv_rifles 006
        unit u9 乙 aur_templars 007
        unit u3 甲 anv_militia 018
        unit u4 甲 anv_militia 018
    """)
    cells, hand = retreat_options(m, m.unit(2))
    assert 18 not in cells and 19 in cells and 3 in cells and not hand
    assert all(not m.enemy_in(0, c) for c in cells)
    m = pos("""
        unit u2 甲 anv_sappers 006
        unit u9 乙 aur_templars 007
        unit u8 乙 aur_templars 001
        unit u7 乙 aur_templars 012
    """)
    assert retreat_options(m, m.unit(2)) == ([], False)


def test_first_safe_cell_and_at_least_one_step(pos: PosFn) -> None:
    """PIN-RETREAT-4: the path ends at its first safe cell; a safe start still moves."""
    m = pos("unit u2 甲 anv_rifles 009\n")
    cells, _ = retreat_options(m, m.unit(2))
    assert cells == [3, 4, 8, 10, 14, 15] and 9 not in cells
    m = pos("unit u2 甲 anv_rifles 006\nunit u9 乙 aur_templars 007\n")
    cells, _ = retreat_options(m, m.unit(2))
    assert 2 not in cells  # 002 is next to the enemy: crossed, not an end
    assert 3 in cells  # beyond it


def test_failed_retreat_destroys(pos: PosFn) -> None:
    """PIN-RETREAT-5 / PIN-RETREAT-8: no path → destroyed, no 撤退： effect; a full
    enemy-free cell is no end."""
    m = pos(
        """
        unit u2 甲 aur_rangers 006
        unit u9 乙 aur_templars 007
        unit u8 乙 aur_templars 001
        unit u7 甲 anv_militia 012
        unit u6 甲 anv_militia 012
        unit u5 乙 aur_templars 013
        unit u4 乙 aur_templars 018
        hand 乙 aur_banish
        deck 甲 anv_rifles
        """,
        active="乙",
    )
    act(m, "play aur_banish u2")
    assert m.unit(2) is None and "aur_rangers" in m.state.graves[0]
    assert m.state.hands[0] == []


def test_retreat_is_no_move_and_keeps_state(pos: PosFn) -> None:
    """PIN-RETREAT-6 / PIN-RETREAT-7: no action spent, stop ignored, state kept; then the
    rest of the card resolves (然后, PIN-EFFECT-7)."""
    m = pos("""
        unit u2 甲 anv_1starm 008 hp=30 activated act=1 stopped chaos=5
        hand 甲 anv_evac
        deck 甲 anv_rifles
    """)
    act(m, "play anv_evac u2")
    assert m.state.hands[0] == []  # the draw waits for the retreat
    act(m, "retreat u2 014")
    u = m.unit(2)
    assert (u.cell, u.hp, u.actions, u.activated, u.stopped, u.chaos_until) == (
        14,
        30,
        1,
        True,
        True,
        5,
    )
    assert m.state.hands[0] == ["anv_rifles"]


def test_retreat_effect_after_success(pos: PosFn) -> None:
    """PIN-RETREAT-8 / PIN-KW-7: 撤退：抽1张牌 after a retreat to a cell."""
    m = pos("unit u2 甲 aur_rangers 009\nhand 乙 aur_banish\ndeck 甲 anv_rifles\n", active="乙")
    act(m, "play aur_banish u2")
    act(m, "retreat u2 004")
    assert m.state.hands[0] == ["anv_rifles"]


def test_chaos_zero_attack_and_silent_keywords(pos: PosFn) -> None:
    """PIN-CHAOS-1: attack 0 whatever the buffs; keywords (守护 …) off."""
    m = pos(
        "unit u2 乙 aur_pilgrims 020 atk=10 chaos=9\nunit u3 甲 anv_rifles 015 activated act=2\n"
    )
    assert m.attack(m.unit(2)) == 0 and not m.has(m.unit(2), "guard")
    assert "attack u3 hq1 普通" in texts(m)


def test_chaos_duration(pos: PosFn) -> None:
    """PIN-CHAOS-2: chaos ends in the end phase of the owner's next turn."""
    m = pos("unit u2 甲 anv_rifles 008\nhand 乙 aur_chaos\n", active="乙", turn=4)
    act(m, "play aur_chaos u2")
    assert m.unit(2).chaos_until == 5
    act(m, "end")
    assert m.unit(2).in_chaos
    act(m, "skip") if m.state.pending else None
    act(m, "end")
    assert not m.unit(2).in_chaos
    m = pos("hand 甲 anv_rifles\nhand 乙 aur_chaostrap\n", turn=3)
    act(m, "deploy anv_rifles 001")
    act(m, "counter aur_chaostrap -")
    assert m.unit(2).chaos_until == 5  # 甲's own turn 3: until the end of turn 5


def test_chaos_restarts_never_hq_keeps_activation(pos: PosFn) -> None:
    """PIN-CHAOS-3: chaos on chaos restarts; an activation stays, penalties apply."""
    m = pos(
        "unit u2 甲 anv_hoverscout 008 chaos=3 activated act=2\nhand 乙 aur_chaos\n",
        active="乙",
        turn=4,
    )
    act(m, "play aur_chaos u2")
    assert m.unit(2).chaos_until == 5 and m.unit(2).activated
    m = pos("unit u2 甲 anv_rifles 003\nhand 乙 anv_emp\n", active="乙")
    act(m, "play anv_emp 003")
    assert m.unit(2).in_chaos and not m.state.units[0].in_chaos


def test_chaos_penalties_by_type(pos: PosFn) -> None:
    """PIN-CHAOS-4: 步兵 10 直接 per action; 装甲 cannot act; 悬停 1 action; air moves on
    foot (artillery +25%: see the damage tests)."""
    m = pos("unit u2 甲 anv_rifles 002 chaos=5\n")
    act(m, "activate u2")
    act(m, "move u2 007")
    assert m.unit(2).hp == 20
    m = pos("unit u2 甲 anv_tanks 002 chaos=5\nunit u3 甲 anv_tanks 004 chaos=5 activated act=2\n")
    assert "activate u2" not in texts(m) and not texts(m, "move")
    m = pos("unit u2 甲 anv_hoverscout 002 chaos=5\n")
    act(m, "activate u2")
    act(m, "move u2 007")
    assert not texts(m, "move")
    m = pos("unit u2 甲 anv_interceptor 002 chaos=5 activated act=2\n")
    assert {a.args[1] for a in m.legal_actions() if a.kind == "move"} == {
        "001",
        "003",
        "007",
        "008",
    }


def test_defence_values_work_in_chaos(pos: PosFn) -> None:
    """PIN-CHAOS-5: ADS still stops a missile on a unit in chaos."""
    m = pos("unit u2 乙 anv_bomber 014 chaos=9\nunit u3 甲 anv_atgm 014 activated act=2\n")
    act(m, "attack u3 u2 导弹")
    assert m.unit(2).hp == 35 and m.unit(2).ads == 0


def test_simultaneous_retreats_one_by_one(pos: PosFn, pdb) -> None:  # type: ignore[no-untyped-def]
    """PIN-RETREAT-8: units told to retreat together go by cell, then slot: the first
    unit's owner decides first, the second retreats from what is left."""
    from throne_lib.games.pin.cards import parse_pin_cards

    extra = "tst_push,推挤,辉穹圣约,指令,普通,,,1,,,,,,,,play: retreat(enemy_cell)\n"
    db = parse_pin_cards(pdb.source + extra)
    m = pos(
        """
        unit u2 甲 anv_rifles 014
        unit u3 甲 anv_militia 014
        hand 乙 tst_push
        """,
        active="乙",
        db=db,
    )
    act(m, "play tst_push 014")
    assert m.state.pending.kind == "retreat" and m.state.pending.data["uid"] == 2
    act(m, "retreat u2 008")
    assert m.state.pending.data["uid"] == 3 and m.unit(2).cell == 8
