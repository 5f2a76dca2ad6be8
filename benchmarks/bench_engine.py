"""Engine benchmark: random playouts, legal-action generation, copies, hashes, the
``standard`` agent and process scaling (one core, except the scaling row).

    .venv/bin/python benchmarks/bench_engine.py [--matches N] [--repeat N]
        [--standard-matches N] [--scaling-matches N] [--json]

Prints figures; it asserts nothing (DESIGN.md: timing claims are benchmarks, never
timed asserts). Everything is seeded, so two runs measure the same work.
``--json`` prints one JSON object of figures instead of the table: the form
``benchmarks/compare.py`` reads to set two revisions side by side. The standard and
scaling figures are measured as ``bench_ai.py`` measures them (same functions, seeds).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import statistics
import time
from collections.abc import Callable
from functools import partial

from bench_ai import scaling, standard_matches

import throne_lib
from throne_lib import Match, SideSetup, load_cards
from throne_lib.games.throne.cards import CardDB
from throne_lib.games.throne.legal import legal_actions
from throne_lib.kit.agents import RandomAgent

# The clock of the playout and per-call figures: wall time by default, CPU time of this
# process with --clock cpu (the one-core figure when other jobs share the machine).
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}
clock = CLOCKS["wall"]

RACES = ("human", "goblin", "demon", "undead", "beast", "elf")


def new_match(db: CardDB, seed: int) -> Match:
    """Seed ``seed`` plays a fixed race pairing (all 30 ordered pairs in turn)."""
    pairs = [(a, b) for a, b in itertools.product(RACES, RACES) if a != b]
    blue, red = pairs[seed % len(pairs)]
    return Match.new(db, SideSetup.signature(db, blue), SideSetup.signature(db, red), seed)


def playout(m: Match, seed: int) -> int:
    agents = (RandomAgent(2 * seed), RandomAgent(2 * seed + 1))
    n = 0
    while not m.is_over:
        m.apply(agents[m.turn].choose(m))
        n += 1
    return n


def mid_game_positions(
    db: CardDB, seeds: range, round_no: int = 12
) -> dict[str, tuple[Match, int]]:
    """Among the main-phase positions of ``round_no`` in random matches of ``seeds``:
    the one with the most units on the board and the one with the most legal actions."""
    best: dict[str, tuple[int, Match | None, int]] = {
        "most units": (-1, None, 0),
        "most actions": (-1, None, 0),
    }
    for seed in seeds:
        m = new_match(db, seed)
        agents = (RandomAgent(2 * seed), RandomAgent(2 * seed + 1))
        while not m.is_over and m.round <= round_no:
            if m.round == round_no and m.phase == "main":
                score = {
                    "most units": len(m.state.units()) * 1000 + len(m.legal_actions()),
                    "most actions": len(m.legal_actions()),
                }
                for key, value in score.items():
                    if value > best[key][0]:
                        best[key] = (value, m.copy(), seed)
            m.apply(agents[m.turn].choose(m))
    out = {}
    for key, (_, pos, seed) in best.items():
        assert pos is not None, "no match reached the round"
        out[key] = (pos, seed)
    return out


def per_call_us(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median and best µs per call over 5 batches of ``repeat`` calls."""
    batches = []
    for _ in range(5):
        t = clock()
        for _ in range(repeat):
            fn()
        batches.append((clock() - t) / repeat * 1e6)
    return statistics.median(batches), min(batches)


def first_hash_us(pos: Match, repeat: int) -> tuple[float, float]:
    """Median and best µs of the first ``hash()`` of a position (no cache can help: each
    call hashes a fresh copy; the copy is made outside the timed part)."""
    batches = []
    for _ in range(5):
        copies = [pos.copy() for _ in range(repeat)]
        t = clock()
        for c in copies:
            c.hash()
        batches.append((clock() - t) / repeat * 1e6)
    return statistics.median(batches), min(batches)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=60, help="random playouts (default 60)")
    parser.add_argument("--repeat", type=int, default=2000, help="calls per timing batch")
    parser.add_argument(
        "--standard-matches", type=int, default=6, help="standard-vs-standard matches (0: skip)"
    )
    parser.add_argument(
        "--scaling-matches", type=int, default=0, help="matches of the 1-vs-2 worker run (0: skip)"
    )
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall", help="timer")
    parser.add_argument("--json", action="store_true", help="one JSON object of figures")
    args = parser.parse_args()
    global clock
    clock = CLOCKS[args.clock]
    db = load_cards()
    fig: dict[str, object] = {
        "python": platform.python_version(),
        "cards": db.hash,
        "module": os.path.dirname(throne_lib.__file__),
        # compiled by mypyc or pure Python (THRONE_PURE=1): docs/speed.md
        "build": throne_lib.compiled.loaded_build(),
        "load_before": os.getloadavg()[0],
        "clock": args.clock,
    }

    # 1. full random matches
    seeds = range(args.matches)
    actions = rounds = 0
    t = clock()
    for seed in seeds:
        m = new_match(db, seed)
        actions += playout(m, seed)
        rounds += m.round
    elapsed = clock() - t
    fig |= {
        "random_matches_per_s": args.matches / elapsed,
        "random_actions_per_s": actions / elapsed,
        "random_actions": actions,
    }

    # 2. crowded mid-game positions (round 12)
    rows = [
        ("random matches", f"{args.matches}", f"{args.matches / elapsed:,.1f} matches/s"),
        ("actions applied", f"{actions}", f"{actions / elapsed:,.0f} actions/s"),
        (
            "mean length",
            f"{actions / args.matches:.0f} actions",
            f"{rounds / args.matches:.1f} rounds",
        ),
    ]
    for label, (pos, pos_seed) in mid_game_positions(db, range(40)).items():
        eng = pos.eng
        n_units = len(pos.state.units())
        n_actions = len(legal_actions(eng))
        legal_med, legal_best = per_call_us(partial(legal_actions, eng), args.repeat // 4)
        copy_med, copy_best = per_call_us(pos.copy, args.repeat)
        hash_med, hash_best = per_call_us(pos.hash, args.repeat)
        first_med, first_best = first_hash_us(pos, args.repeat // 4)
        key = label.replace(" ", "_")
        fig |= {
            f"{key}:position": f"seed {pos_seed}, {n_units} units, {n_actions} actions",
            f"{key}:legal_us": legal_med,
            f"{key}:copy_us": copy_med,
            f"{key}:hash_us": hash_med,
            f"{key}:first_hash_us": first_med,
            f"{key}:hash_per_copy": hash_med / copy_med,
        }
        rows += [
            (
                f"position: {label}",
                f"seed {pos_seed}, round {pos.round}",
                f"{n_units} units, {n_actions} legal actions",
            ),
            ("  legal_actions()", "uncached", f"{legal_med:,.1f} µs (best {legal_best:,.1f})"),
            ("  Match.copy()", "", f"{copy_med:,.1f} µs (best {copy_best:,.1f})"),
            ("  Match.hash()", "", f"{hash_med:,.1f} µs (best {hash_best:,.1f})"),
            ("  first hash()", "of a fresh copy", f"{first_med:,.1f} µs (best {first_best:,.1f})"),
        ]

    # 3. the standard agent (CPU time, as bench_ai.py) and process scaling
    if args.standard_matches:
        decisions, totals = standard_matches(db, args.standard_matches)
        fig |= {
            "standard_decision_ms": statistics.median(decisions) * 1000,
            "standard_match_s": statistics.median(totals),
        }
        rows += [
            (
                "standard decision",
                f"{len(decisions)} decisions",
                f"median {fig['standard_decision_ms']:.3f} ms CPU",
            ),
            (
                "standard vs standard",
                f"{len(totals)} matches",
                f"median {fig['standard_match_s']:.3f} s CPU",
            ),
        ]
    if args.scaling_matches:
        one, two, cores = scaling(db, args.scaling_matches)
        fig |= {"scaling_x": one / two, "scaling_cores": cores}
        rows.append(
            (
                "process scaling",
                f"{args.scaling_matches} matches",
                f"1 worker {one:.1f} s, 2 workers {two:.1f} s: {one / two:.2f}x "
                f"({cores:.2f} cores got)",
            )
        )
    fig["load_after"] = os.getloadavg()[0]
    if args.json:
        print(json.dumps(fig))
        return
    print(
        f"python {fig['python']} on {platform.machine()}, one core, cards {db.hash}, "
        f"{args.clock} clock, {fig['build']} engine"
    )
    width = [max(len(r[i]) for r in rows) for i in range(3)]
    line = "-" * (sum(width) + 6)
    print(line)
    for r in rows:
        print(f"{r[0]:<{width[0]}}   {r[1]:<{width[1]}}   {r[2]}")
    print(line)
    print(f"total {elapsed:.2f} s for the playouts; load average {fig['load_before']:.1f} before")


if __name__ == "__main__":
    main()
