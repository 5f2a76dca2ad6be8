"""What 城堡之心 plugs into the kit's ISMCTS (:mod:`throne_lib.kit.ismcts`): the scripted
agent (CH-AI) as rollout policy and a cut-off value per seat read from the
determinization (where every identity is drawn, so the camps are known): the 城主's
HP against the 敌军's (CH-WIN-2/3); a 中立 scores by its declared camp, else by its own
survival."""

from __future__ import annotations

import math
from typing import Any

from throne_lib.kit.ismcts import WIDENED, IsmctsHooks

CASTLE = ("lord", "reinforcement")


def rollout(seed: int) -> Any:
    from throne_lib.games.castle.agents import ScriptedAgent

    return ScriptedAgent(seed)


def _frac(players: list[Any]) -> float:
    """Alive HP over max HP of a group (soldiers count one HP each)."""
    hp = sum(max(p.hp, 0) + len(p.soldiers) for p in players if p.alive)
    top = sum(max(p.max_hp, 1) for p in players)
    return hp / top if top else 0.0


def evaluate(match: Any) -> list[float]:
    s = match.state
    players = s.players
    lord = [p for p in players if p.role == "lord"]
    castle = [p for p in players if p.role in CASTLE or p.camp == "castle"]
    enemy = [p for p in players if p.role == "enemy" or p.camp == "enemy"]
    edge = 2.0 * _frac(lord) + _frac(castle) - 1.5 * _frac(enemy)
    v = math.tanh(edge - 1.5)  # 0 at the start, when every seat is whole
    out = []
    for p in players:
        if p.role in CASTLE or p.defected:
            out.append(v)
        elif p.role == "enemy":
            out.append(-v)
        else:  # a 中立 wins alone (CH-WIN-2): its survival, the others' fall
            others = [q for q in players if q is not p]
            out.append(math.tanh(2.0 * _frac([p]) - 2.0 * _frac(others)))
    return out


HOOKS = IsmctsHooks(rollout=rollout, evaluate=evaluate, params={"rollout_actions": 40, **WIDENED})
