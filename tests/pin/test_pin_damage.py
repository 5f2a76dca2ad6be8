"""Damage: modifiers, every layer against every type, the rulebook's worked examples
(PIN-DMG-1…24)."""

from __future__ import annotations

import pytest
from conftest import PosFn, act

from throne_lib.games.pin.damage import Defender, layer_pass, modified
from throne_lib.games.pin.rules import PIN_RULES

R = PIN_RULES
TYPES = ("普通", "爆炸", "激光", "电浆", "导弹", "动能", "直接")


def test_percent_sum_rounds_up() -> None:
    """PIN-DMG-4: ⌈15 × 75 / 100⌉ = 12; never below 0; exact integers."""
    assert modified(15, 25 - 50) == 12
    assert modified(20, 25) == 25 and modified(10, 25) == 13 and modified(15, -50) == 8
    assert modified(10, -200) == 0


def test_absorption_order() -> None:
    """PIN-DMG-6: ADS → 护盾 → 魔法护盾 → "魔法"护盾 → 反应装甲 → 装甲 → HP, each on what is left."""
    d = Defender(hp=100, shield=5, mshield=5, reactive=True, armor=3)
    hit = layer_pass(d, 40, "爆炸", R)
    assert hit.layers == [("护盾", 5), ("魔法护盾", 5), ("反应装甲", 15), ("装甲", 3)]
    assert hit.hp_loss == 12 and hit.after is not None and hit.after.hp == 88
    assert "护盾吸收5" in hit.zh() and "生命−12" in hit.zh()
    # a ward stops what passed the pools before reactive armour and armour act
    warded = layer_pass(Defender(hp=50, shield=5, ward=1, armor=3), 20, "普通", R)
    assert warded.cancelled_by == '"魔法"护盾' and warded.layers == [("护盾", 5)]
    assert warded.after is not None and warded.after.hp == 50 and warded.after.ward == 0


# PIN-DMG-19: which layer acts on which type, one layer at a time (HP 100, amount 20).
LAYER_CASES = {
    "ads": (Defender(100, ads=1), {"爆炸": 0, "导弹": 0}),
    "shield": (
        Defender(100, shield=8),
        {"普通": 12, "爆炸": 12, "激光": 12, "电浆": 16, "动能": 12},
    ),
    "mshield": (
        Defender(100, mshield=8),
        {"普通": 12, "爆炸": 12, "激光": 12, "电浆": 16, "动能": 12},
    ),
    "ward": (Defender(100, ward=1), {"普通": 0, "爆炸": 0, "激光": 0, "电浆": 0, "动能": 0}),
    "reactive": (Defender(100, reactive=True), {"爆炸": 10, "导弹": 10}),
    "armor": (Defender(100, armor=6), {"普通": 14, "爆炸": 14, "电浆": 14, "导弹": 14, "动能": 17}),
}


@pytest.mark.parametrize("layer", list(LAYER_CASES))
@pytest.mark.parametrize("dtype", TYPES)
def test_layer_against_type(layer: str, dtype: str) -> None:
    """PIN-DMG-19 with PIN-DMG-7 PIN-DMG-8 PIN-DMG-9 PIN-DMG-10 PIN-DMG-11 PIN-DMG-12 PIN-DMG-15
    PIN-DMG-16 PIN-DMG-17 PIN-DMG-18: ✓ acts, – passes (ADS, pools, ward, reactive, armour)."""
    d, acts = LAYER_CASES[layer]
    hit = layer_pass(d, 20, dtype, R)
    assert hit.hp_loss == acts.get(dtype, 20), (layer, dtype, hit)


def test_direct_meets_nothing() -> None:
    """PIN-DMG-3: 直接 skips every layer."""
    d = Defender(30, ads=1, shield=10, mshield=10, ward=2, reactive=True, armor=10)
    hit = layer_pass(d, 25, "直接", R)
    assert (
        hit.hp_loss == 25 and hit.after is not None and hit.after.ads == 1 and hit.after.ward == 2
    )


def test_plasma_burns_pools_and_two_ward_charges() -> None:
    """PIN-DMG-16: a pool of P absorbs ⌈P/2⌉ at most and loses twice what it absorbed;
    a ward loses 2 charges (or its last one)."""
    hit = layer_pass(Defender(100, shield=10), 25, "电浆", R)
    assert hit.layers == [("护盾", 5)] and hit.after is not None and hit.after.shield == 0
    small = layer_pass(Defender(100, mshield=10), 3, "电浆", R)
    assert small.hp_loss == 0 and small.after is not None and small.after.mshield == 4
    ward = layer_pass(Defender(100, ward=3), 5, "电浆", R)
    assert ward.after is not None and ward.after.ward == 1
    last = layer_pass(Defender(100, ward=1), 5, "电浆", R)
    assert last.after is not None and last.after.ward == 0 and last.cancelled_by


def test_kinetic_half_armour_rounded_down() -> None:
    """PIN-DMG-18: 装甲 15 takes 7 off 动能."""
    assert layer_pass(Defender(100, armor=15), 20, "动能", R).hp_loss == 13
    assert layer_pass(Defender(100, armor=15), 20, "普通", R).hp_loss == 5


def test_ads_cancels_whole_and_spends_one_charge() -> None:
    """PIN-DMG-7: a 导弹/爆炸 instance meeting a charge is cancelled; other types pass."""
    hit = layer_pass(Defender(40, ads=2), 99, "导弹", R)
    assert hit.cancelled_by == "ADS" and hit.after is not None and hit.after.ads == 1
    assert layer_pass(Defender(40, ads=2), 10, "激光", R).hp_loss == 10


def test_worked_example_tanks_vs_templars(pos: PosFn) -> None:
    """PIN-DMG-20 (PIN-ATTACK-4): 38 destroys the brigade; the counter 12 − 10 = 2."""
    m = pos("""
        unit u2 甲 anv_tanks 008 activated act=2
        unit u3 乙 aur_templars 013
    """)
    events = act(m, "attack u2 u3 动能")
    assert m.unit(3) is None and "aur_templars" in m.state.graves[1]
    assert m.unit(2).hp == 43
    attack = next(e for e in events if e.kind == "attack")
    assert attack.data["main"]["amount"] == 38 and attack.data["counter"]["amount"] == 12
    assert ("装甲", 10) in attack.data["counter"]["layers"]


def test_worked_example_golems_vs_heavy_infantry(pos: PosFn) -> None:
    """PIN-DMG-21: plasma burns the 护盾 10 for 5; HP 25 and 20 left."""
    m = pos(
        """
        unit u2 甲 anv_heavyinf 008
        unit u3 乙 aur_golems 013 activated act=2
        """,
        active="乙",
    )
    act(m, "attack u3 u2 电浆")
    assert (m.unit(2).hp, m.unit(2).shield, m.unit(3).hp) == (25, 0, 20)


def test_worked_example_howitzer_splash(pos: PosFn) -> None:
    """PIN-DMG-22 / PIN-DMG-14 / PIN-TYPE-4: main cancelled by the ward, splash 13 − 5,
    no counter at distance 2."""
    m = pos("""
        unit u2 甲 anv_howitzer 008 activated act=1
        unit u3 乙 aur_runeguard 019
        unit u4 乙 aur_pilgrims 019
    """)
    act(m, "attack u2 u3 爆炸")
    assert m.unit(3).hp == 35 and m.unit(3).ward == 0
    assert m.unit(4).hp == 7 and m.unit(4).mshield == 0
    assert m.unit(2).hp == 25


@pytest.mark.parametrize(("dtype", "bomber_hp"), [("导弹", 35), ("激光", 15)])
def test_worked_example_lions_vs_bomber(pos: PosFn, dtype: str, bomber_hp: int) -> None:
    """PIN-DMG-23 / PIN-ATTACK-8 / PIN-TYPE-6: 导弹 +50 → 30 stopped by ADS; 激光 +50 −50 → 20;
    the counter 爆炸 30 −50 → 15 is stopped by the fighter's ward."""
    m = pos(
        """
        unit u2 甲 anv_bomber 009
        unit u3 乙 aur_lions 014 activated act=2
        """,
        active="乙",
    )
    act(m, f"attack u3 u2 {dtype}")
    assert m.unit(2).hp == bomber_hp
    assert m.unit(3).hp == 25 and m.unit(3).ward == 0


def test_worked_example_interceptor_and_bomber_on_hq(pos: PosFn) -> None:
    """PIN-DMG-24 / PIN-ATTACK-7 / PIN-HQ-2: forced 导弹 counter at −50% → 8; the HQ's ADS
    stops the first bomb, the second takes it to 130; an HQ never counters."""
    m = pos("""
        unit u2 甲 anv_interceptor 009 activated act=2
        unit u3 乙 aur_templars 014
    """)
    act(m, "attack u2 u3 导弹")
    assert (m.unit(3).hp, m.unit(2).hp) == (10, 17)
    m = pos(
        """
        unit u2 乙 aur_judgement 014 activated act=1
        unit u3 乙 aur_judgement 015 activated act=1
        """,
        active="乙",
    )
    act(m, "attack u2 hq0 爆炸")
    assert m.state.units[0].hp == 160 and m.state.units[0].ads == 0
    act(m, "attack u3 hq0 爆炸")
    assert m.state.units[0].hp == 130
    assert m.unit(2).hp == 35 and m.unit(3).hp == 35


def test_zero_instance_not_dealt(pos: PosFn) -> None:
    """PIN-DMG-1: an instance of 0 spends nothing (an ADS charge stays)."""
    from throne_lib.games.pin import combat

    m = pos("unit u2 甲 anv_1starm 008\n")
    u = m.unit(2)
    combat.hit_unit(m, u, 0, "爆炸", 0)
    assert u.ads == 1 and u.hp == 70


def test_damage_types_listed_and_picked_per_attack(pos: PosFn, pdb) -> None:  # type: ignore[no-untyped-def]
    """PIN-DMG-2: a unit lists its types, its owner picks one per attack."""
    assert pdb["anv_1starm"].damage == ("动能", "爆炸")
    m = pos("""
        unit u2 甲 anv_1starm 008 activated act=2
        unit u3 乙 aur_templars 013
    """)
    attacks = {a.text() for a in m.legal_actions() if a.kind == "attack" and a.args[1] == "u3"}
    assert attacks == {"attack u2 u3 动能", "attack u2 u3 爆炸"}


def test_modifier_sources_chaos_artillery(pos: PosFn) -> None:
    """PIN-DMG-5 / PIN-CHAOS-4: an artillery unit in chaos takes +25% (also from effects,
    PIN-EFFECT-2), never on 直接 (PIN-DMG-3)."""
    m = pos(
        """
        unit u2 乙 aur_starguns 013 chaos=5
        hand 甲 anv_barrage anv_orbital
        """,
        cp="20/16",
    )
    act(m, "play anv_barrage u2")
    assert m.unit(2).hp == 25 - 19  # ⌈15 × 1.25⌉
    act(m, "play anv_orbital u2")
    assert m.unit(2) is None or m.unit(2).hp == 6 - 25


def test_death_to_graveyard_derived_removed_heal_cap(pos: PosFn) -> None:
    """PIN-DMG-13: HP ≤ 0 is dead; a 衍生 card is removed from the game; healing stops at max."""
    m = pos(
        """
        unit u2 甲 anv_drone 009
        unit u3 乙 aur_templars 014 activated act=2
        unit u4 乙 aur_rangers 019 hp=10
        hand 乙 aur_mend aur_mend
        """,
        active="乙",
    )
    act(m, "attack u3 u2 导弹")  # 15 at −50% → 8: HP 2 left
    assert m.unit(2).hp == 2
    act(m, "attack u3 u2 导弹")
    assert m.unit(2) is None and m.state.removed[0] == ["anv_drone"] and not m.state.graves[0]
    act(m, "play aur_mend u4")
    assert m.unit(4).hp == 20


def test_preview_plans_the_splash_the_attack_lands(pos: PosFn) -> None:
    """PIN-ATTACK-9 / PIN-DMG-14: the preview (PIN-UI-5, the AI's score) is the attack's
    own plan: the splash it shows is the HP the attack then takes, unit by unit."""
    from throne_lib.games.pin import combat

    m = pos("""
        unit u2 甲 anv_howitzer 008 activated act=1
        unit u3 乙 aur_runeguard 019
        unit u4 乙 aur_pilgrims 019
    """)
    p = combat.preview(m, 2, 3, "爆炸")
    assert [uid for uid, _ in p["splash"]] == [4]
    before = m.unit(4).hp
    act(m, "attack u2 u3 爆炸")
    assert before - m.unit(4).hp == p["splash"][0][1].hp_loss == 13 - 5  # PIN-DMG-22
