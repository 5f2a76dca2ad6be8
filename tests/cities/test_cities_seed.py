"""The seed's worked examples (seeds/003) as scenario tests."""

from __future__ import annotations

from tests.cities.helpers import cid, names, war


def test_changsha_six_grain_b_takes_it_with_two_breaking_damage() -> None:
    """CW-CAPTURE-2 / CW-CAPTURE-1 / CW-SIEGE-3: A's axe attack (2 + 2) leaves 2; B's
    soldier (1 + 2) breaks it with 2 破城伤害, and B, not A, gets 长沙."""
    w = war([["洛阳"], ["许昌"], ["建业"]], empty=["长沙"], grain={"长沙": 6})
    a_hit = w.attack_damage(0, cid("长沙"), 2, "sword")  # 斧技 gives 2 (CH-HERO-11)
    assert a_hit == 4
    assert w.damage(0, cid("长沙"), a_hit) is False
    assert w.grain[cid("长沙")] == 2
    b_hit = w.attack_damage(1, cid("长沙"), 1, "soldier")
    assert b_hit == 3
    assert w.damage(1, cid("长沙"), b_hit) is True
    brk = [e for e in w.log if e["kind"] == "break_damage"]
    assert brk[-1]["amount"] == 2 and brk[-1]["lost"] == 1
    assert names(w.stacks[1]) == ["许昌", "长沙"]
    assert names(w.stacks[0]) == ["洛阳"]
    assert w.grain[cid("长沙")] == 15  # CW-GRAIN-3


def test_refill_chain_changsha_nanpi_luoyang() -> None:
    """CW-GRAIN-5 / CW-GRAIN-4 / CW-STACK-3: 长沙 19 -> 南皮 15 -> 3 -> 洛阳; B takes 洛阳:
    南皮 current again with 15; 南皮 taken too: 长沙 current with 30."""
    w = war([["长沙"], ["许昌"], ["建业"]], empty=["南皮", "洛阳"], grain={"长沙": 19})
    w.damage(0, cid("南皮"), 99)  # A breaks and gains 南皮
    assert w.current(0) == cid("南皮") and w.grain[cid("南皮")] == 15
    assert w.grain[cid("长沙")] == 30  # rear: refilled the moment it stops being current
    w.damage(1, cid("南皮"), 12)
    assert w.grain[cid("南皮")] == 3
    w.damage(0, cid("洛阳"), 99)
    assert names(w.stacks[0]) == ["长沙", "南皮", "洛阳"]
    assert w.grain[cid("洛阳")] == 15 and w.grain[cid("南皮")] == 15
    w.damage(1, cid("洛阳"), 15)  # B breaks and takes 洛阳
    assert w.owner(cid("洛阳")) == 1
    assert w.current(0) == cid("南皮") and w.grain[cid("南皮")] == 15
    w.damage(2, cid("南皮"), 15)  # and then 南皮
    assert w.current(0) == cid("长沙") and w.grain[cid("长沙")] == 30


def test_witchcraft_on_nanpi_with_seven_grain() -> None:
    """CW-GRAIN-8 / CW-GRAIN-7 / CW-GRAIN-6: paying 8 from 南皮's 7 loses 南皮, the payment
    fails, and 长沙 does not pay the missing 1: it becomes current with 30."""
    w = war([["长沙", "南皮"], ["许昌"], ["建业"]], grain={"南皮": 7})
    assert w.pay_grain(0, 8) is False
    assert cid("南皮") in w.empty and w.grain[cid("南皮")] == 15
    assert w.current(0) == cid("长沙") and w.grain[cid("长沙")] == 30
    assert not w.out[0]
    # paying less than the grain just lowers it and succeeds
    assert w.pay_grain(0, 8) is True and w.grain[cid("长沙")] == 22


def test_recruit_with_three_cards_left_gives_up_every_city_but_the_first() -> None:
    """CW-DECK-6 / CW-DECK-3: A holds 长沙 (start), 南平, 洛阳; the reset gives up 洛阳 and
    南平 into the empty area with 15; 长沙 becomes current with 30."""
    w = war([["长沙", "南平", "洛阳"], ["许昌"], ["建业"]], grain={"长沙": 12, "洛阳": 4})
    w.deck_reset(0)
    assert names(w.stacks[0]) == ["长沙"]
    assert {cid("南平"), cid("洛阳")} <= set(w.empty)
    assert w.grain[cid("洛阳")] == 15 and w.grain[cid("长沙")] == 30
    assert not w.out[0]
    assert not any(e["kind"] == "capture_effect" for e in w.log)  # CW-CITY-4
