"""Balance analytics of any game over a results frame from :mod:`throne_lib.kit.sim`.

Every function takes the frame (one row per match, the kit's columns: ``match, winner,
actions`` and per seat ``{seat}_agent``, ``{seat}_setup`` …) and returns a small pandas
object. A draw counts as 1/N of a win for each of the N seats (½ in a two-player game).
Intervals are Wilson score intervals. A game with richer rows adds its own report
(``report_text`` of its ``Game.cli`` hook; Throne: :mod:`throne_lib.games.throne.analytics`);
``throne report [--game NAME] RESULTS.parquet`` (:func:`report_main`) prints it.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from throne_lib.kit import registry
from throne_lib.kit.stats import Z95 as Z95
from throne_lib.kit.stats import wilson as wilson


def rates(groups: Any) -> pd.DataFrame:
    """Per group of seat rows (a ``score`` column): matches, wins, draws, win rate and
    its 95% interval (``key`` names the group)."""
    rows = []
    for key, g in groups:
        n = len(g)
        score = float(g["score"].sum())
        lo, hi = wilson(score, n)
        rows.append(
            {
                "key": key,
                "matches": n,
                "wins": int((g["score"] == 1).sum()),
                "draws": int(((g["score"] > 0) & (g["score"] < 1)).sum()),
                "win_rate": score / n if n else math.nan,
                "ci_low": lo,
                "ci_high": hi,
            }
        )
    return pd.DataFrame(rows)


def seat_names(df: pd.DataFrame) -> list[str]:
    """The seats of a frame, in order (from its ``{seat}_agent`` columns)."""
    return [c[: -len("_agent")] for c in df.columns if c.endswith("_agent")]


def seat_scores(df: pd.DataFrame) -> pd.DataFrame:
    """Each seat's score per match (columns: the seats): from the ``{seat}_return``
    columns when the frame has them — 1 for each seat of a winning side (the best return,
    when it is above 0), the best return shared by its K seats otherwise (1/N each in a
    draw of N seats) and 0 for the others; else from ``winner`` naming a seat ("draw":
    1/N each). The ``winner`` label may name a role or a team, not a seat."""
    names = seat_names(df)
    n = max(1, len(names))
    if names and all(f"{s}_return" in df for s in names):
        r = df[[f"{s}_return" for s in names]].to_numpy(dtype=float)
        best = r.max(axis=1, keepdims=True)
        top = r == best
        share = (best > 0) + (best <= 0) / top.sum(axis=1, keepdims=True)
        return pd.DataFrame(top * share, columns=names, index=df.index)
    won = {s: (df["winner"] == s).astype(float) + (df["winner"] == "draw") / n for s in names}
    return pd.DataFrame(won, index=df.index)


def seat_frame(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (match, seat): seat, seat index, agent, setup (when present) and
    score (:func:`seat_scores`: 1 win, 1/N draw, 0 loss)."""
    names = seat_names(df)
    scores = seat_scores(df)
    parts = []
    for i, name in enumerate(names):
        part = pd.DataFrame(
            {
                "match": df["match"],
                "seat": name,
                "seat_index": i,
                "agent": df[f"{name}_agent"],
                "score": scores[name],
            }
        )
        if f"{name}_setup" in df:
            part["setup"] = df[f"{name}_setup"]
        parts.append(part)
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def win_rates(df: pd.DataFrame, by: str = "seat") -> pd.DataFrame:
    """Win rate per ``seat``, ``agent`` or ``setup`` (a role or deck) with a 95% interval,
    best first."""
    out = rates(seat_frame(df).groupby(by))
    if out.empty:
        return out
    out = out.rename(columns={"key": by})
    return out.sort_values("win_rate", ascending=False, kind="stable").reset_index(drop=True)


def first_seat_edge(df: pd.DataFrame, first: str = "") -> pd.Series:
    """How often a seat wins, with its interval: the seat ``first`` names, else the
    first player of each match (the seat its ``first`` column names, when the frame has
    one), else seat 0 (which moved first only if the game always starts with it)."""
    n = len(df)
    names = seat_names(df)
    if first or "first" in df:
        who = df["first"] if not first else pd.Series([first] * n, index=df.index)
    else:
        who = pd.Series([names[0] if names else ""] * n, index=df.index)
    scores = seat_scores(df)
    table = scores.to_dict("index")  # match index -> seat -> score
    score = sum(float(table[i].get(w, 0.0)) for i, w in who.items())
    lo, hi = wilson(score, n)
    return pd.Series(
        {"matches": n, "first_win_rate": score / n if n else math.nan, "ci_low": lo, "ci_high": hi}
    )


def length_distribution(df: pd.DataFrame, column: str = "actions") -> pd.Series:
    """Matches per length (``actions``, or a game's ``rounds``)."""
    return df[column].value_counts().sort_index()


def seat_rows(
    df: pd.DataFrame, fields: Sequence[str], keep: Sequence[str] = ("match", "players", "end_rule")
) -> pd.DataFrame:
    """One row per seat of each match of a game with ``seatN_FIELD`` columns: the ``keep``
    columns, each of ``fields`` (from ``seatN_FIELD``) and ``result`` (``seatN_return``);
    a seat a smaller table did not have (its first field empty) is left out."""
    parts = []
    seat = 0
    while f"seat{seat}_{fields[0]}" in df.columns:
        cols = [*keep, *(f"seat{seat}_{f}" for f in fields), f"seat{seat}_return"]
        part = df[df[cols[len(keep)]].notna()][cols]
        part.columns = pd.Index([*keep, *fields, "result"])
        parts.append(part)
        seat += 1
    return pd.concat(parts, ignore_index=True)


@dataclass(frozen=True)
class SeatReport:
    """The report of a many-seat game whose rows have ``seatN_FIELD`` columns (城堡之心,
    城池战): ``fields`` are the per-seat fields read; the win rate by player count and
    ``by[0]`` is a table captioned ``by[1]``, the win rate per ``rank[0]`` is ranked best
    first under ``rank[1]``; then how the games ended per player count (``end_rule``)."""

    title: str
    fields: tuple[str, ...]
    by: tuple[str, str]
    rank: tuple[str, str]

    def rows(self, df: pd.DataFrame) -> pd.DataFrame:
        """One row per seat of each match: players, the fields, result (:func:`seat_rows`)."""
        return seat_rows(df, self.fields)

    def text(self, df: pd.DataFrame) -> str:
        title, by, rank = self.title, self.by, self.rank
        rows = self.rows(df).assign(win=lambda d: d["result"] > 0)
        table = rows.pivot_table(index="players", columns=by[0], values="win", aggfunc="mean")
        ranked = (
            rows.groupby(rank[0])["win"].agg(["mean", "count"]).sort_values("mean", ascending=False)
        )
        ends = df.groupby("players")["end_rule"].value_counts().unstack(fill_value=0)
        pct = table.map(lambda v: "" if pd.isna(v) else f"{v:.0%}")
        ranked = ranked.rename(columns={"mean": "win rate", "count": "seats"})
        return "\n".join(
            [
                f"{title} · {len(df)} matches",
                "",
                by[1],
                pct.to_string(),
                "",
                rank[1],
                ranked.to_string(formatters={"win rate": "{:.0%}".format}),
                "",
                "how games ended:",
                ends.to_string(),
            ]
        )


def report_text(df: pd.DataFrame) -> str:
    """The kit's plain-text report: win rates per seat, agent and setup, the first
    player's (when the frame names it) and seat 0's win rate, match length."""
    if df.empty:
        return "no matches"
    f3 = "{:.3f}".format
    parts = [
        "== win rate per seat (95% CI) ==",
        win_rates(df).to_string(index=False, float_format=f3),
    ]
    for by in ("agent", "setup"):
        if by in seat_frame(df):
            parts += ["", f"== win rate per {by} ==", win_rates(df, by).to_string(index=False, float_format=f3)]  # fmt: skip
    if "first" in df:  # the game names the first player of each match (PIN: the reveal)
        first = first_seat_edge(df).to_string(float_format=f3)
        parts += ["", "== first player (whoever moved first) ==", first]
    names = seat_names(df)
    if names:
        seat0 = first_seat_edge(df, names[0]).rename({"first_win_rate": "win_rate"})
        parts += ["", f"== seat {names[0]} (seat 0) ==", seat0.to_string(float_format=f3)]
    parts += ["", "== match length (actions: matches) ==", length_distribution(df).to_string()]
    return "\n".join(parts)


def report_main(argv: Sequence[str] | None = None) -> int:
    """``throne report [--game NAME] RESULTS.parquet [MORE.parquet …]``: print the balance
    report (the game's own when its ``Game.cli`` hook has ``report_text``); several
    ladder files are joined into one ladder (:func:`~throne_lib.kit.ladder.join_ladders`)."""
    p = argparse.ArgumentParser(prog="throne report", description="balance report of a batch")
    p.add_argument("results", nargs="+", help="Parquet file written by throne simulate or "
                   "ladder, or the journal of a run still going or stopped (OUT.journal.jsonl); "
                   "several ladder files of one game and table size are reported as one "
                   "ladder, paired on the seeds they share")  # fmt: skip
    p.add_argument("--top", type=int, default=15, help="cards to list")
    p.add_argument("--game", default=None, help="the game (default: the frame's, else throne)")
    args = p.parse_args(argv)
    from throne_lib.kit.journal import is_journal, journal_rows
    from throne_lib.kit.ladder import is_ladder, join_ladders, ladder_text, with_ladder_column

    def read(path: str) -> pd.DataFrame:
        if is_journal(path):  # the matches played so far
            df = with_ladder_column(pd.DataFrame(journal_rows(path)))
            print(f"{path}: the journal of a run not finished: {len(df)} matches so far")
            return df
        return pd.read_parquet(path, engine="pyarrow")

    try:
        frames = [(path, read(path)) for path in args.results]
        if len(frames) > 1:
            df = join_ladders(frames)
            print(f"{len(frames)} ladder files joined: {', '.join(args.results)}")
        else:
            df = frames[0][1]
        if df.empty and is_journal(args.results[0]):  # nothing played yet
            return 0
        name = args.game or (
            str(df["game"].iloc[0]) if "game" in df and len(df) else registry.DEFAULT_GAME
        )
        game = registry.get(name)
    except (OSError, ValueError) as exc:
        print(f"throne report: {exc}", file=sys.stderr)
        return 1
    from throne_lib.kit.cli import cli_hooks

    if is_ladder(df):  # a `throne ladder` file: the ratings
        print(ladder_text(df))
        return 0
    own = cli_hooks(game).report_text(df, args.top)
    print(own if own is not None else report_text(df))
    return 0


if __name__ == "__main__":
    raise SystemExit(report_main())
