"""Agents: given a match, choose an action. Deterministic from their seed.

``random`` (uniform over legal actions), ``standard`` (the seed's scripted AI,
R-AI-1/R-AI-2, :mod:`throne_lib.games.throne.ai.standard`) and ``search`` (determinized
turn-level plan search with an iteration budget, :mod:`throne_lib.games.throne.ai.search`);
:func:`make_agent` builds one by name. Agents only ever choose among
``match.legal_actions()``; the AI ones may try actions on copies of the match.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from throne_lib.games.throne.actions import Action
from throne_lib.games.throne.match import Match


class Agent(Protocol):
    name: str

    def choose(self, match: Match) -> Action: ...


class RandomAgent:
    """Uniform over legal actions. ``end_weight`` < 1 makes 'end turn' rarer so
    random matches actually fight instead of passing."""

    name = "random"

    def __init__(self, seed: int = 0, end_weight: float = 0.05) -> None:
        self.rng = random.Random(seed)
        self.end_weight = end_weight

    def choose(self, match: Match) -> Action:
        actions = match.legal_actions()
        if len(actions) > 1 and actions[-1].kind == "end" and self.rng.random() > self.end_weight:
            return actions[self.rng.randrange(len(actions) - 1)]
        return actions[self.rng.randrange(len(actions))]


AGENTS = ("random", "standard", "search")


def make_agent(name: str, seed: int = 0, **params: Any) -> Agent:
    """An agent by name, seeded; ``params`` go to its constructor (e.g. ``iterations=``
    for ``search``)."""
    if name == "random":
        return RandomAgent(seed, **params)
    if name == "standard":
        from throne_lib.games.throne.ai.standard import StandardAgent

        return StandardAgent(seed, **params)
    if name == "search":
        from throne_lib.games.throne.ai.search import SearchAgent

        return SearchAgent(seed, **params)
    raise ValueError(f"unknown agent {name!r}; known: {', '.join(AGENTS)}")


def play_match(match: Match, blue: Agent, red: Agent, max_actions: int = 100_000) -> Match:
    """Play until the match ends (the round limit guarantees it does)."""
    agents = (blue, red)
    for _ in range(max_actions):
        if match.is_over:
            return match
        match.apply(agents[match.turn].choose(match))
    raise RuntimeError(f"match did not end within {max_actions} actions")
