"""The designer's first question about a hidden-role game: who wins? Role and hero win
rates over seeded all-AI matches (pandas), until the kit's simulator carries castle rows.

>>> from throne_lib.games.castle.balance import role_table, simulate_roles
>>> rows = simulate_roles(range(4, 9), n=50)        # one row per seat per match
>>> role_table(rows)                                 # win rate by players x role
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from throne_lib.games.castle.agents import RandomAgent, ScriptedAgent, play_match
from throne_lib.games.castle.match import CastleMatch
from throne_lib.games.castle.rules import CastleRules


def simulate_roles(
    players: Iterable[int], n: int, agent: str = "scripted", seed: int = 0,
    rules: CastleRules | None = None,
) -> pd.DataFrame:  # fmt: skip
    """``n`` matches per player count; one row per seat: players, match, seed, seat, role,
    hero, result (+1 win, −1 loss, 0 draw), end rule, rounds, actions."""
    rows = []
    for p in players:
        for i in range(n):
            s = seed + 1000 * p + i
            m = CastleMatch(players=p, seed=s, rules=rules)
            make = ScriptedAgent if agent == "scripted" else RandomAgent
            actions = play_match(m, [make(s, seat) for seat in range(p)])
            for pl, r in zip(m.state.players, m.returns(), strict=True):
                rows.append(
                    {"players": p, "match": i, "seed": s, "seat": pl.seat, "role": pl.role,
                     "hero": pl.hero, "result": r, "end_rule": m.state.end_rule,
                     "rounds": m.state.round, "actions": actions}
                )  # fmt: skip
    return pd.DataFrame(rows)


def role_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Win rate (share of seats with result +1) by player count and role."""
    won = rows.assign(win=rows["result"] > 0)
    return won.pivot_table(index="players", columns="role", values="win", aggfunc="mean")


def hero_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Win rate and seats played per hero."""
    won = rows.assign(win=rows["result"] > 0)
    return won.groupby("hero")["win"].agg(["mean", "count"]).sort_values("mean", ascending=False)
