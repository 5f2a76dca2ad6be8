"""The card table cards-pin.csv, the starter set and decks (PIN-CARD, -START, -DECK)."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from throne_lib.games.pin.cards import COLUMNS, parse_pin_cards
from throne_lib.games.pin.decks import (
    DeckError,
    PinDeck,
    check_deck,
    parse_deck,
    validate_deck,
)
from throne_lib.games.pin.rules import AIR_TYPES, DAMAGE_TYPES, RARITIES, SIZES, TYPES
from throne_lib.kit.tables import TableError as CardTableError

HEADER = ",".join(COLUMNS)


def test_kinds_fields_and_costs(pdb) -> None:  # type: ignore[no-untyped-def]
    """PIN-CARD-1 / PIN-CARD-2: four kinds; ASCII ids; unit fields; costs 0–24."""
    kinds = Counter(c.kind for c in pdb.values())
    assert set(kinds) == {"单位", "指令", "反制", "总部"}
    t = pdb["anv_tanks"]
    assert (t.cost, t.action_cost, t.attack, t.hp, t.types, t.size, t.range, t.actions) == (
        4,
        2,
        30,
        45,
        ("装甲",),
        "旅",
        1,
        2,
    )
    assert pdb["anv_hq"].rarity == "" and pdb["anv_hq"].hp == 160
    assert all(0 <= c.cost <= 24 for c in pdb.values())


def test_bad_rows_name_file_row_column(pdb) -> None:  # type: ignore[no-untyped-def]
    """PIN-CARD-1 / PIN-CARD-2 / PIN-CARD-3: each problem as file:row:column, all at once."""
    rows = [
        "Bad Id,名,铁砧联邦,单位,普通,步兵,连,1,1,10,20,1,2,普通,,",
        "x_cost,贵,铁砧联邦,单位,普通,步兵,连,25,1,10,20,1,2,普通,,",
        "x_mix,混合,铁砧联邦,单位,普通,步兵/战机,连,1,1,10,20,1,2,普通,,",
        "x_kw,词条,铁砧联邦,单位,普通,步兵,连,1,1,10,20,1,2,普通,armor,",
        "x_eff,效果,铁砧联邦,指令,普通,,,1,,,,,,,,play: damage(5 爆炸)",
        "x_size,编制,铁砧联邦,单位,普通,步兵,军,1,1,10,20,1,2,普通,,",
        "x_dmg,伤害,铁砧联邦,单位,普通,步兵,连,1,1,10,0,1,2,火焰,,",
    ]
    with pytest.raises(CardTableError) as info:
        parse_pin_cards(HEADER + "\n" + "\n".join(rows) + "\n", "mine.csv")
    text = str(info.value)
    for needle in (
        "mine.csv:2:id:",
        "mine.csv:3:cost: expected a whole number 0–24, got 25",
        "mine.csv:4:types: a unit is all ground or all air (PIN-CARD-3)",
        "mine.csv:5:keywords: keyword armor is written armor(N)",
        "mine.csv:6:effects:",
        "mine.csv:7:size:",
        "mine.csv:8:damage:",
        "mine.csv:8:hp:",
    ):
        assert needle in text, needle
    with pytest.raises(CardTableError, match="missing column"):
        parse_pin_cards("id,name\nx,y\n")


def test_starter_nations_and_columns(pdb) -> None:  # type: ignore[no-untyped-def]
    """PIN-START-1 / PIN-START-2: two nations, their HQs; the tabled numbers as data."""
    assert pdb.nations() == ["辉穹圣约", "铁砧联邦"]
    assert pdb["aur_hq"].kw("mshield") == 20 and pdb["anv_hq"].kw("ads") == 1
    assert pdb["aur_lions"].damage == ("激光", "导弹") and pdb["aur_lions"].range == 99


def test_starter_decks_legal_with_tabled_counts(pdb, decks) -> None:  # type: ignore[no-untyped-def]
    """PIN-START-3: HQ + 49; 39/7/3 and 38/7/4; both legal."""
    for name, (units, cmds, counters) in (("anvil", (39, 7, 3)), ("aurora", (38, 7, 4))):
        d = decks[name]
        kinds = Counter(pdb[c].kind for c in d.cards)
        assert (kinds["单位"], kinds["指令"], kinds["反制"]) == (units, cmds, counters)
        assert validate_deck(pdb, d) == []


def test_starter_coverage(pdb, decks) -> None:  # type: ignore[no-untyped-def]
    """PIN-START-4: types, sizes per deck; every damage type, keyword, trigger, rarity."""
    from throne_lib.games.pin.words import COUNTER_TRIGGERS, KEYWORDS

    for d in decks.values():
        cards = [pdb[c] for c in d.cards]
        assert {t for c in cards for t in c.types} == set(TYPES)
        assert {c.size for c in cards if c.kind == "单位"} == set(SIZES)
    allc = list(pdb.values())
    assert {t for c in allc for t in c.damage} | {"直接"} == set(DAMAGE_TYPES)
    assert {k for c in allc for k, _ in c.keywords} >= set(KEYWORDS) - {"missile"}
    assert {c.counter.counter_on for c in allc if c.counter} == set(COUNTER_TRIGGERS)
    assert {c.rarity for c in allc if c.rarity} == set(RARITIES)
    assert any(len(c.types) > 1 for c in allc) and any(len(c.damage) > 1 for c in allc)
    assert any(t in AIR_TYPES for c in allc for t in c.types)
    assert sum(c.derived for c in allc) == 2


def _deck(**kw) -> PinDeck:  # type: ignore[no-untyped-def]
    base = dict(name="t", main="铁砧联邦", hq="anv_hq", cards=())
    base.update(kw)
    return PinDeck(**base)  # type: ignore[arg-type]


def test_deck_size_and_one_hq(pdb, decks) -> None:  # type: ignore[no-untyped-def]
    """PIN-DECK-1: exactly 50 with one HQ card of the main nation."""
    d = decks["anvil"]
    short = dataclasses.replace(d, cards=d.cards[1:])
    assert [p.rule for p in validate_deck(pdb, short)] == ["PIN-DECK-1"]
    wrong_hq = dataclasses.replace(d, hq="aur_hq")
    assert any("main nation" in p.message for p in validate_deck(pdb, wrong_hq))
    two = dataclasses.replace(d, cards=d.cards[1:] + ("aur_hq",))
    assert any("exactly one HQ" in p.message for p in validate_deck(pdb, two))


def test_deck_nations_ally_and_elite(pdb, decks) -> None:  # type: ignore[no-untyped-def]
    """PIN-DECK-2 / PIN-DECK-3: only main and ally cards; ≤ 16 ally cards, no ally 精锐."""
    d = decks["anvil"]
    foreign = dataclasses.replace(d, cards=d.cards[:-1] + ("aur_mend",))
    assert [p.rule for p in validate_deck(pdb, foreign)] == ["PIN-DECK-2"]
    allied = dataclasses.replace(d, ally="辉穹圣约", cards=d.cards[:-1] + ("aur_mend",))
    assert validate_deck(pdb, allied) == []
    many = (
        ("aur_templars",) * 5 + ("aur_pilgrims",) * 5 + ("aur_golems",) * 5 + ("aur_starguns",) * 2
    )
    heavy = dataclasses.replace(d, ally="辉穹圣约", cards=d.cards[:-17] + many)
    assert "PIN-DECK-3" in [p.rule for p in validate_deck(pdb, heavy)]
    elite = dataclasses.replace(d, ally="辉穹圣约", cards=d.cards[:-1] + ("aur_dragons",))
    assert any(p.rule == "PIN-DECK-3" and "精锐" in p.message for p in validate_deck(pdb, elite))


def test_rarity_limits_and_derived(pdb, decks) -> None:  # type: ignore[no-untyped-def]
    """PIN-DECK-4 / PIN-DECK-5: copies by rarity; 衍生 never in a deck."""
    d = decks["anvil"]
    over = dataclasses.replace(d, cards=d.cards[:-2] + ("anv_1starm", "anv_drone"))
    rules = sorted(p.rule for p in validate_deck(pdb, over))
    assert rules == ["PIN-DECK-4", "PIN-DECK-5"]


def test_illegal_deck_lists_every_violation(pdb) -> None:  # type: ignore[no-untyped-def]
    """PIN-DECK-6: refused with every rule listed, never trimmed."""
    bad = _deck(hq="aur_hq", cards=("anv_1starm",) * 3 + ("anv_drone", "nope", "aur_mend"))
    with pytest.raises(DeckError) as info:
        check_deck(pdb, bad)
    rules = {p.rule for p in info.value.problems}  # type: ignore[union-attr]
    assert rules == {"PIN-DECK-1", "PIN-DECK-2", "PIN-DECK-4", "PIN-DECK-5"}
    assert "nope" in str(info.value)


def test_deck_file_syntax_errors() -> None:
    """PIN-DECK-6: a broken deck file names the line."""
    with pytest.raises(DeckError, match="bad.deck:2:"):
        parse_deck("main: 铁砧联邦\nfour anv_militia\nhq: anv_hq\n", "bad.deck")
    d = parse_deck("main: 铁砧联邦\nhq: anv_hq\n2 anv_militia # x\n")
    assert d.cards == ("anv_militia", "anv_militia")
