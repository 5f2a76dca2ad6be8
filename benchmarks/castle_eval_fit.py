"""Fit 城堡之心's cut-off evaluation to how matches end (issue 32), and say how well it predicts.

Where ISMCTS cuts a rollout off (``rollout_actions``), the position is scored by the game's
evaluation: ``evaluate`` in ``throne_lib/games/castle/ismcts.py``, a hand-made mix of the
camps' HP. This script fits ``evaluation=fitted`` instead — the castle camp's chance to win
as a logistic model of ``EVAL_FEATURES`` (HP, who is alive, soldiers, cards in hand,
equipment, the 城主's danger, the round, the table) — to positions of all-scripted matches
at 5–8 seats (every ``--every``-th action after the preparation, each labelled by whether
the castle camp went on to win), and scores both on matches it did not fit on: the mean
log-likelihood of the outcome (the hand-made one recalibrated by its own logistic fit on
the training positions, to be fair to it) and the AUC, pooled and per seat count.

It prints the weights, which ``EVAL_WEIGHTS`` holds. Usage (the seeds of those weights)::

    python benchmarks/castle_eval_fit.py --train 930000:400 --test 940000:200 \\
        --out results/ismcts/castle_eval_fit_20261208.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import numpy as np
import pandas as pd

from throne_lib.games.castle.agents import ScriptedAgent
from throne_lib.games.castle.ismcts import EVAL_FEATURES, eval_features, evaluate
from throne_lib.games.castle.match import CastleMatch

Data = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # features, won, hand-made, seats


def collect(seats: int, first: int, n: int, every: int) -> Data:
    """Positions of ``n`` all-scripted matches from seed ``first``: their features, whether
    the castle camp won, the hand-made evaluation's value for the 城主, the seat count."""
    xs: list[list[float]] = []
    won: list[float] = []
    base: list[float] = []
    for seed in range(first, first + n):
        m = CastleMatch(seats, seed=seed)
        agents = [ScriptedAgent(seed, seat=i) for i in range(seats)]
        lord = next(p.seat for p in m.state.players if p.role == "lord")
        rows = []
        k = 0
        while not m.is_over:
            if k % every == 0 and m.state.stage != "prep":
                rows.append((eval_features(m), evaluate(m)[lord]))
            k += 1
            m.apply(agents[m.current_seat].choose(m))
        y = 1.0 if m.returns()[lord] > 0 else 0.0
        for f, b in rows:
            xs.append(f)
            won.append(y)
            base.append(b)
    return np.array(xs), np.array(won), np.array(base), np.full(len(won), seats)


def gather(spec: str, seat_counts: list[int], every: int) -> Data:
    first, n = (int(x) for x in spec.split(":"))
    parts = [collect(k, first, n, every) for k in seat_counts]
    x, y, b, s = (np.concatenate(z) for z in zip(*parts, strict=True))
    return x, y, b, s


def fit_logit(x: np.ndarray, y: np.ndarray, steps: int = 3000, l2: float = 1e-3) -> np.ndarray:
    """Logistic regression by Adam on the mean log-likelihood (``l2`` on the weights)."""
    w = np.zeros(x.shape[1])
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for t in range(1, steps + 1):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        g = x.T @ (p - y) / len(y) + l2 * w
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        w -= 0.05 * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return w


def loglik(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def auc(score: np.ndarray, y: np.ndarray) -> float:
    """The chance a won position scores above a lost one (ties half), or NaN."""
    pos, neg = score[y == 1], score[y == 0]
    if not len(pos) or not len(neg):
        return float("nan")
    ranks = pd.Series(np.concatenate([pos, neg])).rank().to_numpy()  # ties: mean rank
    return float((ranks[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--train", default="930000:400", help="FIRST:N seeds a seat count to fit on")
    ap.add_argument("--test", default="940000:200", help="FIRST:N seeds a seat count to score on")
    ap.add_argument("--seats", default="5,6,7,8")
    ap.add_argument("--every", type=int, default=6, help="a position every N actions")
    ap.add_argument("--out", default="")
    a = ap.parse_args(argv)
    t0 = time.time()
    counts = [int(x) for x in a.seats.split(",")]
    xtr, ytr, btr, _ = gather(a.train, counts, a.every)
    xte, yte, bte, ste = gather(a.test, counts, a.every)
    print(f"{len(ytr)} training positions (castle won {ytr.mean():.3f}), {len(yte)} test positions "
          f"({yte.mean():.3f}); {time.time() - t0:.0f} s")  # fmt: skip
    w = fit_logit(xtr, ytr)
    wb = fit_logit(np.c_[np.ones_like(btr), btr], ytr)
    p_fit = 1.0 / (1.0 + np.exp(-(xte @ w)))
    p_base = 1.0 / (1.0 + np.exp(-(np.c_[np.ones_like(bte), bte] @ wb)))
    results: dict[str, Any] = {}
    print(f"\non the test seeds {a.test}: log-likelihood of the outcome (higher is better), AUC")
    print(f"{'':10}{'positions':>10}{'castle won':>11}{'prior':>9}{'hand-made':>11}{'fitted':>9}"
          f"{'AUC hand-made':>15}{'AUC fitted':>12}")  # fmt: skip
    for label, mask in [
        ("all", np.ones(len(yte), bool)),
        *((f"{k} seats", ste == k) for k in counts),
    ]:
        y = yte[mask]
        row = {
            "positions": int(mask.sum()),
            "castle_won": round(float(y.mean()), 4),
            "loglik_prior": round(loglik(np.full(len(y), ytr.mean()), y), 4),
            "loglik_hand_made": round(loglik(p_base[mask], y), 4),
            "loglik_fitted": round(loglik(p_fit[mask], y), 4),
            "auc_hand_made": round(auc(bte[mask], y), 3),
            "auc_fitted": round(auc(xte[mask] @ w, y), 3),
        }
        results[label] = row
        print(
            f"{label:10}"
            + "".join(
                f"{v:>{n}}" for v, n in zip(row.values(), (10, 11, 9, 11, 9, 15, 12), strict=True)
            )
        )
    weights = [round(float(x), 4) for x in w]
    print("\nEVAL_WEIGHTS = {")
    for f, x in zip(EVAL_FEATURES, weights, strict=True):
        print(f'    "{f}": {x},')
    print("}")
    if a.out:
        with open(a.out, "w", encoding="utf-8") as fh:
            json.dump({"command": " ".join(sys.argv), "train": a.train, "test": a.test, "seats": counts,
                       "every": a.every, "features": list(EVAL_FEATURES), "weights": weights,
                       "hand_made_recalibration": [round(float(x), 4) for x in wb],
                       "results": results}, fh, ensure_ascii=False, indent=1)  # fmt: skip
    print(f"({time.time() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
