"""Keywords, commands, counter cards and effect words (PIN-KW, -CMD, -COUNTER, -EFFECT)."""

from __future__ import annotations

import pytest
from conftest import PosFn, act, texts

from throne_lib.games.pin.cards import parse_pin_cards

EXTRA = """\
tst_buff,试验强化,铁砧联邦,指令,普通,,,1,,,,,,,,"play: attack_up(5, ally_unit), hp_up(10, ally_unit)"
tst_weaken,试验削弱,铁砧联邦,指令,普通,,,1,,,,,,,,"play: attack_down(30, enemy_unit)"
tst_refill,试验充能,铁砧联邦,指令,普通,,,1,,,,,,,,play: refill_shield(ally_unit)
tst_missile,导弹步兵,铁砧联邦,单位,普通,步兵,营,1,1,10,20,1,2,普通,missile,
"""


@pytest.fixture
def xdb(pdb):  # type: ignore[no-untyped-def]
    return parse_pin_cards(pdb.source + EXTRA)


def test_keyword_list_and_defence_keywords(pdb) -> None:  # type: ignore[no-untyped-def]
    """PIN-KW-1 / PIN-KW-8: the keyword list; bare ADS = ADS 1; effects last (永久)."""
    from throne_lib.games.pin.words import KEYWORDS, parse_keywords

    assert {
        "guard",
        "aa",
        "air_superiority",
        "missile",
        "ads",
        "shield",
        "mshield",
        "ward",
        "reactive",
        "armor",
    } == set(KEYWORDS)
    assert parse_keywords("ads, armor(5)") == (("ads", 1), ("armor", 5))
    assert pdb["anv_1starm"].zh().startswith("ADS 1；反应装甲；装甲 15")


def test_missile_keyword_adds_damage_type(xdb, pos: PosFn) -> None:  # type: ignore[no-untyped-def]
    """PIN-KW-9: 导弹 as a keyword = 导弹 among the damage types."""
    assert xdb["tst_missile"].damage == ("普通", "导弹")


def test_guard_radius_parameter(pos: PosFn) -> None:
    """PIN-KW-2: the HQ only from its own cell by default (guard_hq_radius=0); the
    parameter extends it."""
    import dataclasses

    from throne_lib.games.pin.rules import PIN_RULES

    lines = "unit u3 乙 aur_pilgrims 019\nunit u2 甲 anv_rifles 015 activated act=2\n"
    assert "attack u2 hq1 普通" in texts(pos(lines))
    wide = dataclasses.replace(PIN_RULES, guard_hq_radius=1)
    assert "attack u2 hq1 普通" not in texts(pos(lines, rules=wide))


def test_guard_protects_adjacent_units_hq_only_in_its_cell(pos: PosFn) -> None:
    """PIN-KW-2 (issue 33): 守护 protects the friendly units adjacent to it, its own cell
    counting as adjacent (seed 4-1) — radius 1 — and the HQ only from the HQ's own cell
    (radius 0). Rifles on 008, 朝圣民兵连 (守护) on 013, 圣约步兵旅 on 014."""
    import dataclasses

    from throne_lib.games.pin.rules import PIN_RULES

    lines = ("unit u2 甲 anv_rifles 008 activated act=2\nunit u9 乙 aur_pilgrims 013\n"
             "unit u10 乙 aur_templars 014\n")  # fmt: skip
    assert "attack u2 u10 普通" not in texts(pos(lines))
    narrow = dataclasses.replace(PIN_RULES, guard_radius=0)
    assert "attack u2 u10 普通" in texts(pos(lines, rules=narrow))


def test_turn_start_and_end_effects(pos: PosFn) -> None:
    """PIN-KW-4: 回合开始： / 回合结束： in the owner's phases; 若… checked then (PIN-EFFECT-7)."""
    m = pos("""
        unit u2 甲 anv_hoverscout 019
        unit u3 甲 anv_hoverscout 014
        deck 甲 anv_rifles anv_tanks
    """)
    act(m, "end")
    assert m.state.hands[0] == ["anv_tanks"]  # only the scout on 乙's line drew


def test_special_action_needs_target_and_spends_action(pos: PosFn) -> None:
    """PIN-KW-5 / PIN-EFFECT-4: 特殊： costs 1 action and needs a legal target (同格)."""
    m = pos("""
        unit u2 甲 anv_sappers 008 activated act=2
        unit u3 乙 aur_templars 013
    """)
    assert not texts(m, "special")
    act(m, "move u2 013")
    assert texts(m, "special") == {"special u2 u3"}
    act(m, "special u2 u3")
    assert m.unit(3).hp == 15 and m.unit(2).actions == 0 and m.unit(2).hp == 20  # no counter


def test_special_within_two_chaos(pos: PosFn) -> None:
    """PIN-EFFECT-4: 距离不超过2 picks among enemies at distance ≤ 2."""
    m = pos(
        """
        unit u2 乙 aur_battlemages 014 activated act=2
        unit u3 甲 anv_rifles 003
        unit u4 甲 anv_rifles 001
        """,
        active="乙",
    )
    assert texts(m, "special") == {"special u2 u3"}


def test_deploy_effect_target_chosen_as_it_resolves(pos: PosFn) -> None:
    """PIN-KW-3 / PIN-EFFECT-1: 秘银装甲旅's 部署： asks for one adjacent enemy; it retreats."""
    m = pos(
        """
        unit u3 甲 anv_rifles 019
        unit u4 甲 anv_rifles 014
        hand 乙 aur_mithril
        """,
        active="乙",
    )
    act(m, "deploy aur_mithril 020")
    assert m.state.pending.kind == "target" and texts(m) == {"target u3", "target u4"}
    act(m, "target u4")
    assert m.state.pending.kind == "retreat" and m.current_seat == 0


def test_commands_pay_target_window_resolve_grave(pos: PosFn) -> None:
    """PIN-CMD-1 / PIN-CMD-2 / PIN-CMD-3: pay, choose, window, resolve, graveyard; a command
    with no legal target cannot be played; effects ignore range and 守护."""
    m = pos("hand 甲 anv_barrage\n")
    assert not texts(m, "play")
    m = pos("""
        unit u3 乙 aur_templars 020
        unit u4 乙 aur_pilgrims 020
        hand 甲 anv_barrage
        hand 乙 aur_counterspell
    """)
    assert "play anv_barrage u3" in texts(m)  # guarded and far away: still a target
    act(m, "play anv_barrage u3")
    assert m.state.cp[0] == 18 and m.state.pending.kind == "window"
    act(m, "pass")
    assert m.unit(3).hp == 15 and m.state.graves[0] == ["anv_barrage"]


def test_counter_cancels_command(pos: PosFn) -> None:
    """PIN-COUNTER-1 / PIN-COUNTER-6: 法术反制 in the opponent's turn: nothing resolves, the
    command goes to the graveyard unrefunded."""
    m = pos("unit u3 乙 aur_templars 013\nhand 甲 anv_barrage\nhand 乙 aur_counterspell\n")
    act(m, "play anv_barrage u3")
    act(m, "counter aur_counterspell -")
    assert m.unit(3).hp == 30 and m.state.cp == [18, 17]
    assert m.state.graves == [["anv_barrage"], ["aur_counterspell"]]


def test_counter_triggers(pos: PosFn) -> None:
    """PIN-COUNTER-2: 【敌方移动】 after a move ending next to a friendly unit; 【总部受伤】;
    【友方单位被摧毁】; narrowing ·目标为友方单位 excludes HQ attacks."""
    m = pos(
        """
        unit u2 乙 aur_templars 014
        unit u3 甲 anv_rifles 003
        hand 甲 anv_ambush
        """,
        active="乙",
    )
    act(m, "activate u2")
    act(m, "move u2 009")
    assert m.state.pending.data["trigger"] == "enemy_move"
    act(m, "counter anv_ambush -")
    assert m.unit(2).hp == 15
    m = pos(
        "unit u2 乙 aur_judgement 014 activated act=1\nunit u9 乙 aur_templars 018\nhand 甲 anv_volley anv_smoke\n",
        active="乙",
    )
    act(m, "attack u2 hq0 爆炸")  # smoke cannot answer an attack on the HQ
    assert m.state.units[0].ads == 0 and m.state.pending is None
    m = pos(
        "unit u2 乙 aur_judgement 014 activated act=1\nunit u9 乙 aur_templars 018\nhq 甲 anv_hq ads=0\nhand 甲 anv_volley\n",
        active="乙",
    )
    act(m, "attack u2 hq0 爆炸")
    assert m.state.pending.data["trigger"] == "hq_damaged"
    assert texts(m) == {"counter anv_volley u2", "counter anv_volley u9", "pass"}
    act(m, "counter anv_volley u9")
    assert m.unit(9).hp == 10


def test_both_windows_side_not_on_turn_first(pos: PosFn) -> None:
    """PIN-COUNTER-3 / PIN-COUNTER-4: both units die; 乙 (not on turn) decides first; the
    counter's own draw and spawn open no window."""
    m = pos("""
        unit u2 甲 anv_rifles 008 activated act=2 hp=5
        unit u3 乙 aur_templars 013 hp=5
        hand 甲 aur_echo
        hand 乙 aur_echo
        deck 甲 anv_rifles
        deck 乙 aur_templars
    """)
    act(m, "attack u2 u3 普通")
    assert m.state.pending.kind == "window" and m.current_seat == 1
    act(m, "counter aur_echo -")
    assert m.current_seat == 0
    act(m, "counter aur_echo -")
    assert m.state.hands == [["aur_sentinel", "anv_rifles"], ["aur_sentinel", "aur_templars"]]
    assert m.state.pending is None


def test_window_asked_though_nothing_is_payable(pos: PosFn) -> None:
    """PIN-COUNTER-5: no payable counter → the window still opens, the pass its only
    answer (given at once), then the command resolves."""
    m = pos(
        "unit u3 乙 aur_templars 013\nhand 甲 anv_barrage\nhand 乙 aur_counterspell\n", cp="2/16"
    )
    m.state.cp[1] = 2
    m.touch()
    m.apply("play anv_barrage u3")
    d = m.state.pending
    assert d is not None and d.kind == "window" and d.data["trigger"] == "enemy_command"
    assert m.current_seat == 1 and m.legal_actions() == [m.forced_pass()] == [m.parse("pass")]
    act(m, "pass")
    assert m.state.pending is None and m.unit(3).hp == 15


def test_smoke_cancels_and_moves_target(pos: PosFn) -> None:
    """PIN-COUNTER-6 / PIN-EFFECT-7: 取消该次攻击，然后使该目标撤退; the action stays spent."""
    m = pos(
        """
        unit u2 乙 aur_templars 013 activated act=2
        unit u3 甲 anv_rifles 008
        hand 甲 anv_smoke
        """,
        active="乙",
    )
    act(m, "attack u2 u3 普通")
    act(m, "counter anv_smoke -")
    assert m.state.pending.kind == "retreat" and m.current_seat == 0
    assert "retreat u3 003" in texts(m) and "retreat u3 004" not in texts(m)  # first safe cell
    act(m, "retreat u3 003")
    assert m.unit(3).hp == 30 and m.unit(2).hp == 30 and m.unit(2).actions == 1


def test_effect_damage_no_counter_no_versus(pos: PosFn) -> None:
    """PIN-EFFECT-2: 造成N点X伤害 is no attack: no counter, no 相克, layers apply."""
    m = pos("unit u3 乙 aur_golems 013\nhand 甲 anv_barrage\n")
    act(m, "play anv_barrage u3")
    assert m.unit(3).hp == 30 - 10  # 装甲 5 only


def test_heal_restore_refill_and_draw(xdb, pos: PosFn) -> None:  # type: ignore[no-untyped-def]
    """PIN-EFFECT-3: heal to max, 魔法护盾 to its printed value, 护盾 to max, draw."""
    m = pos("unit u2 乙 aur_dragons 013 mshield=10 hp=60\n", active="乙", turn=2)
    act(m, "end")
    act(m, "skip") if m.state.pending else None
    act(m, "end")
    assert m.unit(2).mshield == 15
    m = pos("unit u2 甲 anv_heavyinf 008 shield=2\nhand 甲 tst_refill\n", db=xdb)
    act(m, "play tst_refill u2")
    assert m.unit(2).shield == 10


def test_spawn_derived_cards(pos: PosFn) -> None:
    """PIN-EFFECT-5: 生成 puts 衍生 copies in hand; they are played like their kind."""
    m = pos("hand 乙 aur_summon\n", active="乙")
    act(m, "play aur_summon -")
    assert m.state.hands[1] == ["aur_sentinel", "aur_sentinel"]
    act(m, "deploy aur_sentinel 018")
    assert m.unit(2).card == "aur_sentinel"


def test_attack_and_hp_buffs(xdb, pos: PosFn) -> None:  # type: ignore[no-untyped-def]
    """PIN-EFFECT-6: 攻击+N, 生命+N; 攻击−N never below 0; chaos still 0."""
    m = pos(
        "unit u2 甲 anv_rifles 008\nunit u3 乙 aur_templars 013\nhand 甲 tst_buff tst_weaken\n",
        db=xdb,
    )
    act(m, "play tst_buff u2")
    u = m.unit(2)
    assert (m.attack(u), u.hp, u.max_hp) == (20, 40, 40)
    act(m, "play tst_weaken u3")
    assert m.attack(m.unit(3)) == 0


def test_effect_order_and_pointing_words(pos: PosFn) -> None:
    """PIN-EFFECT-1 / PIN-EFFECT-7: effects resolve in order (damage, then draw)."""
    m = pos("unit u3 乙 aur_templars 013\nhand 乙 aur_verdict\ndeck 乙 aur_golems\n", active="乙")
    m.state.units[3].side = 0
    m.touch()
    events = act(m, "play aur_verdict u3")
    kinds = [e.kind for e in events]
    assert kinds.index("effect_damage") < kinds.index("draw")
    assert m.unit(3).hp == 10 and m.state.hands[1] == ["aur_golems"]


DIVISION = (
    "tst_div,试验工兵师,铁砧联邦,单位,普通,步兵,师,2,2,15,40,1,2,爆炸,,"
    '"special: damage(15, 爆炸, enemy_within2)"\n'
)


def test_division_after_the_stop_may_attack_not_special(pdb, pos: PosFn) -> None:  # type: ignore[no-untyped-def]
    """PIN-MOVE-3 (issue 33): once a 师's move ends next to an enemy it may still attack
    but not use 特殊 (「只能进行攻击」); ``special_after_stop=True`` is the variant."""
    import dataclasses

    from throne_lib.games.pin.rules import PIN_RULES

    db = parse_pin_cards(pdb.source + DIVISION)
    probe = pos("", db=db)
    near = next(c for c in range(1, 23) if probe.board.distance(7, c) == 1 and c != 8)
    lines = f"unit u2 甲 tst_div 008 activated act=2\nunit u3 乙 aur_templars {near:03d}\n"
    for rules, special in ((PIN_RULES, False), (dataclasses.replace(PIN_RULES, special_after_stop=True), True)):  # fmt: skip
        m = pos(lines, db=db, rules=rules)
        act(m, "move u2 007")
        while m.state.pending is not None and m.state.pending.kind == "window":
            act(m, "pass")
        assert m.state.units[2].stopped
        kinds = {a.kind for a in m.legal_actions() if a.args[:1] == ("u2",)}
        assert "attack" in kinds and ("special" in kinds) == special
