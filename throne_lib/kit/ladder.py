"""A rating ladder for any game: ``throne ladder --game NAME --agents a,b,c -n N``.

Entrants are agent names with optional parameters, ``ismcts:iterations=100:rollout_actions=20``
(the label is the whole token). Matches run through :func:`throne_lib.kit.sim.simulate`
(processes, Dask or serial), so every worker plays the same specs and the same rows come
back on every backend.

* **Two seats** (Throne, PIN): a round robin — for every pair and every seed the pair
  plays twice, seats swapped (paired seeds). A Bradley–Terry model is fitted to the
  wins (a draw is half a win each; MM algorithm, Hunter 2004) and shown as Elo
  (``400 log10`` of the strength ratio; the first entrant is 0). The 95% intervals
  come from a seeded bootstrap over seeds (both games of a seed stay together).
* **Three or more seats** (城堡之心, 城池战): the first entrant (or ``--reference``) is the
  reference. For every seed one match is played by the reference in every seat (the
  baseline) and, for every other entrant, one match in which it takes seat ``seed mod
  N`` (seat rotation) and the reference keeps the others. The entrant is rated by how
  often that seat wins against the same seat of the baseline on the same seed:
  the difference in points with a 95% interval (paired), per role (the game's
  ``{seat}_role`` or ``{seat}_team_size`` column, else the seat), and as a paired Elo
  from the discordant seeds (entrant's seat won and the baseline's lost, or the reverse).
  With ``--role ROLE`` the entrant takes, on each seed, the seat dealt that role (the
  game's ``{seat}_role`` column of the match as dealt; seeds without it are skipped), so
  every one of the ``n`` seeds measures that role: a per-role figure for a fifth of the
  matches seat rotation would need at five seats. With ``--tablemates AGENT`` the seats
  other than the rated one are played by that agent in the baseline and in every
  entrant's match alike (by default the reference plays them): how a seat does among
  stronger, or weaker, players.

Rows go to Parquet with a ``ladder`` column (``pair|A|B`` with A in seat 0;
``base||`` or ``focus|X|seat``); ``throne report FILE`` prints the ladder from them. A
stopped ladder goes on with ``--resume`` (the journal of :mod:`throne_lib.kit.journal`).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from throne_lib.kit import registry
from throne_lib.kit.agents import check_agent, parse_agent
from throne_lib.kit.cluster import add_backend_options
from throne_lib.kit.journal import journal_path, stopped_message
from throne_lib.kit.sim import MatchSpec, save_results, sim_hooks, simulate
from throne_lib.kit.stats import Z95, wilson

BOOTSTRAP = 400
# with --role: how many seeds per asked seed may be looked at for one that deals the role
SKIP_LIMIT = 20


@dataclass(frozen=True)
class Entrant:
    """An agent of the ladder: its label (the command-line token), name and parameters."""

    label: str
    name: str
    params: tuple[tuple[str, Any], ...] = ()


def parse_entrant(token: str) -> Entrant:
    """``name`` or ``name:key=value:key=value`` (:func:`throne_lib.kit.agents.parse_agent`)."""
    name, params = parse_agent(token)
    return Entrant(token.strip(), name, params)


def ladder_specs(
    game: registry.Game,
    entrants: Sequence[Entrant],
    n: int,
    seats: int,
    seed: int = 0,
    setups: Sequence[Any] | None = None,
    role: str | None = None,
    tablemates: Entrant | None = None,
) -> list[MatchSpec]:
    """The matches of a ladder (see the module docstring); ``n`` seeds. ``role``
    (multi-seat): the entrant takes the seat dealt that role on each seed
    (:func:`seats_with_role`), and seeds where no seat has it are skipped.
    ``tablemates`` (multi-seat): who plays the other seats (default: the reference)."""
    if len({e.label for e in entrants}) != len(entrants):
        raise ValueError("ladder: every entrant must be different")
    if len(entrants) < 2:
        raise ValueError("ladder: give at least two agents")
    game.check_seats(seats)
    if setups is None:
        if game.default_setups is None:
            raise ValueError(f"{game.name} registers no default setups")
        setups = game.default_setups(seats)
    su = tuple(setups)
    out: list[MatchSpec] = []

    def add(s: int, seat_entrants: Sequence[Entrant], label: str) -> None:
        out.append(
            MatchSpec(
                len(out),
                s,
                su,
                tuple(e.name for e in seat_entrants),
                tuple(e.params for e in seat_entrants),
                label=label,
                game=game.name,
            )
        )

    if role is not None and seats == 2:
        raise ValueError("ladder: --role is for games of three or more seats")
    if tablemates is not None and seats == 2:
        raise ValueError("ladder: --tablemates is for games of three or more seats")
    found = 0
    for i in range(n if role is None else SKIP_LIMIT * n):
        if found == n:
            break
        s = seed + i
        holders = seats_with_role(game, su, s, role) if role is not None else []
        if role is not None and not holders:
            continue
        found += 1
        if seats == 2:
            for x in range(len(entrants)):
                for y in range(x + 1, len(entrants)):
                    a, b = entrants[x], entrants[y]
                    add(s, (a, b), f"pair|{a.label}|{b.label}")
                    add(s, (b, a), f"pair|{b.label}|{a.label}")
        else:
            ref, mates = entrants[0], tablemates or entrants[0]
            seat = holders[i % len(holders)] if holders else i % seats
            add(s, [ref if q == seat else mates for q in range(seats)], "base||")
            for e in entrants[1:]:
                add(s, [e if q == seat else mates for q in range(seats)], f"focus|{e.label}|{seat}")
    if found < n:
        raise ValueError(
            f"ladder: only {found} of seeds {seed}–{seed + SKIP_LIMIT * n - 1} deal a seat "
            f"the role {role!r} ({n} asked)"
        )
    return out


def seats_with_role(game: registry.Game, setups: Sequence[Any], seed: int, role: str) -> list[int]:
    """The seats dealt ``role`` in the match of ``seed`` as dealt (before any action): the
    game's ``{seat}_role`` result columns (its sim hooks' row) of the new match. A
    ``ValueError`` when the game records no roles."""
    match = game.new_match(list(setups), seed, {})
    hooks = sim_hooks(game)
    spec = MatchSpec(0, seed, tuple(setups), ("",) * len(setups), game=game.name)
    row = hooks.row(spec, match, hooks.start(spec, match), {})
    names = [game.seat_name(q) for q in range(len(setups))]
    if not any(f"{name}_role" in row for name in names):
        raise ValueError(f"ladder: {game.name} deals no roles (no seat_role column)")
    return [q for q, name in enumerate(names) if row.get(f"{name}_role") == role]


def run_ladder(specs: Sequence[MatchSpec], **sim: Any) -> pd.DataFrame:
    """Play the specs (``sim``: :func:`simulate`'s options); rows with a ``ladder`` column."""
    df = simulate(specs, **sim)
    df["ladder"] = df["label"]
    if "game" not in df and specs:  # Throne's rows do not name their game
        df["game"] = specs[0].game
    return df


# --- ratings ----------------------------------------------------------------------------


def bradley_terry(wins: np.ndarray, iters: int = 500) -> np.ndarray:
    """Strengths (geometric mean 1) from ``wins[i, j]`` = i's wins over j (MM algorithm);
    a small prior (half a win each way per pair) keeps an unbeaten entrant finite."""
    k = wins.shape[0]
    w = wins + 0.5 * (1 - np.eye(k))
    games = w + w.T
    p = np.ones(k)
    for _ in range(iters):
        denom = (games / (p[:, None] + p[None, :])).sum(axis=1)
        p_new = w.sum(axis=1) / denom
        p_new /= math.exp(np.log(p_new).mean())
        if np.allclose(p_new, p, rtol=1e-10, atol=0):
            p = p_new
            break
        p = p_new
    return p


def seat_score(df: pd.DataFrame, seat: int) -> pd.Series:
    """1 when ``seat`` won (its return > 0), 0.5 for a 2-seat draw, else 0. Rows without
    returns (Throne's: ``winner`` is a side's name or ``draw``) are read by that column,
    the seats named by their ``<name>_agent`` columns in order."""
    names = [c[: -len("_return")] for c in df.columns if c.endswith("_return")]
    if not names:
        sides = [c[: -len("_agent")] for c in df.columns if c.endswith("_agent")]
        w = df["winner"]
        return (w == sides[seat]).astype(float) + 0.5 * (w == "draw")
    r = df[f"{names[seat]}_return"]
    if len(names) == 2:
        other = df[f"{names[1 - seat]}_return"]
        return (r > other).astype(float) + 0.5 * (r == other)
    return (r > 0).astype(float)


def pair_table(df: pd.DataFrame, seed: int = 0) -> pd.DataFrame:
    """Two-seat ladder: Elo per entrant with a bootstrap 95% interval, matches, score."""
    rows = df[df["ladder"].str.startswith("pair|")].copy()
    parts = rows["ladder"].str.split("|", expand=True)
    rows["a"], rows["b"] = parts[1], parts[2]
    rows["score_a"] = seat_score(rows, 0)
    labels = list(dict.fromkeys([*rows["a"], *rows["b"]]))
    index = {x: i for i, x in enumerate(labels)}

    def fit(sample: pd.DataFrame) -> np.ndarray:
        w = np.zeros((len(labels), len(labels)))
        for a, b, s in zip(sample["a"], sample["b"], sample["score_a"], strict=True):
            w[index[a], index[b]] += s
            w[index[b], index[a]] += 1 - s
        p = bradley_terry(w)
        elo: np.ndarray = 400 * np.log10(p / p[0])
        return elo

    elo_all = fit(rows)
    seeds = rows["seed"].unique()
    by_seed = {s: g for s, g in rows.groupby("seed")}
    rng = random.Random(seed)
    boots = np.array(
        [
            fit(pd.concat([by_seed[s] for s in rng.choices(list(seeds), k=len(seeds))]))
            for _ in range(BOOTSTRAP)
        ]
    )
    out = []
    for x, i in index.items():
        mine = pd.concat(
            [rows.loc[rows["a"] == x, "score_a"], 1 - rows.loc[rows["b"] == x, "score_a"]]
        )
        out.append(
            {
                "agent": x,
                "matches": len(mine),
                "score": float(mine.mean()),
                "elo": float(elo_all[i]),
                "elo_low": float(np.percentile(boots[:, i], 2.5)),
                "elo_high": float(np.percentile(boots[:, i], 97.5)),
            }
        )
    return pd.DataFrame(out).sort_values("elo", ascending=False).reset_index(drop=True)


def pair_results(df: pd.DataFrame) -> pd.DataFrame:
    """Two-seat ladder: each pair's score (seats swapped) with a Wilson interval."""
    rows = df[df["ladder"].str.startswith("pair|")].copy()
    parts = rows["ladder"].str.split("|", expand=True)
    rows["a"], rows["b"] = parts[1], parts[2]
    rows["score_a"] = seat_score(rows, 0)
    out = []
    labels = list(dict.fromkeys(rows["a"]))
    for i, x in enumerate(labels):
        for y in labels[i + 1 :]:
            s = pd.concat(
                [
                    rows.loc[(rows["a"] == x) & (rows["b"] == y), "score_a"],
                    1 - rows.loc[(rows["a"] == y) & (rows["b"] == x), "score_a"],
                ]
            )
            lo, hi = wilson(float(s.sum()), len(s))
            out.append({"agent": x, "opponent": y, "matches": len(s), "score": float(s.mean()),
                        "ci_low": lo, "ci_high": hi})  # fmt: skip
    return pd.DataFrame(out)


def role_of(row: pd.Series, name: str) -> str:
    """The seat's role in a row: the game's ``{seat}_role``, its team size, else the seat."""
    if f"{name}_role" in row and pd.notna(row[f"{name}_role"]):
        return str(row[f"{name}_role"])
    if f"{name}_team_size" in row and pd.notna(row[f"{name}_team_size"]):
        size = int(row[f"{name}_team_size"])
        return "solo" if size == 1 else f"team of {size}"
    return name


def _focus_wins(df: pd.DataFrame) -> pd.DataFrame:
    """Multi-seat ladder: one row per entrant's match with a baseline on its seed — the
    entrant, the seed, the rated seat's role, whether that seat won (``win``) and
    whether the baseline's same seat did (``base``)."""
    base = df[df["ladder"] == "base||"].set_index("seed")
    focus = df[df["ladder"].str.startswith("focus|")]
    names = [c[: -len("_return")] for c in df.columns if c.endswith("_return")]
    recs = []
    for _, row in focus.iterrows():
        _, label, seat_text = str(row["ladder"]).split("|")
        seat = int(seat_text)
        name = names[seat]
        if row["seed"] not in base.index:
            continue
        b = base.loc[row["seed"]]
        recs.append(
            {
                "agent": label,
                "seed": row["seed"],
                "role": role_of(row, name),
                "win": float(row[f"{name}_return"] > 0),
                "base": float(b[f"{name}_return"] > 0),
            }
        )
    return pd.DataFrame(recs)


def _paired(d: pd.Series) -> dict[str, Any]:
    """A paired difference's mean, 95% interval and how many seeds went each way."""
    n = len(d)
    half = Z95 * float(d.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    mean = float(d.mean())
    return {"advantage": mean, "ci_low": mean - half, "ci_high": mean + half,
            "better": int((d > 0).sum()), "worse": int((d < 0).sum())}  # fmt: skip


def entrant_pairs(df: pd.DataFrame) -> pd.DataFrame:
    """Multi-seat ladder with two or more entrants: each pair of them on the seeds both
    played (the same seat, dealt the same role, beside the same tablemates), per role and
    ``all`` — the second's seat win rate minus the first's, with a paired 95% interval.
    Empty with fewer than two entrants."""
    pairs = _focus_wins(df)
    if pairs.empty:
        return pairs
    labels = list(dict.fromkeys(pairs["agent"]))
    wins = pairs.pivot_table(index=["seed", "role"], columns="agent", values="win")
    out = []
    for i, x in enumerate(labels):
        for y in labels[i + 1 :]:
            both = wins[[x, y]].dropna().reset_index()
            groups = [(r, g) for r, g in both.groupby("role")] + [("all", both)]
            for role, g in groups:
                out.append({"agent": y, "against": x, "role": role, "seeds": len(g),
                            "win_rate": g[y].mean(), "against_rate": g[x].mean(),
                            **_paired(g[y] - g[x])})  # fmt: skip
    res = pd.DataFrame(out)
    if res.empty:
        return res
    res["_all"] = res["role"] != "all"
    order = ["agent", "against", "_all", "role"]
    return res.sort_values(order).drop(columns="_all").reset_index(drop=True)


def focus_table(df: pd.DataFrame) -> pd.DataFrame:
    """Multi-seat ladder: per entrant and role (and ``all``), the entrant's seat win rate,
    the baseline's on the same seeds and seat, their difference with a paired 95%
    interval, and the paired Elo from the discordant seeds."""
    pairs = _focus_wins(df)
    if pairs.empty:
        return pairs
    out = []
    groups = [(key, g) for key, g in pairs.groupby(["agent", "role"])]
    groups += [((agent, "all"), g) for agent, g in pairs.groupby("agent")]
    for (agent, role), g in groups:
        paired = _paired(g["win"] - g["base"])
        up, down = paired["better"], paired["worse"]
        log_ratio = math.log((up + 0.5) / (down + 0.5))
        se = math.sqrt(1 / (up + 0.5) + 1 / (down + 0.5))
        k = 400 / math.log(10)
        out.append({"agent": agent, "role": role, "seeds": len(g), "win_rate": g["win"].mean(),
                    "reference_rate": g["base"].mean(), **paired, "elo": k * log_ratio,
                    "elo_low": k * (log_ratio - Z95 * se), "elo_high": k * (log_ratio + Z95 * se)})  # fmt: skip
    res = pd.DataFrame(out)
    res["_all"] = res["role"] != "all"
    return res.sort_values(["agent", "_all", "role"]).drop(columns="_all").reset_index(drop=True)


LADDER_LABEL = r"^(base\|\||focus\|.+\|\d+|pair\|.+\|.+)$"


def with_ladder_column(df: pd.DataFrame) -> pd.DataFrame:
    """A journal's rows (:mod:`throne_lib.kit.journal`) carry the spec's ``label``; a
    ladder's labels are its ``ladder`` column (:func:`run_ladder` copies them there)."""
    if "ladder" in df.columns or "label" not in df.columns or df.empty:
        return df
    if df["label"].astype(str).str.match(LADDER_LABEL).all():
        df = df.copy()
        df["ladder"] = df["label"]
    return df


def is_ladder(df: pd.DataFrame) -> bool:
    return "ladder" in df.columns and len(df) > 0


def join_ladders(frames: Sequence[tuple[str, pd.DataFrame]]) -> pd.DataFrame:
    """Ladder files of one game and table size as one ladder (``throne report A B``): an
    entrant screened in a later run is paired, seed by seed, with the entrants of an
    earlier run on the seeds both played. A match both files played (the same seed and
    ``ladder`` label, e.g. the reference's baseline) is kept once, and must have been
    played alike in both — the same agents and returns — else the files were not made
    with the same settings and pairing them would mislead: a ``ValueError`` names both
    files, the seed and the match. ``frames``: (file name, rows) pairs."""
    if not frames:
        raise ValueError("no ladder files to join")
    for name, df in frames:
        if not is_ladder(df):
            raise ValueError(f"{name}: not a `throne ladder` file (no ladder rows)")
    games = {str(df["game"].iloc[0]) for _, df in frames if "game" in df}
    if len(games) > 1:
        raise ValueError(f"the files are ladders of different games: {', '.join(sorted(games))}")
    cols = [sorted(c for c in df.columns if c.endswith("_return")) for _, df in frames]
    for (name, _), c in zip(frames[1:], cols[1:], strict=True):
        if c != cols[0]:
            raise ValueError(
                f"{name}: {len(c)} seats, {frames[0][0]}: {len(cols[0])} — "
                "ladders of different table sizes cannot be paired"
            )
    played = [c for c in frames[0][1].columns if c.endswith(("_return", "_agent"))]
    rows = pd.concat([df.assign(_file=name) for name, df in frames], ignore_index=True)
    # one fingerprint of every seat's agent and return per match (str: NaN == NaN)
    rows["_played"] = pd.util.hash_pandas_object(rows[played].astype(str), index=False)
    first = rows.groupby(["seed", "ladder"], sort=False)[["_played", "_file"]].transform("first")
    clash = rows.index[rows["_played"] != first["_played"]]
    if len(clash):
        row = rows.loc[clash[0]]
        raise ValueError(
            f"{row['_file']} and {first.loc[clash[0], '_file']}: seed {int(row['seed'])}, "
            f"match {row['ladder']!r} was played differently (agents or returns) — not the "
            "same game settings, so their seeds cannot be paired"
        )
    out = rows[~rows.duplicated(["seed", "ladder"])].drop(columns=["_file", "_played"])
    out = out.reset_index(drop=True)
    if "match" in out.columns:
        out["match"] = range(len(out))
    return out


def ladder_text(df: pd.DataFrame) -> str:
    """The ladder's plain-text report (``throne report`` of a ladder file)."""
    f3 = "{:.3f}".format
    game = str(df["game"].iloc[0]) if "game" in df else "?"
    head = f"== ladder: {game}, {len(df)} matches, {df['seed'].nunique()} seeds =="
    if df["ladder"].str.startswith("pair|").any():
        parts = [head, "-- Bradley–Terry Elo (first entrant 0; 95% bootstrap over seeds) --",
                 pair_table(df).to_string(index=False, float_format="{:.1f}".format),
                 "", "-- pairs, seats swapped (score = wins + draws/2; Wilson 95%) --",
                 pair_results(df).to_string(index=False, float_format=f3)]  # fmt: skip
        return "\n".join(parts)
    ref, mates = reference_and_tablemates(df)
    parts = [head, f"-- seat win rate vs the reference ({', '.join(ref)}) in the same seat "
             "and seed; advantage in points, paired 95% interval --",
             focus_table(df).to_string(index=False, float_format=f3)]  # fmt: skip
    if mates != ref:
        parts.insert(1, f"-- the other seats played by: {', '.join(mates)} --")
    between = entrant_pairs(df)
    if not between.empty:
        parts += ["", "-- entrants against each other on the seeds both played (same seat): "
                  "agent's seat win rate minus against's, points, paired 95% interval --",
                  between.to_string(index=False, float_format=f3)]  # fmt: skip
    return "\n".join(parts)


def reference_and_tablemates(df: pd.DataFrame) -> tuple[list[str], list[str]]:
    """Multi-seat ladder rows: the agents of the baseline's rated seats (the reference)
    and of its other seats (the tablemates), each sorted, as the command line names them
    (``{seat}_agent``); the rated seat is the one its seed's focus rows name. A baseline
    whose seed has no focus row yet (a stopped run's journal) tells nothing of which seat
    is rated and is passed over, unless no baseline has one."""
    agents = [c for c in df.columns if c.endswith("_agent")]
    rated = {
        int(r["seed"]): int(str(r["ladder"]).rsplit("|", 1)[1])
        for _, r in df[df["ladder"].str.startswith("focus|")].iterrows()
    }
    ref: set[str] = set()
    mates: set[str] = set()
    for _, row in df[df["ladder"] == "base||"].iterrows():
        seat = rated.get(int(row["seed"]))
        if seat is None and rated:
            continue
        for q, c in enumerate(agents):
            (ref if q == seat or seat is None else mates).add(str(row[c]))
    return sorted(ref), sorted(mates or ref)


# --- command line -----------------------------------------------------------------------


def ladder_main(argv: Sequence[str] | None = None) -> int:
    """``throne ladder --game NAME --agents a,b,c -n N``: exit 0, or 1 on an error."""
    p = argparse.ArgumentParser(prog="throne ladder", description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default=registry.DEFAULT_GAME)
    p.add_argument("--agents", required=True, help="comma-separated: name or name:key=value…")
    p.add_argument("--reference", default=None, help="multi-seat: the reference (default first)")
    p.add_argument("--tablemates", default=None,
                   help="multi-seat: who plays the seats not rated (default the reference)")  # fmt: skip
    p.add_argument("-n", "--seeds", type=int, default=20, help="seeds (per pair)")
    p.add_argument("--seed", type=int, default=0, help="first seed")
    p.add_argument("--seats", type=int, default=None, help="default: the game's minimum")
    p.add_argument(
        "--role",
        default=None,
        help="multi-seat: the entrant takes the seat dealt this role on every seed "
        "(e.g. lord); default: seat rotation",
    )
    add_backend_options(p)
    p.add_argument("--out", default="ladder.parquet")
    p.add_argument("--resume", action="store_true",
                   help="go on from the journal a stopped run left beside --out "
                   "(OUT.journal.jsonl): only its missing matches are played")  # fmt: skip
    p.add_argument("--no-progress", action="store_true")
    args = p.parse_args(argv)
    try:
        game = registry.get(args.game)
        entrants = [parse_entrant(t) for t in args.agents.split(",") if t.strip()]
        if args.reference:
            ref = parse_entrant(args.reference)
            entrants = [ref, *[e for e in entrants if e.label != ref.label]]
        mates = parse_entrant(args.tablemates) if args.tablemates else None
        for e in [*entrants, *([mates] if mates else [])]:  # before an hour of matches
            check_agent(e.label, game.name)
        seats = args.seats or game.seats[0]
        specs = ladder_specs(game, entrants, args.seeds, seats, args.seed, role=args.role,
                             tablemates=mates)  # fmt: skip
        book = journal_path(args.out)
        df = run_ladder(specs, workers=args.workers, backend=args.backend,
                        scheduler=args.scheduler, progress=not args.no_progress,
                        journal=book, resume=args.resume)  # fmt: skip
    except KeyboardInterrupt:
        print(stopped_message(journal_path(args.out), "throne ladder"), file=sys.stderr)
        return 130
    except (ValueError, OSError) as exc:
        print(f"throne ladder: {exc}", file=sys.stderr)
        return 1
    out = save_results(df, args.out)
    book.unlink(missing_ok=True)
    print(ladder_text(df))
    print(f"{len(df)} matches -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(ladder_main())
