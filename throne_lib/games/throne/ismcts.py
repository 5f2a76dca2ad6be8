"""What Throne & Phalanx plugs into the kit's ISMCTS (:mod:`throne_lib.kit.ismcts`):
the standard agent (R-AI-1) as rollout policy and the static evaluation of
:mod:`throne_lib.games.throne.ai.evaluate`, squashed to [-1, 1], at the cut-off."""

from __future__ import annotations

import math
from typing import Any

from throne_lib.kit.ismcts import WIDENED, IsmctsHooks

SCALE = 40.0  # evaluation points for tanh(1): about a strong unit and a few throne HP


def rollout(seed: int) -> Any:
    from throne_lib.games.throne.ai.standard import StandardAgent

    return StandardAgent(seed)


def evaluate(match: Any) -> list[float]:
    from throne_lib.games.throne.ai.evaluate import evaluate as score

    v = math.tanh(score(match.eng, 0) / SCALE)
    return [v, -v]


HOOKS = IsmctsHooks(rollout=rollout, evaluate=evaluate, params={"rollout_actions": 40, **WIDENED})
