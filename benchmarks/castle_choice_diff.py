"""Replay one ladder match of 城堡之心 and list where its focus seat chose otherwise than the
scripted agent would have on the same position (issue 32: what a searching seat does
differently, and whether it loses by it). A reviewer's tool: it prints every seat's true
role and HP beside each differing choice, which no agent may read.

    python benchmarks/castle_choice_diff.py SEED SEAT SEATS FOCUS [TABLEMATES]
    python benchmarks/castle_choice_diff.py 57001 4 6 ismcts:iterations=40 ismcts:iterations=10

plays the match ``throne ladder --game castle --seats SEATS --agents scripted,FOCUS
--tablemates TABLEMATES`` played on SEED with FOCUS in SEAT (the same agents and seeds:
``seed x seats + seat``), and asks a scripted agent seeded as that seat's reference would
be for its choice at each of the seat's decisions. Deterministic for an iteration budget.
"""

from __future__ import annotations

import sys

from throne_lib.kit import registry
from throne_lib.kit.agents import make_agent


def main(argv: list[str]) -> int:
    if len(argv) not in (4, 5):
        print(__doc__)
        return 2
    seed, seat, seats, focus = int(argv[0]), int(argv[1]), int(argv[2]), argv[3]
    mates = argv[4] if len(argv) == 5 else "scripted"
    game = registry.get("castle")
    assert game.default_setups is not None
    match = game.new_match(list(game.default_setups(seats)), seed, {})
    agents = [
        make_agent(focus if s == seat else mates, seed * seats + s, "castle") for s in range(seats)
    ]
    shadow = make_agent("scripted", seed * seats + seat, "castle")
    differ = same = 0
    while not match.is_over:
        s = match.current_seat
        legal = match.legal_actions()
        action = agents[s].choose(match)
        if s == seat and len(legal) > 1:
            other = shadow.choose(match)
            if action.text() == other.text():
                same += 1
            else:
                differ += 1
                table = " ".join(
                    f"{p.seat}:{p.role}{'*' if p.revealed else ''} {p.hp}hp/{len(p.soldiers)}"
                    for p in match.state.players
                )
                print(
                    f"action {len(match.history):4d} round {match.state.round}: "
                    f"{action.text()!r} where scripted plays {other.text()!r} | {table}"
                )
        match.apply(action)
    print(
        f"winner {game.winner(match)} after {len(match.history)} actions; seat {seat} "
        f"chose otherwise than scripted at {differ} of {differ + same} choices"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
