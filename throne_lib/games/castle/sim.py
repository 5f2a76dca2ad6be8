"""城堡之心's SimHooks for the kit's simulator: one row per match with each seat's
identity and hero, the rule that ended the game and the rounds played; and
``throne simulate --game castle --players N``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from throne_lib.kit.sim import MatchSpec, seat_specs


class CastleSimHooks:
    def start(self, spec: MatchSpec, match: Any) -> None:
        return None

    def step(self, state: Any, match: Any, events: Sequence[Any]) -> None:
        return None

    def row(self, spec: MatchSpec, match: Any, state: Any, base: dict[str, Any]) -> dict[str, Any]:
        s = match.state
        row = dict(base)
        row["players"] = s.n
        row["end_rule"] = s.end_rule
        row["rounds"] = s.round
        for p in s.players:
            row[f"seat{p.seat}_role"] = p.role
            row[f"seat{p.seat}_hero"] = p.hero
        return row

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        from throne_lib.kit.agents import agent_names

        parser.add_argument("--players", "--seats", dest="players", type=int, default=5,
                            help="number of players, 3–8 (default 5)")  # fmt: skip
        parser.add_argument("--agent", default="scripted", choices=agent_names("castle"))
        parser.add_argument("--rotate", action="store_true", help="rotate seats every match")

    def specs(self, args: argparse.Namespace, table: Any) -> list[MatchSpec]:
        from throne_lib.kit.registry import get

        game = get("castle")
        game.check_seats(args.players)
        setups = [f"seat{i}" for i in range(args.players)]
        agents = [args.agent] * args.players
        return seat_specs("castle", setups, agents, args.matches, args.seed, args.rotate)


HOOKS = CastleSimHooks()
