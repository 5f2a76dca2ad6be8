"""The balance assistant's speed-up per worker, on processes and on a Dask cluster (issue 38, item 7).

    .venv/bin/python benchmarks/balance_scaling.py                       # 2 rounds, 1 and 2 workers
    .venv/bin/python benchmarks/balance_scaling.py --rounds 3 --workers 1,2 --out results/balance/scaling

Runs one fixed ``throne balance suggest`` (same seed, same small budget) with
``--backend process --workers W`` and ``--backend dask --workers W`` (a ``LocalCluster`` of W
worker processes) for each W, alternating the configurations round by round so the shared
machine's load falls on all of them alike. Prints, per configuration, the median wall time,
the speed-up against one process worker measured in the same run, and the load average
before/after each run; and checks that every run wrote the same proposals (the report from
``== proposal`` on, which excludes the command line and the options). Asserts nothing: a
figure to read, with the load beside it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUDGET = [
    "--agent", "standard", "--population", "6", "--generations", "3", "--blocks", "4",
    "--block-rounds", "2", "--holdout-blocks", "4", "--proposals", "2", "--repair", "2",
    "--seed", "7", "--no-progress",
]  # fmt: skip


def throne() -> list[str]:
    exe = Path(sys.executable).with_name("throne")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "throne_lib.cli"]


def proposals(parquet: Path) -> str:
    """The proposals as ``balance show`` prints them, without the run's own command/options."""
    text = subprocess.run(
        [*throne(), "balance", "show", str(parquet)], capture_output=True, text=True, check=True
    ).stdout
    return text[text.index("== proposal") :] if "== proposal" in text else text


def run(backend: str, workers: int, out: Path) -> dict[str, object]:
    cmd = [*throne(), "balance", "suggest", *BUDGET, "--backend", backend]
    cmd += ["--workers", str(workers), "--out", str(out)]
    load0 = os.getloadavg()[0]
    t = time.perf_counter()
    subprocess.run(cmd, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    return {"wall": wall, "load0": load0, "load1": os.getloadavg()[0], "shown": proposals(out)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    ap.add_argument("--backends", default="process,dask")
    ap.add_argument("--out", type=Path, default=Path("/tmp/balance_scaling"))
    args = ap.parse_args(argv)
    counts = [int(w) for w in args.workers.split(",")]
    configs = [(b, w) for w in counts for b in args.backends.split(",")]
    args.out.mkdir(parents=True, exist_ok=True)
    print(f"cores: {os.cpu_count()}; budget: {' '.join(BUDGET)}")
    runs: dict[tuple[str, int], list[dict[str, object]]] = {c: [] for c in configs}
    for r in range(args.rounds):
        order = configs if r % 2 == 0 else configs[::-1]
        for backend, w in order:
            res = run(backend, w, args.out / f"{backend}-{w}-r{r}.parquet")
            runs[(backend, w)].append(res)
            print(
                f"round {r + 1}: {backend:7s} x{w}: {res['wall']:6.1f} s "
                f"(load {res['load0']:.2f} -> {res['load1']:.2f})",
                flush=True,
            )
    ref = statistics.median(float(x["wall"]) for x in runs[configs[0]])  # type: ignore[arg-type]
    print(f"\n{'backend':8s} {'workers':>7s} {'median s':>9s} {'speed-up':>9s}  loads")
    for (backend, w), rs in runs.items():
        med = statistics.median(float(x["wall"]) for x in rs)  # type: ignore[arg-type]
        loads = ", ".join(f"{x['load0']:.1f}->{x['load1']:.1f}" for x in rs)
        print(f"{backend:8s} {w:7d} {med:9.1f} {ref / med:8.2f}x  {loads}")
    shown = {str(x["shown"]) for rs in runs.values() for x in rs}
    print(
        f"\nsame proposals in every run: {'yes' if len(shown) == 1 else f'NO ({len(shown)} variants)'}"
    )
    return 0 if len(shown) == 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
