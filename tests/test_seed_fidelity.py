"""Five places where the engine played differently from the seed (issue 14), each
reproduced from a scenario, and the scenario notation's turn start and mana default.

Rules: R-THRONE-5 (the marched throne is its general; destroy-immunity is no free
cost), R-BARRACKS-12 / R-DECK-3 / R-OPEN-3 (no neutral barracks), R-GOBLIN-3 (Load
reaches goblin buildings), R-RACE-2 (grow counts counterattack kills), R-UNIT-5
(狼崽 is a beast deck minion).
"""

from __future__ import annotations

from collections import Counter

import pytest

from throne_lib import CardDB, IllegalAction, Match, SideSetup
from throne_lib.games.throne.decks import DECKS_DIR, load_deck, validate_deck
from throne_lib.games.throne.scenario import ScenarioError, load_scenario, to_text
from throne_lib.games.throne.state import Unit


def load(db: CardDB, text: str) -> Match:
    return load_scenario(text, db)


def at(m: Match, cell: str) -> Unit:
    u = m.unit_at(cell)
    assert u is not None, f"no unit on {cell}"
    return u


def texts(m: Match, kind: str) -> list[str]:
    return sorted(a.text(m.geo) for a in m.legal_actions() if a.kind == kind)


def refused(m: Match, action: str) -> IllegalAction:
    before = m.hash()
    with pytest.raises(IllegalAction) as info:
        m.apply(action)
    assert m.hash() == before
    return info.value


# --- R-THRONE-5: the marched throne is its general ----------------------------------------


def test_marched_dragon_rider_flies_R_THRONE_5_R_FLY_2(db: CardDB) -> None:
    """R-THRONE-5: at the engine's own start of round 15 the throne of 驭龙者 becomes
    its general: 4+5 attack, move 2+1, range 2, and flying (airborne at once), so a
    ground melee unit beside it cannot hit it (R-FLY-2)."""
    m = load(
        db,
        "round 14\nfirst blue\nturn red\n"
        "side blue general=dragon_rider\nside red general=lionheart\n"
        "unit c1 red militia\n",
    )
    m.apply("end")
    assert (m.round, m.turn, m.state.marched) == (15, 0, True)
    t = at(m, "d1")
    assert (t.attack, t.move, t.range) == (9, 3, 2)
    assert t.flying and t.airborne
    m.apply("end")  # red's turn: its militia stands beside the throne
    assert "attack c1 d1" not in texts(m, "attack")
    assert refused(m, "attack c1 d1").rule == "R-FLY-2"


def test_marched_pain_lord_has_lifesteal_R_THRONE_5(db: CardDB) -> None:
    """R-THRONE-5: 苦痛领主's throne keeps 吸血 after the march: hitting a 棕熊 for
    5+5 heals it 10 (over the cap allowed, R-COMBAT-6) before the counter of 4."""
    m = load(
        db,
        "round 15\nside blue general=pain_lord\nside red general=beast_king\n"
        "unit d1 blue pain_lord throne hp=30/40\nunit d2 red brown_bear\n",
    )
    assert at(m, "d1").lifesteal
    events = m.apply("attack d1 d2")
    assert [e.amount for e in events if e.kind == "heal"] == [10]
    assert m.throne_hp(0) == 30 + 10 - 4


def test_marched_inferno_lord_keeps_siege_R_THRONE_5_R_SIEGE_2(db: CardDB) -> None:
    """R-THRONE-5: 炼狱魔君's throne keeps 围攻2: against a throne it deals
    (6+5) + 2 + 2 (R-SIEGE-1, R-SIEGE-2)."""
    m = load(
        db,
        "round 16\nside blue general=inferno_lord\nside red general=beast_king\n"
        "unit d5 blue inferno_lord throne\n",
    )
    m.apply("attack d5 d6")
    assert m.throne_hp(1) == 40 - (6 + 5 + 2 + 2)


def test_marched_pack_mother_grows_R_THRONE_5_R_RACE_2(db: CardDB) -> None:
    """R-THRONE-5: 「御驾亲征之后王座就是一名将领，可以正常成长」: 狼群之母's throne
    (成长1) grows +1/+1 when it kills."""
    m = load(
        db,
        "round 15\nside blue general=pack_mother\nside red general=lionheart\n"
        "unit d2 red militia\n",
    )
    m.apply("attack d1 d2")
    t = at(m, "d1")
    assert m.unit_at("d2") is None
    assert (t.attack, t.max_hp) == (3 + 5 + 1, 40 + 1)


def test_marched_iron_duke_carries_armor_and_formation_not_reborn_R_THRONE_5(
    db: CardDB,
) -> None:
    """R-THRONE-5: the general card's keywords (钢铁公爵: 列阵, 护甲2) come with the
    march; 白骨女王's 复生 does not, since the throne's fall ends the match at once
    (R-THRONE-1)."""
    m = load(db, "round 15\nside blue general=iron_duke\nside red general=bone_queen\n")
    blue, red = at(m, "d1"), at(m, "d6")
    assert blue.armor == 2 and blue.formation
    assert not red.reborn


# --- R-THRONE-5: destroy-immunity is no free cost ----------------------------------------


@pytest.mark.parametrize(
    ("general", "spell"),
    [
        ("pain_lord", "sacrifice"),
        ("lich_lord", "corpse_explosion"),
        ("tinker_king", "scrap_recycle"),
    ],
)
def test_marched_throne_is_no_target_of_a_destroying_cost_R_THRONE_5(
    db: CardDB, general: str, spell: str
) -> None:
    """R-THRONE-5: 献祭, 尸爆 and 废料回收 destroy an ally as their cost; the marched
    (immune) throne is never their legal target, so they cannot be had for free.
    An ordinary ally still is."""
    m = load(
        db,
        f"round 15\nside blue general={general} mana=5\nside red general=beast_king\n"
        f"hand blue {spell}\nunit e6 red militia\n",
    )
    assert texts(m, "play") == []  # the throne is the only "ally unit": nothing to destroy
    err = refused(m, f"play {spell} d1")
    assert err.rule == "R-THRONE-5"
    assert m.state.sides[0].hand == [spell] and m.state.sides[0].mana == 5
    m = load(
        db,
        f"round 15\nside blue general={general} mana=5\nside red general=beast_king\n"
        f"hand blue {spell}\nunit c2 blue militia\n",
    )
    assert texts(m, "play") == [f"play {spell} c2"]
    m.apply(f"play {spell} c2")
    assert m.unit_at("c2") is None


# --- R-BARRACKS-12 / R-DECK-3 / R-OPEN-3: no neutral barracks ------------------------------


def test_windmill_and_supply_camps_are_elf_production_camps_R_BARRACKS_12(db: CardDB) -> None:
    """R-BARRACKS-12: 风车田庄 and 补给营地 are elf production camps: elf peasants, an
    elf captain pool holding the level-3 worker (R-BARRACKS-9); no barracks is neutral."""
    assert not db.of("barracks", "neutral")
    for cid in ("windmill_farm", "supply_camp"):
        camp = db[cid]
        assert camp.race == "elf" and camp.is_production
        assert {db[s].race for s in camp.tiers} == {"elf"}
        assert camp.tiers[2] in camp.captains


def test_opening_pool_is_the_race_s_own_barracks_R_OPEN_3(db: CardDB) -> None:
    """R-OPEN-3: a human side may not found 风车田庄 or 补给营地; an elf side may."""
    m = Match.new(db, SideSetup.signature(db, "human"), SideSetup.signature(db, "elf"), seed=3)
    human, elf = (set(m.state.sides[i].opening_pool) for i in (0, 1))
    assert human == {c.id for c in db.of("barracks", "human")}
    assert {"windmill_farm", "supply_camp", "elf_farm"} <= elf
    m = load(
        db,
        "phase found\nround 0\nfirst blue\n"
        "side blue general=beast_king\nside red general=elf_queen\n",
    )
    assert not [a for a in m.legal_actions() if a.card in ("windmill_farm", "supply_camp")]
    assert refused(m, "found windmill_farm c2").rule == "R-OPEN-3"


@pytest.mark.parametrize("path", sorted(DECKS_DIR.glob("*.deck")), ids=lambda p: p.stem)
def test_signature_decks_carry_only_their_race_s_barracks_R_DECK_3_R_DECK_7(
    db: CardDB, path: object
) -> None:
    """R-DECK-3, R-DECK-7: each of the 18 signature decks is valid, 30 cards with 8
    minions, and every barracks in it is of its main general's race."""
    setup = load_deck(path)  # type: ignore[arg-type]
    race = db[setup.general].race
    assert validate_deck(db, setup) == []
    assert len(setup.deck) == 30
    assert sum(1 for c in setup.deck if db[c].kind == "minion") == 8
    assert {db[c].race for c in setup.deck if db[c].kind == "barracks"} == {race}


# --- R-GOBLIN-3: Load reaches goblin buildings ----------------------------------------------


def test_magnet_bot_battlecry_loads_a_turret_R_GOBLIN_3(db: CardDB) -> None:
    """R-GOBLIN-3: 磁力机兵's Battlecry: Load on a turret adds a use this turn: the
    turret fires twice (3 + 3 kills a 5/5 犀牛)."""
    m = load(
        db,
        "round 5\nside blue general=tinker_king mana=10\nside red general=beast_king\n"
        "hand blue magnet_bot\nunit c2 blue turret\nunit c5 red rhino\n",
    )
    events = m.apply("play magnet_bot c3")
    assert [e.target for e in events if e.kind == "load"] == ["turret"]
    m.apply("attack c2 c5")
    assert "attack c2 c5" in texts(m, "attack")
    m.apply("attack c2 c5")
    assert m.unit_at("c5") is None


def test_riveter_battlecry_loads_a_repair_station_R_GOBLIN_3(db: CardDB) -> None:
    """R-GOBLIN-3: 铆钉工 picked from a captain offer loads the adjacent barracks and
    repair station; the loaded station heals its neighbours once more."""
    m = load(
        db,
        "round 5\nphase captain\npending b2\n"
        "side blue general=tinker_king mana=10\nside red general=beast_king\n"
        "unit b2 blue goblin_workshop offer=riveter,repairman,clockwork_smith\n"
        "unit c2 blue repair_station\nunit d2 blue goblin_grunt hp=1/2\n",
    )
    events = m.apply("pick riveter b3")
    assert sorted(e.target for e in events if e.kind == "load") == [
        "goblin_workshop",
        "repair_station",
    ]
    assert at(m, "d2").hp == 2 and at(m, "c2").uses == 1


def test_load_aura_loads_adjacent_buildings_at_turn_start_R_GOBLIN_3(db: CardDB) -> None:
    """R-GOBLIN-3: 总工程师's Load aura gives an adjacent turret one more use each turn
    and makes an adjacent repair station heal twice (2 + 2) at the turn start."""
    m = load(
        db,
        "round 5\nfirst blue\nturn red\n"
        "side blue general=tinker_king\nside red general=beast_king\n"
        "unit c2 blue turret attacked\nunit b2 blue chief_engineer\nunit c5 red rhino\n"
        "unit e2 blue repair_station\nunit f3 blue chief_engineer hp=1/6\n",
    )
    m.apply("end")  # blue's turn starts
    assert at(m, "f3").hp == 1 + 2 + 2
    assert at(m, "c2").uses == 1
    m.apply("attack c2 c5")
    m.apply("attack c2 c5")
    assert m.unit_at("c5") is None


# --- R-RACE-2: grow counts counterattack kills; R-UNIT-5: 狼崽 ------------------------------


@pytest.mark.parametrize("grower", ["brown_bear", "rhino", "wolf_king"])
def test_grow_counts_a_kill_by_the_counterattack_R_RACE_2(db: CardDB, grower: str) -> None:
    """R-RACE-2: 狼王, 棕熊, 犀牛 grow with every kill, a kill by their counterattack
    included (R-COMBAT-2: the attacked unit strikes back)."""
    m = load(
        db,
        "round 5\nside blue general=lionheart\nside red general=beast_king\n"
        f"unit c3 blue militia\nunit c4 red {grower}\n",
    )
    card = db[grower]
    m.apply("attack c3 c4")
    assert m.unit_at("c3") is None
    u = at(m, "c4")
    assert (u.attack, u.hp, u.max_hp) == (card.attack + 1, card.hp - 1 + 1, card.hp + 1)


def test_wolf_pup_is_a_beast_deck_minion_and_a_soldier_R_UNIT_5(db: CardDB) -> None:
    """R-UNIT-5: 狼崽 is one of the beasts' 7 deck minions (every race keeps 7); it
    is played from the hand onto its half and goes to the graveyard, and it is still
    the level-1 soldier of 狼穴 (a token then, vanishing on death, R-TURN-11)."""
    pup = db["wolf_pup"]
    assert (pup.kind, pup.race) == ("minion", "beast")
    assert Counter(c.race for c in db.of("minion")) == {
        r: 7 for r in ("human", "goblin", "demon", "undead", "beast", "elf")
    }
    assert db["wolf_den"].tiers[0] == "wolf_pup"
    assert (
        validate_deck(
            db, SideSetup("beast_king", ("wolf_pup", "tide", "scouting", "wholesale") * 3)
        )
        == []
    )
    m = load(
        db,
        "round 5\nside blue general=beast_king\nside red general=lionheart\n"
        "hand blue wolf_pup\nunit a2 blue wolf_den\nunit c4 red knight\n",
    )
    m.apply("play wolf_pup c3")
    m.apply("summon a2 wolf_pup b3")
    assert at(m, "c3").from_deck and not at(m, "b3").from_deck
    m.apply("end")
    m.apply("attack c4 c3")
    assert m.state.sides[0].grave == ["wolf_pup"]


# --- scenarios: the turn start and the mana default -----------------------------------------

BEFORE = """seed 3
round 14
first blue
turn red
side blue general=dragon_rider cooldown=1
side red general=lionheart mana=1
deck blue tide
grave blue scouting holy_light
hand blue savage_bite
unit a1 blue herd_cub
unit b2 blue wyvern airborne=no attacked moved
unit e5 red militia moved
"""


def test_start_line_runs_the_engine_s_own_turn_start(db: CardDB) -> None:
    """A 'start' line starts the side's turn exactly as 'end' does in play: the march
    (R-THRONE-5), take-off (R-FLY-1), mana 5 + peasants (R-TURN-1..3), the throne
    skill's cooldown (R-THRONE-6) and the draw with its reshuffle (R-TURN-4, R-TURN-6)."""
    played = load(db, BEFORE)
    played.apply("end")
    started = load(
        db, BEFORE.replace("round 14", "round 15").replace("turn red", "turn blue") + "start\n"
    )
    assert to_text(started) == to_text(played)
    assert started.hash() == played.hash()
    s = started.state.sides[0]
    assert started.state.marched and at(started, "d1").airborne
    assert at(started, "b2").airborne and not at(started, "b2").moved
    assert s.mana == 5 + 1 and s.skill_cooldown == 0
    assert len(s.hand) == 1 + 3 and not s.grave  # 3 drawn from round 7, the grave reshuffled


def test_match_start_turn_equals_the_start_line_and_is_recorded(db: CardDB) -> None:
    """Match.start_turn() on a loaded position does what a 'start' line does, and
    writes the line into the match's scenario so a log of it replays."""
    text = BEFORE.replace("round 14", "round 15").replace("turn red", "turn blue")
    m = load(db, text)
    m.start_turn()
    started = load(db, text + "start\n")
    assert to_text(m) == to_text(started) and m.hash() == started.hash()
    assert load_scenario(m.scenario, db).hash() == m.hash()
    with pytest.raises(ValueError, match="already started"):
        m.start_turn()
    m2 = load(db, text)
    m2.apply("end")
    with pytest.raises(ValueError, match="loaded position"):
        m2.start_turn()


def test_start_line_errors_name_the_line(db: CardDB) -> None:
    sides = "side blue general=lionheart\nside red general=beast_king\n"
    with pytest.raises(ScenarioError, match="scenario:4: 'start' appears twice"):
        load(db, sides + "start\nstart\n")
    with pytest.raises(ScenarioError, match="scenario:2: 'start' starts a turn of the main"):
        load(db, "phase found\nstart\n" + sides)


def test_omitted_mana_is_the_turn_s_own_R_TURN_1(db: CardDB) -> None:
    """R-TURN-1..3: without mana= a side has its turn's mana, base 5 + peasants (a
    荒原牧人 gives 2), so the side to act can play; in the opening it has none."""
    m = load(
        db,
        "round 3\nside blue general=beast_king\nside red general=lionheart\n"
        "hand blue savage_bite\nunit a1 blue wasteland_herder\nunit c5 red militia\n",
    )
    assert [s.mana for s in m.state.sides] == [5 + 2, 5]
    assert texts(m, "play") == ["play savage_bite c5"]
    assert "mana=7" in to_text(m)
    opening = load(
        db, "phase found\nround 0\nside blue general=beast_king\nside red general=lionheart\n"
    )
    assert [s.mana for s in opening.state.sides] == [0, 0]
