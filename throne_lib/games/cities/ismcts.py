"""What 城池战 plugs into the kit's ISMCTS (:mod:`throne_lib.kit.ismcts`): the scripted
agent (CW-AI) as rollout policy and a cut-off value per seat: its team's cities against
the best other team's, over the victory count (CW-WIN-1), plus the teams' HP."""

from __future__ import annotations

import math
from typing import Any

from throne_lib.kit.ismcts import IsmctsHooks


def rollout(seed: int) -> Any:
    from throne_lib.games.cities.agents import CitiesAgent

    return CitiesAgent(seed)


def evaluate(match: Any) -> list[float]:
    from throne_lib.games.cities.engine import war_of

    s = match.state
    w = war_of(s)
    teams = w.teams
    goal = max(1, w.victory_count())
    cities = {t: w.team_cities(t) for t in set(teams)}
    hp: dict[Any, float] = {}
    for q, p in enumerate(s.players):
        if not w.out[q]:
            hp[teams[q]] = hp.get(teams[q], 0.0) + max(p.hp, 0) / max(p.max_hp, 1)
    out = []
    for q in range(len(teams)):
        t = teams[q]
        rivals = [u for u in cities if u != t]
        best = max((cities[u] + 0.3 * hp.get(u, 0.0) for u in rivals), default=0.0)
        mine = cities[t] + 0.3 * hp.get(t, 0.0)
        out.append(math.tanh(3.0 * (mine - best) / goal))
    return out


HOOKS = IsmctsHooks(rollout=rollout, evaluate=evaluate, params={"rollout_actions": 40})
