"""What PIN plugs into the kit's ISMCTS (:mod:`throne_lib.kit.ismcts`): the standard
agent (PIN-AI-3…6) as rollout policy and, at the cut-off, the HQ HP (PIN's victory
condition) and the units on the board of each side, squashed to [-1, 1]."""

from __future__ import annotations

import math
from typing import Any

from throne_lib.kit.ismcts import WIDENED, IsmctsHooks

HQ_WEIGHT = 3.0  # a whole HQ's HP against the board's material


def rollout(seed: int) -> Any:
    from throne_lib.games.pin.agents import ScriptedAgent

    return ScriptedAgent(seed)


def evaluate(match: Any) -> list[float]:
    st = match.state
    hq = [st.units[s] for s in (0, 1)]
    hq_term = sum((1 if h.side == 0 else -1) * h.hp / max(1, h.max_hp) for h in hq)
    material = [0.0, 0.0]
    for u in match.units():
        material[u.side] += u.hp + 2 * match.attack(u)
    board = (material[0] - material[1]) / (material[0] + material[1] + 20.0)
    v = math.tanh(HQ_WEIGHT * hq_term + board)
    return [v, -v]


HOOKS = IsmctsHooks(rollout=rollout, evaluate=evaluate, params={"rollout_actions": 20, **WIDENED})
