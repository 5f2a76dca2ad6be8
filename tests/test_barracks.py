"""Barracks on the board: placement, summons, levels, radius, repair, durability,
captains, 加派 and auras (R-BARRACKS-1..11, R-TURN-11).

Positions are written in scenario notation (``throne_lib.games.throne.scenario``); every test
checks both what a rule allows and what it forbids.
"""

from __future__ import annotations

import pytest

from throne_lib import IllegalAction, Match
from throne_lib.games.throne.cards import CardDB, parse_cards
from throne_lib.games.throne.scenario import load_scenario, to_text

HEAD = """
side blue general=lionheart mana={mana}
side red general=beast_king
round {round}
"""
GOBLIN = """
side blue general=tinker_king mana={mana}
side red general=beast_king
round {round}
"""


def scenario(db: CardDB, body: str, mana: int = 10, round: int = 1, head: str = HEAD) -> Match:
    return load_scenario(head.format(mana=mana, round=round) + body, db)


def texts(m: Match, *kinds: str) -> list[str]:
    return sorted(a.text(m.geo) for a in m.legal_actions() if not kinds or a.kind in kinds)


def cells(m: Match, *names: str) -> set[int]:
    return {m.geo.parse(n) for n in names}


def illegal(m: Match, action: str) -> str:
    """The rule ID an illegal action is refused with; the match must not change."""
    before = m.state.hash()  # from scratch: Match.hash() is cached per position
    with pytest.raises(IllegalAction) as info:
        m.apply(action)
    assert m.state.hash() == before
    return info.value.rule


def offer(m: Match, cell: str) -> tuple[str, ...]:
    """The captain offer stored on the barracks at ``cell`` (R-BARRACKS-9)."""
    b = m.unit_at(cell)
    assert b is not None
    return b.offer


def summons_left(m: Match, cell: str) -> int:
    b = m.unit_at(cell)
    assert b is not None
    return m.eng.summons_left(b)


# --- R-BARRACKS-1 placement ----------------------------------------------------------


def test_barracks_card_goes_on_any_empty_cell_of_own_half_R_BARRACKS_1(db: CardDB) -> None:
    m = scenario(db, "hand blue militia_camp\n")
    targets = {a.target for a in m.legal_actions().of_kind("play")}
    own_half = set(m.geo.half(0)) - cells(m, "d1")  # the throne's cell is taken
    assert targets == own_half
    assert cells(m, "a1", "g1", "c3") <= targets  # last row allowed, front row too
    m.apply("play militia_camp a1")
    b = m.unit_at("a1")
    assert b is not None and b.kind == "barracks" and b.level == 1 and b.side == 0
    assert b.from_deck and "militia_camp" not in m.state.sides[0].hand


def test_barracks_card_refused_off_own_half_or_on_a_unit_R_BARRACKS_1(db: CardDB) -> None:
    m = scenario(db, "hand blue militia_camp\nunit b2 blue militia\nunit e4 red wolf\n")
    assert illegal(m, "play militia_camp c4") == "R-BARRACKS-1"  # enemy half
    assert illegal(m, "play militia_camp b2") == "R-BARRACKS-1"  # a soldier stands there
    assert illegal(m, "play militia_camp d1") == "R-BARRACKS-1"  # the throne


# --- R-BARRACKS-2 summons per turn ---------------------------------------------------


def test_summons_per_turn_by_barracks_and_round_10_R_BARRACKS_2(db: CardDB) -> None:
    two = {"民兵营", "精灵农庄", "补给营地"}  # 民兵营, 农庄 and 补给营地
    for card in db.of("barracks"):
        for rnd, bonus in ((1, 0), (9, 0), (10, 1), (30, 1)):
            m = scenario(db, f"unit c2 blue {card.id}\n", round=rnd)
            expected = (2 if card.name in two else 1) + bonus
            assert summons_left(m, "c2") == expected, (card.name, rnd)


def test_militia_camp_summons_twice_then_stops_R_BARRACKS_2(db: CardDB) -> None:
    m = scenario(db, "unit c2 blue militia_camp\nunit f2 blue archery_range\n")
    m.apply("summon c2 militia b2")
    m.apply("summon c2 militia b3")
    assert texts(m, "summon") and all(t.startswith("summon f2") for t in texts(m, "summon"))
    assert illegal(m, "summon c2 militia c3") == "R-BARRACKS-2"
    m.apply("summon f2 bowman f3")  # each barracks counts its own summons
    assert texts(m, "summon") == []
    assert illegal(m, "summon f2 bowman e3") == "R-BARRACKS-2"
    m.apply("end")
    m.apply("end")  # the counts reset at the side's next turn
    assert summons_left(m, "c2") == 2 and summons_left(m, "f2") == 1


def test_round_10_third_summon_R_BARRACKS_2(db: CardDB) -> None:
    m = scenario(db, "unit c2 blue militia_camp used=2\n", round=10)
    assert texts(m, "summon")  # 2 used, the third of round 10 is left
    m.apply("summon c2 militia c3")
    assert texts(m, "summon") == []
    assert illegal(m, "summon c2 militia b3") == "R-BARRACKS-2"


# --- R-BARRACKS-3 levels unlock soldier tiers ----------------------------------------


@pytest.mark.parametrize("level", [1, 2, 3])
def test_level_unlocks_soldier_tiers_R_BARRACKS_3(db: CardDB, level: int) -> None:
    m = scenario(db, f"unit c2 blue militia_camp level={level}\n")
    tiers = db["militia_camp"].tiers
    offered = {a.card for a in m.legal_actions().of_kind("summon")}
    assert offered == set(tiers[:level])
    for locked in tiers[level:]:
        assert illegal(m, f"summon c2 {locked} c3") == "R-BARRACKS-3"
    assert illegal(m, "summon c2 bowman c3") == "R-BARRACKS-3"  # another barracks' soldier


def test_soldier_tiers_cost_1_2_3_and_camps_make_peasants_R_BARRACKS_3(db: CardDB) -> None:
    for card in db.of("barracks"):
        soldiers = [db[s] for s in card.tiers]
        assert [s.cost for s in soldiers] == [1, 2, 3], card.name
        peasants = [s.kw("peasant") for s in soldiers]
        assert peasants == ([1, 2, 3] if card.is_production else [0, 0, 0]), card.name


# --- R-BARRACKS-4 summoning costs mana, never durability ------------------------------


def test_summon_costs_soldier_mana_not_durability_R_BARRACKS_4(db: CardDB) -> None:
    m = scenario(db, "unit c2 blue militia_camp level=3 hp=7/10\n", mana=6)
    m.apply("summon c2 knight c3")
    b = m.unit_at("c2")
    assert b is not None and (b.hp, b.max_hp) == (7, 10)
    assert m.state.sides[0].mana == 6 - db["knight"].cost
    soldier = m.unit_at("c3")
    assert soldier is not None and soldier.card == "knight" and not soldier.from_deck


def test_summon_refused_without_mana_R_BARRACKS_4(db: CardDB) -> None:
    m = scenario(db, "unit c2 blue militia_camp level=3\n", mana=2)
    assert {a.card for a in m.legal_actions().of_kind("summon")} == {"militia", "spearman"}
    assert illegal(m, "summon c2 knight c3") == "R-TURN-1"


# --- R-BARRACKS-5 summon radius -------------------------------------------------------


def test_summons_appear_on_the_8_cells_around_R_BARRACKS_5(db: CardDB) -> None:
    m = scenario(db, "unit f2 blue militia_camp\nunit e3 red wolf\n")
    targets = {a.target for a in m.legal_actions().of_kind("summon")}
    assert targets == cells(m, "e1", "f1", "g1", "e2", "g2", "f3", "g3")  # e3 taken
    assert illegal(m, "summon f2 militia d2") == "R-BARRACKS-5"  # two columns away
    assert illegal(m, "summon f2 militia e3") == "R-BARRACKS-5"  # occupied
    corner = scenario(db, "unit a1 blue militia_camp\n")
    assert {a.target for a in corner.legal_actions().of_kind("summon")} == cells(
        corner, "a2", "b1", "b2"
    )


def test_full_ring_blocks_summons_and_captains_R_BARRACKS_5(db: CardDB) -> None:
    ring = ["e1", "f1", "g1", "e2", "g2", "e3", "f3", "g3"]
    body = "unit f2 blue militia_camp\n" + "".join(
        f"unit {c} {'red' if i % 2 else 'blue'} {'wolf' if i % 2 else 'militia'}\n"
        for i, c in enumerate(ring)
    )
    m = scenario(db, body, round=3)
    assert m.legal_actions().of_kind("summon", "captain") == []
    assert illegal(m, "summon f2 militia e1") == "R-BARRACKS-5"
    assert illegal(m, "captain f2") == "R-BARRACKS-5"
    # one free cell is enough again
    m = scenario(db, body.replace("unit g3 red wolf\n", ""), round=3)
    assert {a.target for a in m.legal_actions().of_kind("summon")} == cells(m, "g3")
    assert texts(m, "captain") == ["captain f2"]


# --- R-BARRACKS-6 repair / upgrade ----------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("hp=3/10 level=1", (8, 14, 2)),  # +5 = 50% of 10
        ("hp=1/9 level=2", (6, 13, 3)),  # +5 = ceil(4.5)
        ("hp=9/10 level=1", (10, 14, 2)),  # capped at the max before it grows
        ("hp=2/10 level=3", (7, 14, 3)),  # level 3 stays 3 but still heals and grows
    ],
)
def test_repair_heals_levels_and_grows_R_BARRACKS_6(
    db: CardDB, before: str, after: tuple[int, int, int]
) -> None:
    m = scenario(db, f"hand blue archery_range\nunit c2 blue militia_camp {before} used=2\n")
    assert "play archery_range c2" in texts(m, "play")  # any barracks card, any friendly barracks
    events = m.apply("play archery_range c2")
    b = m.unit_at("c2")
    assert b is not None and b.card == "militia_camp"
    assert (b.hp, b.max_hp, b.level) == after
    assert b.summons_used == 0 and summons_left(m, "c2") == 2  # summon count reset
    s = m.state.sides[0]
    assert s.grave == ["archery_range"] and s.hand == []  # the card goes to the graveyard
    assert s.mana == 10 - db["archery_range"].cost
    assert [e.kind for e in events] == ["play", "repair"]
    assert events[1].note == f"Lv{after[2]}"


def test_repair_only_onto_friendly_barracks_R_BARRACKS_6(db: CardDB) -> None:
    body = "hand blue militia_camp shield_wall\nunit c2 blue militia_camp\nunit c4 red wolf_den\n"
    m = scenario(db, body)
    assert illegal(m, "play militia_camp c4") == "R-BARRACKS-1"  # an enemy barracks
    assert illegal(m, "play shield_wall c2") == "R-UNIT-5"  # only barracks cards repair


# --- R-BARRACKS-7 durability, destruction, no moving --------------------------------


def test_durability_only_drops_when_attacked_R_BARRACKS_7(db: CardDB) -> None:
    body = "unit c2 blue militia_camp hp=6/10\nunit c3 red boar\n"
    m = scenario(db, body)
    m.apply("summon c2 militia b3")
    m.apply("end")  # red's turn: turn flow never touches durability
    b = m.unit_at("c2")
    assert b is not None and b.hp == 6
    m.apply("attack c3 c2")
    assert b.hp == 6 - db["boar"].attack


def test_destroyed_barracks_skips_the_graveyard_R_BARRACKS_7_R_TURN_11(db: CardDB) -> None:
    body = "turn red\nunit c2 blue militia_camp hp=2/10\n"  # played from the hand
    body += "unit f2 blue archery_range hp=2/9 from_deck=no\n"  # founded in the opening
    body += "unit c3 red boar\nunit f3 red boar\n"
    m = scenario(db, body)
    m.apply("attack c3 c2")
    m.apply("attack f3 f2")  # a founded barracks (not a deck card)
    assert m.unit_at("c2") is None and m.unit_at("f2") is None
    blue = m.state.sides[0]
    assert blue.grave == [] and blue.removed == ["militia_camp"]


def test_barracks_do_not_move_or_attack_R_BARRACKS_7(db: CardDB) -> None:
    m = scenario(db, "unit c2 blue militia_camp\nunit c3 red wolf\n")
    assert m.legal_actions().of_kind("move", "attack") == []
    assert illegal(m, "move c2 b2") == "R-BARRACKS-7"
    assert illegal(m, "attack c2 c3") == "R-UNIT-1"


# --- R-BARRACKS-8 no fortified reduction ---------------------------------------------


def test_barracks_take_full_damage_and_never_counter_R_BARRACKS_8(db: CardDB) -> None:
    for card in db.of("barracks"):
        m = scenario(db, f"turn red\nunit c2 blue {card.id}\nunit c3 red boar\n")
        b = m.unit_at("c2")
        assert b is not None and not b.fortified, card.name
        events = m.apply("attack c3 c2")
        assert b.hp == card.hp - db["boar"].attack, card.name  # no 固守 -1
        assert not any("固守" in e.note or "反击" in e.note for e in events)
    # a fortified unit does get the reduction (the contrast R-BARRACKS-8 removes)
    m = scenario(db, "turn red\nunit c2 blue shield_wall fortified\nunit c3 red boar\n")
    m.apply("attack c3 c2")
    wall = m.unit_at("c2")
    assert wall is not None and wall.hp == db["shield_wall"].hp - (db["boar"].attack - 1)


# --- R-BARRACKS-9 captains ------------------------------------------------------------


def test_no_captains_before_round_3_R_BARRACKS_9(db: CardDB) -> None:
    m = scenario(db, "unit c2 blue militia_camp\n", round=2)
    assert texts(m, "captain") == []
    assert illegal(m, "captain c2") == "R-BARRACKS-9"


def test_captain_offer_is_a_pending_choice_R_BARRACKS_9(db: CardDB) -> None:
    m = scenario(db, "unit c2 blue militia_camp\n", round=3, mana=10)
    events = m.apply("captain c2")
    b = m.unit_at("c2")
    assert b is not None and m.phase == "captain"
    offer = b.offer
    assert 1 <= len(offer) <= 3 and len(set(offer)) == len(offer)
    assert set(offer) <= set(db["militia_camp"].captains)
    assert all(db[c].cost <= 2 for c in offer)  # small captains only before round 7
    assert events[-1].kind == "captain_offer" and events[-1].note.split() == list(offer)
    free = [c for c in m.geo.around[b.cell] if m.state.board[c] is None]
    expected = {f"pick {c} {m.geo.name(x)}" for c in offer for x in free} | {"cancel"}
    assert set(texts(m)) == expected  # exactly the picks and a cancel
    assert "pending c2" in to_text(m)
    for other in ("end", "summon c2 militia c3", "captain c2"):
        assert illegal(m, other) == "R-BARRACKS-9"
    assert illegal(m, "pick paladin_captain c3") == "R-BARRACKS-9"  # not offered
    assert illegal(m, f"pick {offer[0]} e5") == "R-BARRACKS-9"  # outside the ring


def test_pick_summons_the_captain_and_uses_a_summon_R_BARRACKS_9(db: CardDB) -> None:
    m = scenario(db, "unit c2 blue militia_camp used=1\n", round=3, mana=10)
    m.apply("captain c2")
    cap = offer(m, "c2")[0]
    m.apply(f"pick {cap} c3")
    u = m.unit_at("c3")
    assert u is not None and u.card == cap and u.kind == "captain" and not u.from_deck
    assert m.phase == "main" and m.state.pending == -1
    assert m.state.sides[0].mana == 10 - db[cap].cost
    assert summons_left(m, "c2") == 0 and texts(m, "summon", "captain") == []


def test_cancel_and_reopen_shows_the_same_offer_R_BARRACKS_9(db: CardDB) -> None:
    m = scenario(db, "unit c2 blue militia_camp\n", round=3)
    first = m.apply("captain c2")[-1].note
    m.apply("cancel")
    assert m.phase == "main" and summons_left(m, "c2") == 2  # cancel costs nothing
    rng_state = m.state.rng.getstate()
    assert m.apply("captain c2")[-1].note == first
    assert m.state.rng.getstate() == rng_state  # no re-roll
    m.apply("cancel")
    m.apply("end")
    m.apply("end")  # next own turn: a new offer may be drawn
    assert offer(m, "c2") == ()


def test_captain_offer_comes_from_the_match_seed_R_BARRACKS_9(db: CardDB) -> None:
    offers = []
    for seed in range(12):
        text = f"seed {seed}\n" + HEAD.format(mana=10, round=7) + "unit c2 blue militia_camp\n"
        a, b = load_scenario(text, db), load_scenario(text, db)
        assert a.apply("captain c2") == b.apply("captain c2")  # same seed, same offer
        offers.append(offer(a, "c2"))
    assert len(set(offers)) > 1  # and the seed does decide it


def test_big_captains_join_from_round_7_R_BARRACKS_9(db: CardDB) -> None:
    def costs(rnd: int) -> set[int]:
        seen: set[int] = set()
        for seed in range(20):
            text = (
                f"seed {seed}\n" + HEAD.format(mana=10, round=rnd) + "unit c2 blue militia_camp\n"
            )
            m = load_scenario(text, db)
            m.apply("captain c2")
            seen |= {db[c].cost for c in offer(m, "c2")}
        return seen

    assert 3 not in costs(3) and 3 not in costs(6)
    assert 3 in costs(7)


def test_only_affordable_captains_can_be_picked_R_BARRACKS_9(db: CardDB) -> None:
    m = scenario(db, "unit c2 blue militia_camp offer=shield_captain,banner_captain\n", 1, 3)
    assert texts(m, "captain") == ["captain c2"]
    m.apply("captain c2")
    assert {a.card for a in m.legal_actions().of_kind("pick")} == {"shield_captain"}
    assert illegal(m, "pick banner_captain c3") == "R-BARRACKS-9"
    m = scenario(db, "unit c2 blue militia_camp offer=banner_captain,pike_captain\n", 1, 3)
    assert texts(m, "captain") == []  # nothing offered is affordable


def test_production_camp_pool_holds_the_level_3_worker_R_BARRACKS_9(db: CardDB) -> None:
    camps = [c for c in db.of("barracks") if c.is_production and c.race != "neutral"]
    assert {c.race for c in camps} == {"human", "goblin", "demon", "undead", "beast", "elf"}
    for camp in camps:
        worker = db[camp.tiers[2]]
        assert worker.id in camp.captains and worker.kw("peasant") == 3, camp.name
    for barracks in db.of("barracks"):  # every pool is the barracks' own race
        assert all(db[c].race == barracks.race for c in barracks.captains), barracks.name


def test_worker_is_offered_and_picked_as_a_peasant_from_round_7_R_BARRACKS_9(
    db: CardDB,
) -> None:
    m = scenario(db, "unit c2 blue human_manor offer=steward,shield_captain\n", round=7)
    m.apply("captain c2")
    m.apply("pick steward c3")
    u = m.unit_at("c3")
    assert u is not None and u.card == "steward" and u.peasant == 3
    early = scenario(db, "unit c2 blue human_manor\n", round=6)
    early.apply("captain c2")
    assert "steward" not in offer(early, "c2")


# --- R-BARRACKS-10 Loaded and 加派 ----------------------------------------------------


def test_unloaded_barracks_offers_no_extra_summon_R_BARRACKS_10(db: CardDB) -> None:
    m = scenario(db, "unit c2 blue militia_camp used=2\n")
    assert texts(m, "extra") == []
    assert illegal(m, "extra c2") == "R-BARRACKS-10"


def test_loaded_barracks_buys_one_more_summon_for_2_mana_R_BARRACKS_10(db: CardDB) -> None:
    m = scenario(db, "unit c2 blue militia_camp used=2 loaded\n", mana=5)
    assert texts(m, "extra") == ["extra c2"]
    events = m.apply("extra c2")
    assert events[-1].kind == "extra_summon" and events[-1].amount == 2
    assert m.state.sides[0].mana == 3 and summons_left(m, "c2") == 1
    assert texts(m, "extra") == []  # summons left: nothing to buy
    assert illegal(m, "extra c2") == "R-BARRACKS-10"
    m.apply("summon c2 militia c3")
    assert texts(m, "extra") == ["extra c2"]
    m.apply("end")
    m.apply("end")
    b = m.unit_at("c2")
    assert b is not None and not b.loaded  # Loaded lasts for the turn


def test_extra_summon_needs_2_mana_R_BARRACKS_10(db: CardDB) -> None:
    m = scenario(db, "unit c2 blue militia_camp used=2 loaded\n", mana=1)
    assert texts(m, "extra") == []
    assert illegal(m, "extra c2") == "R-TURN-1"


def test_load_aura_loads_adjacent_friendly_barracks_R_BARRACKS_10(db: CardDB) -> None:
    base = "unit c2 blue goblin_workshop used=1\n"
    near = scenario(db, base + "unit c3 blue chief_engineer\n", head=GOBLIN)
    assert texts(near, "extra") == ["extra c2"]
    far = scenario(db, base + "unit c4 blue chief_engineer\n", head=GOBLIN)
    enemy = scenario(db, base + "unit c3 red chief_engineer\n", head=GOBLIN)
    assert texts(far, "extra") == [] and texts(enemy, "extra") == []


def test_battlecry_load_from_captain_and_minion_R_BARRACKS_10(db: CardDB) -> None:
    m = scenario(db, "unit c2 blue goblin_workshop offer=riveter\n", round=3, head=GOBLIN)
    m.apply("captain c2")
    events = m.apply("pick riveter c3")
    assert any(e.kind == "load" and e.target_cell == m.geo.parse("c2") for e in events)
    assert summons_left(m, "c2") == 0 and texts(m, "extra") == ["extra c2"]
    m = scenario(db, "hand blue magnet_bot\nunit c2 blue goblin_workshop used=1\n", head=GOBLIN)
    assert texts(m, "extra") == []
    m.apply("play magnet_bot c3")
    assert texts(m, "extra") == ["extra c2"]


def test_battlecry_reload_resets_the_summon_count_R_BARRACKS_10(db: CardDB) -> None:
    m = scenario(db, "unit c2 blue goblin_workshop offer=repairman\n", round=3, head=GOBLIN)
    m.apply("captain c2")
    events = m.apply("pick repairman c3")
    assert any(e.kind == "load" and e.note == "重新装载" for e in events)
    b = m.unit_at("c2")
    assert b is not None and b.loaded and b.summons_used == 0 and summons_left(m, "c2") == 1
    assert texts(m, "summon")


# --- R-BARRACKS-11 工兵队长 aura ------------------------------------------------------


def test_sapper_captain_aura_gives_adjacent_barracks_a_summon_R_BARRACKS_11(db: CardDB) -> None:
    assert db.by_name("工兵队长").kw("aura_summon") == 1
    body = "unit c2 blue goblin_workshop\nunit f2 blue goblin_workshop\n"
    m = scenario(db, body + "unit c3 blue sapper_captain\n", head=GOBLIN)
    assert summons_left(m, "c2") == 2 and summons_left(m, "f2") == 1  # f2 is not adjacent
    m.apply("summon c2 goblin_grunt b2")
    m.apply("summon c2 goblin_grunt b3")
    assert illegal(m, "summon c2 goblin_grunt b1") == "R-BARRACKS-2"
    enemy = scenario(db, body + "unit c3 red sapper_captain\n", head=GOBLIN)
    assert summons_left(enemy, "c2") == 1  # an enemy's aura does not help


def test_barracks_without_a_captain_pool_offers_none_R_BARRACKS_9(db: CardDB) -> None:
    # every barracks of the real table has a pool: a variant table adds one without
    row = "bare_camp,无名营,human,barracks,3,0,9,,,,,militia spearman knight,,test card\n"
    variant = parse_cards(db.source.rstrip("\n") + "\n" + row)
    poolless = [c.id for c in variant.of("barracks") if not c.captains]
    assert poolless == ["bare_camp"]
    for camp in poolless:
        m = scenario(variant, f"unit c2 blue {camp}\n", round=7)
        assert texts(m, "captain") == []
        assert illegal(m, "captain c2") == "R-BARRACKS-9"


def test_captain_pools_offer_small_captains_from_round_3_R_BARRACKS_9(db: CardDB) -> None:
    for b in db.of("barracks"):
        costs = [db[c].cost for c in b.captains]
        assert all(1 <= c <= 3 for c in costs), b.name  # small 1-2, big 3: all offerable
        if costs:
            assert min(costs) <= 2, b.name  # something to offer from round 3
