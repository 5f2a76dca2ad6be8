"""Does tree reuse (``ismcts:reuse=1``) make a decision better at the same budget?

On positions where a seat decides and then decides again right after its own action (the
case reuse applies to), the second decision is made four ways: afresh at the budget B,
with reuse at B (the agent that made the first decision at B goes on from its subtree),
afresh at 2B (what reuse would be worth if it doubled the budget), and by a reference
search at ``--reference`` x B with another seed. Each is scored by how often it picks the
reference's move: a proxy for decision quality that needs no whole matches (a ladder at
200 seeds cannot tell a budget from 1.4 times that budget). Deterministic: positions from
``bench_ismcts.positions`` with ``--seed``, agent seeds by position.

    python benchmarks/ismcts_reuse.py --game castle --seats 5 --budget 40 --positions 100
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import bench_ismcts  # noqa: E402

from throne_lib.kit.ismcts import IsmctsAgent, action_key  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="castle")
    p.add_argument("--seats", type=int, default=5)
    p.add_argument("--budget", type=int, default=40, help="iterations B")
    p.add_argument("--reference", type=int, default=16, help="the reference's budget, x B")
    p.add_argument("--positions", type=int, default=100)
    p.add_argument("--seed", type=int, default=9000)
    args = p.parse_args(argv)
    name, b = args.game, args.budget
    bench_ismcts.SEATS[name] = args.seats
    start = time.process_time()
    found = 0
    agree = {"fresh B": 0, "reuse B": 0, "fresh 2B": 0}
    reused = 0.0
    differ = {"reuse B": 0, "fresh 2B": 0}  # positions where it picks otherwise than fresh B
    k = 0
    while found < args.positions and k < 20 * args.positions:
        (m,) = bench_ismcts.positions(name, 1, args.seed + k)
        k += 1
        seat = m.current_seat
        first = IsmctsAgent(k, game=name, iterations=b, reuse=1)
        a = first.choose(m)
        if first.stats["iterations"] == 0:  # a decisive move: nothing to reuse
            continue
        m.apply(a)
        if m.is_over or m.current_seat != seat or len(m.legal_actions()) < 2:
            continue
        found += 1
        ref = IsmctsAgent(10**6 + k, game=name, iterations=args.reference * b).choose(m.copy())
        picks = {
            "fresh B": IsmctsAgent(k, game=name, iterations=b).choose(m.copy()),
            "reuse B": first.choose(m.copy()),
            "fresh 2B": IsmctsAgent(k, game=name, iterations=2 * b).choose(m.copy()),
        }
        reused += first.stats["reused"]
        for key, pick in picks.items():
            agree[key] += action_key(pick) == action_key(ref)
            if key in differ:
                differ[key] += action_key(pick) != action_key(picks["fresh B"])
    cpu = time.process_time() - start
    print(f"# ismcts_reuse {' '.join(sys.argv[1:])}; load {os.getloadavg()}")
    print(f"{name} {args.seats} seats, B = {b}, reference {args.reference}B: {found} positions "
          f"(of {k} drawn), reuse started from {reused / max(1, found):.1f} visits on average; "
          f"{cpu:.0f} CPU-s")  # fmt: skip
    for key, n in agree.items():
        other = f"; picks otherwise than fresh B on {differ[key]}" if key in differ else ""
        print(f"  {key:9} agrees with the reference on {n:3d} / {found} ({100 * n / max(1, found):.1f}%){other}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
