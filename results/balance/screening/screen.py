"""A prototype for issue #38's first target: estimate every candidate knob's effect on
every general at once from randomised screening, instead of trying knobs one at a time.

Not the kit's balance search: an experiment, kept with its output so that its figures can
be re-made. Its symmetric design and closed loop with every kind of move (pilot 5's
command) are now ``throne balance suggest --screen ROUNDS``
(``throne_lib/kit/balance/screening.py``), with the run's own verification, journal,
report and Parquet file. The idea (a random-balance screening design,
as in design of experiments): each round of matches (every general plays once) is played
on its own variant of the table, in which each candidate knob is moved one step (the way
that helps its generals) with probability ``p``. Every match then informs the effect of
every candidate knob its two generals' cards carry, so one knob's effect is estimated
from all of its generals' matches (thousands) rather than from the ~200 a try of the
repair stage plays. A linear model of each match's score,

    score(A vs B) - 0.5 = phi * first(A) + s_A - s_B + sum_k x_k * (b_kA - b_kB),

is fitted by ridge least squares (s: each general's strength on the starting table, b_kg:
knob k's effect on general g). A proposal is then chosen greedily from the estimated
effects (shrunk towards 0 by their standard errors, only those at |t| >= ``min_t``) to
bring every general's predicted rate into the aimed band, at most ``max_changes`` card
changes; and re-measured on verification seeds no step played, beside the starting table.

    python results/balance/screening/screen.py --rounds 3000 --seed 45 --verify-seed 52000

Prints the steps, the proposal and the verification table; ``--out FILE.json`` keeps them.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from throne_lib.kit.balance import Targets, block_seed, normalise, search_space, tally, verify
from throne_lib.kit.balance.adapter import Outcome, pairing_block
from throne_lib.kit.balance.measure import Evaluator, open_executor
from throne_lib.kit.balance.screening import fit_effects
from throne_lib.kit.balance.space import FIRST, variant
from throne_lib.kit.balance_cli import _knobs, hooks, options

LEVER = {"rules.second_first_turn_mana": 3}  # every acceptance run's first-seat answer


def knob_of(move: str) -> str:
    """A move's knob: ``card.field`` (the directed design) or ``card.field@value``."""
    return move.split("@", 1)[0]


def closed_loop(
    args: argparse.Namespace,
    game: Any,
    space: Any,
    groups: list[str],
    names: dict[str, str],
    by_knob: dict[str, list[dict[str, Any]]],
    usable: set[str],
    moved: dict[str, int],
    lo: float,
    hi: float,
) -> tuple[dict[str, int], dict[str, float]]:
    """Greedy steps from the lever: each step tries the untried screened knob predicted
    (measured rates now + its shrunk effects) to lower the miss of the aimed band most,
    measures it on ``--loop-blocks`` blocks of the run's search range and keeps it if the
    measured miss is lower. Returns the table and its measured rates."""
    rng = random.Random(f"loop:{args.seed}")
    items = [i for k in range(20, 20 + args.loop_blocks) for i in game.block(rng, block_seed(args.seed, k))]  # fmt: skip

    def miss(r: dict[str, float]) -> float:
        return sum(max(0.0, lo - v, v - hi) for v in r.values())

    with open_executor("process", args.workers) as ex:
        ev = Evaluator(game, space, ex, chunk=4)

        def rates(ch: dict[str, int]) -> dict[str, float]:
            t = tally(ev.outcomes([(normalise(ch, space), items)])[0])
            return {g: t.rate(g) for g in groups}

        cur = dict(LEVER)
        now = rates(cur)
        tried: set[str] = set()
        print(f"closed loop on {args.loop_blocks} blocks: miss {miss(now):.3f} (the lever)")
        if args.loop_moves == "full":
            cur, now = full_loop(args, space, groups, by_knob, usable, rates, miss, cur, now)
            out = [f"{names.get(g, g)} {now[g]:.3f}" for g in groups if not lo <= now[g] <= hi]
            print(f"closed loop: {len(cur) - 1} card changes, miss {miss(now):.3f}; outside the aim: {', '.join(out)}")  # fmt: skip
            return cur, now
        for step in range(1, args.loop_steps + 1):
            if len(cur) - 1 >= args.max_changes:
                break

            def guess(k: str, now: dict[str, float] = now) -> float:
                r = dict(now)
                for e in by_knob[k]:
                    r[e["general"]] += e["shrunk"]
                return miss(r)

            free = {m for m in usable - tried if knob_of(m) not in cur}
            options = sorted((guess(m), m) for m in free)
            if not options or options[0][0] >= miss(now):
                break
            k = options[0][1]
            tried.add(k)
            new = {**cur, knob_of(k): moved[k]}
            r = rates(new)
            kept = miss(r) < miss(now)
            if kept:
                cur, now = new, r
            print(f"  {step}: {knob_of(k)} {space[knob_of(k)].base} -> {moved[k]}: predicted {options[0][0]:.3f}, measured {miss(r):.3f}; {'kept' if kept else 'not kept'}; played {ev.played}")  # fmt: skip
        out = [f"{names.get(g, g)} {now[g]:.3f}" for g in groups if not lo <= now[g] <= hi]
        print(f"closed loop: {len(cur) - 1} card changes, miss {miss(now):.3f}; outside the aim: {', '.join(out)}")  # fmt: skip
    return cur, now


def full_loop(
    args: argparse.Namespace,
    space: Any,
    groups: list[str],
    by_knob: dict[str, list[dict[str, Any]]],
    usable: set[str],
    rates: Any,
    miss: Any,
    cur: dict[str, int],
    now: dict[str, float],
) -> tuple[dict[str, int], dict[str, float]]:
    """The closed loop with every kind of move the kit's repair makes (symmetric design):
    a new change, one more step or one back of a changed knob (no new change), and, at
    ``--max-changes``, a swap (a changed knob back to today's value for a new change).
    Predicted from the screened per-step effects (linear in steps); each tried table is
    measured and kept if the measured miss falls; a table is tried once."""
    per_step: dict[str, dict[str, float]] = {}
    for m in usable:
        k = space[knob_of(m)]
        sign = 1 if int(m.split("@")[1]) > k.base else -1
        per_step[k.key] = {e["general"]: sign * e["shrunk"] for e in by_knob[m]}
    tried: set[tuple[tuple[str, int], ...]] = set()

    def guess(new: dict[str, int]) -> float:
        r = dict(now)
        for key in set(new) | set(cur):
            if key in LEVER:
                continue
            k = space[key]
            d = (new.get(key, k.base) - cur.get(key, k.base)) / k.step
            for g, e in per_step.get(key, {}).items():
                r[g] += d * e
        return float(miss(r))

    for step in range(1, args.loop_steps + 1):
        full = len(cur) - 1 >= args.max_changes
        options: list[dict[str, int]] = []
        for key in sorted(per_step):
            k = space[key]
            for d in (1, -1):
                v = cur.get(key, k.base) + d * k.step
                if not k.low <= v <= k.high:
                    continue
                new = {kk: vv for kk, vv in {**cur, key: v}.items() if kk in LEVER or vv != space[kk].base}  # fmt: skip
                if len(new) - 1 <= args.max_changes:
                    options.append(new)
                elif full:  # a swap: one changed knob back to today's value
                    for drop in sorted(set(cur) - set(LEVER)):
                        options.append({kk: vv for kk, vv in new.items() if kk != drop})
        scored = sorted(
            (guess(o), tuple(sorted(o.items())))
            for o in options
            if tuple(sorted(o.items())) not in tried
        )
        if not scored or scored[0][0] >= miss(now) - 1e-9:
            break
        predicted, key_t = scored[0]
        tried.add(key_t)
        new = dict(key_t)
        r = rates(new)
        kept = miss(r) < miss(now)
        what = ", ".join(
            f"{k} {cur.get(k, space[k].base)} -> {new.get(k, space[k].base)}"
            for k in sorted(set(new) | set(cur))
            if k not in LEVER and new.get(k, space[k].base) != cur.get(k, space[k].base)
        )
        print(f"  {step}: {what}: predicted {predicted:.3f}, measured {miss(r):.3f}; {'kept' if kept else 'not kept'}; {len(new) - 1} changes")  # fmt: skip
        if kept:
            cur, now = new, r
    return cur, now


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=45, help="run seed: its search blocks")
    p.add_argument("--verify-seed", type=int, default=52000)
    p.add_argument("--base-blocks", type=int, default=20, help="10-round blocks on the lever")
    p.add_argument("--rounds", type=int, default=3000, help="screening rounds (9 matches)")
    p.add_argument("--p", type=float, default=0.25,
                   help="chance a candidate knob is moved (symmetric: each way)")  # fmt: skip
    p.add_argument("--design", choices=("directed", "symmetric"), default="directed",
                   help="directed: each knob one step the way its generals need; symmetric: "
                   "one step up or down, so the variants centre on the start")  # fmt: skip
    p.add_argument("--candidates", type=int, default=240)
    p.add_argument("--per-general", type=int, default=0,
                   help="each general's N most relevant knobs are candidates whatever the "
                   "ranking (0: the ranking alone; the third pilot had none of 狮心王's)")  # fmt: skip
    p.add_argument("--aim", default="0.47:0.53")
    p.add_argument("--min-t", type=float, default=2.0)
    p.add_argument("--max-changes", type=int, default=11, help="card changes (the lever apart)")
    p.add_argument("--verify-blocks", type=int, default=36)
    p.add_argument("--loop-blocks", type=int, default=0, help="closed loop (0: open loop)")
    p.add_argument("--loop-steps", type=int, default=40)
    p.add_argument("--loop-moves", choices=("new", "full"), default="new",
                   help="new: only new changes (pilots 2, 3); full: also one more step, "
                   "one back, and swaps at --max-changes (symmetric design)")  # fmt: skip
    p.add_argument("--effects", default=None,
                   help="an earlier run's --out file: its screened effects, no new screening")  # fmt: skip
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", default=None)
    args = p.parse_args(argv)
    lo, hi = (float(x) for x in args.aim.split(":"))
    t0 = time.time()

    h = hooks("throne")
    opts = options("throne")
    opts.block_rounds = 10
    opts.rules = "second_first_turn_mana"
    opts.rules_knobs = _knobs(opts, h)
    table = Path("cards.csv").read_text(encoding="utf-8")
    game = h.make(table, opts)
    space = search_space(  # the command line's defaults: half a value at most, no cost 0
        game, rules=["second_first_turn_mana"], bounds={}, max_step=0.5, zero_cost=False
    )
    groups = list(game.groups())
    names = getattr(game, "names", {})
    rng = random.Random(f"screen:{args.seed}")
    log: dict[str, Any] = {"args": vars(args)}

    if args.effects:  # an earlier run's screening
        old = json.loads(Path(args.effects).read_text(encoding="utf-8"))
        effects, rate = old["effects"], old["start"]
        moved = {e["knob"]: e["to"] for e in effects}
        # (only moves this run's search space allows: the first pilot allowed cost 0)
        effects = [e for e in effects if knob_of(e["knob"]) in space and space[knob_of(e["knob"])].low <= e["to"] <= space[knob_of(e["knob"])].high]  # fmt: skip
        moved = {k: v for k, v in moved.items() if any(e["knob"] == k for e in effects)}
        strength_fit = None
        print(f"effects of {len(moved)} knobs from {args.effects}")
    else:
        with open_executor("process", args.workers) as ex:

            def play(jobs: list[tuple[dict[str, int], list[Any]]]) -> list[list[Outcome]]:
                tasks = [
                    replace(variant(game, table, normalise(ch, space), space), items=tuple(items))
                    for ch, items in jobs
                ]
                got = map(game.play, tasks) if ex is None else ex.map(game.play, tasks, chunksize=4)
                return list(got)

            # 1. the starting table (the lever alone): which way each general needs to go
            items = [i for k in range(args.base_blocks) for i in game.block(rng, block_seed(args.seed, k))]  # fmt: skip
            chunks = [items[i : i + 9] for i in range(0, len(items), 9)]
            base_out = [o for os_ in play([(LEVER, c) for c in chunks]) for o in os_]
            t = tally(base_out)
            rate = {g: t.rate(g) for g in groups}
            print(f"start (lever alone): first seat {t.first_rate:.3f}, {len(base_out)} matches, {time.time() - t0:.0f} s")  # fmt: skip

            # 2. candidate knobs: one step the way that helps the generals whose cards carry it
            cands = []
            for k in space.knobs:
                if k.is_rules or not 0 < len(k.groups) <= 3:
                    continue
                need = sum(0.5 - rate[g] for g in k.groups)
                if abs(need) < 0.02:
                    continue
                d = (1 if need > 0 else -1) * k.sign
                v = max(k.low, min(k.high, k.base + d * k.step))
                if args.design == "symmetric":  # one step either way, both allowed
                    up, down = k.base + k.step, k.base - k.step
                    if k.low <= down and up <= k.high:
                        cands.append((abs(need), k.key, up))
                elif v != k.base:
                    cands.append((abs(need), k.key, v))
            cands.sort(key=lambda c: (-c[0], c[1]))
            if args.per_general:  # each general's most relevant knobs first, then the rest
                first: dict[str, tuple[float, str, int]] = {}
                for g in groups:
                    mine = [c for c in cands if g in space[c[1]].groups]
                    for c in mine[: args.per_general]:
                        first.setdefault(c[1], c)
                rest = [c for c in cands if c[1] not in first]
                picked = sorted(first.values(), key=lambda c: (-c[0], c[1]))
                cands = picked + rest[: max(0, args.candidates - len(picked))]
            else:
                cands = cands[: args.candidates]
            keys = [c[1] for c in cands]
            moved = {c[1]: c[2] for c in cands}  # directed: the move; symmetric: one step up
            cover = {g: sum(g in space[k].groups for k in keys) for g in groups}
            least = min(cover, key=lambda g: (cover[g], g))
            print(f"{len(cands)} candidate knobs ({args.design} design); fewest for one general: {cover[least]} ({names.get(least, least)})")  # fmt: skip

            # 3. screening: each round its own variant
            rows: list[tuple[list[int], Outcome]] = []
            jobs = []
            designs = []
            for r in range(args.rounds):
                if args.design == "symmetric":  # x = +1 (a step up) or -1 (down), p each
                    on = []
                    for j in range(len(keys)):
                        u = rng.random()
                        if u < 2 * args.p:
                            on.append(j if u < args.p else -1 - j)
                    ch = {**LEVER}
                    for j in on:
                        k = space[keys[j if j >= 0 else -1 - j]]
                        ch[k.key] = k.base + (k.step if j >= 0 else -k.step)
                else:
                    on = [j for j in range(len(keys)) if rng.random() < args.p]
                    ch = {**LEVER, **{keys[j]: moved[keys[j]] for j in on}}
                seed0 = block_seed(args.seed, 100 + r // 1000) + 9 * (r % 1000)
                jobs.append((ch, pairing_block(groups, 1, rng, seed0)))
                designs.append(on)
            rows = [([], o) for o in base_out]  # the start's matches: every knob at rest
            for on, outs in zip(designs, play(jobs), strict=True):
                rows += [(on, o) for o in outs]
            print(f"screening: {len(rows)} matches, {time.time() - t0:.0f} s")

        # 4. the linear model, ridge least squares (the kit's fit since it took this
        # prototype in: throne_lib/kit/balance/screening.py, the same columns and sums)
        fitted, phi, resid, strength_fit = fit_effects(
            rows, keys, {k: space[k].groups for k in keys}, groups
        )
        n = 1 + len(groups) + len(fitted)
        effects = []
        for fe in fitted:
            b, s, g, shrunk = fe.per_step, fe.se, fe.group, fe.shrunk
            if args.design == "symmetric":  # a move each way: "knob@value", effect +-b
                k = space[fe.knob]
                for sign in (1, -1):
                    to = k.base + sign * k.step
                    effects.append({"knob": f"{k.key}@{to}", "to": to, "general": g, "effect": sign * b, "se": s, "shrunk": sign * shrunk})  # fmt: skip
            else:
                effects.append({"knob": fe.knob, "to": moved[fe.knob], "general": g, "effect": b, "se": s, "shrunk": shrunk})  # fmt: skip
        moved = {e["knob"]: e["to"] for e in effects}
        log["phi"] = phi
        print(f"model: {n} parameters, residual variance {resid:.3f}, first-seat term {phi:+.3f}")

    # 5. greedy choice on the predicted rates (the start measured, plus chosen effects)
    by_knob: dict[str, list[dict[str, Any]]] = {}
    for e in effects:
        by_knob.setdefault(e["knob"], []).append(e)
    usable = {k for k, es in by_knob.items() if any(abs(e["effect"]) >= args.min_t * e["se"] for e in es)}  # fmt: skip

    strength = (  # on the start, every match (the measured start without a model)
        dict(strength_fit) if strength_fit is not None else {g: rate[g] - 0.5 for g in groups}
    )

    def predicted(chosen: list[str]) -> dict[str, float]:
        """Each general's rate against the field: its strength less its opponents' mean."""
        s = dict(strength)
        for k in chosen:
            for e in by_knob[k]:
                s[e["general"]] += e["shrunk"]
        total = sum(s.values())
        return {g: 0.5 + v - (total - v) / (len(groups) - 1) for g, v in s.items()}

    def miss(r: dict[str, float]) -> float:
        return sum(max(0.0, lo - v, v - hi) for v in r.values())

    chosen: list[str] = []
    now = miss(predicted(chosen))
    print(f"predicted miss of the aimed band {lo:.2f}-{hi:.2f}: {now:.3f} (the start)")
    while len(chosen) < args.max_changes:
        best = min(
            (
                (miss(predicted([*chosen, k])), k)
                for k in sorted(usable)
                if knob_of(k) not in {knob_of(c) for c in chosen}
            ),
            default=None,
        )
        if best is None or best[0] >= now - 1e-9:
            break
        now = best[0]
        chosen.append(best[1])
        es = ", ".join(f"{names.get(e['general'], e['general'])} {100 * e['effect']:+.1f}±{100 * e['se']:.1f}" for e in by_knob[best[1]])  # fmt: skip
        print(
            f"  + {knob_of(best[1])} {space[knob_of(best[1])].base} -> {moved[best[1]]}: miss {now:.3f} ({es})"
        )
    proposal = {**LEVER, **{knob_of(k): moved[k] for k in chosen}}
    pred = predicted(chosen)
    log.update({"proposal": proposal, "predicted": pred, "start": rate, "effects": effects,
                "start_model": predicted([])})  # fmt: skip

    if args.loop_blocks:
        # 5b. closed loop: the screened effects only choose what to try; each move is
        # measured (the same blocks for every table: common random numbers; a move
        # replays only its generals' matches) and kept if the measured miss falls
        proposal, pred = closed_loop(args, game, space, groups, names, by_knob, usable, moved, lo, hi)  # fmt: skip
        log["closed_loop"] = proposal

    # 6. verification on seeds no step played
    v = verify(game, {1: proposal}, Targets((0.4, 0.6), 0.55), seed=args.verify_seed,
               blocks=args.verify_blocks, workers=args.workers)  # fmt: skip
    after = v.after[1]
    out_of = []
    print(f"\nverification (seed {args.verify_seed}, {args.verify_blocks} blocks): before -> after, predicted")  # fmt: skip
    for g in groups:
        a = after.rates[g].win_rate
        flag = "" if 0.4 <= a <= 0.6 else "  OUT"
        if flag:
            out_of.append(g)
        print(f"  {names.get(g, g):6} {v.before.rates[g].win_rate:.3f} -> {a:.3f} (start: measured {rate[g]:.3f}, model {predicted([])[g]:.3f}; predicted {pred[g]:.3f}; n={after.rates[g].matches}){flag}")  # fmt: skip
    first = after.rates[FIRST].win_rate
    print(f"first seat {v.before.rates[FIRST].win_rate:.3f} -> {first:.3f}; out of 40-60%: {len(out_of)} {[names.get(g, g) for g in out_of]}")  # fmt: skip
    log["first_seat"] = first
    log["verification"] = {g: after.rates[g].win_rate for g in groups}
    log["out"] = out_of
    print(f"wall {time.time() - t0:.0f} s")
    if args.out:
        Path(args.out).write_text(json.dumps(log, ensure_ascii=False, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
