"""Perft for any game: the number of legal action sequences from a fixed position,
compared with stored numbers (the regression test of a move generator, as in chess).

A game's perft positions live as JSON files in one folder, each holding what the game
needs to build the position, a ``depth``, the stored ``counts`` for depths 1..depth and a
``divide`` (the leaf count below each first action, by its text), which points at the
action whose subtree changed when a count differs. The game supplies two functions:
``position(data) -> match`` and ``name(match, action) -> text``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from throne_lib.kit.protocol import GameMatch

Position = Callable[[dict[str, Any]], GameMatch]
ActionName = Callable[[GameMatch, Any], str]


def action_text(m: GameMatch, action: Any) -> str:
    """The default name of an action in a divide: its ``text()``."""
    return str(action.text())


def perft(m: GameMatch, depth: int) -> int:
    """Legal action sequences of length ``depth`` (a sequence ends early at a match end).
    The legal actions of every position must be distinct."""
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


def divide(m: GameMatch, depth: int, name: ActionName = action_text) -> dict[str, int]:
    """Leaves below each first action, by the action's name."""
    out = {}
    for a in m.legal_actions():
        child = m.copy()
        child.apply(a)
        out[name(m, a)] = 1 if depth == 1 or child.is_over else perft(child, depth - 1)
    return out


def positions(folder: Path) -> list[str]:
    """The names of the stored positions of ``folder`` (``NAME.json``)."""
    return sorted(p.stem for p in folder.glob("*.json"))


def load(folder: Path, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
    return data


def check(
    data: dict[str, Any], position: Position, name: ActionName = action_text
) -> tuple[list[int], str]:
    """The counts of the stored position ``data`` at every depth, and what differs from
    the stored numbers ("" when nothing does): the counts, then the divide entries that
    moved as (stored, now)."""
    m = position(data)
    counts = [perft(m, d) for d in range(1, data["depth"] + 1)]
    if counts == data["counts"]:
        return counts, ""
    now = divide(position(data), data["depth"], name)
    was = data["divide"]
    changed = {
        k: (was.get(k), now.get(k)) for k in sorted(set(was) | set(now)) if was.get(k) != now.get(k)
    }
    return counts, f"counts {counts} != stored {data['counts']}; divide (stored, now): {changed}"


def regenerate(
    folder: Path, names: list[str], position: Position, name: ActionName = action_text
) -> None:
    """Rewrite the stored counts and divide of ``names`` (every position when empty):
    after a rule or card change made on purpose, committed with that change."""
    for stem in names or positions(folder):
        data = load(folder, stem)
        m = position(data)
        data["counts"] = [perft(m, d) for d in range(1, data["depth"] + 1)]
        data["divide"] = divide(position(data), data["depth"], name)
        path = folder / f"{stem}.json"
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"{stem}: {data['counts']}")
