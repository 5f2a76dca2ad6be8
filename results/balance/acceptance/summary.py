"""Issue #38's acceptance target, read from the runs of run-acceptance.sh: for every
proposal of results/balance/acceptance/acceptance-s*.parquet, its figures on the run's own
verification blocks (360 matches per general, seeds no step of the run played) — the
first seat, the generals outside 40-60% — and whether it meets the target: first seat
<= 55% and at most one general outside 40-60%, by at most 2 points. Usage, from the
repository's root: python results/balance/acceptance/summary.py [FILE...]"""

from __future__ import annotations

import glob
import json
import sys

import pandas as pd

LOW, HIGH, FIRST_MAX, SLACK = 0.40, 0.60, 0.55, 0.02


def summary(path: str) -> list[str]:
    df = pd.read_parquet(path)
    names = json.loads(df["run_json"].iloc[0]).get("names", {})
    lines = []
    for n, rows in df[df["proposal"] > 0].groupby("proposal"):
        first = rows[rows["group"] == "@first"]["verify"].iloc[0]
        gen = rows[rows["group"] != "@first"]
        out = gen[(gen["verify"] < LOW) | (gen["verify"] > HIGH)]
        far = [max(LOW - r, r - HIGH) for r in out["verify"]]
        ok = first <= FIRST_MAX and len(out) <= 1 and all(d <= SLACK + 1e-9 for d in far)
        touched = "touched_up" in rows and bool(rows["touched_up"].iloc[0])
        outs = ", ".join(
            f"{names.get(g, g)} {100 * r:.1f}%"
            for g, r in zip(out["group"], out["verify"], strict=True)
        )
        lines.append(
            f"{path}: proposal {n}{' (touched up)' if touched else ''}: "
            f"{int(rows['changes'].iloc[0])} changes, first seat {100 * first:.1f}%, "
            f"{len(out)} out of 40-60% ({outs or 'none'}), imbalance "
            f"{rows['verify_imbalance'].iloc[0]:.3f}: target {'MET' if ok else 'not met'}"
        )
    return lines


if __name__ == "__main__":
    for path in sys.argv[1:] or sorted(
        glob.glob("results/balance/acceptance/acceptance-s*.parquet")
    ):
        print("\n".join(summary(path)))
