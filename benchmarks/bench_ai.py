"""AI and simulation benchmarks: prints figures, asserts nothing.

    .venv/bin/python benchmarks/bench_ai.py                 # the four speed figures
    .venv/bin/python benchmarks/bench_ai.py --ladder 100    # plus the agent ladder

Minimums (one core of the project machine): random playout >= 10,000 actions/s;
`standard` median decision <= 5 ms; `standard` vs `standard` match <= 2 s median;
2 worker processes >= 1.7x one worker. Ladder: standard beats random in >= 95% of
matches, search beats standard in >= 60% (seeded, sides alternating, signature
decks of every general in turn; see throne_lib.games.throne.sim.ladder_specs).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time

from throne_lib import CardDB, Match, load_cards
from throne_lib.games.throne.decks import signature_deck
from throne_lib.games.throne.sim import ladder_specs
from throne_lib.kit.agents import RandomAgent, make_agent
from throne_lib.kit.sim import simulate

SEED = 20261129


def _decks(db: CardDB, i: int) -> tuple[str, str]:
    gens = [g.id for g in db.of("general")]
    return gens[i % len(gens)], gens[(i * 7 + 3) % len(gens)]


def random_playout(db: CardDB, matches: int) -> tuple[float, float]:
    """Actions per second of random-vs-random play (choose + legal actions + apply):
    per wall-clock second and per CPU second of this process (the one-core figure
    when other jobs share the machine)."""
    actions = 0
    t = time.perf_counter()
    cpu = time.process_time()
    for i in range(matches):
        a, b = _decks(db, i)
        m = Match.new(db, signature_deck(db, a), signature_deck(db, b), SEED + i)
        agents = (RandomAgent(2 * i), RandomAgent(2 * i + 1))
        while not m.is_over:
            m.apply(agents[m.turn].choose(m))
            actions += 1
    return actions / (time.perf_counter() - t), actions / (time.process_time() - cpu)


def standard_matches(db: CardDB, matches: int) -> tuple[list[float], list[float]]:
    """(per-decision times, per-match times) of standard-vs-standard play, in seconds."""
    decisions: list[float] = []
    totals: list[float] = []
    clock = time.process_time  # CPU time of this process: one core, whatever else runs
    for i in range(matches):
        a, b = _decks(db, i)
        m = Match.new(db, signature_deck(db, a), signature_deck(db, b), SEED + i)
        agents = (make_agent("standard", 2 * i), make_agent("standard", 2 * i + 1))
        start = clock()
        while not m.is_over:
            t = clock()
            action = agents[m.turn].choose(m)
            decisions.append(clock() - t)
            m.apply(action)
        totals.append(clock() - start)
    return decisions, totals


def scaling(db: CardDB, matches: int) -> tuple[float, float, float]:
    """Wall seconds for the same batch of standard-vs-standard matches on 1 worker (this
    process) and on 2 worker processes, and the cores the 2 workers actually got (their
    CPU seconds / wall seconds: below 2 when other jobs share the machine)."""
    specs = ladder_specs(db, "standard", "standard", matches, seed=SEED)
    # warm this process first (agent imports, per-table caches), as a worker warms up
    # before its first task is timed from the parent: otherwise the 1-worker run pays the
    # one-time costs inside its timing and the ratio reads above 2
    simulate(specs[:1], workers=1, backend="process", progress=False)
    t = time.perf_counter()
    simulate(specs, workers=1, backend="process", progress=False)
    one = time.perf_counter() - t
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    simulate(specs, workers=2, backend="process", progress=False, batch_size=2)
    two = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return one, two, cpu / two


def ladder(db: CardDB, n: int, iterations: int, workers: int) -> None:
    for agent, opponent, params in (
        ("standard", "random", {}),
        ("search", "standard", {"iterations": iterations}),
    ):
        specs = ladder_specs(db, agent, opponent, n, seed=SEED, params=(params, {}))
        t = time.perf_counter()
        df = simulate(specs, workers=workers, progress=True)
        dt = time.perf_counter() - t
        won = ((df.blue_agent == agent) & (df.winner == "blue")) | (
            (df.red_agent == agent) & (df.winner == "red")
        )
        draws = int((df.winner == "draw").sum())
        print(
            f"ladder {agent} vs {opponent} {params or ''}: {int(won.sum())}/{len(df)} = "
            f"{won.mean():.1%} wins, {draws} draws, mean {df.rounds.mean():.1f} rounds, "
            f"{dt:.0f} s on {workers} workers"
        )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--random-matches", type=int, default=40)
    p.add_argument("--standard-matches", type=int, default=20)
    p.add_argument("--scaling-matches", type=int, default=80)
    p.add_argument("--ladder", type=int, default=0, help="matches per ladder rung (0: skip)")
    p.add_argument("--iterations", type=int, default=12, help="search agent's budget")
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args()
    db = load_cards()
    print(f"card table: {len(db)} cards, {len(db.of('general'))} generals")
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    wall, cpu = random_playout(db, args.random_matches)
    print(f"random playout: {cpu:,.0f} actions per CPU s ({wall:,.0f} per wall s) (min 10,000)")
    decisions, totals = standard_matches(db, args.standard_matches)
    med = statistics.median(decisions) * 1000
    p90 = statistics.quantiles(decisions, n=10)[-1] * 1000
    print(
        f"standard decision: median {med:.2f} ms, p90 {p90:.2f} ms, max {max(decisions) * 1000:.1f} ms"
        f" CPU over {len(decisions)} decisions (max 5 ms median)"
    )
    print(
        f"standard vs standard match: median {statistics.median(totals):.3f} CPU s over "
        f"{len(totals)} matches (max 2 s)"
    )
    one, two, cores = scaling(db, args.scaling_matches)
    print(
        f"process scaling: 1 worker {one:.1f} s, 2 workers {two:.1f} s -> {one / two:.2f}x"
        f" (min 1.7x); the 2 workers got {cores:.2f} cores"
    )
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    if args.ladder:
        ladder(db, args.ladder, args.iterations, args.workers)


if __name__ == "__main__":
    main()
