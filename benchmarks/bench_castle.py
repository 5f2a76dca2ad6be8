"""城堡之心 benchmarks: prints figures, asserts nothing.

    .venv/bin/python benchmarks/bench_castle.py            # default sizes
    .venv/bin/python benchmarks/bench_castle.py -n 40      # more matches

Figures: random playout actions/s (5 seats); the scripted agent's decision time (median
and 95th percentile); the 5-seat all-scripted match time (median; target ≤ 0.5 s on one
core of the project machine); and, for 3–8 seats, the scripted match median.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from throne_lib.games.castle import CastleMatch
from throne_lib.games.castle.agents import ScriptedAgent

SEED = 20261130


def random_playouts(players: int, n: int) -> tuple[int, float]:
    actions, spent = 0, 0.0
    for i in range(n):
        m = CastleMatch(players=players, seed=SEED + i)
        rng = random.Random(i)
        t = time.perf_counter()
        while not m.is_over:
            acts = m.legal_actions()
            m.apply(acts[rng.randrange(len(acts))])
            actions += 1
        spent += time.perf_counter() - t
    return actions, spent


def scripted_matches(players: int, n: int) -> tuple[list[float], list[float]]:
    match_times: list[float] = []
    decisions: list[float] = []
    for i in range(n):
        m = CastleMatch(players=players, seed=SEED + i)
        agents = [ScriptedAgent(SEED + i, s) for s in range(players)]
        t0 = time.perf_counter()
        while not m.is_over:
            t = time.perf_counter()
            act = agents[m.current_seat].choose(m)
            decisions.append(time.perf_counter() - t)
            m.apply(act)
        match_times.append(time.perf_counter() - t0)
    return match_times, decisions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=20, help="matches per figure (default 20)")
    args = ap.parse_args()
    actions, spent = random_playouts(5, args.n)
    print(f"random playout, 5 seats: {actions / spent:,.0f} actions/s ({actions} actions)")
    times, decisions = scripted_matches(5, args.n)
    decisions.sort()
    p95 = decisions[int(len(decisions) * 0.95)]
    print(
        f"scripted decision: median {statistics.median(decisions) * 1000:.2f} ms, "
        f"p95 {p95 * 1000:.2f} ms ({len(decisions)} decisions)"
    )
    print(
        f"5-seat scripted match: median {statistics.median(times):.3f} s, "
        f"max {max(times):.3f} s (target ≤ 0.5 s)"
    )
    for players in range(3, 9):
        t, _ = scripted_matches(players, max(4, args.n // 4))
        print(f"  {players} seats scripted match median {statistics.median(t):.3f} s")


if __name__ == "__main__":
    main()
