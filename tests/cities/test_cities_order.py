"""CW-CAPTURE-6: one event breaking two cities — the breaker orders them through
``legal_actions()`` (a pending choice), capture effects resolve in that order, then the
cities go on top in that order so the last one named ends current. No shipped card breaks
two cities at once, so the test sends the engine's own multi-city event (``cw_hits``)."""

from __future__ import annotations

import pytest

from tests.cities.match_helpers import first_play, lines, put_empty, touch, war
from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.core import push, run
from throne_lib.games.cities.agents import CitiesAgent
from throne_lib.kit.protocol import IllegalAction


def two_breaks() -> tuple[object, int, str, str]:
    m = first_play(3, seed=2)
    s = m.state
    seat = m.current_seat
    w = war(m)
    a, b = w.empty[0], w.empty[1]
    put_empty(m, a, 2)
    put_empty(m, b, 3)
    s.prompt = None  # one event in the 出牌阶段, then the phase goes on
    push(s, ("cw_hits", seat, ((a, 5), (b, 5))), ("play_phase", seat))
    run(s)
    touch(m)
    return m, seat, a, b


def test_two_cities_broken_at_once_are_ordered_by_the_breaker() -> None:
    """CW-CAPTURE-6 / CW-CAPTURE-5: both left the empty area and are nobody's while the
    breaker chooses; the choice is the legal actions, nothing else."""
    m, seat, a, b = two_breaks()
    w = war(m)
    assert m.prompt_kind == "cw_order" and m.current_seat == seat
    assert set(m.legal_actions()) == {Act("capture_order", ("c:" + a,)),
                                      Act("capture_order", ("c:" + b,))}  # fmt: skip
    assert w.owner(a) is None and w.owner(b) is None  # CW-CAPTURE-5
    assert a not in w.stacks[seat] and b not in w.stacks[seat]


@pytest.mark.parametrize("first", [0, 1])
def test_the_order_decides_the_effects_and_the_stack(first: int) -> None:
    """CW-CAPTURE-6: effects in the chosen order, then stacked so the last is current;
    CW-GRAIN-3/CW-GRAIN-4: the covered one is a full rear city."""
    m, seat, a, b = two_breaks()
    w = war(m)
    pick, last = (a, b) if first == 0 else (b, a)
    start = len(m.state.log)
    m.apply(Act("capture_order", ("c:" + pick,)))
    assert m.prompt_kind == "play"  # the last city needs no question
    assert w.stacks[seat][-2:] == [pick, last] and w.current(seat) == last
    assert w.grain[pick] == w.full_grain(seat, pick)
    text = lines(m, start)
    fx = [t for t in text if "发动破城效果" in t]
    assert [w.table[pick].name in fx[0], w.table[last].name in fx[1]] == [True, True]


def test_an_illegal_order_is_refused_and_changes_nothing() -> None:
    """CW-CAPTURE-6: only a city being captured may be named."""
    m, seat, a, b = two_breaks()
    before = m.hash()
    other = war(m).empty[0]
    with pytest.raises(IllegalAction) as exc:
        m.apply(Act("capture_order", ("c:" + other,)))
    assert exc.value.rule == "CW-CAPTURE-6"
    assert m.hash() == before


def test_the_scripted_ai_puts_the_highest_weight_on_top() -> None:
    """CW-AI-7: the scripted player names the lower-weight city first."""
    m, seat, a, b = two_breaks()
    w = war(m)
    m.apply(CitiesAgent(2, seat).choose(m))
    top = max((a, b), key=lambda c: (w.table[c].ai_weight, c))
    assert w.current(seat) == top


def test_conceding_while_ordering_leaves_no_city_nowhere() -> None:
    """CW-CAPTURE-6 / CW-WIN-4 / CW-CITY-2: the breaker concedes at the order question:
    the cities being captured go into the empty area, none is lost."""
    m, seat, a, b = two_breaks()
    m.apply(Act("concede", (seat,)))
    w = war(m)
    assert w.out[seat] and {a, b} <= set(w.empty)
    assert m.city_invariants() == []
