"""Batch simulation of any game: many seeded matches on local processes or a Dask cluster.

A :class:`MatchSpec` fixes everything a match depends on (game, setups per seat, agents
and their parameters, game options, seed); :func:`play_spec` plays it and returns one
result row. :func:`simulate` runs a list of specs — in this process, on a
``ProcessPoolExecutor`` (default) or on Dask (``backend="dask"``) — with a tqdm
progress bar and returns a :class:`pandas.DataFrame` ordered by match index. The
game's card table travels with the tasks as text, and a worker finds the game through
the registry (importing ``Game.module``), so every worker plays the same table and the
same specs give the same rows on every backend.

Rows: the kit writes ``match, label, seed, game, winner, actions`` (``winner``: the
game's label of the winner, ``Game.winner``) and per seat
``{seat}_agent, {seat}_agent_seed, {seat}_return, {seat}_setup``; a game with
:class:`SimHooks` (``Game.sim_hooks``) writes its own row instead (Throne: generals,
races, throne HP, cards drawn and played …).

CLI (``throne simulate [--game NAME]``, see :func:`simulate_main`)::

    throne simulate --blue human --red beast --blue-agent standard --red-agent random -n 100
    throne simulate --round-robin -n 4 --agent standard --backend dask --out rr.parquet
    throne simulate --game castle --seats 5 --agent random -n 20

Every finished match's row also goes to a journal beside ``--out`` as it ends
(:mod:`throne_lib.kit.journal`); a stopped run goes on with the same command and
``--resume``, playing only the matches the journal lacks. The results file is written
atomically, then the journal deleted.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import pandas as pd
from tqdm.auto import tqdm  # type: ignore[import-untyped]

from throne_lib.kit import registry
from throne_lib.kit.agents import agent_arg, agent_names, make_agent
from throne_lib.kit.cluster import BACKENDS, add_backend_options, dask_client
from throne_lib.kit.journal import Journal, fingerprint, journal_path, stopped_message

MAX_ACTIONS = 100_000

Params = tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class MatchSpec:
    """One match of a batch: picklable, hashable, fully determines the result."""

    index: int
    seed: int
    setups: tuple[Any, ...]
    agents: tuple[str, ...]
    params: tuple[Params, ...] = ()
    options: Params = ()
    label: str = ""
    game: str = registry.DEFAULT_GAME

    @property
    def seats(self) -> int:
        return len(self.setups)

    def agent_seed(self, seat: int) -> int:
        """Same convention as ``throne play``: seed * seats + seat."""
        return self.seed * self.seats + seat

    def agent_params(self, seat: int) -> dict[str, Any]:
        return dict(self.params[seat]) if seat < len(self.params) else {}

    def agent_label(self, seat: int) -> str:
        """The seat's agent as the command line names it, parameters and all
        (``ismcts:iterations=40``): the result row's ``{seat}_agent``."""
        params = self.agent_params(seat)
        return ":".join([self.agents[seat], *(f"{k}={v}" for k, v in params.items())])


@runtime_checkable
class SimHooks(Protocol):
    """What a game adds to the simulator (``Game.sim_hooks``): columns of its own in the
    result row (fed with the events of every action), options of its own. Subclass
    :class:`KitSimHooks` and override what you need.

    With ``seat_options = True`` (the default) the kit keeps its own options — ``--seats``
    (alias ``--players``), ``--agent``, ``--rotate`` — and builds the specs from them,
    asking the game only for ``setups(args, seats)`` and ``options(args)``; the game's
    ``add_arguments`` adds options beside them (and may ``set_defaults(seats=5)``). A game
    whose matches are not "N seats of one agent" (Throne: decks per side, round robins)
    sets it False and builds every spec itself in ``specs``."""

    seat_options: bool

    def start(self, spec: MatchSpec, match: Any) -> Any:
        """Per-match tracking state, created after setup."""
        ...

    def step(self, state: Any, match: Any, events: Sequence[Any]) -> None: ...

    def row(self, spec: MatchSpec, match: Any, state: Any, base: dict[str, Any]) -> dict[str, Any]:
        """The result row (``base`` is the kit's row; return it with columns added)."""
        ...

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the game's own options (after the kit's)."""
        ...

    def setups(self, args: argparse.Namespace, seats: int) -> Sequence[Any] | None:
        """The setups of ``seats`` seats; None: the game's ``default_setups``."""
        ...

    def options(self, args: argparse.Namespace) -> dict[str, Any]:
        """The match options the game's own arguments ask for."""
        ...

    def specs(self, args: argparse.Namespace, table: Any) -> list[MatchSpec] | None:
        """Every spec, for a game without seat options; None: the kit builds them."""
        ...


class KitSimHooks:
    """Every hook of :class:`SimHooks` with the kit's behaviour: subclass, override some.

    ``groups``: the per-seat fields of the row (``{seat}_{field}`` columns) whose win
    rates ``throne compare`` sets side by side (Throne: the generals; 城堡之心: roles and
    heroes); a field whose values are the seats' names, or one value, is left out."""

    seat_options: bool = True
    groups: tuple[str, ...] = ("setup",)

    def start(self, spec: MatchSpec, match: Any) -> Any:
        return None

    def step(self, state: Any, match: Any, events: Sequence[Any]) -> None:
        return None

    def row(self, spec: MatchSpec, match: Any, state: Any, base: dict[str, Any]) -> dict[str, Any]:
        return base

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        return None

    def setups(self, args: argparse.Namespace, seats: int) -> Sequence[Any] | None:
        return None

    def options(self, args: argparse.Namespace) -> dict[str, Any]:
        return {}

    def specs(self, args: argparse.Namespace, table: Any) -> list[MatchSpec] | None:
        return None


KIT_SIM = KitSimHooks()


def sim_hooks(game: registry.Game) -> SimHooks:
    """``game``'s simulator hooks, or the kit's; TypeError when they miss a hook."""
    hooks = game.hook("sim_hooks")
    if hooks is None:
        return KIT_SIM
    if not isinstance(hooks, SimHooks):
        raise TypeError(
            f"{game.name}: Game.sim_hooks is a {type(hooks).__name__}, not a SimHooks; "
            "subclass throne_lib.kit.sim.KitSimHooks"
        )
    return hooks


@dataclass(frozen=True)
class Batch:
    """What a worker needs besides the specs: the game and its card table's text."""

    game: str
    module: str
    table_text: str | None
    log_dir: str | None = None
    specs: tuple[MatchSpec, ...] = field(default=())


@functools.lru_cache(maxsize=4)
def _table(game: str, text: str) -> Any:
    parse = registry.get(game).parse_table
    assert parse is not None
    return parse(text)


def table_text(game: registry.Game, path: str | Path | None = None) -> str | None:
    """The text of ``game``'s card table (``path`` or its first registered table)."""
    if game.parse_table is None:
        return None
    p = Path(path) if path is not None else game.card_tables[0]
    return p.read_text(encoding="utf-8")


def options_of(spec: MatchSpec, table: Any) -> dict[str, Any]:
    opts = dict(spec.options)
    if table is not None:
        opts.setdefault("cards", table)
    return opts


def base_row(game: registry.Game, spec: MatchSpec, match: Any) -> dict[str, Any]:
    """The kit's result row: who played, the returns, the winner (the game's label of it:
    a seat, side, role or team; "draw" only for a draw, :meth:`registry.Game.winner`)."""
    r = list(match.returns())
    row: dict[str, Any] = {
        "match": spec.index,
        "label": spec.label,
        "seed": spec.seed,
        "game": game.name,
        "winner": game.winner(match),
        "actions": len(getattr(match, "history", ())),
    }
    for seat in range(spec.seats):
        name = game.seat_name(seat)
        row[f"{name}_agent"] = spec.agent_label(seat)
        row[f"{name}_agent_seed"] = spec.agent_seed(seat)
        row[f"{name}_return"] = float(r[seat])
        row[f"{name}_setup"] = str(spec.setups[seat])
    return row


def spec_agents(spec: MatchSpec) -> list[Any]:
    """The agents the spec names, one per seat, each seeded as ``throne play`` seeds it."""
    return [
        make_agent(name, spec.agent_seed(seat), spec.game, **spec.agent_params(seat))
        for seat, name in enumerate(spec.agents)
    ]


def play_spec(
    spec: MatchSpec, table: Any = None, agents: Sequence[Any] | None = None
) -> tuple[Any, dict[str, Any]]:
    """Play one spec; return the finished match and its result row. ``agents``: one per
    seat, in place of the spec's named ones (a benchmark's probe that is no agent of the
    kit; the row still names the spec's)."""
    game = registry.get(spec.game)
    match = game.new_match(list(spec.setups), spec.seed, options_of(spec, table))
    if agents is None:
        agents = spec_agents(spec)
    hooks = sim_hooks(game)
    state = hooks.start(spec, match)
    for _ in range(MAX_ACTIONS):
        if match.is_over:
            break
        events = match.apply(agents[match.current_seat].choose(match))
        hooks.step(state, match, events)
    else:
        raise RuntimeError(f"match {spec.index} did not end within {MAX_ACTIONS} actions")
    return match, hooks.row(spec, match, state, base_row(game, spec, match))


def run_batch(batch: Batch) -> list[dict[str, Any]]:
    """Worker entry point (process pool or Dask): play a batch of specs."""
    registry.ensure(batch.game, batch.module)
    table = _table(batch.game, batch.table_text) if batch.table_text is not None else None
    rows = []
    for spec in batch.specs:
        match, row = play_spec(spec, table)
        if batch.log_dir is not None:
            from throne_lib.kit.log import AgentInfo, write_log

            infos = [AgentInfo(n, spec.agent_seed(i)) for i, n in enumerate(spec.agents)]
            write_log(match, Path(batch.log_dir) / f"match_{spec.index:06d}.jsonl", infos)
        rows.append(row)
    return rows


def seat_specs(
    game: str,
    setups: Sequence[Any],
    agents: Sequence[str],
    n: int,
    seed: int = 0,
    rotate: bool = False,
    label: str = "",
) -> list[MatchSpec]:
    """``n`` matches of one table; with ``rotate`` match i shifts setups and agents
    together by i seats, so every entrant sits in every seat."""
    k = len(setups)
    out = []
    for i in range(n):
        r = i % k if rotate else 0
        s = tuple(setups[(j - r) % k] for j in range(k))
        a = tuple(agents[(j - r) % k] for j in range(k))
        out.append(MatchSpec(i, seed + i, s, a, label=label, game=game))
    return out


# --- running ---------------------------------------------------------------------------


def _batches(
    specs: Sequence[MatchSpec], game: registry.Game, text: str | None, logs: str | None, size: int
) -> list[Batch]:
    return [
        Batch(game.name, game.module, text, logs, tuple(specs[i : i + size]))
        for i in range(0, len(specs), size)
    ]


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
    journal: str | Path | None = None,
    resume: bool = False,
) -> pd.DataFrame:
    """Run the specs (all of one game) and return one row per match, ordered by ``match``.

    ``backend``: ``"process"`` (``workers`` processes, default all cores; 1 runs
    here), ``"dask"`` (the cluster at ``scheduler``, or a ``LocalCluster`` on
    127.0.0.1 with ``workers`` workers) or ``"serial"``. ``cards``: the game's card
    table file (default its registered one). ``journal``: a file that receives every
    row as its match ends (:class:`throne_lib.kit.journal.Journal`; the caller deletes
    it once the results are saved); with ``resume`` the matches it already holds are
    not played again (``on_row`` is called only for the matches played now)."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}: process, dask or serial")
    names = {s.game for s in specs} or {registry.DEFAULT_GAME}
    if len(names) > 1:
        raise ValueError(f"one game per simulate call, got {', '.join(sorted(names))}")
    game = registry.get(names.pop())
    text = table_text(game, cards)
    logs = str(log_dir) if log_dir is not None else None
    if logs is not None:
        Path(logs).mkdir(parents=True, exist_ok=True)
    book = Journal(journal, fingerprint(specs, text), resume) if journal is not None else None
    rows: list[dict[str, Any]] = []
    todo = list(specs)
    if book is not None:
        wanted = {s.index for s in specs}
        rows = [r for m, r in sorted(book.rows.items()) if m in wanted]
        todo = book.todo(specs)
        book.open()
    batches = _batches(todo, game, text, logs, max(1, batch_size))
    workers = workers or os.cpu_count() or 1
    bar = tqdm(
        total=len(specs), initial=len(specs) - len(todo), disable=not progress,
        desc="matches", unit="match",
    )  # fmt: skip

    def collect(got: Iterable[dict[str, Any]]) -> None:
        for row in got:
            if book is not None:
                book.add(row)
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
        else:
            _run_dask(batches, workers, scheduler, collect)
    finally:
        bar.close()
        if book is not None:
            book.close()
    return results_frame(rows)


def _run_dask(
    batches: list[Batch],
    workers: int,
    scheduler: str | None,
    collect: Callable[[Iterable[dict[str, Any]]], None],
) -> None:
    from distributed import as_completed as dask_completed

    with dask_client(workers, scheduler) as client:
        futures = client.map(run_batch, batches, pure=False)
        for f in dask_completed(futures):
            collect(f.result())


def results_frame(rows: Sequence[dict[str, Any]]) -> pd.DataFrame:
    df = pd.DataFrame(list(rows))
    if not df.empty:
        df = df.sort_values("match", kind="stable").reset_index(drop=True)
    return df


def save_results(df: pd.DataFrame, path: str | Path) -> Path:
    """Write the rows to Parquet atomically (a temporary file beside it, then a rename):
    a reader, or a run stopped while writing, never leaves half a file."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(f".{p.name}.pid{os.getpid()}.tmp")
    try:
        df.to_parquet(tmp, engine="pyarrow", index=False)
        os.replace(tmp, p)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return p


def load_results(path: str | Path) -> pd.DataFrame:
    return pd.read_parquet(path, engine="pyarrow")


def frame_digest(df: pd.DataFrame) -> str:
    """A short digest of a results frame (equal frames, equal digests)."""
    return hashlib.sha256(df.to_json(orient="records").encode()).hexdigest()[:16]


# --- command line ------------------------------------------------------------------------


def game_arg(argv: Sequence[str] | None) -> tuple[str, list[str]]:
    """Split ``--game NAME`` (or ``--game=NAME``) off ``argv``; default the default game."""
    rest = list(sys.argv[1:] if argv is None else argv)
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--game", default=registry.DEFAULT_GAME)
    known, rest = pre.parse_known_args(rest)
    return str(known.game), rest


def positive_int(text: str) -> int:
    """An argparse type: a whole number ≥ 1 (``-n -1`` is a usage error, not 0 matches)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number ≥ 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number ≥ 1, got {value}")
    return value


def _kit_parser(
    description: str, epilog: str | None = None, prog: str = "throne simulate"
) -> argparse.ArgumentParser:
    """The options of ``throne simulate`` every game has (``throne compare`` replaces some:
    a later option of the same name wins)."""
    p = argparse.ArgumentParser(
        prog=prog, description=description, epilog=epilog, conflict_handler="resolve"
    )
    p.add_argument("--game", default=registry.DEFAULT_GAME,
                   help=f"the game (default {registry.DEFAULT_GAME})")  # fmt: skip
    p.add_argument("-n", "--matches", type=positive_int, default=10, help="matches (per pair)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first match")
    add_backend_options(p)
    p.add_argument("--out", default="results.parquet", help="Parquet file to write")
    p.add_argument("--resume", action="store_true",
                   help="go on from the journal a stopped run left beside --out "
                   "(OUT.journal.jsonl): only its missing matches are played")  # fmt: skip
    p.add_argument("--logs", default=None, help="directory for the match logs (JSONL)")
    p.add_argument("--cards", default=None, help="card table (default: the game's)")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="FIELD=VALUE",
                   help="change a rule parameter of the game (repeatable; a nested one as "
                   "outer.inner); see docs/balance.md")  # fmt: skip
    return p


def kit_help_parser() -> argparse.ArgumentParser:
    """``throne simulate --help`` without ``--game``: the kit's options, and where each
    game's own are (a game adds options, or replaces the seat options: Throne's decks)."""
    games = ", ".join(registry.names())
    return _kit_parser(
        "run many seeded matches of a game of the kit; results to Parquet",
        f"Games: {games}. Most games also take --seats/--players N, --agent NAME and "
        "--rotate, and options of their own; Throne & Phalanx (the default) takes decks "
        "and an agent per side instead. A game's full options: "
        "throne simulate --game NAME --help",
    )


def build_parser(
    game: registry.Game, prog: str = "throne simulate", description: str = ""
) -> argparse.ArgumentParser:
    about = f"run many seeded matches of {game.title} ({game.name}); results to Parquet"
    p = _kit_parser(description or about, prog=prog)
    p.set_defaults(game=game.name)
    hooks = sim_hooks(game)
    if hooks.seat_options:
        lo, hi = game.seats
        names = agent_names(game.name)
        p.add_argument("--seats", "--players", dest="seats", type=int, default=lo,
                       help=f"number of seats, {lo}-{hi} (default %(default)s)")  # fmt: skip
        p.add_argument("--agent", default=game.default_agent, type=agent_arg(game.name),
                       help="every seat's: NAME or NAME:key=value… (e.g. ismcts:iterations=10); "
                       f"NAME one of {', '.join(names)}")  # fmt: skip
        p.add_argument("--rotate", action="store_true", help="rotate seats every match")
    hooks.add_arguments(p)
    return p


def with_rules(
    game: registry.Game, specs: Sequence[MatchSpec], changes: dict[str, Any]
) -> list[MatchSpec]:
    """The same specs (seeds, setups, agents) with the rule ``changes`` (parsed by
    :func:`throne_lib.kit.variants.parse_sets`) applied to their options' rules."""
    from throne_lib.kit.variants import with_changes

    if not changes:
        return list(specs)
    out = []
    for s in specs:
        options = with_changes(game, dict(s.options), changes)
        out.append(replace(s, options=tuple(options.items())))
    return out


def specs_from_args(game: registry.Game, args: argparse.Namespace, table: Any) -> list[MatchSpec]:
    """The specs ``throne simulate`` runs: the game's own (``SimHooks.specs``), or
    ``--matches`` matches of ``--seats`` seats of ``--agent``, the game's setups and options;
    with the rules ``--set`` asks for."""
    specs = plain_specs(game, args, table)
    sets = getattr(args, "sets", None) or []
    if not sets:
        return specs
    from throne_lib.kit.variants import check_variant, parse_sets

    changes = parse_sets(game, sets)
    if specs:
        check_variant(game, changes, specs[0].setups, options_of(specs[0], table))
    return with_rules(game, specs, changes)


def rules_changes(game: registry.Game, args: argparse.Namespace) -> dict[str, Any]:
    """The ``--set`` changes of the arguments (empty: none)."""
    from throne_lib.kit.variants import parse_sets

    sets = getattr(args, "sets", None) or []
    return parse_sets(game, sets) if sets else {}


def plain_specs(game: registry.Game, args: argparse.Namespace, table: Any) -> list[MatchSpec]:
    """The specs of the arguments without their ``--set`` (``throne compare``'s base)."""
    hooks = sim_hooks(game)
    own = hooks.specs(args, table)
    if own is not None:
        return own
    game.check_seats(args.seats)
    setups = hooks.setups(args, args.seats)
    if setups is None:
        if game.default_setups is None:
            raise ValueError(f"{game.name} registers no default setups to simulate")
        setups = game.default_setups(args.seats)
    agents = [args.agent] * args.seats
    specs = seat_specs(game.name, setups, agents, args.matches, args.seed, args.rotate)
    opts = tuple(hooks.options(args).items())
    return [replace(s, options=opts) for s in specs] if opts else specs


def game_and_args(
    argv: Sequence[str] | None,
    prog: str,
    parser: Callable[[registry.Game], argparse.ArgumentParser],
) -> tuple[registry.Game, argparse.Namespace] | None:
    """The game ``--game`` names and ``argv`` parsed by that game's ``parser``; None, after
    one line on stderr, when no such game is registered (``prog`` starts the line)."""
    name, _rest = game_arg(argv)
    try:
        game = registry.get(name)
    except ValueError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return None
    return game, parser(game).parse_args(argv)


def simulate_main(argv: Sequence[str] | None = None) -> int:
    """``throne simulate``: exit 0 on success, 1 on an error (one line on stderr)."""
    _name, rest = game_arg(argv)
    words = list(sys.argv[1:] if argv is None else argv)
    if len(rest) == len(words) and {"-h", "--help"} & set(words):  # no --game: the kit's help
        kit_help_parser().parse_args(["--help"])
    got = game_and_args(argv, "throne simulate", build_parser)
    if got is None:
        return 1
    game, args = got
    try:
        text = table_text(game, args.cards)
        table = _table(game.name, text) if text is not None else None
        specs = specs_from_args(game, args, table)
        book = journal_path(args.out)
        df = simulate(
            specs,
            workers=args.workers,
            backend=args.backend,
            scheduler=args.scheduler,
            cards=args.cards,
            log_dir=args.logs,
            progress=not args.no_progress,
            journal=book,
            resume=args.resume,
        )
    except KeyboardInterrupt:
        print(stopped_message(journal_path(args.out), "throne simulate"), file=sys.stderr)
        return 130
    except (ValueError, OSError) as exc:
        print(f"throne simulate: {exc}", file=sys.stderr)
        return 1
    if args.sets:  # the variant's rule changes, in every row (the logs' headers carry them)
        from throne_lib.kit.variants import changes_text

        df["rules"] = changes_text(rules_changes(game, args))
    out = save_results(df, args.out)
    book.unlink(missing_ok=True)
    wins = df["winner"].value_counts().to_dict() if not df.empty else {}
    print(f"{len(df)} matches -> {out}; winners: {wins}")
    return 0


if __name__ == "__main__":
    raise SystemExit(simulate_main())
