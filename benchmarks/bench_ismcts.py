"""ISMCTS per game: its speed beside the kit's ``search`` agent, and its strength against
each game's best existing agent at several budgets (issue 32).

Speed (one run, alternating the two agents on the same positions, CPU time of this
process): ISMCTS iterations per second and the kit ``search`` agent's playouts per
second, their ratio, and the load average. Strength: a ``throne ladder`` per game and
budget (:mod:`throne_lib.kit.ladder`) — Throne and PIN round robins with seats swapped on
paired seeds; 城堡之心 and 城池战 the ISMCTS seat against the same seat played by the
scripted agent on the same seeds, per role. Ladder rows go to ``OUT/<game>_i<budget>.parquet``
(``throne report FILE`` prints them again).

The full-size run the issue asks for (≥ 200 seeds; hours of CPU)::

    nice -n 15 python benchmarks/bench_ismcts.py --seeds 200 --budgets 10,40,100 \\
        --workers 2 --seed 5000 --out results/ismcts

A smoke run: ``python benchmarks/bench_ismcts.py --seeds 2 --budgets 4 --games castle``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

from throne_lib.kit import registry
from throne_lib.kit.agents import SearchAgent, make_agent
from throne_lib.kit.ismcts import IsmctsAgent
from throne_lib.kit.ladder import ladder_specs, ladder_text, parse_entrant, run_ladder
from throne_lib.kit.sim import save_results

#: the best existing agent of each game and the seats a strength run uses
BEST = {"throne": "standard", "pin": "standard", "castle": "scripted", "cities": "scripted"}
SEATS = {"throne": 2, "pin": 2, "castle": 5, "cities": 4}


def positions(name: str, k: int, seed: int) -> list[Any]:
    """``k`` positions of ``name`` at a choice, from default-agent play (seeded)."""
    g = registry.get(name)
    assert g.default_setups is not None
    out: list[Any] = []
    rng = random.Random(seed)
    while len(out) < k:
        m = g.new(g.default_setups(SEATS.get(name, g.seats[0])), seed=rng.randrange(10**6))
        agents = [make_agent(g.default_agent, s, name) for s in range(m.num_seats)]
        for _ in range(rng.randrange(10, 80)):
            if m.is_over:
                break
            m.apply(agents[m.current_seat].choose(m))
        if not m.is_over and len(m.legal_actions()) > 1:
            out.append(m)
    return out


def speed(name: str, iterations: int, k: int, seed: int) -> dict[str, float]:
    """ISMCTS iterations/s and kit-search playouts/s on the same positions, alternated."""
    pos = positions(name, k, seed)
    t_is = t_se = 0.0
    n_is = n_se = 0
    for i, m in enumerate(pos):
        for which in (0, 1) if i % 2 == 0 else (1, 0):
            start = time.process_time()
            if which == 0:
                a = IsmctsAgent(i, game=name, iterations=iterations)
                a.search(m)
                t_is += time.process_time() - start
                n_is += iterations
            else:
                SearchAgent(i, iterations=iterations).choose(m)  # the kit's, in every game
                t_se += time.process_time() - start
                n_se += max(iterations, len(m.legal_actions()))
    return {"ismcts_it_s": n_is / t_is, "search_po_s": n_se / t_se, "ismcts_ms": 1000 * t_is / n_is}


def decision_time(name: str, params: dict[str, Any], k: int, seed: int) -> tuple[float, float]:
    """Mean and max CPU seconds per ``choose`` of ISMCTS with ``params`` on ``k`` positions."""
    times = []
    for i, m in enumerate(positions(name, k, seed)):
        start = time.process_time()
        IsmctsAgent(i, game=name, **params).choose(m)
        times.append(time.process_time() - start)
    return sum(times) / len(times), max(times)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", default="throne,pin,castle,cities")
    p.add_argument("--budgets", default="10,40,100", help="ISMCTS iterations per decision")
    p.add_argument("--seeds", type=int, default=20, help="seeds per ladder")
    p.add_argument("--seed", type=int, default=5000, help="first seed (never tuned on)")
    p.add_argument("--speed-positions", type=int, default=6)
    p.add_argument("--speed-iterations", type=int, default=20)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", default="results/ismcts")
    p.add_argument("--skip-speed", action="store_true")
    p.add_argument("--skip-strength", action="store_true")
    p.add_argument(
        "--params", default="", help="more ISMCTS parameters, e.g. policy_prior=1:widen=0.5"
    )
    p.add_argument("--seats", default="",
                   help="seats per game where the game has several, e.g. castle=8")  # fmt: skip
    p.add_argument("--decision-time", action="store_true",
                   help="CPU seconds per decision at each budget (on the speed positions)")  # fmt: skip
    args = p.parse_args(argv)
    for item in filter(None, args.seats.split(",")):
        game, _, n = item.partition("=")
        if game not in SEATS or not n.isdigit():
            p.error(f"--seats {item!r}: GAME=N with GAME one of {', '.join(SEATS)}")
        SEATS[game] = int(n)
    games = [g for g in args.games.split(",") if g]
    budgets = [int(b) for b in args.budgets.split(",") if b]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print(f"# bench_ismcts {' '.join(sys.argv[1:])}; seats {SEATS}; "
          f"load average {os.getloadavg()}", flush=True)  # fmt: skip
    if not args.skip_speed:
        print("game     ismcts it/s  search playouts/s  ratio  ms/iteration  "
              "iterations in 1 s", flush=True)  # fmt: skip
        for name in games:
            r = speed(name, args.speed_iterations, args.speed_positions, args.seed)
            print(f"{name:8s} {r['ismcts_it_s']:11.1f}  {r['search_po_s']:17.1f}  "
                  f"{r['ismcts_it_s'] / r['search_po_s']:5.2f}  {r['ismcts_ms']:12.1f}  "
                  f"{int(1000 / r['ismcts_ms']):17d}", flush=True)  # fmt: skip
        print(f"# load average after the speed runs {os.getloadavg()}", flush=True)
    extra = parse_entrant(f"ismcts:{args.params}").params if args.params else ()
    if args.decision_time:
        print("game     budget  s/decision (mean, max)", flush=True)
        for name in games:
            for b in budgets:
                mean, top = decision_time(
                    name, {"iterations": b, **dict(extra)}, args.speed_positions, args.seed
                )
                print(f"{name:8s} {b:6d}  {mean:.3f} {top:.3f}", flush=True)
    if args.skip_strength:
        return 0
    for name in games:
        for b in budgets:
            spec = f"ismcts:iterations={b}" + (f":{args.params}" if args.params else "")
            entrants = [parse_entrant(BEST[name]), parse_entrant(spec)]
            specs = ladder_specs(registry.get(name), entrants, args.seeds, SEATS[name], args.seed)
            start = time.time()
            df = run_ladder(specs, workers=args.workers, progress=False)
            tag = "_" + args.params.replace(":", "_").replace("=", "") if args.params else ""
            path = save_results(df, out / f"{name}_i{b}{tag}.parquet")
            print(f"\n## {name}, ismcts {b} iterations/decision: {len(df)} matches in "
                  f"{time.time() - start:.0f} s wall -> {path}", flush=True)  # fmt: skip
            print(ladder_text(df), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
