"""The card table cards-castle.csv: the 140-card box and its validation.

CH-DECK-1 CH-DECK-2 CH-DECK-3 CH-DECK-4 CH-DECK-5 CH-HERO-1 CH-SOLDIER-1 CH-SOLDIER-17
CH-EQUIP-2
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pytest

from throne_lib.games.castle import load_castle_cards, parse_castle_cards
from throne_lib.kit.tables import TableError as CardTableError

CARDS = load_castle_cards()
SRC = (Path(__file__).resolve().parents[2] / "cards-castle.csv").read_text(encoding="utf-8")


def by_kind() -> Counter[str]:
    c: Counter[str] = Counter()
    for card in CARDS.values():
        c[card.family if card.family in ("equipment", "magic") else card.kind] += card.count
    return c


def test_box_holds_140_cards_by_kind() -> None:
    """CH-DECK-1: 10 heroes, 10 special soldiers, 20 soldiers, 20 each of 剑/魔/愈,
    20 equipment, 20 magic."""
    k = by_kind()
    assert len(CARDS.box()) == 140
    assert k["hero"] == 10 and k["special_soldier"] == 10 and k["soldier"] == 20
    assert k["equipment"] == 20 and k["magic"] == 20
    assert [CARDS[c].count for c in ("sword", "mana", "heal")] == [20, 20, 20]


def test_soldier_counts_readings() -> None:
    """CH-DECK-2 (special soldiers) and CH-DECK-3 (地精 and 民兵 6 each)."""
    counts = {c.id: c.count for c in CARDS.values() if c.is_soldier}
    assert counts["spearman"] == counts["archer"] == counts["imp"] == 2
    assert counts["burner"] == counts["horned_demon"] == counts["hellhound"] == 1
    assert counts["crusader"] == 1
    assert counts["goblin"] == counts["militia"] == 6
    assert counts["half_orc"] == counts["thrall_rider"] == counts["sergeant"] == 2
    assert counts["knight"] == counts["great_lynx"] == 1


def test_equipment_and_magic_counts() -> None:
    """CH-DECK-4: 14 equipment names, mounts and armours 2 each; CH-DECK-5: 10 magic x2."""
    equip = [c for c in CARDS.values() if c.family == "equipment"]
    assert len(equip) == 14
    for c in equip:
        assert c.count == (2 if c.slot in ("mount", "armour") else 1), c.id
    magic = [c for c in CARDS.values() if c.family == "magic"]
    assert len(magic) == 10 and all(c.count == 2 for c in magic)


def test_equipment_slots_and_weapon_types() -> None:
    """CH-EQUIP-2: slots and weapon kinds come from the kind column."""
    assert CARDS["silver_alloy_greatsword"].weapon_type == "sword"
    assert CARDS["abyss_sword"].weapon_type == "sword"
    assert CARDS["bearhead_waraxe"].weapon_type == "axe" == CARDS["ruin_waraxe"].weapon_type
    assert CARDS["silverfir_longbow"].weapon_type == "bow"
    assert CARDS["poisoned_dagger"].weapon_type == "dagger"
    assert {CARDS[c].slot for c in ("knight_armor", "steel_greatshield")} == {"armour"}
    assert {CARDS[c].slot for c in ("lightning_wand", "missile_ring")} == {"treasure"}
    assert CARDS["silverfir_longbow"].range == math.inf
    assert CARDS["silver_alloy_greatsword"].range == 2


def test_heroes_have_hp_and_two_traits() -> None:
    """CH-HERO-1: name, title, HP and two traits; HPs as printed."""
    heroes = [c for c in CARDS.values() if c.kind == "hero"]
    assert len(heroes) == 10
    for h in heroes:
        assert h.title and h.hp >= 3 and len(h.traits) == 2, h.id
    assert {h.id: h.hp for h in heroes}["tang_na"] == 5
    assert {h.id: h.hp for h in heroes}["di_shi"] == 3


def test_soldiers_have_hp_value_one_trait() -> None:
    """CH-SOLDIER-1: HP, 价值 and one trait; CH-SOLDIER-17 tokens copy 长枪兵/弓箭手/十字军."""
    for c in CARDS.values():
        if c.kind in ("special_soldier", "soldier"):
            assert c.hp >= 1 and c.value >= 1 and len(c.traits) == 1, c.id
    for token, base in (
        ("alchemy_spearman", "spearman"),
        ("alchemy_archer", "archer"),
        ("alchemy_crusader", "crusader"),
    ):
        assert CARDS[token].count == 0
        assert CARDS[token].hp == CARDS[base].hp
        assert CARDS[token].traits == CARDS[base].traits


def _broken(old: str, new: str) -> str:
    assert old in SRC
    return SRC.replace(old, new, 1)


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ("archer,弓箭手,,special_soldier,2,3", "archer,弓箭手,,special_soldier,two,3", ":13:hp:"),
        (
            "imp,小恶魔,,special_soldier,1,2,1,curse",
            "imp,小恶魔,,special_soldier,1,2,1,hex",
            ":14:traits:",
        ),
        (
            "goblin,地精,,soldier,1,1,1,cowardly(0.5),6",
            "goblin,地精,,soldier,1,1,1,cowardly,6",
            ":19:traits:",
        ),
        ("knight,骑士,,soldier,3,5,3", "knight,骑士,,soldier,3,5,far", ":24:range:"),
        ("mana,魔,,basic", "mana,魔,,basics", ":27:kind:"),
        ("heal,愈,,basic,,,,heal(1),20", "heal,愈,,basic,,,,heal(1),21", ":-1:"),
    ],
)
def test_bad_rows_name_file_row_column(old: str, new: str, where: str) -> None:
    """A broken row names file, row and column; nothing is loaded (like cards.csv)."""
    with pytest.raises(CardTableError) as err:
        parse_castle_cards(_broken(old, new))
    msg = str(err.value)
    assert "cards-castle.csv:" in msg
    if where != ":-1:":
        assert where in msg, msg
    else:  # the box total is checked after the rows
        assert "140" in msg and ":count:" in msg


def test_missing_column_and_bad_csv() -> None:
    with pytest.raises(CardTableError, match=r"cards-castle.csv:1:traits: missing column"):
        parse_castle_cards(SRC.replace(",traits,", ",trait,", 1))
    with pytest.raises(CardTableError, match=r"duplicate id 'sword'"):
        parse_castle_cards(SRC + "sword,剑二,,basic,,,,pay,0,x\n")
