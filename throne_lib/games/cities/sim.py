"""城池战's SimHooks and command-line hooks: one row per match (players, each seat's
team, team size, starting city, hero and result, the rule that ended it, rounds and turns);
``throne simulate --game cities --players N [--teams a,b,a,b]``, ``throne play --game
cities --players N [--teams a,b,a,b]`` and ``throne report`` with win rates per team size and per
starting city."""

from __future__ import annotations

import argparse
from typing import Any

import pandas as pd

from throne_lib.kit.analytics import SeatReport
from throne_lib.kit.cli import KitCliHooks
from throne_lib.kit.sim import KitSimHooks, MatchSpec

#: players when ``--players`` is not given
DEFAULT_PLAYERS = 4


def _teams(args: argparse.Namespace) -> list[str]:
    n = int(args.seats)
    teams = getattr(args, "teams", None)
    if teams is not None:  # given, even empty: --teams '' is an error, not "each alone"
        labels = [t.strip() for t in str(teams).split(",")]
        if not all(labels):
            raise ValueError(f"--teams {teams!r}: give a label per seat, e.g. a,b,a,b (CW-SETUP-2)")
        if len(labels) != n:
            raise ValueError(f"--teams names {len(labels)} seats, not {n} (CW-SETUP-2)")
        if len(set(labels)) < 2:
            raise ValueError("--teams needs at least two teams (CW-SETUP-2)")
        return labels
    return [f"t{i}" for i in range(n)]


def _teams_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--teams", default=None, help="team label per seat, e.g. a,b,a,b "
                        "(default: everyone alone)")  # fmt: skip


def _deck_mode_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deck-mode", dest="deck_mode", default="personal",
                        choices=("personal", "shared"),
                        help="CW-DECK-1: a draw pile per player (default) or the base game's "
                        "one shared pile")  # fmt: skip


def _rule_options(args: argparse.Namespace) -> dict[str, Any]:
    """The match options the rule flags ask for (none: the rulebook's defaults)."""
    mode = getattr(args, "deck_mode", "personal")
    return {} if mode == "personal" else {"rules": (("deck_mode", mode),)}


class CitiesSimHooks(KitSimHooks):
    groups = ("team_size", "start_city", "hero")

    def row(self, spec: MatchSpec, match: Any, state: Any, base: dict[str, Any]) -> dict[str, Any]:
        s = match.state
        w = s.mode.war
        row = dict(base)
        row["players"] = s.n
        row["end_rule"] = s.end_rule
        row["rounds"] = s.round
        row["turns"] = s.turn_no  # turns played (a round: one per player still in)
        for p in s.players:
            q = p.seat
            row[f"seat{q}_team"] = w.teams[q]
            row[f"seat{q}_team_size"] = w.teams.count(w.teams[q])
            row[f"seat{q}_start_city"] = w.table[w.starting[q]].name
            row[f"seat{q}_cities"] = len(w.stacks[q])
            row[f"seat{q}_hero"] = p.hero
        return row

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.set_defaults(seats=DEFAULT_PLAYERS)  # the kit adds --seats/--players, --agent
        _teams_argument(parser)
        _deck_mode_argument(parser)

    def setups(self, args: argparse.Namespace, seats: int) -> list[str]:
        return _teams(args)

    def options(self, args: argparse.Namespace) -> dict[str, Any]:
        return _rule_options(args)


REPORT = SeatReport(
    "城池战",
    ("team_size", "start_city"),
    ("team_size", "win rate by team size (columns) and players (rows):"),
    ("start_city", "win rate by starting city:"),
)
report_text = REPORT.text


class CitiesCli(KitCliHooks):
    def add_play_arguments(self, play: argparse.ArgumentParser) -> None:
        play.set_defaults(seats=DEFAULT_PLAYERS)  # the kit adds --seats/--players, --agents
        _teams_argument(play)
        _deck_mode_argument(play)

    def play_setups(self, args: argparse.Namespace, seats: int) -> list[str] | None:
        """``--teams a,b,a,b`` (CW-SETUP-2); None without it: ``--setups`` or everyone alone."""
        if getattr(args, "teams", None) is None:
            return None
        return _teams(argparse.Namespace(seats=seats, teams=args.teams))

    def play_options(self, args: argparse.Namespace) -> dict[str, Any]:
        return _rule_options(args)

    def report_text(self, df: pd.DataFrame, top: int = 15) -> str | None:
        return report_text(df)


HOOKS = CitiesSimHooks()
CLI = CitiesCli()
