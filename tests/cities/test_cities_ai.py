"""The scripted AI's city choices (CW-AI-*) on public city positions."""

from __future__ import annotations

from tests.cities.helpers import cid, war
from throne_lib.games.cities.ai import (
    CityAttack,
    order_captures,
    plan_attacks,
    should_abandon,
    should_block,
    should_pay_nanpi,
)


def _atk(i: str, kind: str, base: int, *cities: str) -> CityAttack:
    return CityAttack(i, kind, base, frozenset(cid(c) for c in cities))


def test_plan_breaks_with_fewest_attacks_last_one_breaking() -> None:
    """CW-AI-1: 南平 at 5 grain: two attacks of 3 break it; the third is not spent on it."""
    w = war([["洛阳"], ["许昌"], ["建业"]], empty=["南平"], grain={"南平": 5})
    atks = [_atk("h", "sword", 1, "南平"), _atk("s1", "soldier", 1, "南平"),
            _atk("s2", "soldier", 1, "南平")]  # fmt: skip
    plan = plan_attacks(w, 0, atks)
    assert len(plan) == 2 and all(c == cid("南平") for _, c in plan)
    total = 0
    for i, (aid, city) in enumerate(plan):
        a = next(x for x in atks if x.id == aid)
        total += w.attack_damage(0, city, a.base, a.kind, peek=True)
        assert (total >= 5) == (i == len(plan) - 1)


def test_plan_prefers_opponents_starting_city() -> None:
    """CW-AI-2: an opponent's starting city (puts it out) before an empty city."""
    w = war([["洛阳"], ["许昌"], ["建业"]], empty=["南平"], grain={"许昌": 3, "南平": 2})
    plan = plan_attacks(w, 0, [_atk("h", "sword", 1, "南平", "许昌")])
    assert plan == [("h", cid("许昌"))]


def test_plan_empty_city_lowest_grain_then_weight() -> None:
    """CW-AI-2 (empty cities: lowest grain, then highest weight) / CW-AI-3 (no break:
    the reachable empty city with the lowest grain)."""
    w = war([["洛阳"], ["许昌"], ["建业"]], empty=["南平", "成都"], grain={"南平": 3, "成都": 3})
    plan = plan_attacks(w, 0, [_atk("h", "sword", 1, "南平", "成都")])
    assert plan == [("h", cid("南平"))]  # weight 3 beats 2
    w = war([["洛阳"], ["许昌"], ["建业"]], empty=["南平", "成都"], grain={"成都": 9})
    plan = plan_attacks(w, 0, [_atk("h", "sword", 1, "南平", "成都")])
    assert plan == [("h", cid("成都"))]


def test_block_only_when_breaking_or_starting_city() -> None:
    """CW-AI-4."""
    w = war([["洛阳", "南平"], ["许昌"], ["建业"]], grain={"南平": 4})
    assert should_block(w, 0, 4) and not should_block(w, 0, 3)
    assert should_block(w, 1, 3)  # 许昌 is seat 1's starting city


def test_abandon_low_grain_or_threat_never_the_start() -> None:
    """CW-AI-5."""
    w = war([["洛阳", "南平"], ["许昌", "长沙", "成都"], ["建业"]], grain={"南平": 3})
    assert should_abandon(w, 0, {})
    assert not should_abandon(w, 2, {0: 99})
    w = war([["洛阳", "南平"], ["许昌", "长沙", "成都"], ["建业"]], grain={"南平": 9})
    assert w.victory_count(w.teams[1]) == 4
    assert should_abandon(w, 0, {1: 9}) and not should_abandon(w, 0, {1: 8, 2: 99})


def test_nanpi_payment_only_keeping_half() -> None:
    """CW-AI-6 (南皮's payment part)."""
    assert (
        should_pay_nanpi(war([["洛阳", "南皮"], ["许昌"], ["建业"]], grain={"南皮": 15}), 0)
        is False
    )
    assert should_pay_nanpi(war([["南皮"], ["许昌"], ["建业"]]), 0) is True


def test_simultaneous_captures_highest_weight_on_top() -> None:
    """CW-AI-7 (the ordering part)."""
    w = war([["许昌"], ["长沙"], ["成都"]])
    assert order_captures(w, [cid("洛阳"), cid("南皮"), cid("下邳")])[-1] == cid("洛阳")
