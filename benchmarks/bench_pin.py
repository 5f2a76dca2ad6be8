"""PIN 架空战争 benchmarks: prints figures, asserts nothing.

    .venv/bin/python benchmarks/bench_pin.py              # the three figures
    .venv/bin/python benchmarks/bench_pin.py --matches 40 # more matches per figure

Figures (wall clock and CPU time of this process — the one-core figure when other
jobs share the machine): random playout actions/s (choose + legal actions + apply);
the scripted AI's median decision time; the median of scripted-vs-scripted matches
(target ≤ 0.5 s on one core). Starter decks 铁砧联邦 vs 辉穹圣约, seeded.
"""

from __future__ import annotations

import argparse
import statistics
import time

from throne_lib.games.pin.agents import RandomAgent, ScriptedAgent
from throne_lib.games.pin.cards import PinCardDB, load_pin_cards
from throne_lib.games.pin.decks import starter_decks
from throne_lib.games.pin.match import PinMatch

SEED = 20261130


def _match(db: PinCardDB, seed: int) -> PinMatch:
    d = starter_decks()
    a, b = d["anvil"], d["aurora"]
    return PinMatch.new(db, (a.hq, b.hq), (a.cards, b.cards), seed)


def random_playout(db: PinCardDB, matches: int) -> tuple[float, float]:
    actions = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(matches):
        m = _match(db, SEED + i)
        agents = (RandomAgent(i), RandomAgent(i + 1000))
        while not m.is_over:
            m.apply(agents[m.current_seat].choose(m))
            actions += 1
    return actions / (time.perf_counter() - wall), actions / (time.process_time() - cpu)


def scripted(db: PinCardDB, matches: int) -> tuple[list[float], list[float], list[float]]:
    """(decision CPU times, match wall times, match CPU times) of scripted vs scripted."""
    decisions: list[float] = []
    walls: list[float] = []
    cpus: list[float] = []
    for i in range(matches):
        m = _match(db, SEED + i)
        agents = (ScriptedAgent(i), ScriptedAgent(i + 1000))
        wall, cpu = time.perf_counter(), time.process_time()
        while not m.is_over:
            t = time.process_time()
            action = agents[m.current_seat].choose(m)
            decisions.append(time.process_time() - t)
            m.apply(action)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return decisions, walls, cpus


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=20)
    args = ap.parse_args()
    db = load_pin_cards()
    wall, cpu = random_playout(db, args.matches)
    print(f"random playout: {wall:,.0f} actions/s wall, {cpu:,.0f} actions/s CPU")
    decisions, walls, cpus = scripted(db, args.matches)
    print(
        f"scripted decision: median {statistics.median(decisions) * 1000:.2f} ms CPU, "
        f"p90 {statistics.quantiles(decisions, n=10)[-1] * 1000:.2f} ms ({len(decisions)} decisions)"
    )
    print(
        f"scripted match: median {statistics.median(cpus):.3f} s CPU (target ≤ 0.5 s), "
        f"{statistics.median(walls):.3f} s wall, max {max(cpus):.3f} s CPU"
    )


if __name__ == "__main__":
    main()
