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

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from throne_lib import CardDB, Match, load_cards
from throne_lib.games.throne.scenario import load_scenario

PERFT_DIR = Path(__file__).resolve().parent / "perft"
POSITIONS = sorted(p.stem for p in PERFT_DIR.glob("*.json"))


def perft(m: Match, depth: int) -> int:
    """Legal action sequences of length ``depth`` (a sequence ends early at a match end)."""
    actions = m.legal_actions()
    assert len(set(actions)) == len(actions), "duplicate legal actions"
    if depth == 1:
        return len(actions)
    total = 0
    for a in actions:
        child = m.copy()
        child.apply(a)
        total += 1 if child.is_over else perft(child, depth - 1)
    return total


def divide(m: Match, depth: int) -> dict[str, int]:
    """Leaves below each first action, by the action's text."""
    out = {}
    for a in m.legal_actions():
        child = m.copy()
        child.apply(a)
        out[a.text(m.geo)] = 1 if depth == 1 or child.is_over else perft(child, depth - 1)
    return out


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((PERFT_DIR / f"{name}.json").read_text(encoding="utf-8"))
    return data


def position(data: dict[str, Any], db: CardDB) -> Match:
    return load_scenario("\n".join(data["scenario"]) + "\n", db, name="perft")


def test_there_are_three_positions() -> None:
    assert {"opening", "crowded", "captain"} <= set(POSITIONS)


@pytest.mark.parametrize("name", POSITIONS)
def test_perft_counts(db: CardDB, name: str) -> None:
    """R-TURN-12 (deterministic copies), R-COMBAT-5, R-FLY-2, R-BARRACKS-9, R-OPEN-2:
    the stored number of legal action sequences at every depth."""
    data = load(name)
    m = position(data, db)
    counts = [perft(m, d) for d in range(1, data["depth"] + 1)]
    if counts != data["counts"]:
        now = divide(m, data["depth"])
        was = data["divide"]
        changed = {
            k: (was.get(k), now.get(k))
            for k in sorted(set(was) | set(now))
            if was.get(k) != now.get(k)
        }
        pytest.fail(
            f"{name}: counts {counts} != stored {data['counts']}; divide (stored, now): {changed}"
        )
    assert perft(m, 1) == len(m.legal_actions())
    assert m.hash() == position(data, db).hash(), "perft must not change the position"


def regenerate(names: list[str]) -> None:
    db = load_cards()
    for name in names:
        data = load(name)
        m = position(data, db)
        data["counts"] = [perft(m, d) for d in range(1, data["depth"] + 1)]
        data["divide"] = divide(m, data["depth"])
        path = PERFT_DIR / f"{name}.json"
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"{name}: {data['counts']}")


if __name__ == "__main__":
    regenerate(sys.argv[1:] or POSITIONS)
