"""Fit 城堡之心's identity belief to what the seats do (issue 32), and say how well it guesses.

ISMCTS deals the hidden identities of each determinization. ``belief=B`` weights a deal by
exp(B x its agreement with CH-AI-2's suspicion scores), one number per seat. This script
fits a richer model instead — a conditional logit over the deals: a deal's weight is
exp(sum over hidden seats of W[role] . features(seat)), the features
(``FEATURES`` below) read from the deciding seat's observation
alone — to the decisions of all-scripted matches (the tablemates the ladder plays among),
and compares the three beliefs on matches it did not fit on:

* the mean log-probability of the true deal (higher is better; uniform is the floor);
* the mean probability each hidden seat is dealt its true identity, per identity.

The fitted model is what the scripted seats do, so it would be an opponent model: against
other players a prior, not a fact. What it found (2026-12-08, the command below; the
output ``results/ismcts/castle_belief_fit_20261208.{txt,json}``): on the test seeds it
puts more probability on the true deal than ``belief=0.5`` (mean log P -1.00 against
-1.18; at 7 seats -1.06 against -1.28) but gives each hidden seat its true identity no more
often (the 援军 0.768 against 0.769, the 中立 0.358 against 0.345): a better-calibrated
posterior, not a sharper one. The public tallies hold no identity the suspicion score
misses (read through these features), so the kit's agent keeps ``belief``; what is left is the order of the seats'
choices, which tallies do not keep. Usage::

    python benchmarks/castle_belief_fit.py --train 910000:200 --test 920000:100 \\
        --out results/ismcts/castle_belief_fit_20261208.json
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from typing import Any

import numpy as np

from throne_lib.games.castle.agents import ScriptedAgent, suspicion
from throne_lib.games.castle.ismcts import CASTLE, LEAN, _deals
from throne_lib.games.castle.match import CastleMatch

# What a fitted belief reads of each hidden seat (``belief_features``): the public tallies
# of harm and help (CH-AI-2) it dealt and took, split by whom — the 城主, the seats known
# (shown) to be of the castle or the 敌军, and the hidden ones signed by their suspicion —
# and its own suspicion score.
FEATURES = (
    "suspicion",
    "harm_lord",
    "help_lord",
    "harm_castle",
    "help_castle",
    "harm_enemy",
    "help_enemy",
    "harm_hidden",
    "help_hidden",
    "hurt_by_lord",
    "helped_by_lord",
    "hurt_by_enemy",
    "hurt_by_hidden",
)


def _side(role: str, camp: str) -> int:
    """+1 a shown 敌军 (or a 中立 declared for it), -1 the castle's, 0 not known."""
    if role == "enemy" or (role == "neutral" and camp == "enemy"):
        return 1
    if role in CASTLE or (role == "neutral" and camp == "castle"):
        return -1
    return 0


def belief_features(obs: dict[str, Any]) -> tuple[tuple[int, ...], tuple[tuple[float, ...], ...]]:
    """The seats whose identity ``obs`` hides, and for each the values of ``FEATURES``:
    read from that observation alone (the shown roles and camps, the public tallies)."""
    me = obs["seat"]
    players = obs["players"]
    shown = [obs["role"] if q == me else p["role"] for q, p in enumerate(players)]
    side = [_side(r, p["camp"]) for r, p in zip(shown, players, strict=True)]
    lord = next((q for q, r in enumerate(shown) if r == "lord"), -1)
    sus = suspicion(obs)
    sign = [max(-1.0, min(1.0, sus.get(q, 0.0) / 3.0)) for q in range(len(players))]
    harm, helped = obs["harm"], obs["helped"]
    hidden = tuple(q for q, r in enumerate(shown) if r == "?")
    out = []
    for q in hidden:
        f = [sus.get(q, 0.0), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        for b in range(len(players)):
            if b == q:
                continue
            h, g, took = harm[q][b], helped[q][b], harm[b][q]
            if b == lord:
                f[1] += h
                f[2] += g
                f[9] += took
                f[10] += helped[b][q]
            elif side[b] < 0:
                f[3] += h
                f[4] += g
            elif side[b] > 0:
                f[5] += h
                f[6] += g
                f[11] += took
            else:
                f[7] += h * sign[b]
                f[8] += g * sign[b]
                f[12] += took * sign[b]
        out.append(tuple(f))
    return hidden, tuple(out)


ROLE_IDS = {"enemy": 0, "neutral": 1, "reinforcement": 2}
Sample = tuple[
    int, tuple[str, ...], tuple[str, ...], tuple[tuple[float, ...], ...], tuple[float, ...], str
]


def collect(seats: int, first: int, n: int, every: int) -> list[Sample]:
    """(seats, identities, truth, features, suspicion, observer role) at every
    ``every``-th decision of ``n`` all-scripted matches from seed ``first``."""
    out: list[Sample] = []
    for seed in range(first, first + n):
        m = CastleMatch(seats, seed=seed)
        agents = [ScriptedAgent(seed, seat=i) for i in range(seats)]
        k = 0
        while not m.is_over:
            seat = m.current_seat
            if k % every == 0:
                obs = m.agent_observation(seat)
                hidden, feats = belief_features(obs)
                truth = tuple(m.state.players[q].role for q in hidden)
                if len(set(truth)) >= 2:
                    sus = suspicion(obs)
                    out.append(
                        (seats, tuple(sorted(truth)), truth, feats,
                         tuple(sus.get(q, 0.0) for q in hidden), obs["role"])
                    )  # fmt: skip
            k += 1
            m.apply(agents[seat].choose(m))
    return out


class Groups:
    """Samples grouped by their multiset of hidden identities (one deal table each)."""

    def __init__(self, samples: list[Sample]) -> None:
        by: dict[tuple[str, ...], list[Sample]] = defaultdict(list)
        for s in samples:
            by[s[1]].append(s)
        self.groups = []
        for roles, group in by.items():
            deals = _deals(len(roles), roles)
            index = {d: i for i, d in enumerate(deals)}
            onehot = np.zeros((len(deals), len(roles), 3))  # deal x seat x role
            for i, d in enumerate(deals):
                for j, r in enumerate(d):
                    onehot[i, j, ROLE_IDS[r]] = 1.0
            feats = np.array([s[3] for s in group], dtype=float)  # n x seat x k
            truth = np.array([index[s[2]] for s in group])
            sus = np.array([s[4] for s in group], dtype=float)
            lean = np.array([[LEAN.get(r, 0.0) for r in d] for d in deals])  # deal x seat
            self.groups.append((roles, deals, onehot, feats, truth, sus, lean, group))
        self.n = len(samples)

    def logits(self, g: tuple[Any, ...], w: np.ndarray) -> np.ndarray:
        _, _, onehot, feats, _, _, _, _ = g
        score = np.einsum("nsk,rk->nsr", feats, w)  # n x seat x role
        z: np.ndarray = np.einsum("nsr,dsr->nd", score, onehot)
        return z

    def nll(self, w: np.ndarray) -> tuple[float, np.ndarray]:
        """The mean negative log-probability of the true deal, and its gradient."""
        total, grad = 0.0, np.zeros_like(w)
        for g in self.groups:
            _, _, onehot, feats, truth, _, _, _ = g
            z = self.logits(g, w)
            z -= z.max(axis=1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(axis=1, keepdims=True)
            rows = np.arange(len(truth))
            total -= np.log(p[rows, truth]).sum()
            expected = np.einsum("nd,dsr->nsr", p, onehot) - onehot[truth]
            grad += np.einsum("nsr,nsk->rk", expected, feats)
        return total / self.n, grad / self.n


def fit(groups: Groups, k: int, steps: int = 1500, l2: float = 1e-3) -> np.ndarray:
    """W (role x feature; the 敌军's row held at 0: only differences between identities
    matter) by Adam on the mean log-probability of the true deals."""
    w = np.zeros((3, k))
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    lr, b1, b2 = 0.05, 0.9, 0.999
    for t in range(1, steps + 1):
        loss, g = groups.nll(w)
        g = g + l2 * w
        g[0] = 0.0
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        w -= lr * (m / (1 - b1**t)) / (np.sqrt(v / (1 - b2**t)) + 1e-8)
        if t % 500 == 0:
            print(f"  step {t}: train mean -log P(true deal) {loss:.4f}", file=sys.stderr)
    return w


def scores(
    groups: Groups, model: str, w: np.ndarray | None = None, belief: float = 0.5
) -> dict[str, Any]:
    """Mean log P(true deal) and mean P(true identity) per identity, overall and per
    seat count, for ``model``: uniform, suspicion (``belief``) or fitted (``w``)."""
    ll: dict[Any, list[float]] = defaultdict(list)
    marg: dict[Any, list[float]] = defaultdict(list)
    for g in groups.groups:
        roles, deals, onehot, feats, truth, sus, lean, group = g
        if model == "uniform":
            z = np.zeros((len(truth), len(deals)))
        elif model == "suspicion":
            z = belief * np.einsum("ns,ds->nd", sus, lean)
        else:
            assert w is not None
            z = groups.logits(g, w)
        z = z - z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        seat_p = np.einsum("nd,dsr->nsr", p, onehot)
        for i, s in enumerate(group):
            lp = math.log(max(p[i, truth[i]], 1e-300))
            for key in ("all", f"{s[0]} seats", f"seen by {s[5]}"):
                ll[key].append(lp)
            for j, r in enumerate(s[2]):
                marg[("all", r)].append(float(seat_p[i, j, ROLE_IDS[r]]))
                marg[(f"{s[0]} seats", r)].append(float(seat_p[i, j, ROLE_IDS[r]]))
    return {
        "log_p_true_deal": {k: round(float(np.mean(v)), 4) for k, v in ll.items()},
        "p_true_identity": {
            f"{a} / {r}": round(float(np.mean(v)), 4) for (a, r), v in marg.items()
        },
        "samples": {k: len(v) for k, v in ll.items()},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--train", default="910000:200", help="FIRST:N seeds a seat count to fit on")
    ap.add_argument("--test", default="920000:100", help="FIRST:N seeds a seat count to score on")
    ap.add_argument("--seats", default="5,6,7,8")
    ap.add_argument("--every", type=int, default=3, help="sample every N-th decision")
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--out", default="")
    a = ap.parse_args(argv)
    t0 = time.time()
    seat_counts = [int(x) for x in a.seats.split(",")]

    def gather(spec: str) -> list[Sample]:
        first, n = (int(x) for x in spec.split(":"))
        return [s for seats in seat_counts for s in collect(seats, first, n, a.every)]

    train, test = Groups(gather(a.train)), Groups(gather(a.test))
    print(f"{train.n} training decisions, {test.n} test decisions ({time.time() - t0:.0f} s)")
    w = fit(train, len(FEATURES), a.steps)
    results = {
        "uniform": scores(test, "uniform"),
        "suspicion, belief=0.5": scores(test, "suspicion"),
        "fitted": scores(test, "fitted", w),
        "fitted, on the training decisions": scores(train, "fitted", w),
    }
    rows = sorted(results["uniform"]["log_p_true_deal"])
    print(f"\nmean log P(true deal) on the test seeds {a.test} (higher is better)")
    print(f"{'':24}" + "".join(f"{k:>24}" for k in results))
    for r in rows:
        print(
            f"{r:24}"
            + "".join(
                f"{results[k]['log_p_true_deal'].get(r, float('nan')):>24.3f}" for k in results
            )
        )
    print("\nmean P(true identity) of a hidden seat, on the test seeds")
    for r in sorted(results["uniform"]["p_true_identity"]):
        print(
            f"{r:24}"
            + "".join(
                f"{results[k]['p_true_identity'].get(r, float('nan')):>24.3f}" for k in results
            )
        )
    weights = {r: [round(float(x), 4) for x in w[i]] for r, i in ROLE_IDS.items() if i}
    print("\nweights (敌军 = 0):")
    for r, row in weights.items():
        print(f"  {r}: " + ", ".join(f"{f}={x}" for f, x in zip(FEATURES, row, strict=True)))
    if a.out:
        with open(a.out, "w", encoding="utf-8") as fh:
            json.dump(
                {"command": " ".join(sys.argv), "train": a.train, "test": a.test, "seats": seat_counts,
                 "every": a.every, "features": list(FEATURES), "weights": weights, "results": results},
                fh, ensure_ascii=False, indent=1,
            )  # fmt: skip
    print(f"({time.time() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
