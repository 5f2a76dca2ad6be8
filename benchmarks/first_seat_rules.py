"""The first seat's win rate under rules settings, every setting on the same matches.

    python benchmarks/first_seat_rules.py --rounds 17 --seed 12345 --seed0 900000 \\
        '{}' '{"second_first_turn_mana": 3}' '{"second_first_turn_draw": 2}'

A sample is ``--rounds`` rounds in which every general plays once with its signature
deck (``pairing_block``: pairs and seats at random; the match seed decides who moves
first, R-TURN-12), the ``standard`` agent on both seats, played in this process (one
core). Each argument is a JSON object of ``Rules`` overrides. Prints per setting the
first seat's win rate (draws half) with its 95% Wilson interval and the mean match
length. The figures in docs/balance.md ("What they do to the first seat") come from
samples of 17 rounds with (seed, seed0) = (12345, 900000), (777, 500000), (4242, 700000).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from throne_lib.games.throne.balance import ThroneBalance
from throne_lib.games.throne.cards import DEFAULT_PATH
from throne_lib.kit.analytics import wilson
from throne_lib.kit.balance import PlayTask, pairing_block


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("settings", nargs="+", help="JSON objects of Rules overrides")
    p.add_argument("--rounds", type=int, default=17)
    p.add_argument("--seed", type=int, default=12345, help="pairings and seats")
    p.add_argument("--seed0", type=int, default=900_000, help="first match seed")
    p.add_argument("--cards", default=str(DEFAULT_PATH))
    p.add_argument("--agent", default="standard")
    args = p.parse_args()
    table = Path(args.cards).read_text(encoding="utf-8")
    game = ThroneBalance(table, agent=args.agent)
    items = tuple(pairing_block(game.generals, args.rounds, random.Random(args.seed), args.seed0))
    for text in args.settings:
        setting = json.loads(text)
        t0 = time.process_time()
        outs = game.play(PlayTask(table, tuple(sorted(setting.items())), items))
        first = sum(s.score for o in outs for s in o.seats if s.first)
        n = len(outs)
        lo, hi = wilson(first, n)
        length = sum(o.length for o in outs) / n
        print(
            f"{json.dumps(setting)}: first seat {100 * first / n:.1f}% "
            f"[{100 * lo:.1f}, {100 * hi:.1f}] ({first:g}/{n}), mean rounds {length:.1f}, "
            f"{time.process_time() - t0:.0f} CPU-s",
            flush=True,
        )


if __name__ == "__main__":
    main()
