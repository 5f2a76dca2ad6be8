"""Perft: the number of legal action sequences from fixed positions, compared with
stored numbers (the regression test of a move generator, as in chess engines).

Each ``tests/perft/NAME.json`` holds a position in scenario notation
(docs/scenarios.md), the depth, the stored counts for depths 1..depth and a
"divide" (the leaf count below each first action), which points at the action
whose subtree changed when a count differs.

When the rules or the card table change **on purpose** and the counts move,
check the divide that the failure prints, then regenerate:

    .venv/bin/python tests/test_perft.py            # rewrite every stored count
    .venv/bin/python tests/test_perft.py crowded    # just one position

and commit the new numbers with the rule change that explains them. A count that
changes without an intended rule change is a bug in ``throne_lib/games/throne/legal.py`` or in
the engine.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from throne_lib import CardDB, Match, load_cards
from throne_lib.games.throne.scenario import load_scenario
from throne_lib.kit import perft as kit_perft
from throne_lib.kit.perft import perft

PERFT_DIR = Path(__file__).resolve().parent / "perft"
POSITIONS = kit_perft.positions(PERFT_DIR)


def action_name(m: Any, a: Any) -> str:
    """A Throne action's text names its cells (the divide's keys)."""
    return str(a.text(m.geo))


def position(data: dict[str, Any], db: CardDB) -> Match:
    return load_scenario("\n".join(data["scenario"]) + "\n", db, name="perft")


def test_there_are_three_positions() -> None:
    assert {"opening", "crowded", "captain"} <= set(POSITIONS)


@pytest.mark.parametrize("name", POSITIONS)
def test_perft_counts(db: CardDB, name: str) -> None:
    """R-TURN-12 (deterministic copies), R-COMBAT-5, R-FLY-2, R-BARRACKS-9, R-OPEN-2:
    the stored number of legal action sequences at every depth."""
    data = kit_perft.load(PERFT_DIR, name)
    m = position(data, db)
    _, changed = kit_perft.check(data, lambda _d: m, action_name)
    if changed:
        pytest.fail(f"{name}: {changed}")
    assert perft(m, 1) == len(m.legal_actions())
    assert m.hash() == position(data, db).hash(), "perft must not change the position"


if __name__ == "__main__":
    cards = load_cards()
    kit_perft.regenerate(PERFT_DIR, sys.argv[1:], lambda d: position(d, cards), action_name)
