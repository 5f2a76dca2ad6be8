"""How fast this machine plays one block of each game's balance search: the figure the
「调平建议」 panel's estimate starts from before any run on this machine (issue 36, item 9;
``throne_lib/kit/balance_saved.py``). Prints the figures and keeps them in
``results/balance/speed.json``; the panel's own runs and 「估算用时」 keep theirs in
``logs/balance/speed.json``, which it reads first.

    .venv/bin/python benchmarks/balance_speed.py [throne castle pin] [--out FILE]

One block of each game's default ``suggest`` options on its default table, seed 0, in
this process (no workers), with the 1-minute load average and the engine build.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
from collections.abc import Sequence
from pathlib import Path

from throne_lib.compiled import decide
from throne_lib.kit.balance_cli import hooks, options
from throne_lib.kit.balance_saved import measure_speed
from throne_lib.kit.textfile import write_atomic


def main(argv: Sequence[str] | None = None) -> int:
    """Time one block of each game's default table (one process) and keep the figure."""
    p = argparse.ArgumentParser(description=main.__doc__)
    p.add_argument("games", nargs="*", default=["throne", "castle", "pin"])
    p.add_argument("--out", default="results/balance/speed.json")
    args = p.parse_args(argv)
    out = Path(args.out)
    data = json.loads(out.read_text(encoding="utf-8")) if out.is_file() else {}
    for name in args.games:
        h = hooks(name)
        cards = h.default_cards()
        game = h.make(cards.read_text(encoding="utf-8"), options(name))
        per_match, per_block = measure_speed(game)
        data[cards.name] = {
            "seconds_per_match": round(per_match, 5),
            "matches_per_block": per_block,
            "how": f"benchmarks/balance_speed.py {name} (one block, seed 0, one process)",
            "measured": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "load": round(os.getloadavg()[0], 2),
            "build": decide()[0],
        }
        print(f"{name}: {cards.name} {per_block} matches, {per_match:.3f} s per match")
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(out, json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
