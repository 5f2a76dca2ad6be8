"""Issue #38's acceptance target, read from saved runs: for every proposal of each file,
its figures on the run's own verification blocks (360 matches per general, seeds no step
of the run played) — the first seat, the generals outside 40-60% — and whether it meets
the target: first seat <= 55% and at most one general outside 40-60%, by at most 2
points. The judging is benchmarks/balance_acceptance.py's (which also runs the runs).
Usage, from the repository's root:
python results/balance/acceptance/summary.py [FILE...]
(default: results/balance/acceptance/acceptance-s*.parquet)"""

from __future__ import annotations

import glob
import importlib.util
import sys
from pathlib import Path

_BENCH = Path(__file__).resolve().parents[3] / "benchmarks" / "balance_acceptance.py"
_spec = importlib.util.spec_from_file_location("balance_acceptance", _BENCH)
assert _spec is not None and _spec.loader is not None
acceptance = sys.modules["balance_acceptance"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(acceptance)


def summary(path: str) -> list[str]:
    return [v.line() for v in acceptance.verdicts(path)]


if __name__ == "__main__":
    for path in sys.argv[1:] or sorted(
        glob.glob("results/balance/acceptance/acceptance-s*.parquet")
    ):
        print("\n".join(summary(path)))
