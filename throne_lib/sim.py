"""Batch simulation: many seeded matches on local processes or a Dask cluster.

A :class:`MatchSpec` fixes everything a match depends on (sides, agents and
their parameters, seed); :func:`run_match_spec` plays it and returns one result
row. :func:`simulate` runs a list of specs — in this process, on a
``ProcessPoolExecutor`` (default) or on Dask (``backend="dask"``) — with a tqdm
progress bar and returns a :class:`pandas.DataFrame` ordered by match index.
The card table travels with the tasks as text, so every worker plays with the
same table and the same specs give the same rows on every backend.

CLI (``throne simulate``, see :func:`simulate_main`)::

    throne simulate --blue human --red beast --blue-agent standard --red-agent random -n 100
    throne simulate --round-robin -n 4 --agent standard --backend dask --out rr.parquet
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
from tqdm.auto import tqdm  # type: ignore[import-untyped]

from throne_lib.agents import AGENTS, make_agent
from throne_lib.games.throne.board import SIDE_NAMES
from throne_lib.games.throne.cards import DEFAULT_PATH, CardDB, parse_cards
from throne_lib.games.throne.decks import resolve_setup, signature_deck
from throne_lib.games.throne.match import Match, SideSetup
from throne_lib.games.throne.rules import DEFAULT_RULES, Rules

STATS = ("mana_spent", "mana_available", "cards_played", "cards_drawn", "summons")
MAX_ACTIONS = 100_000


@dataclass(frozen=True)
class MatchSpec:
    """One match of a batch: picklable, hashable, fully determines the result."""

    index: int
    seed: int
    blue: SideSetup
    red: SideSetup
    agents: tuple[str, str] = ("standard", "standard")
    params: tuple[tuple[tuple[str, Any], ...], tuple[tuple[str, Any], ...]] = ((), ())
    rules: Rules = DEFAULT_RULES
    label: str = ""

    def agent_seed(self, side: int) -> int:
        """Same convention as ``throne play``: seed * 2 + side."""
        return self.seed * 2 + side


@dataclass(frozen=True)
class Batch:
    """What a worker needs besides the specs: the card table's text."""

    cards_text: str
    log_dir: str | None = None
    specs: tuple[MatchSpec, ...] = field(default=())


@functools.lru_cache(maxsize=4)
def _db_from_text(text: str) -> CardDB:
    return parse_cards(text)


def cards_text(path: str | Path | None = None) -> str:
    return Path(path or DEFAULT_PATH).read_text(encoding="utf-8")


def play_spec(db: CardDB, spec: MatchSpec) -> tuple[Match, dict[str, Any]]:
    """Play one spec; return the finished match and its result row."""
    match = Match.new(db, spec.blue, spec.red, spec.seed, spec.rules)
    agents = [
        make_agent(name, spec.agent_seed(side), **dict(spec.params[side]))
        for side, name in enumerate(spec.agents)
    ]
    drawn: list[set[str]] = [set(), set()]
    played: list[set[str]] = [set(), set()]
    for e in match.setup_events:
        if e.kind in ("draw", "opening_fill"):
            drawn[e.side].add(e.actor)
    lead = 0
    lead_changes = 0
    for _ in range(MAX_ACTIONS):
        if match.is_over:
            break
        action = agents[match.turn].choose(match)
        for e in match.apply(action):
            if not 0 <= e.side <= 1:
                continue
            if e.kind in ("draw", "opening_fill"):
                drawn[e.side].add(e.actor)
            elif e.kind == "replace":  # R-OPEN-2: the barracks card taken into the hand
                drawn[e.side].add(e.target)
            elif e.kind == "play":  # a played card was in the hand, however it got there
                played[e.side].add(e.actor)
                drawn[e.side].add(e.actor)
        diff = match.throne_hp(0) - match.throne_hp(1)
        now = (diff > 0) - (diff < 0)
        if now != 0 and lead != 0 and now != lead:
            lead_changes += 1
        if now != 0:
            lead = now
    else:
        raise RuntimeError(f"match {spec.index} did not end within {MAX_ACTIONS} actions")
    return match, _row(db, spec, match, drawn, played, lead_changes)


def _row(
    db: CardDB,
    spec: MatchSpec,
    match: Match,
    drawn: list[set[str]],
    played: list[set[str]],
    lead_changes: int,
) -> dict[str, Any]:
    winner = match.winner
    row: dict[str, Any] = {
        "match": spec.index,
        "label": spec.label,
        "seed": spec.seed,
        "first": SIDE_NAMES[match.state.first],
        "winner": "draw" if winner is None else SIDE_NAMES[winner],
        "end_reason": match.end_reason,
        "rounds": match.round,
        "actions": len(match.history),
        "lead_changes": lead_changes,
    }
    for side, name in enumerate(SIDE_NAMES):
        setup = (spec.blue, spec.red)[side]
        s = match.state.sides[side]
        row[f"{name}_general"] = setup.general
        row[f"{name}_race"] = db[setup.general].race
        row[f"{name}_agent"] = spec.agents[side]
        row[f"{name}_agent_seed"] = spec.agent_seed(side)
        row[f"{name}_throne_hp"] = match.throne_hp(side)
        for stat in STATS:
            row[f"{name}_{stat}"] = int(s.stats.get(stat, 0))
        row[f"{name}_drawn"] = sorted(drawn[side])
        row[f"{name}_played"] = sorted(played[side])
    row["winner_general"] = "" if winner is None else row[f"{SIDE_NAMES[winner]}_general"]
    return row


def run_batch(batch: Batch) -> list[dict[str, Any]]:
    """Worker entry point (process pool or Dask): play a batch of specs."""
    db = _db_from_text(batch.cards_text)
    rows = []
    for spec in batch.specs:
        match, row = play_spec(db, spec)
        if batch.log_dir is not None:
            from throne_lib.log import AgentInfo, write_log

            infos = [AgentInfo(n, spec.agent_seed(i)) for i, n in enumerate(spec.agents)]
            write_log(match, Path(batch.log_dir) / f"match_{spec.index:06d}.jsonl", infos)
        rows.append(row)
    return rows


# --- building batches -------------------------------------------------------------------


def matchup_specs(
    blue: SideSetup,
    red: SideSetup,
    n: int,
    seed: int = 0,
    agents: tuple[str, str] = ("standard", "standard"),
    params: tuple[dict[str, Any], dict[str, Any]] = ({}, {}),
    alternate: bool = False,
    start: int = 0,
    label: str = "",
) -> list[MatchSpec]:
    """``n`` matches of one pairing; with ``alternate`` odd matches swap sides
    (decks and agents together), so neither side keeps the blue seat."""
    out = []
    p = (tuple(sorted(params[0].items())), tuple(sorted(params[1].items())))
    for i in range(n):
        swap = alternate and i % 2 == 1
        spec = MatchSpec(
            index=start + i,
            seed=seed + start + i,
            blue=red if swap else blue,
            red=blue if swap else red,
            agents=(agents[1], agents[0]) if swap else agents,
            params=(p[1], p[0]) if swap else p,
            label=label,
        )
        out.append(spec)
    return out


def round_robin_specs(
    db: CardDB,
    n: int,
    seed: int = 0,
    agent: str = "standard",
    params: dict[str, Any] | None = None,
    generals: Sequence[str] | None = None,
    opponent: str | None = None,
    opponent_params: dict[str, Any] | None = None,
) -> list[MatchSpec]:
    """Every pair of generals' signature decks (R-DECK-7), ``n`` matches each, sides
    alternating; mirror matches included. The first general of a pair is played by
    ``agent``, the second by ``opponent`` (default: the same agent)."""
    gens = list(generals) if generals is not None else [c.id for c in db.of("general")]
    decks = {g: signature_deck(db, g) for g in gens}
    out: list[MatchSpec] = []
    for i, a in enumerate(gens):
        for b in gens[i:]:
            out += matchup_specs(
                decks[a],
                decks[b],
                n,
                seed,
                (agent, opponent or agent),
                (params or {}, (opponent_params if opponent else params) or {}),
                alternate=True,
                start=len(out),
                label=f"{a}-{b}",
            )
    return out


def ladder_specs(
    db: CardDB,
    agent: str,
    opponent: str,
    n: int,
    seed: int = 0,
    params: tuple[dict[str, Any], dict[str, Any]] = ({}, {}),
) -> list[MatchSpec]:
    """``n`` matches of ``agent`` against ``opponent``: ``agent`` takes blue in even
    matches and red in odd ones; the generals' signature decks cycle through every
    ordered pair (match i: general i mod G against general (i + 1 + i // G) mod G)."""
    gens = [c.id for c in db.of("general")]
    g = len(gens)
    pa = tuple(sorted(params[0].items()))
    pb = tuple(sorted(params[1].items()))
    out = []
    for i in range(n):
        mine, theirs = gens[i % g], gens[(i + 1 + i // g) % g]
        a, b = signature_deck(db, mine), signature_deck(db, theirs)
        if i % 2 == 0:
            spec = MatchSpec(i, seed + i, a, b, (agent, opponent), (pa, pb), label="ladder")
        else:
            spec = MatchSpec(i, seed + i, b, a, (opponent, agent), (pb, pa), label="ladder")
        out.append(spec)
    return out


# --- running ---------------------------------------------------------------------------


def _batches(specs: Sequence[MatchSpec], text: str, log_dir: str | None, size: int) -> list[Batch]:
    return [Batch(text, log_dir, tuple(specs[i : i + size])) for i in range(0, len(specs), size)]


def simulate(
    specs: Sequence[MatchSpec],
    workers: int | None = None,
    backend: str = "process",
    scheduler: str | None = None,
    cards: str | Path | None = None,
    log_dir: str | Path | None = None,
    progress: bool = True,
    batch_size: int = 1,
    on_row: Callable[[dict[str, Any]], None] | None = None,
) -> pd.DataFrame:
    """Run the specs and return one row per match, ordered by ``match``.

    ``backend``: ``"process"`` (``workers`` processes, default all cores; 1 runs
    here), ``"dask"`` (the cluster at ``scheduler``, or a ``LocalCluster`` on
    127.0.0.1 with ``workers`` workers) or ``"serial"``."""
    text = cards_text(cards)
    logs = str(log_dir) if log_dir is not None else None
    if logs is not None:
        Path(logs).mkdir(parents=True, exist_ok=True)
    batches = _batches(specs, text, logs, max(1, batch_size))
    workers = workers or os.cpu_count() or 1
    bar = tqdm(total=len(specs), disable=not progress, desc="matches", unit="match")
    rows: list[dict[str, Any]] = []

    def collect(got: Iterable[dict[str, Any]]) -> None:
        for row in got:
            rows.append(row)
            if on_row is not None:
                on_row(row)
            bar.update(1)

    try:
        if backend == "serial" or (backend == "process" and workers == 1):
            for b in batches:
                collect(run_batch(b))
        elif backend == "process":
            with ProcessPoolExecutor(max_workers=workers) as pool:
                futures: list[Future[list[dict[str, Any]]]] = [
                    pool.submit(run_batch, b) for b in batches
                ]
                for f in as_completed(futures):
                    collect(f.result())
        elif backend == "dask":
            _run_dask(batches, workers, scheduler, collect)
        else:
            raise ValueError(f"unknown backend {backend!r}: process, dask or serial")
    finally:
        bar.close()
    return results_frame(rows)


def _run_dask(
    batches: list[Batch],
    workers: int,
    scheduler: str | None,
    collect: Callable[[Iterable[dict[str, Any]]], None],
) -> None:
    from distributed import Client, LocalCluster
    from distributed import as_completed as dask_completed

    cluster = None
    if scheduler is None:
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            host="127.0.0.1",
            protocol="tcp",
            dashboard_address=None,
            processes=workers > 1,
        )
    client = Client(cluster if cluster is not None else scheduler)
    try:
        futures = client.map(run_batch, batches, pure=False)
        for f in dask_completed(futures):
            collect(f.result())
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def results_frame(rows: Sequence[dict[str, Any]]) -> pd.DataFrame:
    df = pd.DataFrame(list(rows))
    if not df.empty:
        df = df.sort_values("match", kind="stable").reset_index(drop=True)
    return df


def save_results(df: pd.DataFrame, path: str | Path) -> Path:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    df.to_parquet(p, engine="pyarrow", index=False)
    return p


def load_results(path: str | Path) -> pd.DataFrame:
    return pd.read_parquet(path, engine="pyarrow")


def frame_digest(df: pd.DataFrame) -> str:
    """A short digest of a results frame (equal frames, equal digests)."""
    return hashlib.sha256(df.to_json(orient="records").encode()).hexdigest()[:16]


# --- command line ------------------------------------------------------------------------


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    p = parser or argparse.ArgumentParser(
        prog="throne simulate", description="run many seeded matches; results to Parquet"
    )
    p.add_argument("--blue", default="human", help="deck file, general id or race")
    p.add_argument("--red", default="beast", help="deck file, general id or race")
    p.add_argument("--blue-agent", default="standard", choices=AGENTS)
    p.add_argument("--red-agent", default="standard", choices=AGENTS)
    p.add_argument("--round-robin", action="store_true", help="all generals' signature decks")
    p.add_argument("--agent", default="standard", choices=AGENTS, help="agent of a round robin")
    p.add_argument("-n", "--matches", type=int, default=10, help="matches (per pair)")
    p.add_argument("--alternate", action="store_true", help="swap sides every other match")
    p.add_argument("--seed", type=int, default=0, help="seed of the first match")
    p.add_argument("--iterations", type=int, default=None, help="search agent's budget")
    p.add_argument("--workers", type=int, default=None, help="default: all cores")
    p.add_argument("--backend", default="process", choices=("process", "dask", "serial"))
    p.add_argument("--scheduler", default=None, help="Dask scheduler address")
    p.add_argument("--out", default="results.parquet", help="Parquet file to write")
    p.add_argument("--logs", default=None, help="directory for the match logs (JSONL)")
    p.add_argument("--cards", default=None, help="card table (default: cards.csv)")
    p.add_argument("--no-progress", action="store_true")
    return p


def specs_from_args(db: CardDB, args: argparse.Namespace) -> list[MatchSpec]:
    def params(agent: str) -> dict[str, Any]:
        return {"iterations": args.iterations} if agent == "search" and args.iterations else {}

    if args.round_robin:
        return round_robin_specs(db, args.matches, args.seed, args.agent, params(args.agent))
    blue, red = resolve_setup(db, args.blue), resolve_setup(db, args.red)
    agents = (args.blue_agent, args.red_agent)
    return matchup_specs(
        blue,
        red,
        args.matches,
        args.seed,
        agents,
        (params(agents[0]), params(agents[1])),
        alternate=args.alternate,
    )


def simulate_main(argv: Sequence[str] | None = None) -> int:
    """``throne simulate``: exit 0 on success, 1 on an error (one line on stderr)."""
    import sys

    args = build_parser().parse_args(argv)
    try:
        db = parse_cards(cards_text(args.cards))
        specs = specs_from_args(db, args)
        df = simulate(
            specs,
            workers=args.workers,
            backend=args.backend,
            scheduler=args.scheduler,
            cards=args.cards,
            log_dir=args.logs,
            progress=not args.no_progress,
        )
    except (ValueError, OSError) as exc:
        print(f"throne simulate: {exc}", file=sys.stderr)
        return 1
    out = save_results(df, args.out)
    wins = df["winner"].value_counts().to_dict() if not df.empty else {}
    print(f"{len(df)} matches -> {out}; winners: {wins}")
    return 0


if __name__ == "__main__":
    raise SystemExit(simulate_main())
