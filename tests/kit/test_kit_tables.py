"""The kit's table pieces every game's loaders share: one row-id rule
(:func:`throne_lib.kit.csvtable.check_id`) and one read-only table by id
(:class:`throne_lib.kit.tables.RowTable`, which a :class:`CardTable` is)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from throne_lib.games.castle.cards import parse_castle_cards
from throne_lib.games.cities.table import parse_city_table
from throne_lib.games.pin.cards import parse_pin_cards
from throne_lib.games.throne.cards import parse_cards
from throne_lib.games.throne.tower.events import parse_events
from throne_lib.games.throne.tower.relics import parse_relics
from throne_lib.kit.csvtable import check_id, is_id
from throne_lib.kit.tables import CardTable, RowTable, TableError

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("value", ["shield_wall", "a", "anv_hq2", "x_1_y"])
def test_an_id_is_a_lower_case_ascii_word(value: str) -> None:
    assert is_id(value)


@pytest.mark.parametrize("value", ["", "Bad", "2fast", "_x", "a-b", "a b", "ab\n", "é", "ａ"])
def test_anything_else_is_not_an_id(value: str) -> None:
    assert not is_id(value)


def test_check_id_reports_the_column_and_the_games_example() -> None:
    got: list[tuple[str, str]] = []
    assert check_id("ok_id", "id", lambda c, m: got.append((c, m)), "iron_crown")
    assert got == []
    assert not check_id("Bad", "event", lambda c, m: got.append((c, m)), "iron_crown")
    assert got == [("event", "expected an ASCII id like iron_crown (a-z, 0-9, _), got 'Bad'")]


Parse = Callable[[str, str], Any]
LOADERS: list[tuple[str, Parse, str]] = [
    ("cards.csv", parse_cards, "cards.csv:2:id: expected an ASCII id like shield_wall"),
    ("cards-pin.csv", parse_pin_cards, "cards-pin.csv:2:id: expected an ASCII id like anv_tanks"),
    (
        "cards-castle.csv",
        parse_castle_cards,
        "cards-castle.csv:2:id: expected an ASCII id like knight_armor",
    ),
    ("relics.csv", parse_relics, "relics.csv:2:id: expected an ASCII id like iron_crown"),
    ("events.csv", parse_events, "events.csv:2:event: expected an ASCII id like iron_crown"),
    ("cities.csv", parse_city_table, "cities.csv:2:id: expected a lower-case id"),
]


@pytest.mark.parametrize(("name", "parse", "expected"), LOADERS, ids=[n for n, _, _ in LOADERS])
def test_every_games_loader_refuses_a_bad_row_id_by_the_kits_rule(
    name: str, parse: Parse, expected: str
) -> None:
    """The repository's table with its first row's id made ``Bad-Id``: every game's
    loader reports it at FILE:2:COLUMN (one rule of what an id is, the kit's)."""
    header, first, rest = (ROOT / name).read_text(encoding="utf-8").split("\n", 2)
    bad = "\n".join([header, "Bad-Id" + first[first.index(",") :], rest])
    with pytest.raises(TableError) as info:
        parse(bad, name)
    assert any(p.startswith(expected) and "'Bad-Id'" in p for p in info.value.problems)


def test_a_card_table_is_a_row_table_with_its_text_and_file() -> None:
    table: CardTable[int] = CardTable({"a": 1, "b": 2}, "h1", source="id\na\nb\n", path="t.csv")
    assert isinstance(table, RowTable)
    assert dict(table) == {"a": 1, "b": 2} and len(table) == 2 and table["b"] == 2
    assert table.cards is table.rows
    assert (table.hash, table.source, table.path) == ("h1", "id\na\nb\n", "t.csv")
    assert "source" not in repr(table)  # the whole CSV text stays out of reprs
    with pytest.raises(KeyError):
        table["c"]


def test_every_games_card_table_maps_its_cards_by_id() -> None:
    for name, parse, _ in LOADERS[:3]:
        db = parse((ROOT / name).read_text(encoding="utf-8"), name)
        assert isinstance(db, CardTable) and list(db) == list(db.cards)
        assert all(db[cid].id == cid for cid in db)
