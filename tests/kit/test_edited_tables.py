"""Every registered game with a card table: a match played on an edited table (the
designer's everyday case: ``throne simulate --cards mine.csv --logs DIR``) writes a log
that replays, every state hash checked, on that table and not on the repository's.

PIN and 城池战 once kept only their rules in the log header: writing the log replayed
the match on the repository's table and stopped at the first action that table did not
allow (``illegal action 'discard mana_rewind' … (CH-TURN-5)``)."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from throne_lib.kit import registry
from throne_lib.kit.agents import RandomAgent
from throne_lib.kit.log import read_log, replay, write_log

ROOT = Path(__file__).resolve().parents[2]


def _edit_column(text: str, column: str, change: Callable[[dict[str, str]], str | None]) -> str:
    """``text`` with ``column`` set to ``change(row)`` where that is not None."""
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows, "an empty table"
    fields = list(rows[0])
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        new = change(row)
        if new is not None:
            row[column] = new
        writer.writerow(row)
    return out.getvalue()


def _plus(
    column: str, n: int, when: Callable[[dict[str, str]], bool] = lambda r: True
) -> Callable[[dict[str, str]], str | None]:
    def change(row: dict[str, str]) -> str | None:
        value = row[column]
        return str(int(value) + n) if value.isdigit() and when(row) else None

    return change


# game -> (its main table's file, an edit that changes play)
EDITS: dict[str, tuple[str, Callable[[str], str]]] = {
    "throne": ("cards.csv", lambda t: _edit_column(t, "attack", _plus("attack", 1))),
    "castle": (
        "cards-castle.csv",
        lambda t: _edit_column(t, "hp", _plus("hp", 2, lambda r: r["kind"] == "hero")),
    ),
    "pin": ("cards-pin.csv", lambda t: _edit_column(t, "hp", _plus("hp", 40))),
    "cities": (
        "cities.csv",
        lambda t: t.replace("draw_extra(1)", "draw_extra(3)").replace("draw(2)", "draw(4)"),
    ),
}


def _games_with_tables() -> list[str]:
    return sorted(g.name for g in registry.games() if g.card_tables)


def test_every_game_with_a_table_has_an_edit_here() -> None:
    """A game registered with a card table must be checked below too."""
    assert set(_games_with_tables()) <= set(EDITS)


def _play(game: str, table: object, seed: int, actions: int) -> Any:
    g = registry.get(game)
    assert g.default_setups is not None
    m = g.new(g.default_setups(g.seats[0]), seed, cards=table)
    agents = [RandomAgent(seed * 10 + k) for k in range(g.seats[0])]
    for _ in range(actions):
        if m.is_over:
            break
        m.apply(agents[m.current_seat].choose(m))
    return m


@pytest.mark.parametrize("game", sorted(EDITS))
def test_a_match_on_an_edited_table_logs_and_replays(game: str, tmp_path: Path) -> None:
    name, edit = EDITS[game]
    original = (ROOT / name).read_text(encoding="utf-8")
    edited = edit(original)
    assert edited != original
    path = tmp_path / name
    path.write_text(edited, encoding="utf-8")
    g = registry.get(game)
    table = g.load_table(path)
    assert table.hash != g.load_table(ROOT / name).hash
    for seed in range(3):
        m = _play(game, table, seed, 300)
        log = read_log(write_log(m, tmp_path / f"{game}-{seed}.jsonl"))
        again = replay(log, check=True)
        assert again.hash() == m.hash()
        assert again.returns() == m.returns()
    # ... and the edit changes play: the same actions on the repository's table are
    # refused somewhere or end elsewhere (the log carried the table, not a coincidence)
    m0 = _play(game, table, 0, 300)
    assert _differs(m0, g.new(g.default_setups(g.seats[0]), 0, cards=g.load_table(ROOT / name)))


def _differs(played: Any, fresh: Any) -> bool:
    """Whether ``played``'s actions, applied to ``fresh``, are refused somewhere or end
    in another position."""
    try:
        for action in list(played.history):
            fresh.apply(action)
    except Exception:  # noqa: BLE001 - any refusal shows the tables differ in play
        return True
    return bool(fresh.hash() != played.hash())
