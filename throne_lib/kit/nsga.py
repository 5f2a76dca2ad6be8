"""The selection half of NSGA-II (Deb et al. 2002), for minimised objective vectors.

Written out rather than taken from a library: the balance search needs only these two
procedures (fast non-dominated sort and crowding distance) around its own sparse
mutation, crossover and raced, cached evaluation; pymoo would bring scipy, autograd,
cma and more for about sixty lines of it, and its operators would all be replaced.

>>> fronts = non_dominated_fronts([(1, 2), (2, 1), (2, 2), (3, 3)])
>>> fronts
[[0, 1], [2], [3]]
>>> select([(1, 2), (2, 1), (2, 2), (3, 3)], 3)
[0, 1, 2]
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

Objectives = Sequence[float]


def dominates(a: Objectives, b: Objectives) -> bool:
    """``a`` is no worse than ``b`` everywhere and better somewhere."""
    return all(x <= y for x, y in zip(a, b, strict=True)) and any(
        x < y for x, y in zip(a, b, strict=True)
    )


def non_dominated_fronts(points: Sequence[Objectives]) -> list[list[int]]:
    """Indices of ``points`` by Pareto front (front 0 first); each front in index order."""
    n = len(points)
    dominated_by: list[list[int]] = [[] for _ in range(n)]
    count = [0] * n
    fronts: list[list[int]] = [[]]
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            if dominates(points[i], points[j]):
                dominated_by[i].append(j)
            elif dominates(points[j], points[i]):
                count[i] += 1
        if count[i] == 0:
            fronts[0].append(i)
    k = 0
    while fronts[k]:
        nxt: list[int] = []
        for i in fronts[k]:
            for j in dominated_by[i]:
                count[j] -= 1
                if count[j] == 0:
                    nxt.append(j)
        k += 1
        fronts.append(sorted(nxt))
    return fronts[:-1]


def crowding(points: Sequence[Objectives], front: Sequence[int]) -> dict[int, float]:
    """Crowding distance of each index of ``front`` (boundary points: infinity)."""
    dist = {i: 0.0 for i in front}
    if len(front) <= 2:
        return {i: math.inf for i in front}
    for m in range(len(points[front[0]])):
        order = sorted(front, key=lambda i: (points[i][m], i))
        lo, hi = points[order[0]][m], points[order[-1]][m]
        dist[order[0]] = dist[order[-1]] = math.inf
        if hi == lo:
            continue
        for a, b, c in zip(order, order[1:], order[2:], strict=False):
            dist[b] += (points[c][m] - points[a][m]) / (hi - lo)
    return dist


def ranks(points: Sequence[Objectives]) -> tuple[list[int], list[float]]:
    """Front number and crowding distance of every point."""
    rank = [0] * len(points)
    crowd = [0.0] * len(points)
    for r, front in enumerate(non_dominated_fronts(points)):
        for i, d in crowding(points, front).items():
            rank[i] = r
            crowd[i] = d
    return rank, crowd


def select(points: Sequence[Objectives], size: int) -> list[int]:
    """NSGA-II environmental selection: whole fronts while they fit, then the most
    crowding-distant of the next front (ties by index, so the choice is deterministic)."""
    chosen: list[int] = []
    for front in non_dominated_fronts(points):
        if len(chosen) + len(front) <= size:
            chosen += front
            continue
        dist = crowding(points, front)
        rest = sorted(front, key=lambda i: (-dist[i], i))
        chosen += rest[: size - len(chosen)]
        break
    return sorted(chosen)


def tournament(rank: Sequence[int], crowd: Sequence[float], rng: random.Random) -> int:
    """Binary tournament by (rank, crowding): the index of the winner."""
    a, b = rng.randrange(len(rank)), rng.randrange(len(rank))
    if (rank[a], -crowd[a], a) <= (rank[b], -crowd[b], b):
        return a
    return b
