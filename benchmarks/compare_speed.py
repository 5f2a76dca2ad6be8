"""How long ``throne compare`` takes per game: prints figures, asserts nothing.

    .venv/bin/python benchmarks/compare_speed.py                    # 100 seeds x 2 variants, 2 workers
    .venv/bin/python benchmarks/compare_speed.py --seeds 200 --out results/compare/speed.csv

Each game plays its default ``throne compare`` matches (the game's default setups and
agent: Throne's ``standard`` human against beast, 城堡之心 5 and 城池战 4 seats
``scripted``, PIN's ``standard`` starter decks, goofspiel ``random``) on seeds
0..N-1, once with the rulebook and once with one rule changed (``CHANGES``): 2·N
matches. Target (issue 38): 100 seeds x 2 variants in <= 2 minutes on 2 cores. The load
average before and after is printed beside each figure (the machine is shared).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import pandas as pd

from throne_lib.compiled import loaded_build
from throne_lib.kit import registry
from throne_lib.kit.compare import build_compare_parser, run_compare
from throne_lib.kit.sim import _table, plain_specs, table_text
from throne_lib.kit.variants import parse_sets

#: the rule each game's variant changes (a real change, so the variant plays differently)
CHANGES = {
    "throne": "second_first_turn_mana=2",
    "castle": "lord_bonus_hp=2",
    "cities": "kill_reward=5",
    "pin": "cp_rise=3",
    "goofspiel": "cards=6",
}


def time_game(name: str, seeds: int, workers: int) -> dict[str, object]:
    game = registry.get(name)
    args = build_compare_parser(game).parse_args(["-n", str(seeds)])
    text = table_text(game)
    table = _table(game.name, text) if text is not None else None
    specs = plain_specs(game, args, table)
    changes = parse_sets(game, [CHANGES[name]])
    load0 = os.getloadavg()[0]
    t = time.perf_counter()
    cmp = run_compare(game, specs, changes, workers=workers, progress=False)
    wall = time.perf_counter() - t
    return {
        "game": name,
        "change": CHANGES[name],
        "seeds": seeds,
        "matches": len(cmp.base) + len(cmp.variant),
        "workers": workers,
        "seconds": round(wall, 1),
        "ms_per_match": round(1000 * wall / max(1, len(cmp.base) + len(cmp.variant)), 1),
        "load_before": round(load0, 2),
        "load_after": round(os.getloadavg()[0], 2),
        "build": loaded_build(),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seeds", type=int, default=100, help="seeds per variant (default 100)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--games", default=",".join(CHANGES), help="comma-separated")
    p.add_argument("--out", default=None, help="also write the figures as CSV")
    args = p.parse_args()
    rows = []
    for name in args.games.split(","):
        row = time_game(name, args.seeds, args.workers)
        rows.append(row)
        print(
            f"{name:10} {row['seeds']} seeds x 2 variants = {row['matches']} matches, "
            f"{row['workers']} workers: {row['seconds']:>6} s ({row['ms_per_match']} ms/match; "
            f"load {row['load_before']} -> {row['load_after']}; {row['build']} build)",
            flush=True,
        )
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        pd.DataFrame(rows).to_csv(args.out, index=False)
        print(f"-> {args.out}")


if __name__ == "__main__":
    main()
