"""The throne: R-THRONE-1..5 (victory, siege target, buffs, rounds 1-14, royal march)."""

from __future__ import annotations

from collections.abc import Callable

from throne_lib import CardDB, IllegalAction, Match, SideSetup, parse_cards
from throne_lib.games.throne.state import Unit

HEAD = """
side blue general=lionheart mana=10
side red general=beast_king mana=10
"""

# Spells that destroy enemies outright (the real table only destroys allies).
ASSASSINATE = 'assassinate,暗杀,neutral,spell,1,,,,,,"play: destroy(enemy)",,,test card\n'
DOOM = 'doom,末日,neutral,spell,1,,,,,,"play: destroy(all_enemies)",,,test card\n'

ScenarioFn = Callable[..., Match]  # the conftest 'scenario' fixture
IllegalFn = Callable[..., IllegalAction]  # the conftest 'illegal' fixture


def at(m: Match, cell: str) -> Unit:
    u = m.unit_at(cell)
    assert u is not None, f"no unit on {cell}"
    return u


def with_assassinate(db: CardDB) -> CardDB:
    return parse_cards(db.source.rstrip("\n") + "\n" + ASSASSINATE + DOOM)


# --- R-THRONE-1 -------------------------------------------------------------------------


def test_thrones_have_40_hp_R_THRONE_1(db: CardDB) -> None:
    """R-THRONE-1: a throne has 40 HP and max HP 40."""
    m = Match.new(db, SideSetup.signature(db, "goblin"), SideSetup.signature(db, "elf"), seed=5)
    for side in (0, 1):
        t = m.state.throne(side)
        assert t is not None and (t.hp, t.max_hp) == (40, 40)


def test_a_fallen_throne_ends_the_match_at_once_R_THRONE_1(
    scenario: ScenarioFn, illegal: IllegalFn
) -> None:
    """R-THRONE-1: the blow that takes the throne to 0 ends the match; its side loses;
    nothing is legal afterwards (the refusal names R-THRONE-1)."""
    m = scenario(
        HEAD + "unit d6 red beast_king throne hp=3/40\nunit d5 blue militia\nunit c5 blue militia"
    )
    assert not m.is_over
    events = m.apply("attack d5 d6")
    assert m.is_over and m.winner == 0 and m.end_reason == "throne"
    assert m.phase == "over" and m.unit_at("d6") is None
    assert [e.kind for e in events][-1] == "game_over"
    assert len(m.legal_actions()) == 0
    illegal(m, "end", rule="R-THRONE-1")


def test_a_dead_hero_is_not_defeat_R_THRONE_1(scenario: ScenarioFn) -> None:
    """R-THRONE-1: a vice general (hero) dying is an ordinary death; the match goes on."""
    m = scenario(HEAD + "unit c5 red pain_lord hp=1/12\nunit c4 blue knight")
    m.apply("attack c4 c5")
    assert m.unit_at("c5") is None
    assert not m.is_over and m.winner is None
    assert m.state.sides[1].grave == ["pain_lord"]  # a hero card (R-TURN-11)


# --- R-THRONE-2 -------------------------------------------------------------------------


def test_every_kind_of_unit_may_attack_the_throne_R_THRONE_2(scenario: ScenarioFn) -> None:
    """R-THRONE-2: soldier, captain, minion, hero and an attacking building all reach
    the throne (each with the siege bonus, R-SIEGE-1)."""
    m = scenario(
        HEAD
        + "unit d5 blue militia\nunit c6 blue shield_captain\nunit e6 blue shield_wall\n"
        + "unit d4 blue tinker_king\nunit d3 blue turret"
    )
    d6 = m.geo.parse("d6")
    attackers = {
        m.geo.name(a.cell) for a in m.legal_actions() if a.kind == "attack" and a.target == d6
    }
    assert attackers == {"d5", "c6", "e6", "d4", "d3"}
    for cell in sorted(attackers):
        m.apply(f"attack {cell} d6")
    assert m.throne_hp(1) == 40 - (3 + 3 + 3 + 5 + 5)


def test_spells_and_skills_damage_the_throne_R_THRONE_2(scenario: ScenarioFn) -> None:
    """R-THRONE-2: a damage spell and a hero skill may aim at the throne directly."""
    m = scenario(HEAD.replace("lionheart", "pain_lord") + "hand blue bomb_toss")
    m.apply("play bomb_toss d6")
    m.apply("skill d1 d6")  # 血怒-like skill: 5 damage, paid with 3 HP of the own throne
    assert m.throne_hp(1) == 40 - 3 - 5
    assert m.throne_hp(0) == 40 - 3


# --- R-THRONE-3 -------------------------------------------------------------------------


def test_the_throne_takes_heal_armor_and_max_hp_R_THRONE_3(scenario: ScenarioFn) -> None:
    """R-THRONE-3: heal, armor and a max-HP increase apply to the throne like to a unit;
    its armor then absorbs a siege blow."""
    m = scenario(
        HEAD
        + "hand blue holy_light hold_the_line natures_gift\nunit d1 blue lionheart throne hp=30/40"
    )
    m.apply("play holy_light d1")
    assert m.throne_hp(0) == 36
    m.apply("play natures_gift d1")
    t = at(m, "d1")
    assert (t.hp, t.max_hp) == (39, 43)
    m.apply("play hold_the_line d1")
    assert t.armor == 2


def test_a_marched_throne_takes_shield_and_attack_buffs_R_THRONE_3(scenario: ScenarioFn) -> None:
    """R-THRONE-3: divine shield and an attack buff apply to the (marched) throne."""
    m = scenario(
        "round 15\n" + HEAD.replace("lionheart", "beast_king", 1) + "hand blue divine_shield"
    )
    m.apply("play divine_shield d1")
    m.apply("skill d1 d1")  # 百兽之王: +2/+2 to an allied unit
    t = at(m, "d1")
    assert t.shield and t.attack == 5 + 5 + 2 and (t.hp, t.max_hp) == (42, 42)


# --- R-THRONE-4 -------------------------------------------------------------------------


def test_throne_neither_moves_nor_attacks_before_round_15_R_THRONE_4(
    scenario: ScenarioFn, illegal: IllegalFn
) -> None:
    """R-THRONE-4: in round 14 the throne (even given attack and move) does nothing."""
    m = scenario(
        "round 14\n" + HEAD + "unit d1 blue lionheart throne attack=4 move=1\nunit d2 red wolf"
    )
    d1 = m.geo.parse("d1")
    assert not [a for a in m.legal_actions() if a.cell == d1 and a.kind in ("move", "attack")]
    illegal(m, "attack d1 d2", rule="R-THRONE-4")
    illegal(m, "move d1 c1", rule="R-THRONE-4")


# --- R-THRONE-5 -------------------------------------------------------------------------


def test_royal_march_at_the_start_of_round_15_R_THRONE_5(scenario: ScenarioFn) -> None:
    """R-THRONE-5: when round 15 starts both thrones march: template attack + 5,
    template move + 1, HP kept; then the throne moves and attacks."""
    m = scenario(
        "round 14\nfirst blue\nturn red\n"
        + HEAD
        + "unit d1 blue lionheart throne hp=25/40\nunit c2 red wolf hp=20/20"
    )
    assert not m.state.marched
    events = m.apply("end")
    assert m.round == 15 and m.state.marched
    assert sorted(e.side for e in events if e.kind == "march") == [0, 1]
    blue, red = at(m, "d1"), at(m, "d6")
    assert (blue.attack, blue.move, blue.hp, blue.max_hp) == (4 + 5, 1 + 1, 25, 40)
    assert (red.attack, red.move) == (5 + 5, 2 + 1)
    m.apply("move d1 c1")
    m.apply("attack c1 c2")
    assert at(m, "c2").hp == 20 - 9
    assert blue.hp == 25 - 2  # the wolf counters a marched throne's melee (R-COMBAT-1)


def test_no_march_before_round_15_R_THRONE_5(scenario: ScenarioFn) -> None:
    """R-THRONE-5: the round 13 -> 14 turn change does not march."""
    m = scenario("round 13\nfirst blue\nturn red\n" + HEAD)
    m.apply("end")
    assert m.round == 14 and not m.state.marched and at(m, "d1").attack == 0


def test_marched_throne_is_immune_to_destroy_R_THRONE_5(
    scenario: ScenarioFn, illegal: IllegalFn, db: CardDB
) -> None:
    """R-THRONE-5: a destroy effect kills a unit outright but not the throne: the
    throne is never its legal target, and one that reaches it untargeted (all enemies)
    leaves it standing."""
    cards = with_assassinate(db)
    m = scenario(
        "round 15\n" + HEAD + "hand blue assassinate doom\nunit c5 red brown_bear\n"
        "unit c4 red wolf_pup",
        cards=cards,
    )
    illegal(m, "play assassinate d6", rule="R-THRONE-5")
    m.apply("play assassinate c5")
    assert m.unit_at("c5") is None
    events = m.apply("play doom")
    assert m.unit_at("c4") is None
    assert m.throne_hp(1) == 40 and not m.is_over
    assert [e.kind for e in events if e.kind in ("immune", "destroy")] == ["destroy", "immune"]


def test_all_unit_effects_and_defeat_still_apply_to_a_marched_throne_R_THRONE_5(
    scenario: ScenarioFn,
) -> None:
    """R-THRONE-5: an 'all allies' buff reaches the marched throne, and its fall still
    loses the match (R-THRONE-1)."""
    m = scenario(
        "round 15\n"
        + HEAD.replace("lionheart", "beast_king", 1)
        + "hand blue wild_roar\nunit d6 red beast_king throne hp=2/40\nunit d5 blue militia"
    )
    m.apply("play wild_roar")
    assert at(m, "d1").attack == 5 + 5 + 1
    m.apply("attack d5 d6")
    assert m.is_over and m.winner == 0 and m.end_reason == "throne"
