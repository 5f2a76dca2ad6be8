"""What 城堡之心 plugs into the kit's ISMCTS (:mod:`throne_lib.kit.ismcts`): the scripted
agent (CH-AI) as rollout policy and a cut-off value per seat read from the
determinization (where every identity is drawn, so the camps are known): the 城主's
HP against the 敌军's (CH-WIN-2/3); a 中立 scores by its declared camp, else by its own
survival. With ``belief`` > 0, :func:`determinize` deals the hidden identities weighted
by the public record of who harmed and helped whom (CH-AI-2's suspicion), not uniformly."""

from __future__ import annotations

import bisect
import functools
import math
import random
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


def _camps(players: list[Any]) -> tuple[list[Any], list[Any], list[Any]]:
    """The 城主, the castle camp (its seats and any 中立 declared for it) and the 敌军's
    (its seats and any 中立 whose camp is 敌军), every identity dealt."""
    lord = [p for p in players if p.role == "lord"]
    castle = [p for p in players if p.role in CASTLE or p.camp == "castle"]
    enemy = [p for p in players if p.role == "enemy" or p.camp == "enemy"]
    return lord, castle, enemy


def evaluate(match: Any) -> list[float]:
    players = match.state.players
    lord, castle, enemy = _camps(players)
    edge = 2.0 * _frac(lord) + _frac(castle) - 1.5 * _frac(enemy)
    return _seat_values(players, math.tanh(edge - 1.5))  # 0 when every seat is whole


def _seat_values(players: list[Any], v: float) -> list[float]:
    """Each seat's value when the castle camp's is ``v``: the castle's seats (and a 中立
    that defected) ``v``, the 敌军 ``-v``; a 中立 wins alone (CH-WIN-2): its survival
    against the others' fall."""
    out = []
    for p in players:
        if p.role in CASTLE or p.defected:
            out.append(v)
        elif p.role == "enemy":
            out.append(-v)
        else:
            others = [q for q in players if q is not p]
            out.append(math.tanh(2.0 * _frac([p]) - 2.0 * _frac(others)))
    return out


# ``evaluation=fitted``: the castle camp's chance to win, a logistic model of these
# features of the position (every identity dealt, as in a determinization), fitted to the
# outcomes of all-scripted matches at 5-8 seats by benchmarks/castle_eval_fit.py
# (results/ismcts/castle_eval_fit_20261208.json: train seeds 930000-930399, scored on
# 940000-940199). "hp" is alive HP (soldiers one each) over max HP, "alive" a share of
# the group, soldiers and cards in hand held by its living members a mean per member / 4,
# equipment a mean per member.
EVAL_WEIGHTS: dict[str, float] = {
    "bias": -0.1232,
    "lord_hp": 0.8954,
    "castle_hp": 0.872,
    "enemy_hp": -2.5785,
    "castle_alive": -0.2101,
    "enemy_alive": -1.8115,
    "castle_soldiers": 1.3563,
    "enemy_soldiers": -1.3643,
    "castle_hand": 1.2615,
    "enemy_hand": -1.4037,
    "castle_equipment": 0.2973,
    "enemy_equipment": 0.3975,
    "lord_hp_le_2": -0.1699,
    "lord_hp_le_4": 0.0656,
    "round": -0.3609,
    "castle_share": -0.3094,
    "seats_5": 0.4966,
    "seats_6": -0.0091,
    "seats_7": -0.4477,
}
EVAL_FEATURES = tuple(EVAL_WEIGHTS)


def eval_features(match: Any) -> list[float]:
    """The values of ``EVAL_FEATURES`` in ``match`` (its identities all dealt)."""
    s = match.state
    players = s.players
    lord, castle, enemy = _camps(players)
    n = len(players)

    def share(group: list[Any]) -> float:
        return float(sum(p.alive for p in group)) / max(len(group), 1)

    def mean(group: list[Any], what: str) -> float:
        return float(sum(len(getattr(p, what)) for p in group if p.alive)) / max(len(group), 1)

    hp = max(lord[0].hp, 0) if lord else 0
    return [
        1.0,
        _frac(lord),
        _frac(castle),
        _frac(enemy),
        share(castle),
        share(enemy),
        mean(castle, "soldiers") / 4,
        mean(enemy, "soldiers") / 4,
        mean(castle, "hand") / 4,
        mean(enemy, "hand") / 4,
        mean(castle, "equip"),
        mean(enemy, "equip"),
        float(hp <= 2),
        float(hp <= 4),
        min(s.round, 20) / 10,
        len(castle) / n,
        float(n == 5),
        float(n == 6),
        float(n == 7),
    ]


def evaluate_fitted(match: Any) -> list[float]:
    """``evaluate`` with the castle camp's value read from the fitted model: 2 x its chance
    to win - 1 (the 敌军 the opposite); a 中立 scores as in ``evaluate``."""
    z = sum(w * f for w, f in zip(EVAL_WEIGHTS.values(), eval_features(match), strict=True))
    return _seat_values(
        match.state.players, 2.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z)))) - 1.0
    )


# how a hidden identity leans on CH-AI-2's suspicion score (enemy +, castle -)
LEAN = {"enemy": 1.0, "reinforcement": -1.0}


def _deals(n: int, roles: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every distinct order of the multiset ``roles`` (``n`` of them)."""
    counts: dict[str, int] = {}
    for r in roles:
        counts[r] = counts.get(r, 0) + 1
    out: list[tuple[str, ...]] = []

    def walk(prefix: tuple[str, ...]) -> None:
        if len(prefix) == n:
            out.append(prefix)
            return
        for r in sorted(counts):
            if counts[r]:
                counts[r] -= 1
                walk((*prefix, r))
                counts[r] += 1

    walk(())
    return out


@functools.lru_cache(maxsize=64)
def _weighted(
    sus: tuple[float, ...], roles: tuple[str, ...], belief: float
) -> tuple[list[tuple[str, ...]], list[float]]:
    """The deals of ``roles`` to seats whose suspicion scores are ``sus``, with their
    cumulative weights: exp(belief x the sum over seats of lean(role) x score)."""
    deals = _deals(len(sus), roles)
    logs = [belief * sum(LEAN.get(r, 0.0) * x for r, x in zip(d, sus, strict=True)) for d in deals]
    top = max(logs)
    cum: list[float] = []
    total = 0.0
    for v in logs:
        total += math.exp(v - top)
        cum.append(total)
    return deals, cum


def determinize(match: Any, seat: int, rng: random.Random, belief: float) -> Any:
    """``match.resample(seat, rng)`` with the hidden identities dealt again, each deal
    weighted by exp(``belief`` x its agreement with the suspicion scores ``seat`` reads
    from the public tallies of harm and help, CH-AI-2): a seat that has struck the 城主
    is more often an 敌军. Reads only ``seat``'s observation."""
    from throne_lib.games.castle.agents import suspicion
    from throne_lib.games.castle.view import deal_role

    world = match.resample(seat, rng)
    hidden = [p for p in world.state.players if p.seat != seat and not p.revealed]
    roles = tuple(sorted(p.role for p in hidden))
    if len(set(roles)) < 2:
        return world
    view = getattr(match, "agent_observation", None)
    score = suspicion(view(seat) if view is not None else match.observation(seat))
    sus = tuple(round(score.get(p.seat, 0.0), 6) for p in hidden)
    deals, cum = _weighted(sus, roles, belief)
    deal = deals[min(bisect.bisect_right(cum, rng.random() * cum[-1]), len(deals) - 1)]
    for p, role in zip(hidden, deal, strict=True):
        deal_role(p, role)
    return world


# Rollouts to the end (a 5-seat scripted match takes a median of 184 actions) and deals
# weighted by the public record: the setting that made a searching 城主 +17.5 points
# (+11.4 … +23.6) better than the scripted one over 200 fresh seeds; the cut-off at 40
# actions with uniform deals was level with it (docs/agents.md, 2026-12-04).
PARAMS = {"rollout_actions": 400, **WIDENED, "belief": 0.5}

HOOKS = IsmctsHooks(
    rollout=rollout,
    evaluate=evaluate,
    params=PARAMS,
    determinize=determinize,
    evaluations={"fitted": evaluate_fitted},
)
