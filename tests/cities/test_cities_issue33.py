"""Issue 33, 城池战: 弃守 may be repeated in one prep step (CW-ABANDON-2) and 许昌's 屯田
never lowers grain (CW-CITY-8)."""

from __future__ import annotations

from tests.cities.helpers import cid, war
from tests.cities.match_helpers import give_city, to_prep
from tests.cities.match_helpers import war as war_of
from throne_lib.games.cities import CitiesMatch, CitiesRules


def test_abandon_may_be_repeated_in_one_prep_step() -> None:
    """CW-ABANDON-2: with no ``abandon_limit`` a player may abandon its new current city
    too; with ``abandon_limit=1`` it is asked once."""
    for limit, asked_again in ((None, True), (1, False)):
        m = CitiesMatch(players=3, seed=0, rules=CitiesRules(abandon_limit=limit))
        seat = m.current_seat
        give_city(m, seat)
        give_city(m, seat)
        to_prep(m, seat)
        assert len(war_of(m).stacks[seat]) == 3
        m.apply("abandon")
        assert len(war_of(m).stacks[seat]) == 2
        assert (m.prompt_kind == "cw_prep" and m.current_seat == seat) == asked_again
        if asked_again:
            m.apply("abandon")
            assert len(war_of(m).stacks[seat]) == 1 and m.prompt_kind != "cw_prep"


def test_xuchang_tuntian_never_lowers_grain() -> None:
    """CW-CITY-8: 许昌 captured with 20 grain (above its 15) keeps 20 at its owner's next
    prep step; below the full mark it regains 2 up to the full mark."""
    w = war([["洛阳", "许昌"], ["建业"], ["成都"]], grain={"许昌": 20})
    w.turn_start(0)
    assert w.grain[cid("许昌")] == 20
    w = war([["洛阳", "许昌"], ["建业"], ["成都"]], grain={"许昌": 14})
    w.turn_start(0)
    assert w.grain[cid("许昌")] == w.full_grain(0, cid("许昌"))
