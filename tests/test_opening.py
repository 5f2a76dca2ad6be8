"""The opening as legal actions (R-OPEN-1..3, R-TURN-12): the 5-card hand with at
least 2 barracks, up to 3 replacements, then 3 free barracks per side."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from throne_lib import DEFAULT_RULES, IllegalAction, Match, SideSetup
from throne_lib.games.throne.cards import CardDB
from throne_lib.games.throne.decks import signature_deck
from throne_lib.games.throne.scenario import load_scenario

SPELLS = ("scouting", "urgent_orders", "tide", "wholesale", "holy_light")


def deck(barracks: int, others: int = 12) -> tuple[str, ...]:
    """A human deck with ``barracks`` barracks cards and ``others`` spells."""
    camps = ("militia_camp", "archery_range", "human_manor") * 4
    spells = SPELLS * 3
    return camps[:barracks] + spells[:others]


def new(db: CardDB, blue: tuple[str, ...], seed: int, red: tuple[str, ...] = ()) -> Match:
    return Match.new(db, SideSetup("lionheart", blue), SideSetup("beast_king", red), seed)


def n_barracks(db: CardDB, cards: list[str]) -> int:
    return sum(1 for c in cards if db[c].kind == "barracks")


def illegal(m: Match, action: str) -> str:
    before = m.hash()
    with pytest.raises(IllegalAction) as info:
        m.apply(action)
    assert m.hash() == before
    return info.value.rule


def texts(m: Match) -> list[str]:
    return [a.text(m.geo) for a in m.legal_actions()]


# --- R-OPEN-1 the opening hand ---------------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_opening_hand_has_5_cards_and_2_barracks_R_OPEN_1(db: CardDB, seed: int) -> None:
    cards = deck(barracks=2, others=16)  # barracks are rare: the fill is usually needed
    m = new(db, cards, seed, red=cards)
    for side in (0, 1):
        s = m.state.sides[side]
        assert len(s.hand) == 5 and n_barracks(db, s.hand) == 2
        assert Counter(s.hand + s.deck) == Counter(cards)  # swapped, never lost or made
    fills = [e for e in m.setup_events if e.kind == "opening_fill"]
    assert all(db[e.actor].kind == "barracks" and db[e.target].kind != "barracks" for e in fills)


def test_opening_fill_only_when_short_R_OPEN_1(db: CardDB) -> None:
    filled = []
    for seed in range(10):
        m = new(db, deck(barracks=4, others=12), seed)
        drawn = [e.actor for e in m.setup_events if e.kind == "draw" and e.side == 0]
        fills = [e for e in m.setup_events if e.kind == "opening_fill" and e.side == 0]
        assert len(drawn) == 5
        assert len(fills) == max(0, 2 - n_barracks(db, drawn))  # just enough, never more
        filled.append(bool(fills))
    assert True in filled and False in filled  # both cases were seen


@pytest.mark.parametrize(("barracks", "expected"), [(1, 1), (0, 0)])
def test_opening_fill_stops_when_the_deck_has_no_barracks_R_OPEN_1(
    db: CardDB, barracks: int, expected: int
) -> None:
    for seed in range(5):
        m = new(db, deck(barracks=barracks, others=12), seed)
        hand = m.state.sides[0].hand
        assert len(hand) == 5 and n_barracks(db, hand) == expected


# --- R-OPEN-2 replacement ----------------------------------------------------------------


def replace_scenario(db: CardDB, hand: str, deck_cards: str, replaced: int = 0) -> Match:
    return load_scenario(
        f"phase replace\nround 0\nside blue general=lionheart replaced={replaced}\n"
        f"side red general=beast_king\nhand blue {hand}\ndeck blue {deck_cards}\n",
        db,
    )


def test_replace_lists_each_non_barracks_card_and_keep_R_OPEN_2(db: CardDB) -> None:
    m = replace_scenario(db, "militia_camp scouting scouting tide holy_light", "archery_range tide")
    assert sorted(texts(m)) == sorted(
        ["replace scouting", "replace tide", "replace holy_light", "keep"]
    )
    events = m.apply("replace scouting")
    s = m.state.sides[0]
    assert events[-1].kind == "replace" and events[-1].target == "archery_range"
    assert Counter(s.hand) == Counter(
        ["militia_camp", "archery_range", "scouting", "tide"] + ["holy_light"]
    )
    assert Counter(s.deck) == Counter(["tide", "scouting"])
    assert m.phase == "replace" and s.replaced == 1


def test_replace_refuses_barracks_and_a_fourth_card_R_OPEN_2(db: CardDB) -> None:
    deck_cards = "militia_camp archery_range human_manor militia_camp"
    m = replace_scenario(db, "militia_camp scouting tide holy_light urgent_orders", deck_cards)
    assert illegal(m, "replace militia_camp") == "R-OPEN-2"  # already a barracks
    assert illegal(m, "replace shield_wall") == "R-OPEN-2"  # not in the hand
    for card in ("scouting", "tide", "holy_light"):
        m.apply(f"replace {card}")
    assert texts(m) == ["keep"]  # 3 replacements made: only keep is left
    assert illegal(m, "replace urgent_orders") == "R-OPEN-2"
    assert n_barracks(db, m.state.sides[0].hand) == 4


def test_replace_needs_barracks_in_the_deck_R_OPEN_2(db: CardDB) -> None:
    m = replace_scenario(db, "militia_camp scouting tide holy_light urgent_orders", "tide")
    assert texts(m) == ["keep"]
    assert illegal(m, "replace scouting") == "R-OPEN-2"


def test_skip_replacement_and_nothing_else_in_the_opening_R_OPEN_2(db: CardDB) -> None:
    m = replace_scenario(db, "militia_camp scouting tide", "archery_range")
    for action in ("end", "play scouting", "shuffle"):
        assert illegal(m, action) == "R-OPEN-2"
    hand = list(m.state.sides[0].hand)
    events = m.apply("keep")
    assert [e.kind for e in events] == ["keep"] and m.phase == "found"
    assert m.state.sides[0].hand == hand and m.turn == 0


# --- R-OPEN-3 the 3 free barracks -------------------------------------------------------


def found_scenario(db: CardDB, extra: str = "", **side: str) -> Match:
    opts = " ".join(f"{k}={v}" for k, v in side.items())
    return load_scenario(
        "phase found\nround 0\nfirst blue\n"
        f"side blue general=lionheart {opts}\nside red general=beast_king\n" + extra,
        db,
    )


def test_found_offers_the_race_pool_on_empty_cells_of_own_half_R_OPEN_3(db: CardDB) -> None:
    m = found_scenario(db, "unit b2 blue militia\n")
    pool = {c.id for c in db.of("barracks") if c.race == "human"}  # none neutral
    acts = m.legal_actions()
    assert {a.kind for a in acts} == {"found"}
    assert {a.card for a in acts} == pool
    empty = set(m.geo.half(0)) - {m.geo.parse("d1"), m.geo.parse("b2")}
    for card in pool:
        assert {a.target for a in acts if a.card == card} == empty
    for wrong in ("found militia_camp c4", "found wolf_den c2", "found militia_camp b2"):
        assert illegal(m, wrong) == "R-OPEN-3"
    for wrong in ("found windmill_farm c2", "found supply_camp c2"):  # elf camps (R-BARRACKS-12)
        assert illegal(m, wrong) == "R-OPEN-3"
    for wrong in ("keep", "replace scouting"):  # the replacement step is over
        assert illegal(m, wrong) == "R-OPEN-3"
    assert illegal(m, "end") == "R-OPEN-2"  # the opening is not finished


def test_found_builds_3_free_barracks_each_once_R_OPEN_3(db: CardDB) -> None:
    m = found_scenario(db, "hand blue scouting\ndeck blue tide\n")
    s = m.state.sides[0]
    m.apply("found militia_camp a1")
    m.apply("found human_manor g3")  # the race's production camp is in the pool
    assert m.phase == "found" and m.turn == 0
    # at most one production camp among the free barracks (开局兵营可以免费带一座产费营)
    assert illegal(m, "found human_manor c2") == "R-OPEN-3"
    assert illegal(m, "found militia_camp a1") == "R-OPEN-3"  # an occupied cell
    m.apply("found militia_camp c2")  # a military barracks may be founded twice
    for cell, card in (("a1", "militia_camp"), ("g3", "human_manor"), ("c2", "militia_camp")):
        b = m.unit_at(cell)
        assert b is not None and b.card == card and b.level == 1 and b.side == 0
        assert b.hp == b.max_hp == db[card].hp and not b.from_deck  # not deck cards
    assert s.hand == ["scouting"] and s.deck == ["tide"] and s.mana == 0  # free
    assert s.founded == ["militia_camp", "human_manor", "militia_camp"]
    assert m.phase == "replace" and m.turn == 1  # the second side opens now


def test_opening_barracks_count_is_a_rule_parameter_R_OPEN_3(db: CardDB) -> None:
    rules = dataclasses.replace(DEFAULT_RULES, opening_barracks=2)
    m = Match.new(db, signature_deck(db, "human"), signature_deck(db, "beast"), 5, rules)
    for _ in range(2):
        m.apply("keep")
        for _ in range(2):
            m.apply(m.legal_actions()[0])
    assert m.phase == "main" and m.round == 1
    assert sum(1 for u in m.state.units() if u.kind == "barracks") == 4


# --- the whole opening, R-TURN-12 ------------------------------------------------------


def test_full_opening_then_round_1_R_OPEN_3_R_TURN_12(db: CardDB) -> None:
    firsts = set()
    for seed in range(8):
        m = Match.new(db, signature_deck(db, "human"), signature_deck(db, "undead"), seed)
        first = m.turn
        firsts.add(first)
        assert m.phase == "replace" and m.round == 0
        order = []
        while m.phase != "main":
            order.append((m.phase, m.turn))
            acts = m.legal_actions()
            m.apply(acts[-1] if m.phase == "replace" else acts[seed % len(acts)])
        assert order == [
            ("replace", first),
            *[("found", first)] * 3,
            ("replace", 1 - first),
            *[("found", 1 - first)] * 3,
        ]
        assert m.round == 1 and m.turn == first
        for side in (0, 1):
            mine = [u for u in m.state.units(side) if u.kind == "barracks"]
            assert len(mine) == 3
            assert sum(1 for u in mine if m.db[u.card].is_production) <= 1
            assert all(m.geo.side_of_cell(u.cell) == side for u in mine)
            assert len(m.state.sides[side].hand) == 5  # round 1 draws nothing more
        assert m.state.sides[first].mana == m.rules.base_mana
    assert firsts == {0, 1}  # the seed decides who opens and moves first
