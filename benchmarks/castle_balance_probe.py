"""Why do the 敌军 win? A balance probe for 城堡之心 (figures in docs/castle.md, "Balance").

Not a speed benchmark: it plays seeded matches (seed ``1000 * players + i``) under agent
mixes and rule readings and prints the win rate per identity, how the matches ended,
how often a hero played twice before the 城主's next turn (a 跳跃 swap under CH-TURN-1's
``by_seat`` reading) and how often the 城主 died before his second turn.

    python benchmarks/castle_balance_probe.py 5 200
    python benchmarks/castle_balance_probe.py 5 200 "random all" by_hero

``by_hero`` plays every experiment with ``CastleRules(turn_passing="by_hero")`` (CH-TURN-1's
other reading): turns pass in the heroes' seating order of the start, so a swap never
skips the 城主.
"""

from __future__ import annotations

import collections
import dataclasses
import sys
from collections.abc import Callable
from typing import Any

from throne_lib.games.castle.agents import RandomAgent, ScriptedAgent, play_match
from throne_lib.games.castle.match import CastleMatch
from throne_lib.games.castle.rules import CastleRules

# CH-TURN-1's reading every experiment plays with (``by_hero`` on the command line).
PASSING = ["by_seat"]


def run(
    players: int, n: int, castle: str = "scripted", enemy: str = "scripted",
    rules: CastleRules | None = None,
) -> dict[str, Any]:  # fmt: skip
    wins: collections.Counter[str] = collections.Counter()
    ends: collections.Counter[str] = collections.Counter()
    twice = lord_early = 0
    for i in range(n):
        seed = 1000 * players + i
        m = CastleMatch(
            players=players,
            seed=seed,
            rules=dataclasses.replace(rules or CastleRules(), turn_passing=PASSING[0]),
        )
        agents = []
        for p in m.state.players:
            kind = castle if p.role in ("lord", "reinforcement") else enemy
            make = RandomAgent if kind == "random" and p.role != "neutral" else ScriptedAgent
            agents.append(make(seed, p.seat))
        play_match(m, agents)
        st = m.state
        ends[st.end_rule] += 1
        for p, r in zip(st.players, m.returns(), strict=True):
            wins[p.role] += r > 0
        seat_of = {st.hero_name(p.seat): p.seat for p in st.players}
        turns = [seat_of[e.text.split(" ", 2)[2].rsplit(" 的回合", 1)[0]] for e in st.log if e.kind == "turn"]  # fmt: skip
        lord = next(p.seat for p in st.players if p.role == "lord")
        spans: list[list[int]] = [[]]
        for seat in turns:
            if seat == lord:
                spans.append([])
            else:
                spans[-1].append(seat)
        twice += any(len(sp) != len(set(sp)) for sp in spans[1:])
        lord_early += turns.count(lord) < 2 and st.end_rule == "CH-WIN-2"
    count = collections.Counter(p.role for p in CastleMatch(players=players, seed=0).state.players)
    return {
        "win_rate": {r: round(wins[r] / (n * k), 3) for r, k in count.items()},
        "ends": dict(ends),
        "a_hero_twice_before_the_lord": twice,
        "lord_dead_before_2nd_turn": round(lord_early / n, 3),
    }


EXPERIMENTS: dict[str, Callable[[int, int], dict[str, Any]]] = {
    "scripted all": lambda p, n: run(p, n),
    "random all": lambda p, n: run(p, n, "random", "random"),
    "castle scripted vs enemy random": lambda p, n: run(p, n, enemy="random"),
    "castle random vs enemy scripted": lambda p, n: run(p, n, castle="random"),
    "lord_bonus_hp=2": lambda p, n: run(p, n, rules=CastleRules(lord_bonus_hp=2)),
    "opening_hand=0": lambda p, n: run(p, n, rules=CastleRules(opening_hand=0)),
    "hidden_identities=False": lambda p, n: run(p, n, rules=CastleRules(hidden_identities=False)),
}


def main(argv: list[str]) -> None:
    players, n = int(argv[0]), int(argv[1])
    wanted = argv[2:]
    if "by_hero" in wanted:
        PASSING[0] = "by_hero"
        wanted.remove("by_hero")
        print("turn_passing='by_hero': turns pass in the heroes' seating order of the start")
    for name, fn in EXPERIMENTS.items():
        if not wanted or name in wanted:
            print(name, fn(players, n), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
