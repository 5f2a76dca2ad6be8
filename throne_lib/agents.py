"""Agents: given a match, choose an action. Deterministic from their seed."""

from __future__ import annotations

import random
from typing import Protocol

from throne_lib.actions import Action
from throne_lib.match import Match


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


def make_agent(name: str, seed: int = 0) -> Agent:
    if name == "random":
        return RandomAgent(seed)
    raise ValueError(f"unknown agent {name!r}; known: random")


def play_match(match: Match, blue: Agent, red: Agent, max_actions: int = 100_000) -> Match:
    """Play until the match ends (the round limit guarantees it does)."""
    agents = (blue, red)
    for _ in range(max_actions):
        if match.is_over:
            return match
        match.apply(agents[match.turn].choose(match))
    raise RuntimeError(f"match did not end within {max_actions} actions")
