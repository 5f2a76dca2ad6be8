"""Issue #38's first target, measured: the recommended balance run on several run seeds,
each judged on its own verification (docs/balance.md, "The screened search").

    .venv/bin/python benchmarks/balance_acceptance.py --seeds 65,66,67,68,69 \\
        --prefix confirmed -- --confirm 30          # run the five, then judge them
    .venv/bin/python benchmarks/balance_acceptance.py results/balance/screened/confirmed-s*.parquet

The target: a run's proposal, re-measured on fresh verification seeds with at least 360
matches per general, has the first seat at most 55% and at most one general outside
40-60%, by at most 2 points; 4 of 5 runs on different run seeds must give one. Each run
is ``results/balance/screened/run-screened.sh SEED [OPTION...]`` (the command is written
there once; PREFIX names its files), played one after another so each has both cores.
The run judged is its **last** proposal, the table with every move the run kept (its
first is the first-seat lever alone, which no run expects to meet the generals' band);
every proposal is printed. Asserts nothing: a figure to read, with each run's wall time
and the load average it started at.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "results" / "balance" / "screened" / "run-screened.sh"
LOW, HIGH, FIRST_MAX, SLACK = 0.40, 0.60, 0.55, 0.02
MIN_MATCHES = 360
RUNS_NEEDED = 4  # of 5


@dataclass(frozen=True)
class Verdict:
    """One proposal of a run, on the run's verification seeds."""

    path: str
    proposal: int
    changes: int
    touched_up: bool
    first: float
    out: tuple[tuple[str, float], ...]  # (general's name, verification rate)
    imbalance: float
    fewest_matches: int

    @property
    def met(self) -> bool:
        far = [max(LOW - r, r - HIGH) for _, r in self.out]
        return (
            self.first <= FIRST_MAX
            and len(self.out) <= 1
            and all(d <= SLACK + 1e-9 for d in far)
            and self.fewest_matches >= MIN_MATCHES
        )

    def line(self) -> str:
        outs = ", ".join(f"{g} {100 * r:.1f}%" for g, r in self.out)
        return (
            f"{self.path}: proposal {self.proposal}{' (touched up)' if self.touched_up else ''}: "
            f"{self.changes} changes, first seat {100 * self.first:.1f}%, "
            f"{len(self.out)} out of 40-60% ({outs or 'none'}), imbalance {self.imbalance:.3f}: "
            f"target {'MET' if self.met else 'not met'}"
        )


def verdicts(path: str | Path) -> list[Verdict]:
    """Every proposal of the run saved at ``path``, judged on its verification figures."""
    df = pd.read_parquet(path)
    names = json.loads(df["run_json"].iloc[0]).get("names", {})
    out = []
    for n, rows in df[df["proposal"] > 0].groupby("proposal"):
        first = float(rows[rows["group"] == "@first"]["verify"].iloc[0])
        gen = rows[rows["group"] != "@first"]
        off = gen[(gen["verify"] < LOW) | (gen["verify"] > HIGH)]
        out.append(
            Verdict(
                str(path),
                int(str(n)),
                int(rows["changes"].iloc[0]),
                "touched_up" in rows and bool(rows["touched_up"].iloc[0]),
                first,
                tuple(
                    (names.get(g, g), float(r))
                    for g, r in zip(off["group"], off["verify"], strict=True)
                ),
                float(rows["verify_imbalance"].iloc[0]),
                int(gen["verify_matches"].min()),
            )
        )
    return out


def wall_minutes(path: str | Path) -> float | None:
    """The run's wall time, from its report (``run: … in N s wall``), if there is one."""
    report = Path(path).with_suffix(".txt")
    if not report.is_file():
        return None
    found = re.search(r"in (\d+) s wall", report.read_text())
    return int(found.group(1)) / 60 if found else None


def judge(paths: list[str]) -> int:
    """Print every proposal and each run's verdict; the number of runs that met it."""
    met = 0
    for path in paths:
        vs = verdicts(path)
        for v in vs:
            print(v.line())
        wall = wall_minutes(path)
        last = vs[-1] if vs else None
        ok = last is not None and last.met
        met += ok
        print(
            f"  run {Path(path).stem}: {wall:.1f} min, " if wall is not None else "  run: ",
            f"its last proposal {'meets' if ok else 'does not meet'} the target",
            sep="",
        )
    print(f"target: {RUNS_NEEDED} of 5 runs; met by {met} of {len(paths)}")
    return met


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    cut = argv.index("--") if "--" in argv else len(argv)
    argv, extra = argv[:cut], argv[cut + 1 :]  # after "--": options for each run
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", help="saved runs (Parquet) to judge instead of running")
    ap.add_argument("--seeds", help="comma-separated run seeds to run, one after another")
    ap.add_argument("--prefix", default="screened", help="names the runs' files (PREFIX-sSEED)")
    args = ap.parse_args(argv)
    paths = list(args.files)
    if args.seeds:
        for seed in args.seeds.split(","):
            env = {**os.environ, "PREFIX": args.prefix}
            subprocess.run(["sh", str(SCRIPT), seed.strip(), *extra], check=True, env=env)
            paths.append(str(SCRIPT.parent / f"{args.prefix}-s{seed.strip()}.parquet"))
    if not paths:
        ap.error("give --seeds to run or saved runs to judge")
    judge(paths)
    return 0


if __name__ == "__main__":
    sys.exit(main())
