"""The ``throne`` command line: check the card table and decks, play, replay.

    throne cards check [PATH] [--json]
    throne cards diff OLD NEW [--json]   (OLD/NEW: files or REV:PATH, e.g. HEAD:cards.csv)
    throne deck check FILE [--cards PATH]
    throne play [--blue random] [--red random] [--seed N] [--blue-deck X] [--red-deck X]
                [--log FILE] [--cards PATH]
    throne replay FILE [--check] [-v]
    throne simulate [--blue X --red X --blue-agent A --red-agent A | --round-robin] [-n N]
                    [--workers N] [--backend process|dask] [--scheduler ADDR] [--out FILE]
    throne report RESULTS.parquet

Exit status: 0 success, 1 a check failed or an error, 2 bad usage. Errors are one
line on stderr (a broken card table: one line per problem), never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from throne_lib.agents import make_agent
from throne_lib.games.throne.board import SIDE_NAMES
from throne_lib.games.throne.carddoc import pool_report
from throne_lib.games.throne.cards import KINDS, RACES, CardDB, CardTableError, load_cards
from throne_lib.games.throne.decks import DeckError, load_deck, signature_deck, validate_deck
from throne_lib.games.throne.match import Match, SideSetup
from throne_lib.games.throne.rules import DEFAULT_RULES, Rules
from throne_lib.log import AgentInfo, LogError, LogResult, MatchRecorder, read_log, replay


class CliError(Exception):
    """A user-facing error: printed as one line, exit status 1."""


def agent_seed(seed: int, side: int) -> int:
    """The seed the ``play`` command gives the agent of ``side`` in match ``seed``."""
    return seed * 2 + side


def resolve_side(db: CardDB, spec: str) -> SideSetup:
    """A deck file path, a general id or a race (-> its signature deck, R-DECK-7)."""
    p = Path(spec)
    if p.is_file():
        setup = load_deck(p)
        problems = validate_deck(db, setup)
        if problems:
            raise DeckError(problems)
        return setup
    if (spec in db and db[spec].kind == "general") or db.of("general", spec):
        return signature_deck(db, spec)
    races = ", ".join(sorted({c.race for c in db.of("general")}, key=RACES.index))
    raise CliError(f"{spec!r} is not a deck file, a general id or a race ({races})")


def run_match(
    db: CardDB,
    blue: SideSetup,
    red: SideSetup,
    seed: int,
    agents: tuple[str, str] = ("random", "random"),
    log: str | Path | None = None,
    rules: Rules = DEFAULT_RULES,
    max_actions: int = 100_000,
) -> Match:
    """Play a match between two agents (seeded by :func:`agent_seed`), logging it to
    ``log`` as it goes when given. Deterministic in (table, sides, seed, agents, rules)."""
    match = Match.new(db, blue, red, seed, rules)
    players = tuple(make_agent(name, agent_seed(seed, side)) for side, name in enumerate(agents))
    infos = [AgentInfo(name, agent_seed(seed, side)) for side, name in enumerate(agents)]
    recorder = MatchRecorder(match, log, infos) if log is not None else None
    try:
        for _ in range(max_actions):
            if match.is_over:
                return match
            action = players[match.turn].choose(match)
            if recorder is not None:
                recorder.apply(action)
            else:
                match.apply(action)
    finally:
        if recorder is not None:
            recorder.close()
    raise CliError(f"match did not end within {max_actions} actions")


# --- commands ------------------------------------------------------------------------


def _load(path: str | None) -> CardDB:
    return load_cards(path)


def cmd_cards_check(args: argparse.Namespace) -> int:
    db = _load(args.path)
    by_race: dict[str, dict[str, int]] = {}
    for card in db.values():
        by_race.setdefault(card.race, {})
        by_race[card.race][card.kind] = by_race[card.race].get(card.kind, 0) + 1
    by_kind = Counter(c.kind for c in db.values())
    if args.json:
        data = {
            "path": db.path,
            "cards": len(db),
            "hash": db.hash,
            "by_race": by_race,
            "by_kind": {k: by_kind[k] for k in KINDS if by_kind[k]},
            "pool": pool_report(db),  # per race counts + signature decks (carddoc)
        }
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    print(f"{db.path}: OK, {len(db)} cards, hash {db.hash}")
    kinds = [k for k in KINDS if by_kind[k]]
    print(f"{'race':<8}" + "".join(f"{k:>9}" for k in kinds) + f"{'total':>9}")
    for race in RACES:
        counts = by_race.get(race, {})
        cells = "".join(f"{counts.get(k, 0):>9}" for k in kinds)
        print(f"{race:<8}{cells}{sum(counts.values()):>9}")
    return 0


def cmd_deck_check(args: argparse.Namespace) -> int:
    db = _load(args.cards)
    try:
        setup = load_deck(args.file)
    except OSError as exc:
        raise CliError(f"{args.file}: cannot read: {exc.strerror or exc}") from None
    problems = validate_deck(db, setup)
    name = Path(args.file).name
    if problems:
        for p in problems:
            print(f"{name}: {p}", file=sys.stderr)
        print(f"{name}: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    main = db[setup.general]
    print(f"{name}: OK, general {setup.general} ({main.name}), {len(setup.deck)} cards")
    return 0


def _summary(match: Match) -> list[str]:
    hp = ", ".join(f"{SIDE_NAMES[s]} {match.throne_hp(s)}" for s in (0, 1))
    lines = [f"result: {match.result_text()}"]
    if match.is_over:
        res = LogResult.of(match)
        lines.append(f"winner: {res.winner or 'draw'}  reason: {res.reason}  rounds: {res.round}")
    lines += [f"actions: {len(match.history)}", f"throne HP: {hp}", f"final hash: {match.hash()}"]
    return lines


def cmd_play(args: argparse.Namespace) -> int:
    db = _load(args.cards)
    blue = resolve_side(db, args.blue_deck)
    red = resolve_side(db, args.red_deck)
    for name in (args.blue, args.red):
        make_agent(name)  # fail early on an unknown agent name
    match = run_match(db, blue, red, args.seed, (args.blue, args.red), args.log)
    print(f"seed {args.seed}: blue {blue.general} ({args.blue}) vs red {red.general} ({args.red})")
    for line in _summary(match):
        print(line)
    if args.log:
        print(f"log: {args.log}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    log = read_log(args.file)
    match = replay(log, check=True)
    if args.verbose:
        for rec in log.records:
            print(f"{rec.i:>5} {rec.hash} {rec.action}")
    h = log.header
    print(f"{args.file}: {len(log.records)} actions, seed {h.seed}, cards {h.db.hash}")
    print("check: OK, every state hash matches")
    for line in _summary(match):
        print(line)
    return 0


# --- parser ----------------------------------------------------------------------------


def cmd_cards_diff(args: argparse.Namespace) -> int:
    from throne_lib.carddiff import diff_main

    return diff_main([args.old, args.new] + (["--json"] if args.json else []))


def cmd_log(args: argparse.Namespace) -> int:
    """``throne log FILE [--csv [OUT]]``: the log's event table (issue: match review)."""
    from throne_lib.review import events_frame

    frame = events_frame(args.file)
    if args.csv is None:
        counts = frame["kind"].value_counts()
        print(f"{args.file}: {len(frame)} events in {frame['step'].max()} actions")
        for kind, n in counts.items():
            if n:
                print(f"  {kind:<14} {n}")
        return 0
    if args.csv == "-":
        frame.to_csv(sys.stdout, index=False)
    else:
        frame.to_csv(args.csv, index=False)
        print(f"wrote {len(frame)} events to {args.csv}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="throne", description="Throne & Phalanx (王座与方阵)")
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
    play.add_argument("--blue", default="random", help="blue's agent (default: random)")
    play.add_argument("--red", default="random", help="red's agent (default: random)")
    play.add_argument("--seed", type=int, default=0, help="match seed (default: 0)")
    play.add_argument("--blue-deck", default="human", help="general, race or deck file")
    play.add_argument("--red-deck", default="beast", help="general, race or deck file")
    play.add_argument("--log", help="write the match log (JSON Lines) to this file")
    play.add_argument("--cards", help="card table (default: cards.csv)")
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

    # `simulate` and `report` parse their own options (see _delegated); listed here for --help.
    sub.add_parser("simulate", help="run many seeded matches (process or Dask) -> Parquet")
    sub.add_parser("report", help="balance report of a simulate results file")
    sub.add_parser("tower", help="王座之塔: `throne tower simulate --runs N` (autopilot report)")
    return parser


def _delegated(command: str, rest: list[str]) -> int:
    """``throne simulate …`` -> :func:`throne_lib.sim.simulate_main`, ``throne report …`` ->
    :func:`throne_lib.analytics.report_main`."""
    if command == "tower":
        from throne_lib.games.throne.tower.autopilot import tower_main as run
    elif command == "simulate":
        from throne_lib.sim import simulate_main as run
    else:
        from throne_lib.analytics import report_main as run
    try:
        return run(rest)
    except SystemExit as exc:  # --help (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else 2


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] in ("simulate", "report", "tower"):
        return _delegated(args_list[0], args_list[1:])
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else 2
    try:
        return int(args.func(args))
    except BrokenPipeError:  # `throne replay -v LOG | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except CardTableError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 1
    except DeckError as exc:
        for p in exc.problems:
            print(f"deck: {p}", file=sys.stderr)
        return 1
    except (CliError, LogError, ValueError, OSError) as exc:
        print(f"throne: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
