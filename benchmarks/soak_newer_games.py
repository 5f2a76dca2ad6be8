"""Soak of the three newer games (issue 34): random matches of 城堡之心, 城池战 and PIN on
fresh seeds, each one's invariants checked as it is played, every match logged and a
share of the logs replayed with ``throne replay --check``.

    .venv/bin/python benchmarks/soak_newer_games.py [-n 1000] [--seed 34000000]
                     [--replay-share 0.1] [--games castle,cities,pin] [--every 25]

Not part of the test run. It prints figures — matches, actions, invariant checks and any
violation or exception with the game and seed that reproduces it — and exits 1 if
anything failed. Every match is a pure function of (game, seed, seat count): the seat
count is drawn from ``random.Random(f"soak34:{game}:{seed}")``.

Checked every ``--every`` actions and at the end:

- the protocol: an awaited seat in range and a legal action while the match runs, one
  return per seat, a copy with the same hash, each seat's observation JSON-able;
- hidden information: ``observation(seat)`` equals that of ``resample(seat, rng)`` (a
  redraw of what the seat cannot see changes nothing it sees), for one seat each time;
- the bad-input invariants: ``observation(-1)``/``(True)`` refused, ``apply(None)`` refused
  with the hash unchanged;
- 城堡之心: every box card in exactly one place (CH-DECK-8), HP within bounds;
- 城池战: CW-CITY-2 and the grain rules (``city_invariants()``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from soak import replay_check  # benchmarks/soak.py: `throne replay --check` in-process
from tqdm.auto import tqdm  # type: ignore[import-untyped]

from throne_lib.kit import registry
from throne_lib.kit.agents import make_agent
from throne_lib.kit.log import MatchRecorder

NEWER = ("castle", "cities", "pin")


_BOX: dict[str, Counter[str]] = {}


def castle_problems(m: Any) -> list[str]:
    from throne_lib.games.castle import box_census

    s = m.state
    box = _BOX.get(s.cards.hash)
    if box is None:
        box = _BOX[s.cards.hash] = Counter(s.cards.box())
    out = []
    if Counter(box_census(s)) != box:
        out.append("CH-DECK-8: the box census differs from the card table's counts")
    for p in s.players:
        if p.hp > p.max_hp:
            out.append(f"seat {p.seat}: hp {p.hp} > max {p.max_hp}")
        out += [
            f"soldier {x.ref}: hp {x.hp}/{x.max_hp}" for x in p.soldiers if not 0 < x.hp <= x.max_hp
        ]
    return out


def cities_problems(m: Any) -> list[str]:
    return list(m.city_invariants())


GAME_CHECKS: dict[str, Callable[[Any], list[str]]] = {
    "castle": castle_problems,
    "cities": cities_problems,
}


def protocol_problems(m: Any, rng: random.Random) -> list[str]:
    out: list[str] = []
    n = m.num_seats
    if not m.is_over:
        if not 0 <= m.current_seat < n:
            out.append(f"current seat {m.current_seat} not in 0..{n - 1}")
        if not m.legal_actions():
            out.append("no legal action while the match runs")
    if len(m.returns()) != n:
        out.append(f"{len(m.returns())} returns for {n} seats")
    if m.copy().hash() != m.hash():
        out.append("a copy hashes differently")
    seat = rng.randrange(n)
    seen = m.observation(seat)
    json.dumps(seen, ensure_ascii=False)
    redrawn = m.resample(seat, random.Random(rng.getrandbits(32))).observation(seat)
    if json.dumps(redrawn, sort_keys=True, default=str) != json.dumps(
        seen, sort_keys=True, default=str
    ):
        out.append(f"seat {seat}: its observation changed when hidden parts were redrawn")
    before = m.hash()
    for bad in (-1, True):
        try:
            m.observation(bad)
            out.append(f"observation({bad!r}) was answered")
        except (TypeError, ValueError):
            pass
    try:
        m.apply(None)
        out.append("apply(None) was accepted")
    except (TypeError, ValueError):
        pass
    if m.hash() != before:
        out.append("a refused input changed the hash")
    return out


def play_one(game: registry.Game, seed: int, path: Path, every: int) -> tuple[int, int, list[str]]:
    """One checked, logged match: (actions, checks made, problems found)."""
    rng = random.Random(f"soak34:{game.name}:{seed}")
    n = rng.randint(*game.seats)
    m = game.new(game.default_setups(n) if game.default_setups else None, seed)
    agents = [make_agent("random", seed * 8 + k, game.name) for k in range(m.num_seats)]
    own = GAME_CHECKS.get(game.name, lambda _m: [])
    problems: list[str] = []
    checks = 0
    actions = 0
    with MatchRecorder(m, path) as rec:
        while not m.is_over and actions < 200_000:
            rec.apply(agents[m.current_seat].choose(m))
            actions += 1
            if actions % every == 0:
                checks += 1
                problems += [f"action {actions}: {p}" for p in protocol_problems(m, rng) + own(m)]
                if problems:
                    break
    if not m.is_over and not problems:
        problems.append("the match did not end within 200000 actions")
    checks += 1
    problems += [f"end: {p}" for p in protocol_problems(m, rng) + own(m)]
    return actions, checks, problems


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("-n", "--matches", type=int, default=1000, help="matches per game")
    p.add_argument(
        "--seed", type=int, default=34_000_000, help="first seed (fresh: unused by tests)"
    )
    p.add_argument("--replay-share", type=float, default=0.1, help="share of logs replay-checked")
    p.add_argument("--games", default=",".join(NEWER))
    p.add_argument("--every", type=int, default=25, help="check the invariants every N actions")
    p.add_argument("--logs", type=Path, help="keep the logs here (default: a temp dir, removed)")
    args = p.parse_args(argv)
    games = [registry.get(g) for g in args.games.split(",")]
    tmp = tempfile.TemporaryDirectory(prefix="soak34-")
    log_dir = args.logs or Path(tmp.name)
    log_dir.mkdir(parents=True, exist_ok=True)
    pick = random.Random(args.seed)
    failed: list[str] = []
    t0 = time.monotonic()
    for game in games:
        played = actions = checks = replayed = 0
        t = time.monotonic()
        for k in tqdm(range(args.matches), desc=game.name, unit="match"):
            seed = args.seed + k
            path = log_dir / f"{game.name}_{seed}.jsonl"
            try:
                a, c, problems = play_one(game, seed, path, args.every)
            except Exception as exc:  # a soak records, reproduces by seed, goes on
                failed.append(f"{game.name} seed {seed}: raised {type(exc).__name__}: {exc}")
                continue
            played, actions, checks = played + 1, actions + a, checks + c
            failed += [f"{game.name} seed {seed}: {q}" for q in problems[:3]]
            if pick.random() < args.replay_share:
                replayed += 1
                code, err = replay_check(game, path)
                if code != 0:
                    failed.append(f"{game.name} seed {seed}: replay --check exit {code}: {err}")
            if args.logs is None:
                path.unlink(missing_ok=True)
        print(
            f"{game.name}: {played}/{args.matches} matches (seeds {args.seed}..{args.seed + args.matches - 1}), "
            f"{actions} actions, {checks} invariant checks, {replayed} logs replay-checked, "
            f"{time.monotonic() - t:.0f} s"
        )
    print(f"problems: {len(failed)} ({time.monotonic() - t0:.0f} s in all)")
    for line in failed[:30]:
        print("  " + line)
    tmp.cleanup()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
