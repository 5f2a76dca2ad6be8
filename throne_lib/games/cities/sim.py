"""城池战's SimHooks and command-line hooks: one row per match (players, each seat's
team, team size, starting city, hero and result, the rule that ended it, rounds);
``throne simulate --game cities --players N [--teams a,b,a,b]``, ``throne play --game
cities --players N`` and ``throne report`` with win rates per team size and per
starting city."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pandas as pd

from throne_lib.kit.sim import MatchSpec, seat_specs


def _teams(args: argparse.Namespace) -> list[str]:
    n = int(args.players)
    if getattr(args, "teams", ""):
        labels = [t.strip() for t in str(args.teams).split(",")]
        if len(labels) != n:
            raise ValueError(f"--teams names {len(labels)} seats, not {n} (CW-SETUP-2)")
        if len(set(labels)) < 2:
            raise ValueError("--teams needs at least two teams (CW-SETUP-2)")
        return labels
    return [f"t{i}" for i in range(n)]


def _deck_mode_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deck-mode", dest="deck_mode", default="personal",
                        choices=("personal", "shared"),
                        help="CW-DECK-1: a draw pile per player (default) or the base game's "
                        "one shared pile")  # fmt: skip


def _rule_options(args: argparse.Namespace) -> dict[str, Any]:
    """The match options the rule flags ask for (none: the rulebook's defaults)."""
    mode = getattr(args, "deck_mode", "personal")
    return {} if mode == "personal" else {"rules": (("deck_mode", mode),)}


class CitiesSimHooks:
    def start(self, spec: MatchSpec, match: Any) -> None:
        return None

    def step(self, state: Any, match: Any, events: Sequence[Any]) -> None:
        return None

    def row(self, spec: MatchSpec, match: Any, state: Any, base: dict[str, Any]) -> dict[str, Any]:
        s = match.state
        w = s.mode.war
        row = dict(base)
        row["players"] = s.n
        row["end_rule"] = s.end_rule
        row["rounds"] = s.round
        for p in s.players:
            q = p.seat
            row[f"seat{q}_team"] = w.teams[q]
            row[f"seat{q}_team_size"] = w.teams.count(w.teams[q])
            row[f"seat{q}_start_city"] = w.table[w.starting[q]].name
            row[f"seat{q}_cities"] = len(w.stacks[q])
            row[f"seat{q}_hero"] = p.hero
        return row

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        from throne_lib.kit.agents import agent_names

        parser.add_argument("--players", "--seats", dest="players", type=int, default=4,
                            help="number of players, 3–8 (default 4)")  # fmt: skip
        parser.add_argument("--teams", default="", help="team label per seat, e.g. a,b,a,b "
                            "(default: everyone alone)")  # fmt: skip
        parser.add_argument("--agent", default="scripted", choices=agent_names("cities"))
        parser.add_argument("--rotate", action="store_true", help="rotate seats every match")
        _deck_mode_argument(parser)

    def specs(self, args: argparse.Namespace, table: Any) -> list[MatchSpec]:
        from throne_lib.kit.registry import get

        get("cities").check_seats(args.players)
        setups = _teams(args)
        agents = [args.agent] * args.players
        specs = seat_specs("cities", setups, agents, args.matches, args.seed, args.rotate)
        opts = _rule_options(args)
        return [replace(s, options=tuple(opts.items())) for s in specs] if opts else specs


def long_rows(df: pd.DataFrame) -> pd.DataFrame:
    """One row per seat of each match: players, team size, starting city, result."""
    parts = []
    for seat in range(8):
        col = f"seat{seat}_team_size"
        if col not in df.columns:
            break
        part = df[df[col].notna()][["match", "players", "end_rule", col,
                                    f"seat{seat}_start_city", f"seat{seat}_return"]]  # fmt: skip
        part.columns = ["match", "players", "end_rule", "team_size", "start_city", "result"]
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def report_text(df: pd.DataFrame) -> str:
    rows = long_rows(df).assign(win=lambda d: d["result"] > 0)
    by_size = rows.pivot_table(index="players", columns="team_size", values="win", aggfunc="mean")
    by_city = (
        rows.groupby("start_city")["win"]
        .agg(["mean", "count"])
        .sort_values("mean", ascending=False)
    )
    ends = df.groupby("players")["end_rule"].value_counts().unstack(fill_value=0)
    pct = by_size.map(lambda v: "" if pd.isna(v) else f"{v:.0%}")
    return "\n".join(
        [
            f"城池战 · {len(df)} matches",
            "",
            "win rate by team size (columns) and players (rows):",
            pct.to_string(),
            "",
            "win rate by starting city:",
            by_city.rename(columns={"mean": "win rate", "count": "seats"}).to_string(
                formatters={"win rate": "{:.0%}".format}
            ),
            "",
            "how games ended:",
            ends.to_string(),
        ]
    )


class CitiesCli:
    def add_play_arguments(self, play: argparse.ArgumentParser) -> None:
        play.add_argument("--players", "--seats", dest="seats", type=int, default=4,
                          help="number of players, 3–8 (default 4)")  # fmt: skip
        play.add_argument("--agents", default="", help="comma-separated agent per seat "
                          "(default: scripted everywhere)")  # fmt: skip
        _deck_mode_argument(play)

    def play_options(self, args: argparse.Namespace) -> dict[str, Any]:
        return _rule_options(args)

    def report_text(self, df: pd.DataFrame, top: int = 15) -> str:
        return report_text(df)


HOOKS = CitiesSimHooks()
CLI = CitiesCli()
