"""The kit's uniform random agent: every game's baseline, and the playout policy of the
kit's searches (:mod:`throne_lib.kit.agents`' registry and :mod:`throne_lib.kit.ismcts`
both use it, so it sits apart from the registry)."""

from __future__ import annotations

import random
from typing import Any


class RandomAgent:
    """Uniform over legal actions. A game whose turn-ending action comes last and has
    ``kind == "end"`` (Throne's 'end turn') gets it with weight ``end_weight`` < 1, so
    random matches actually fight instead of passing."""

    name = "random"

    def __init__(self, seed: int = 0, end_weight: float = 0.05) -> None:
        self.rng = random.Random(seed)
        self.end_weight = end_weight

    def choose(self, match: Any) -> Any:
        actions = match.legal_actions()
        if (
            len(actions) > 1
            and getattr(actions[-1], "kind", None) == "end"
            and self.rng.random() > self.end_weight
        ):
            return actions[self.rng.randrange(len(actions) - 1)]
        return actions[self.rng.randrange(len(actions))]
