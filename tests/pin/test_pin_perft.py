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

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from throne_lib.games.pin.cards import PinCardDB, load_pin_cards
from throne_lib.games.pin.decks import starter_decks
from throne_lib.games.pin.match import PinMatch
from throne_lib.games.pin.scenario import load_scenario

PERFT_DIR = Path(__file__).resolve().parent / "perft"
POSITIONS = sorted(p.stem for p in PERFT_DIR.glob("*.json"))


def perft(m: PinMatch, depth: int) -> int:
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


def divide(m: PinMatch, depth: int) -> dict[str, int]:
    out = {}
    for a in m.legal_actions():
        child = m.copy()
        child.apply(a)
        out[a.text()] = 1 if depth == 1 or child.is_over else perft(child, depth - 1)
    return out


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((PERFT_DIR / f"{name}.json").read_text(encoding="utf-8"))
    return data


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
    data = load(name)
    m = position(data, pdb)
    counts = [perft(m, d) for d in range(1, data["depth"] + 1)]
    if counts != data["counts"]:
        now = divide(position(data, pdb), data["depth"])
        moved = {
            a: (data["divide"].get(a), n) for a, n in now.items() if data["divide"].get(a) != n
        }
        gone = sorted(set(data["divide"]) - set(now))
        pytest.fail(f"{name}: counts {data['counts']} -> {counts}; moved {moved}; gone {gone}")


def regenerate(names: list[str]) -> None:
    db = load_pin_cards()
    for name in names or POSITIONS:
        data = load(name)
        m = position(data, db)
        data["counts"] = [perft(m, d) for d in range(1, data["depth"] + 1)]
        data["divide"] = divide(position(data, db), data["depth"])
        path = PERFT_DIR / f"{name}.json"
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(name, data["counts"])


if __name__ == "__main__":
    regenerate(sys.argv[1:])
