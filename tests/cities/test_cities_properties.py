"""Property tests of the city layer: 3–6 players, seeded random sequences of city events
end, grain is never negative, every city is in exactly one place (CW-CITY-2)."""

from __future__ import annotations

import random

import pytest

from tests.cities.helpers import TABLE
from throne_lib.games.cities import CitiesRules, CityWar


def _random_event(w: CityWar, rng: random.Random) -> None:
    live = [s for s in range(len(w.teams)) if not w.out[s]]
    seat = rng.choice(live)
    roll = rng.random()
    targets = w.attack_targets(seat)
    if roll < 0.8 and targets:
        city = rng.choice(targets)
        kind = rng.choice(["sword", "soldier", "fireball"])
        w.damage(seat, city, w.attack_damage(seat, city, rng.randint(1, 2), kind))
    elif roll < 0.86:
        w.pay_grain(seat, rng.randint(1, 10))
    elif roll < 0.9:
        w.abandon(seat)
    elif roll < 0.93:
        w.deck_reset(seat)
    elif roll < 0.94:
        w.concede(seat)
    else:
        w.turn_start(seat)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("seed", range(8))
def test_random_city_events_terminate_and_keep_invariants(players: int, seed: int) -> None:
    """CW-CITY-2 / CW-GRAIN-2 / CW-GRAIN-4 / CW-WIN-1 / CW-WIN-2."""
    rng = random.Random(seed * 100 + players)
    teams = [rng.randrange(max(2, players // 2)) for _ in range(players)]
    if len(set(teams)) < 2:
        teams[0], teams[1] = 0, 1
    w = CityWar.deal(TABLE, CitiesRules(), teams, rng)
    steps = 0
    while w.result is None and steps < 5000:
        _random_event(w, rng)
        assert w.invariant_problems() == []
        steps += 1
    assert w.result is not None, "the match never ended"
    assert w.end_rule in ("CW-WIN-1", "CW-WIN-2")
    assert all(g >= 0 for g in w.grain.values())
    winners = {w.teams[s] for s, r in enumerate(w.result) if r > 0}
    assert len(winners) == 1
