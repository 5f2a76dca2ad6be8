"""Throne & Phalanx's commands of the ``throne`` command line (:mod:`throne_lib.cli` parses
and dispatches through the registry): ``cards check`` output, ``deck check``, ``play``
between agents, and the summary lines ``play``/``replay`` print.

    throne play [--blue random] [--red random] [--seed N] [--blue-deck X] [--red-deck X]
                [--log FILE] [--cards PATH]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from throne_lib.games.throne.board import SIDE_NAMES
from throne_lib.games.throne.carddoc import pool_report
from throne_lib.games.throne.cards import KINDS, RACES, CardDB, load_cards
from throne_lib.games.throne.decks import DeckError, load_deck, signature_deck, validate_deck
from throne_lib.games.throne.match import Match, SideSetup
from throne_lib.games.throne.rules import DEFAULT_RULES, Rules
from throne_lib.kit.agents import check_agent, make_agent, play_out
from throne_lib.kit.cli import CliError, KitCliHooks
from throne_lib.kit.log import AgentInfo, LogResult, MatchRecorder


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
        ended = play_out(
            match, players, max_actions, recorder.apply if recorder is not None else None
        )
    finally:
        if recorder is not None:
            recorder.close()
    if not ended:
        raise CliError(f"match did not end within {max_actions} actions")
    return match


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


def summary(match: Match) -> list[str]:
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
        check_agent(name)  # fail early on an unknown agent name or parameter
    match = run_match(db, blue, red, args.seed, (args.blue, args.red), args.log)
    print(f"seed {args.seed}: blue {blue.general} ({args.blue}) vs red {red.general} ({args.red})")
    for line in summary(match):
        print(line)
    if args.log:
        print(f"log: {args.log}")
    return 0


class ThroneCli(KitCliHooks):
    """The command-line hooks of Throne & Phalanx (``Game.cli`` in the registry): a deck
    and an agent per side instead of the kit's ``--seats``/``--agents``."""

    seat_options = False

    def add_play_arguments(self, play: argparse.ArgumentParser) -> None:
        play.add_argument("--blue", default="random", help="blue's agent (default: random)")
        play.add_argument("--red", default="random", help="red's agent (default: random)")
        play.add_argument("--blue-deck", default="human", help="general, race or deck file")
        play.add_argument("--red-deck", default="beast", help="general, race or deck file")
        play.add_argument("--cards", help="card table (default: cards.csv)")

    def play(self, args: argparse.Namespace) -> int:
        return cmd_play(args)

    def cards_check(self, args: argparse.Namespace) -> int:
        return cmd_cards_check(args)

    def deck_check(self, args: argparse.Namespace) -> int:
        return cmd_deck_check(args)

    def summary(self, match: Any) -> list[str]:
        return summary(match)

    def report_text(self, df: Any, top: int = 15) -> str:
        from throne_lib.games.throne.analytics import report_text

        return report_text(df, top)

    def errors(self, exc: Exception) -> list[str] | None:
        """Lines for an error this game raises (a broken deck), None for the others."""
        if isinstance(exc, DeckError):
            return [f"deck: {p}" for p in exc.problems]
        return None


CLI = ThroneCli()
