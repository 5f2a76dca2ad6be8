"""PIN perft: legal action sequences from stored positions, compared with stored numbers.

Each ``tests/pin/perft/NAME.json`` holds a position (scenario notation lines, or
``"new": {"seed": N}`` for a fresh match), a depth, the counts for depths 1..depth and
a divide (leaves below each first action). When a rule or card changes on purpose,
regenerate and commit the numbers with that change::

    python tests/pin/test_pin_perft.py            # every position
    python tests/pin/test_pin_perft.py skirmish   # one position

A count that moves without an intended change is a bug in ``games/pin/legal.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from throne_lib.games.pin.cards import PinCardDB, load_pin_cards
from throne_lib.games.pin.decks import starter_decks
from throne_lib.games.pin.match import PinMatch
from throne_lib.games.pin.scenario import load_scenario
from throne_lib.kit import perft as kit_perft

PERFT_DIR = Path(__file__).resolve().parent / "perft"
POSITIONS = kit_perft.positions(PERFT_DIR)


def position(data: dict[str, Any], db: PinCardDB) -> PinMatch:
    if "new" in data:
        d = starter_decks()
        a, b = d["anvil"], d["aurora"]
        return PinMatch.new(db, (a.hq, b.hq), (a.cards, b.cards), data["new"]["seed"])
    return load_scenario("\n".join(data["scenario"]) + "\n", db)


def test_there_are_positions() -> None:
    assert {"opening", "skirmish", "retreat"} <= set(POSITIONS)


@pytest.mark.parametrize("name", POSITIONS)
def test_pin_perft_counts(pdb: PinCardDB, name: str) -> None:
    """PIN-SETUP-3, PIN-DEPLOY-1, PIN-MOVE-1, PIN-ATTACK-1, PIN-COUNTER-3, PIN-RETREAT-3:
    the stored number of legal action sequences at every depth."""
    data = kit_perft.load(PERFT_DIR, name)
    _, changed = kit_perft.check(data, lambda d: position(d, pdb))
    if changed:
        pytest.fail(f"{name}: {changed}")


if __name__ == "__main__":
    cards = load_pin_cards()
    kit_perft.regenerate(PERFT_DIR, sys.argv[1:], lambda d: position(d, cards))
