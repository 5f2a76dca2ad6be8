"""The ``throne`` command line: check card tables and decks, play, replay, simulate, report.

    throne [--game NAME] cards check [PATH] [--json]
    throne [--game NAME] cards diff OLD NEW [--json]   (OLD/NEW: files or REV:PATH, e.g. HEAD:cards.csv)
    throne [--game NAME] deck check FILE [--cards PATH]
    throne [--game NAME] play [--seed N] [--log FILE] ...the game's options
           (Throne: [--blue random] [--red random] [--blue-deck X] [--red-deck X] [--cards PATH];
            a game without its own: [--seats N] [--agents A,B,...])
    throne [--game NAME] replay FILE [--check] [-v]
    throne [--game NAME] log FILE [--csv [OUT]]
    throne simulate [--game NAME] ... [--set FIELD=VALUE ...] (see throne_lib.kit.sim)
    throne compare --game NAME [--set FIELD=VALUE ...] [--cards A.csv B.csv] [-n N] [--out F]
           (base against variant on the same seeds: throne_lib.kit.compare, docs/balance.md)
    throne report [--game NAME] RESULTS.parquet [MORE.parquet …]
    throne ladder --game NAME --agents a,b,c -n N (see throne_lib.kit.ladder)
    throne balance suggest [--game NAME] [targets, budget, freeze options] [--out FILE] [--apply N]
    throne balance apply RESULTS.parquet N [--game NAME]   (docs/balance.md)
    throne playtest new|list|show|export|note ...   (docs/playtests.md)

``--game`` (default ``throne``) may stand before or after the command; the games come
from the registry (:mod:`throne_lib.kit.registry`) and a game's own commands from its
``Game.cli`` hook. ``replay`` and ``log`` read the game from the log's header.

Exit status: 0 success, 1 a check failed or an error, 2 bad usage or an unexpected
error. Errors are one line on stderr (a broken card table: one line per problem), never
a traceback; ``--debug`` anywhere on the line shows the traceback instead.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from throne_lib.kit import registry
from throne_lib.kit.cli import CliError, CliHooks, cli_hooks
from throne_lib.kit.log import LogError


def _cli(game: registry.Game) -> CliHooks:
    return cli_hooks(game)


# --- commands ------------------------------------------------------------------------


def cmd_cards_check(args: argparse.Namespace) -> int:
    game = registry.get(args.game)
    own = _cli(game).cards_check(args)
    if own is not None:
        return own
    if game.parse_table is None or not game.card_tables:
        raise CliError(f"{game.name} has no card table")
    from pathlib import Path

    path = Path(args.path) if args.path else game.card_tables[0]
    table = game.load_table(path)  # errors name this file, a bad byte its line
    print(f"{path}: OK, {len(table)} rows, hash {getattr(table, 'hash', '-')}")
    return 0


def cmd_deck_check(args: argparse.Namespace) -> int:
    game = registry.get(args.game)
    own = _cli(game).deck_check(args)
    if own is None:
        raise CliError(f"{game.name} has no deck check command")
    return own


def summary(match: Any, game: registry.Game) -> list[str]:
    """The lines ``play`` and ``replay`` print about a match (the game's own, or the
    protocol's: returns and the final hash)."""
    own = _cli(game).summary(match)
    if own is not None:
        return own
    r = ", ".join(f"{game.seat_name(s)} {v:g}" for s, v in enumerate(match.returns()))
    over = f"over, winner: {game.winner(match)}" if match.is_over else "not over"
    return [f"result: {over}; returns: {r}", f"final hash: {match.hash()}"]


def cmd_play(args: argparse.Namespace) -> int:
    game = registry.get(args.game)
    hooks = _cli(game)
    own = hooks.play(args)
    if own is not None:
        return own
    from throne_lib.kit.agents import check_agent, make_agent, play_out
    from throne_lib.kit.log import AgentInfo, MatchRecorder

    if not args.agents:  # before a list of that many agents is built (--players 10**11)
        game.check_seats(args.seats)
    names = args.agents.split(",") if args.agents else [game.default_agent] * args.seats
    options = hooks.play_options(args)  # the game's rule options
    words = [w for w in (getattr(args, "setups", "") or "").split(",") if w]
    setups: list[Any] | None = hooks.play_setups(args, len(names))  # e.g. 城池战's --teams
    if setups is not None:
        if words:
            raise CliError("give the seats' setups once (--setups or the game's own option)")
    elif words:
        assert game.resolve_setup is not None  # --setups exists only then
        if len(words) != len(names):
            raise CliError(f"{len(words)} setups for {len(names)} seats")
        setups = [game.resolve_setup(w) for w in words]
    else:
        setups = game.default_setups(len(names)) if game.default_setups else None
    match = game.new(setups, args.seed, **options)
    n = match.num_seats
    if len(names) != n:
        raise CliError(f"{len(names)} agents for {n} seats")
    for a in names:  # an unknown name or parameter says which agent, before any match
        check_agent(a, game.name)
    agents = [make_agent(a, args.seed * n + s, game.name) for s, a in enumerate(names)]
    infos = [AgentInfo(a, args.seed * n + s) for s, a in enumerate(names)]
    rec = MatchRecorder(match, args.log, infos) if args.log else None
    try:  # an unfinished match (100,000 actions) is summarised as "not over"
        play_out(match, agents, 100_000, rec.apply if rec is not None else None)
    finally:
        if rec is not None:
            rec.close()
    print(f"{game.name} seed {args.seed}: {', '.join(names)}")
    for line in summary(match, game):
        print(line)
    if args.log:
        print(f"log: {args.log}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from throne_lib.kit.log import read_log, replay

    log = read_log(args.file)
    if args.game_given and log.game != args.game:
        raise CliError(f"{args.file} is a {log.game} log, not {args.game}")
    match = replay(log, check=True)
    if args.verbose:
        for rec in log.records:
            print(f"{rec.i:>5} {rec.hash} {rec.action}")
    h = log.header
    table = getattr(h, "db", None)
    cards = f", cards {table.hash}" if table is not None else ""
    print(f"{args.file}: {len(log.records)} actions, seed {h.seed}{cards}")
    print("check: OK, every state hash matches")
    for line in summary(match, registry.get(log.game)):
        print(line)
    return 0


def cmd_cards_diff(args: argparse.Namespace) -> int:
    from throne_lib.kit.carddiff import diff_main

    return diff_main([args.old, args.new] + (["--json"] if args.json else []))


def cmd_log(args: argparse.Namespace) -> int:
    """``throne log FILE [--csv [OUT]]``: the log's event table, described by the log's
    game (its registered review hooks, or the kit's generic rows)."""
    from throne_lib.kit.log import read_log
    from throne_lib.kit.review import events_frame, summary

    log = read_log(args.file)
    if args.game_given and log.game != args.game:
        raise CliError(f"{args.file} is a {log.game} log, not {args.game}")
    frame = events_frame(log)
    if args.csv is None:
        print("\n".join(summary(frame, args.file)))
        return 0
    if args.csv == "-":
        frame.to_csv(sys.stdout, index=False)
    else:
        frame.to_csv(args.csv, index=False)
        print(f"wrote {len(frame)} events to {args.csv}")
    return 0


# --- parser ----------------------------------------------------------------------------


def _game_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--game", default=argparse.SUPPRESS, help=f"the game (default {registry.DEFAULT_GAME})"
    )


def build_parser(game: registry.Game | None = None) -> argparse.ArgumentParser:
    """The parser; ``game`` (default: the default game) adds its own ``play`` options."""
    game = game or registry.get(registry.DEFAULT_GAME)
    parser = argparse.ArgumentParser(prog="throne", description="Throne & Phalanx (王座与方阵)")
    _game_option(parser)
    # main() takes --debug out of the line wherever it stands; this makes --help show it
    parser.add_argument("--debug", action="store_true", help="show tracebacks of errors")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    cards = sub.add_parser("cards", help="the card table").add_subparsers(
        dest="sub", required=True, metavar="SUBCOMMAND"
    )
    cc = cards.add_parser("check", help="load and validate a card table")
    cc.add_argument("path", nargs="?", help="card table (default: the repository's cards.csv)")
    cc.add_argument("--json", action="store_true", help="print counts as JSON")
    cc.set_defaults(func=cmd_cards_check)
    cd = cards.add_parser("diff", help="which cards changed which fields between two tables")
    cd.add_argument("old", help="old table: a file, or REV:PATH from git (HEAD:cards.csv)")
    cd.add_argument("new", help="new table: a file, or REV:PATH from git")
    cd.add_argument("--json", action="store_true", help="print the diff as JSON")
    cd.set_defaults(func=cmd_cards_diff)

    deck = sub.add_parser("deck", help="deck files").add_subparsers(
        dest="sub", required=True, metavar="SUBCOMMAND"
    )
    dc = deck.add_parser("check", help="validate a deck file (R-DECK-*)")
    dc.add_argument("file")
    dc.add_argument("--cards", help="card table (default: cards.csv)")
    dc.set_defaults(func=cmd_deck_check)

    play = sub.add_parser("play", help="play a match between agents")
    play.add_argument("--seed", type=int, default=0, help="match seed (default: 0)")
    play.add_argument("--log", help="write the match log (JSON Lines) to this file")
    hooks = _cli(game)
    if hooks.seat_options:
        play.add_argument("--seats", "--players", dest="seats", type=int, default=game.seats[0],
                          help=f"number of seats, {game.seats[0]}-{game.seats[1]} (default %(default)s)")  # fmt: skip
        play.add_argument("--agents", default="", help="comma-separated agent per seat "
                          f"(default: {game.default_agent} everywhere)")  # fmt: skip
        if game.resolve_setup is not None:
            play.add_argument("--setups", default="", help="comma-separated setup per seat "
                              "(default: the game's)")  # fmt: skip
    hooks.add_play_arguments(play)
    play.set_defaults(func=cmd_play)

    rep = sub.add_parser("replay", help="replay a match log and verify every state hash")
    rep.add_argument("file")
    rep.add_argument(
        "--check", action="store_true", help="verify hashes (always done; exit 1 on a mismatch)"
    )
    rep.add_argument("-v", "--verbose", action="store_true", help="list every action")
    rep.set_defaults(func=cmd_replay)

    lg = sub.add_parser("log", help="a match log's events as a table (CSV)")
    lg.add_argument("file")
    lg.add_argument(
        "--csv",
        nargs="?",
        const="-",
        help="export the event table as CSV (to a file, or - for stdout)",
    )
    lg.set_defaults(func=cmd_log)
    for p in (cc, cd, dc, play, rep, lg):
        _game_option(p)

    # `simulate` and `report` parse their own options (see _delegated); listed here for --help.
    sub.add_parser("simulate", help="run many seeded matches (process or Dask) -> Parquet")
    sub.add_parser("report", help="balance report of a simulate results file")
    sub.add_parser(
        "compare", help="base rules/cards against a variant on the same seeds: paired deltas"
    )
    sub.add_parser("ladder", help="rate agents: round robin / paired seeds -> Elo, Parquet")
    sub.add_parser("tower", help="王座之塔: `throne tower simulate --runs N` (autopilot report)")
    sub.add_parser("balance", help="proposals of card changes that even out win rates")
    sub.add_parser("playtest", help="several people play one match from their own browsers")
    return parser


def _delegated(command: str, rest: list[str]) -> int:
    """``throne simulate …`` -> :func:`throne_lib.kit.sim.simulate_main`, ``throne report …`` ->
    :func:`throne_lib.kit.analytics.report_main`, ``throne tower …`` -> the tower's."""
    if command == "tower":
        from throne_lib.games.throne.tower.autopilot import tower_main as run
    elif command == "simulate":
        from throne_lib.kit.sim import simulate_main as run
    elif command == "compare":
        from throne_lib.kit.compare import compare_main as run
    elif command == "ladder":
        from throne_lib.kit.ladder import ladder_main as run
    else:
        from throne_lib.kit.analytics import report_main as run
    try:
        return run(rest)
    except SystemExit as exc:  # --help (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else 2


def _balance(name: str, rest: list[str]) -> int:
    """``throne [--game NAME] balance …``: the kit's balance command line
    (:mod:`throne_lib.kit.balance_cli`) for a game with a registry ``balance`` hook; a
    clear error for an unknown game or one without it."""
    from throne_lib.kit.balance_cli import main as balance_main

    return balance_main(rest, name)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. ``--debug`` anywhere on the line shows the traceback of an error
    instead of its one line."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args_list
    args_list = [a for a in args_list if a != "--debug"]
    try:
        return _run(args_list, debug)
    except BrokenPipeError:  # `throne replay -v LOG | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("throne: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # anything else: still one line, never a traceback
        if debug:
            raise
        print(
            f"throne: error: {type(exc).__name__}: {one_line(str(exc))} "
            "(run again with --debug for the traceback)",
            file=sys.stderr,
        )
        return 2


def one_line(message: str, limit: int = 500) -> str:
    """A message on one line: pandas and JSON errors carry newlines (a stray ``)`` line)."""
    text = " ".join(message.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _run(args_list: list[str], debug: bool) -> int:
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--game", default=None)
    known, rest = pre.parse_known_args(args_list)
    if rest and rest[0] == "balance":
        return _balance(known.game or registry.DEFAULT_GAME, rest[1:])
    if rest and rest[0] == "playtest":
        from throne_lib.kit.playtest.cli import main as playtest_main

        new_game = ["--game", known.game] if known.game and "new" in rest else []
        return playtest_main(rest[1:] + new_game)
    if rest and rest[0] in ("simulate", "report", "tower", "ladder", "compare"):
        given = known.game is not None and rest[0] != "tower"
        game_args = ["--game", known.game] if given else []
        return _delegated(rest[0], rest[1:] + game_args)
    try:
        game = registry.get(registry.DEFAULT_GAME if known.game is None else known.game)
    except ValueError as exc:
        print(f"throne: error: {exc}", file=sys.stderr)
        return 2
    parser = build_parser(game)
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # --help (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else 2
    args.game_given = known.game is not None
    args.game = game.name
    try:
        return int(args.func(args))
    except (BrokenPipeError, KeyboardInterrupt):
        raise
    except Exception as exc:
        lines = None if debug else _error_lines(game, exc)
        if lines is None:
            raise
        for line in lines:
            print(one_line(line), file=sys.stderr)
        return 1


def _error_lines(game: registry.Game, exc: Exception) -> list[str] | None:
    problems = getattr(exc, "problems", None)
    got = _cli(game).errors(exc)
    if got is not None:
        return list(got)
    if isinstance(problems, list) and problems and all(isinstance(p, str) for p in problems):
        return problems  # a broken card table: one line per problem (file:row:column)
    if isinstance(exc, CliError | LogError | ValueError | OSError):
        return [f"throne: error: {exc}"]
    return None


if __name__ == "__main__":
    sys.exit(main())
