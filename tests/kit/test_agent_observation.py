"""The light observation the scripted agents of 城堡之心 and 城池战 read
(``agent_observation``, issue 32's speed work): the same facts as ``observation`` without
the parts only a reader needs, so every agent choice — and every seeded result — stays
the same (CH-UI-2, CW-UI-4)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from throne_lib.kit import registry
from throne_lib.kit.agents import make_agent

#: what agent_observation leaves out: the 战报, the city texts and names (display only),
#: every seat's piles and the attack preview (CW-UI-4's highlight)
DROPPED_TOP = {"log", "piles"}
DROPPED_CITY = {"names", "preview", "team_cities", "victory_count", "targets"}
DROPPED_CITY_CARD = {"defence_text", "capture_text", "name", "full", "start"}


def strip(obs: dict[str, Any]) -> dict[str, Any]:
    """``observation`` without the parts agent_observation drops."""
    out = {k: v for k, v in obs.items() if k not in DROPPED_TOP}
    if "cities" in out:
        cv = {k: v for k, v in out["cities"].items() if k not in DROPPED_CITY}
        for key in ("stacks", "empty"):
            rows = cv[key] if key == "empty" else [c for st in cv[key] for c in st]
            for c in rows:
                for k in DROPPED_CITY_CARD:
                    c.pop(k, None)
        out["cities"] = cv
    return out


@pytest.mark.parametrize(("game", "seats"), [("castle", 5), ("castle", 8), ("cities", 4)])
def test_agent_observation_is_the_observation_without_display_parts(game: str, seats: int) -> None:
    g = registry.get(game)
    assert g.default_setups is not None
    rng = random.Random(32)
    checked = 0
    for seed in (1, 2):
        m = g.new(g.default_setups(seats), seed=seed)
        agents = [make_agent(g.default_agent, seed * 10 + q, game) for q in range(seats)]
        for _ in range(400):
            if m.is_over:
                break
            seat = m.current_seat
            light = m.agent_observation(seat)
            full = m.observation(seat)
            assert light["log"] == []
            assert light == strip(full) | {"log": []}
            for q in rng.sample(range(seats), 2):  # other seats' views too
                assert m.agent_observation(q) == strip(m.observation(q)) | {"log": []}
            checked += 1
            m.apply(agents[seat].choose(m))
    assert checked > 200


@pytest.mark.parametrize(("game", "seats"), [("castle", 5), ("cities", 4)])
def test_scripted_choices_are_the_same_on_either_view(game: str, seats: int) -> None:
    """The scripted agent's choice from ``observation`` equals its choice from the light
    view, decision after decision of seeded matches."""
    g = registry.get(game)
    assert g.default_setups is not None
    m = g.new(g.default_setups(seats), seed=5)
    agents = [make_agent(g.default_agent, 50 + q, game) for q in range(seats)]
    full_view = [make_agent(g.default_agent, 50 + q, game) for q in range(seats)]
    n = 0
    while not m.is_over and n < 600:
        seat = m.current_seat
        a = agents[seat].choose(m)  # reads agent_observation
        ref = full_view[seat]
        if hasattr(ref, "_match"):
            ref._match = m  # CitiesAgent asks the match for reach (see its choose)
        try:
            b = ref.decide(m.observation(seat), m.legal_actions())
        finally:
            if hasattr(ref, "_match"):
                ref._match = None
        assert a == b, (n, a, b)
        m.apply(a)
        n += 1
    assert n > 100
