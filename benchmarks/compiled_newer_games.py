"""城堡之心 and 城池战 compiled against pure Python: prints figures, asserts nothing.

    .venv/bin/python benchmarks/compiled_newer_games.py                 # 3 rounds
    .venv/bin/python benchmarks/compiled_newer_games.py --rounds 5 --matches 30

Each round runs the same workloads in two child processes, one on the installed build
(compiled by mypyc, docs/speed.md) and one with ``THRONE_PURE=1``, alternating which goes
first. Workloads, CPU time of the child (``time.process_time``):

- ``castle scripted``: whole matches of 5 seats, every seat the scripted agent (CH-AI);
- ``castle ismcts``: one ISMCTS decision (the game's defaults, ``--iterations``) on each of
  ``--positions`` positions of ``--castle-seats`` seats (6);
- ``cities scripted`` / ``cities ismcts``: the same for 城池战 at 4 seats.

Every workload also prints a digest of what it played (every action of every match, every
chosen action), which must be the same on both builds: the speed-up changes no result.
The load average before and after each round is printed beside it (a shared machine).

``--other PATH`` compares this checkout's compiled build with another checkout's (each
built in place: ``THRONE_COMPILE=1 python setup.py build_ext --inplace``) instead of with
pure Python: a change's speed-up on the compiled engine, the two alternated the same way.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WORKLOADS = ("castle scripted", "castle ismcts", "cities scripted", "cities ismcts")
SEATS = {"castle": 6, "cities": 4}


def scripted_matches(name: str, seats: int, n: int) -> tuple[float, str]:
    from throne_lib.kit import registry
    from throne_lib.kit.agents import make_agent

    g = registry.get(name)
    assert g.default_setups is not None
    digest = hashlib.sha256()
    start = time.process_time()
    for seed in range(n):
        m = g.new(g.default_setups(seats), seed=seed)
        agents = [make_agent(g.default_agent, seed * 31 + s, name) for s in range(seats)]
        while not m.is_over:
            a = agents[m.current_seat].choose(m)
            digest.update(str(a).encode())
            m.apply(a)
    return time.process_time() - start, digest.hexdigest()[:16]


def ismcts_decisions(name: str, k: int, iterations: int) -> tuple[float, str]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_ismcts

    from throne_lib.kit.ismcts import IsmctsAgent

    bench_ismcts.SEATS[name] = SEATS[name]
    positions = bench_ismcts.positions(name, k, 4242)
    digest = hashlib.sha256()
    start = time.process_time()
    for i, m in enumerate(positions):
        digest.update(str(IsmctsAgent(i, game=name, iterations=iterations).choose(m)).encode())
    return (time.process_time() - start) / len(positions), digest.hexdigest()[:16]


def child(args: argparse.Namespace) -> None:
    from throne_lib.compiled import loaded_build

    out: dict[str, Any] = {"build": loaded_build()}
    SEATS["castle"] = args.castle_seats
    for w in WORKLOADS:
        name, kind = w.split()
        if kind == "scripted":
            out[w] = scripted_matches(name, 5 if name == "castle" else 4, args.matches)
        else:
            out[w] = ismcts_decisions(name, args.positions, args.iterations)
    print(json.dumps(out))


@dataclass(frozen=True)
class Variant:
    """One side of the comparison: a label, the build it must run, and its checkout."""

    label: str
    build: str  # "compiled" or "pure"
    root: Path


def run_child(variant: Variant, args: argparse.Namespace) -> dict[str, Any]:
    env = dict(os.environ)
    env.pop("THRONE_PURE", None)
    if variant.build == "pure":
        env["THRONE_PURE"] = "1"
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(variant.root), env.get("PYTHONPATH", "")) if p
    )  # that checkout's throne_lib, not the installed one
    cmd = [sys.executable, __file__, "--child", "--matches", str(args.matches)]
    cmd += ["--positions", str(args.positions), "--iterations", str(args.iterations)]
    cmd += ["--castle-seats", str(args.castle_seats)]
    res = subprocess.run(cmd, env=env, cwd=variant.root, capture_output=True, text=True, check=True)
    data: dict[str, Any] = json.loads(res.stdout.strip().splitlines()[-1])
    return data


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--matches", type=int, default=20, help="scripted matches per workload")
    p.add_argument("--positions", type=int, default=6, help="ISMCTS decisions per workload")
    p.add_argument("--iterations", type=int, default=40, help="ISMCTS iterations a decision")
    p.add_argument("--castle-seats", type=int, default=6, help="seats of the castle decisions")
    p.add_argument(
        "--other", type=Path, help="another checkout's compiled build instead of pure Python"
    )
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        child(args)
        return
    print(f"# {' '.join(sys.argv)}; load average {os.getloadavg()}", flush=True)
    if args.other is not None:
        first = Variant("this", "compiled", ROOT)
        second = Variant("other", "compiled", args.other.resolve())
    else:
        first, second = Variant("compiled", "compiled", ROOT), Variant("pure", "pure", ROOT)
    runs: dict[str, list[dict[str, Any]]] = {first.label: [], second.label: []}
    for r in range(args.rounds):
        order = (first, second) if r % 2 == 0 else (second, first)
        for variant in order:
            load = os.getloadavg()[0]
            data = run_child(variant, args)
            if data["build"] != variant.build:
                raise SystemExit(f"asked for {variant.build}, the child ran {data['build']}")
            runs[variant.label].append(data)
            cells = "  ".join(f"{w}: {data[w][0]:.3f} s" for w in WORKLOADS)
            print(
                f"round {r + 1} {variant.label:8s} load {load:.2f}→{os.getloadavg()[0]:.2f}  {cells}"
            )
    print(
        f"\nworkload          unit          {second.label:>8s} {first.label:>8s}"
        "  speed-up (per-round range)  same digest"
    )
    for w in WORKLOADS:
        slow = [d[w][0] for d in runs[second.label]]
        fast = [d[w][0] for d in runs[first.label]]
        ratios = [a / b for a, b in zip(slow, fast, strict=True)]
        same = {d[w][1] for d in runs[second.label]} == {d[w][1] for d in runs[first.label]}
        unit = f"{args.matches} matches" if w.endswith("scripted") else "s a decision"
        print(f"{w:17s} {unit:13s} {statistics.median(slow):8.3f} {statistics.median(fast):8.3f}"
              f"  {statistics.median(ratios):5.2f}x ({min(ratios):.2f}–{max(ratios):.2f})"
              f"          {'yes' if same else 'NO'}")  # fmt: skip
    print(f"# load average at the end {os.getloadavg()}")


if __name__ == "__main__":
    main()
