"""Engine benchmark: random playouts, legal-action generation, copies (one core).

    .venv/bin/python benchmarks/bench_engine.py [--matches N] [--repeat N]

Prints figures; it asserts nothing (DESIGN.md: timing claims are benchmarks, never
timed asserts). Everything is seeded, so two runs measure the same work.
"""

from __future__ import annotations

import argparse
import itertools
import platform
import statistics
import time
from collections.abc import Callable
from functools import partial

from throne_lib import Match, SideSetup, load_cards
from throne_lib.games.throne.cards import CardDB
from throne_lib.games.throne.legal import legal_actions
from throne_lib.kit.agents import RandomAgent

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
        t = time.perf_counter()
        for _ in range(repeat):
            fn()
        batches.append((time.perf_counter() - t) / repeat * 1e6)
    return statistics.median(batches), min(batches)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=60, help="random playouts (default 60)")
    parser.add_argument("--repeat", type=int, default=2000, help="calls per timing batch")
    args = parser.parse_args()
    db = load_cards()
    print(f"python {platform.python_version()} on {platform.machine()}, one core, cards {db.hash}")

    # 1. full random matches
    seeds = range(args.matches)
    actions = rounds = 0
    t = time.perf_counter()
    for seed in seeds:
        m = new_match(db, seed)
        actions += playout(m, seed)
        rounds += m.round
    elapsed = time.perf_counter() - t

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
        rows += [
            (
                f"position: {label}",
                f"seed {pos_seed}, round {pos.round}",
                f"{n_units} units, {n_actions} legal actions",
            ),
            ("  legal_actions()", "uncached", f"{legal_med:,.1f} µs (best {legal_best:,.1f})"),
            ("  Match.copy()", "", f"{copy_med:,.1f} µs (best {copy_best:,.1f})"),
            ("  Match.hash()", "", f"{hash_med:,.1f} µs (best {hash_best:,.1f})"),
        ]
    width = [max(len(r[i]) for r in rows) for i in range(3)]
    line = "-" * (sum(width) + 6)
    print(line)
    for r in rows:
        print(f"{r[0]:<{width[0]}}   {r[1]:<{width[1]}}   {r[2]}")
    print(line)
    print(f"total {elapsed:.2f} s for the playouts")


if __name__ == "__main__":
    main()
