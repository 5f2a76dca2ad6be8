"""relics.csv and events.csv: loaded and validated like cards.csv (R-TOWER-6, R-TOWER-2)."""

from __future__ import annotations

import pytest

from throne_lib.games.throne.cards import CardTableError
from throne_lib.games.throne.tower.events import load_events, parse_events
from throne_lib.games.throne.tower.relics import EFFECTS, load_relics, parse_relics
from throne_lib.games.throne.tower.tables import TowerTableError

RELIC_HEAD = "id,name,rarity,price,effects,enemy,text\n"
EVENT_HEAD = "event,name,text,option,label,effects\n"


def test_repository_tables_load() -> None:
    relics, events = load_relics(), load_events()
    assert len(relics) >= 10 and len(events) >= 6
    # every relic effect of the registry is used by some relic of the table (R-TOWER-6)
    used = {c.name for r in relics.values() for c in r.effects}
    assert used == set(EFFECTS)
    for ev in events.values():
        assert ev.name and ev.text and ev.options
        assert any(o.gold_cost == 0 for o in ev.options)


def test_relic_errors_are_all_collected_with_row_and_column() -> None:
    text = RELIC_HEAD + (
        "ok_one,好,common,10,max_hp(3),yes,\n"
        "Bad,,gold,-3,foo(3); max_hp,maybe,\n"
        "shopper,商人,rare,50,shop_discount(10),yes,\n"
        "ok_one,重复,common,10,opening_shield,no,\n"
    )
    with pytest.raises(TowerTableError) as err:
        parse_relics(text)
    problems = err.value.problems
    assert (
        "relics.csv:3:id: expected an ASCII id like iron_crown (a-z, 0-9, _), got 'Bad'" in problems
    )
    assert "relics.csv:3:name: expected the relic's name, got an empty cell" in problems
    assert any(p.startswith("relics.csv:3:rarity:") for p in problems)
    assert "relics.csv:3:price: expected a whole number ≥ 0, got -3" in problems
    assert any(p.startswith("relics.csv:3:effects: unknown effect 'foo'") for p in problems)
    assert "relics.csv:3:effects: max_hp takes a number: max_hp(N)" in problems
    assert "relics.csv:3:enemy: expected yes or no, got 'maybe'" in problems
    assert any(
        p.startswith("relics.csv:4:enemy: an enemy relic has battle effects only") for p in problems
    )
    assert "relics.csv:5:id: duplicate id 'ok_one' (first on row 2)" in problems
    assert isinstance(err.value, CardTableError)  # reported like the card table
    assert str(err.value).startswith(f"{len(problems)} problem(s) in the relic table:")


def test_relic_table_header_problems() -> None:
    with pytest.raises(TowerTableError, match=r"relics.csv:1:price: missing column"):
        parse_relics("id,name,rarity,effects,enemy,text\n")
    with pytest.raises(TowerTableError, match=r"relics.csv:1:colour: unknown column"):
        parse_relics(RELIC_HEAD.strip() + ",colour\nx,甲,common,1,opening_shield,yes,,red\n")
    with pytest.raises(TowerTableError, match=r"relics.csv:2:-: the table has no rows"):
        parse_relics(RELIC_HEAD)


def test_event_errors_are_all_collected_with_row_and_column() -> None:
    text = EVENT_HEAD + (
        "good,好事,正文,1,拿钱,gold(10)\n"
        "good,,,3,跳号,nothing\n"
        "good,别名,,2,改名,nothing\n"
        "bad,,,1,无名,nothing\n"
        "poor,穷,正文,1,付钱,gold(-10)\n"
        "third,第三,正文,1,,heal(x)\n"
    )
    with pytest.raises(TowerTableError) as err:
        parse_events(text)
    problems = err.value.problems
    assert "events.csv:3:option: expected option 2 of event 'good', got 3" in problems
    assert "events.csv:4:name: differs from the first row of event 'good' (row 2)" in problems
    assert "events.csv:5:name: the first row of event 'bad' needs its name" in problems
    assert "events.csv:5:text: the first row of event 'bad' needs its text" in problems
    assert "events.csv:6:effects: event 'poor' needs an option that costs no gold" in problems
    assert "events.csv:7:label: expected the option's label, got an empty cell" in problems
    assert "events.csv:7:effects: expected NAME or NAME(N), got 'heal(x)'" in problems


def test_event_options_parse() -> None:
    db = parse_events(EVENT_HEAD + "e,名,文,1,买,gold(-30); relic\ne,,,2,走,nothing\n")
    ev = db["e"]
    assert [o.label for o in ev.options] == ["买", "走"]
    assert ev.options[0].gold_cost == 30
    assert [c.text() for c in ev.options[0].effects] == ["gold(-30)", "relic"]
