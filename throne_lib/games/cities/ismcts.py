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
    goals = w.victory_counts()  # CW-SETUP-3: a team's count grows with its members
    cities = {t: w.team_cities(t) for t in set(teams)}
    hp: dict[Any, float] = {}
    for q, p in enumerate(s.players):
        if not w.out[q]:
            hp[teams[q]] = hp.get(teams[q], 0.0) + max(p.hp, 0) / max(p.max_hp, 1)

    def progress(t: int) -> float:  # cities (and a little health) over the team's count
        return (cities[t] + 0.3 * hp.get(t, 0.0)) / max(1, goals[t])

    out = []
    for q in range(len(teams)):
        t = teams[q]
        best = max((progress(u) for u in cities if u != t), default=0.0)
        out.append(math.tanh(3.0 * (progress(t) - best)))
    return out


HOOKS = IsmctsHooks(rollout=rollout, evaluate=evaluate, params={"rollout_actions": 40})
