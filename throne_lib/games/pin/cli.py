"""PIN's command-line hooks for the kit's ``throne --game pin …`` (``Game.cli``).

``deck check FILE`` lists every PIN-DECK violation (exit 1) or says OK; ``cards check``
validates ``cards-pin.csv`` with ``file:row:column`` errors; ``summary`` is what
``play``/``replay`` print about a match.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from throne_lib.games.pin.hexes import SIDE_NAMES
from throne_lib.kit.cli import KitCliHooks


def _db(args: argparse.Namespace) -> Any:
    from throne_lib.games.pin.cards import load_pin_cards

    path = getattr(args, "cards", None) or getattr(args, "path", None)
    return load_pin_cards(path)


def deck_check(args: argparse.Namespace) -> int:
    """Print ``FILE: OK`` or every problem, one per line (PIN-DECK-6)."""
    from throne_lib.games.pin.decks import DeckError, load_deck, validate_deck

    db = _db(args)
    try:
        deck = load_deck(args.file)
    except DeckError as exc:
        for p in exc.problems:
            print(p)
        return 1
    problems = validate_deck(db, deck)
    for p in problems:
        print(f"{args.file}: {p}")
    if not problems:
        print(
            f"{args.file}: OK, {1 + len(deck.cards)} cards ({deck.main}{'+' + deck.ally if deck.ally else ''})"
        )
    return 1 if problems else 0


def cards_check(args: argparse.Namespace) -> int:
    from throne_lib.kit.tables import TableError as CardTableError

    try:
        db = _db(args)
    except CardTableError as exc:
        for p in exc.problems:
            print(p)
        return 1
    print(
        f"{Path(db.path).name}: OK, {len(db)} cards, nations {'、'.join(db.nations())}, hash {db.hash}"
    )
    return 0


def summary(match: Any) -> list[str]:
    st = match.state
    w = st.winner
    result = "not over" if w is None else ("draw" if w < 0 else f"{SIDE_NAMES[w]} wins")
    return [
        f"result: {result}; round {st.round}; HQ HP 甲 {st.units[0].hp}, 乙 {st.units[1].hp}",
        f"final hash: {match.hash()}",
    ]


class PinCli(KitCliHooks):
    """PIN's command hooks (``Game.cli``): deck and card-table checks, the match summary."""

    def deck_check(self, args: argparse.Namespace) -> int | None:
        return deck_check(args)

    def cards_check(self, args: argparse.Namespace) -> int | None:
        return cards_check(args)

    def summary(self, match: Any) -> list[str] | None:
        return summary(match)


CLI = PinCli()


def main(argv: list[str] | None = None) -> int:
    """``python -m throne_lib.games.pin.cli deck FILE`` until the kit CLI has ``--game``."""
    ap = argparse.ArgumentParser(prog="pin")
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("deck")
    d.add_argument("file")
    d.add_argument("--cards")
    c = sub.add_parser("cards")
    c.add_argument("path", nargs="?")
    args = ap.parse_args(argv)
    return deck_check(args) if args.cmd == "deck" else cards_check(args)


if __name__ == "__main__":
    raise SystemExit(main())
