"""城堡之心's SimHooks for the kit's simulator: each seat's identity and hero, the rule
that ended the game and the rounds played, added to the kit's row; ``throne simulate
--game castle --players N`` (the kit's seat options, 5 players unless told)."""

from __future__ import annotations

import argparse
from typing import Any

from throne_lib.games.castle.cli import DEFAULT_PLAYERS
from throne_lib.kit.sim import KitSimHooks, MatchSpec


class CastleSimHooks(KitSimHooks):
    groups = ("role", "hero")

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
        parser.set_defaults(seats=DEFAULT_PLAYERS)


HOOKS = CastleSimHooks()
