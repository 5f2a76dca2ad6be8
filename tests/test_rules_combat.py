"""Combat: R-COMBAT-*, R-SIEGE-*, R-FLY-*, R-UNIT-3, R-UNIT-4."""

from __future__ import annotations

from collections.abc import Callable

from throne_lib import Event, IllegalAction, Match
from throne_lib.games.throne.state import Unit

HEAD = """
side blue general=lionheart mana=10
side red general=beast_king mana=10
"""
RED_TURN = "turn red\n" + HEAD

ScenarioFn = Callable[..., Match]  # the conftest 'scenario' fixture
IllegalFn = Callable[..., IllegalAction]  # the conftest 'illegal' fixture


def at(m: Match, cell: str) -> Unit:
    u = m.unit_at(cell)
    assert u is not None, f"no unit on {cell}"
    return u


def kinds(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


# --- R-COMBAT-1, R-COMBAT-2: melee counterattack --------------------------------------


def test_melee_defender_counters_even_when_it_dies_R_COMBAT_1_R_COMBAT_2(
    scenario: ScenarioFn,
) -> None:
    """R-COMBAT-1, R-COMBAT-2: a ground range-1 attack on an enemy unit draws a
    counter equal to the defender's attack, even though the blow kills the defender."""
    m = scenario(HEAD + "unit c4 blue spearman\nunit c5 red wolf")
    events = m.apply("attack c4 c5")
    assert m.unit_at("c5") is None
    assert at(m, "c4").hp == 3 - 2
    counter = [e for e in kinds(events, "damage") if e.note.startswith("反击")]
    assert len(counter) == 1 and counter[0].amount == 2 and counter[0].actor == "wolf"


def test_counter_damage_goes_through_shield_and_armor_R_COMBAT_2(scenario: ScenarioFn) -> None:
    """R-COMBAT-2: the counter is an ordinary damage instance: armor absorbs it, a
    divine shield takes it whole, fortified (固守) reduces it by 1."""
    m = scenario(
        HEAD
        + "unit c4 blue spearman armor=1\nunit c5 red boar\nunit e4 blue knight shield\nunit e5 red boar\n"
        + "unit a4 blue knight fortified\nunit a5 red boar"
    )
    m.apply("attack a4 a5")
    assert at(m, "a4").hp == 4 - (3 - 1)
    m.apply("attack c4 c5")
    assert (at(m, "c4").hp, at(m, "c4").armor) == (3 - 2, 0)  # boar 3: armor 1, HP 2
    m.apply("attack e4 e5")
    knight = at(m, "e4")
    assert (knight.hp, knight.shield) == (4, False)


def test_ranged_attacks_draw_no_counter_R_COMBAT_1(scenario: ScenarioFn) -> None:
    """R-COMBAT-1: an archer (range 2) hitting an adjacent melee unit takes no counter."""
    m = scenario(HEAD + "unit c4 blue bowman\nunit c5 red boar")
    m.apply("attack c4 c5")
    assert at(m, "c4").hp == 1 and at(m, "c5").hp == 4 - 1


def test_flying_attacks_draw_no_counter_R_COMBAT_1_R_FLY_3(scenario: ScenarioFn) -> None:
    """R-COMBAT-1, R-FLY-3: a flying unit's attack draws no counter, and it lands."""
    m = scenario(HEAD + "unit c4 blue wyvern\nunit c5 red boar")
    assert at(m, "c4").airborne
    m.apply("attack c4 c5")
    wyvern = at(m, "c4")
    assert wyvern.hp == 3 and not wyvern.airborne and at(m, "c5").hp == 4 - 2


def test_attacks_on_thrones_barracks_and_allies_draw_no_counter_R_COMBAT_1_R_UNIT_4(
    scenario: ScenarioFn,
) -> None:
    """R-COMBAT-1, R-UNIT-4: a marched throne (attack 10), a barracks given attack 3 and
    an ally all have attack, yet none of them strikes back."""
    m = scenario(
        "round 15\n"
        + HEAD
        + "unit d5 blue spearman\nunit f5 red wolf_den attack=3\nunit f4 blue spearman\n"
        + "unit b3 blue spearman\nunit b4 blue boar"
    )
    assert at(m, "d6").attack == 5 + 5  # marched 百兽之王 (R-THRONE-5)
    m.apply("attack d5 d6")
    m.apply("attack f4 f5")
    m.apply("attack b3 b4")  # friendly fire (R-UNIT-4)
    assert [at(m, c).hp for c in ("d5", "f4", "b3")] == [3, 3, 3]
    assert at(m, "b4").hp == 4 - 2
    assert m.throne_hp(1) == 40 - (2 + 2)


def test_friendly_fire_is_allowed_R_UNIT_4(scenario: ScenarioFn) -> None:
    """R-UNIT-4: an ally is a legal target (and may be killed)."""
    m = scenario(HEAD + "unit c3 blue spearman\nunit c2 blue militia")
    c2 = m.geo.parse("c2")
    assert any(a.kind == "attack" and a.target == c2 for a in m.legal_actions())
    m.apply("attack c3 c2")
    assert m.unit_at("c2") is None and at(m, "c3").hp == 3


# --- R-COMBAT-3, R-COMBAT-4: shield, armor pool, HP ------------------------------------


def test_shield_then_armor_then_hp_R_COMBAT_3(scenario: ScenarioFn) -> None:
    """R-COMBAT-3: the divine shield absorbs a whole instance (armor untouched), then
    armor is used up, then HP."""
    m = scenario(
        HEAD + "unit c5 red boar shield armor=2 hp=4/4\nunit c4 blue knight\nunit b5 blue knight"
    )
    events = m.apply("attack c4 c5")
    boar = at(m, "c5")
    assert (boar.shield, boar.armor, boar.hp) == (False, 2, 4)
    assert kinds(events, "shield_break")
    m.apply("attack b5 c5")  # 3 damage: 2 into armor, 1 into HP
    assert (boar.shield, boar.armor, boar.hp) == (False, 0, 3)


def test_armor_is_a_pool_that_stacks_without_cap_R_COMBAT_4(scenario: ScenarioFn) -> None:
    """R-COMBAT-4: armor adds up (2 + 2 + 2 on 1) and is spent, not a per-hit reduction."""
    m = scenario(
        HEAD + "hand blue hold_the_line hold_the_line hold_the_line\nunit c3 blue militia armor=1"
    )
    for _ in range(3):
        m.apply("play hold_the_line c3")
    assert at(m, "c3").armor == 7
    m2 = scenario(HEAD + "unit c5 red boar armor=2\nunit c4 blue knight\nunit b5 blue knight")
    m2.apply("attack c4 c5")
    assert (at(m2, "c5").armor, at(m2, "c5").hp) == (0, 4 - 1)
    m2.apply("attack b5 c5")  # the pool is empty now: the full 3 goes to HP
    assert m2.unit_at("c5") is None


def test_pierce_does_not_ignore_armor_R_COMBAT_4(scenario: ScenarioFn) -> None:
    """R-COMBAT-4: 戟兵's pierce hits the unit behind, whose armor still absorbs."""
    m = scenario(
        HEAD + "unit c3 blue halberdier\nunit c4 red militia hp=9/9\nunit c5 red boar armor=2"
    )
    events = m.apply("attack c3 c4")
    assert at(m, "c4").hp == 9 - 3
    boar = at(m, "c5")
    assert (boar.armor, boar.hp) == (0, 4 - 1)
    assert any(e.note.startswith("穿刺") for e in kinds(events, "damage"))


# --- R-COMBAT-5: taunt protects its row ------------------------------------------------

TAUNT = HEAD + (
    "hand blue bomb_toss\n"
    "unit a6 red shield_wall hp=1/5\n"  # taunt on row 6: guards the throne and barracks
    "unit f6 red wolf_den\n"
    "unit d5 blue spearman\n"
    "unit f5 blue spearman\n"
    "unit a5 blue militia\n"
    "unit c4 red militia\n"
    "unit c3 blue militia\n"
)


def test_taunt_protects_throne_and_barracks_in_its_row_R_COMBAT_5(
    scenario: ScenarioFn, illegal: IllegalFn
) -> None:
    """R-COMBAT-5: while a taunt unit stands in row 6, the throne and the barracks of
    that row cannot be attacked; a unit in another row can; the taunt itself can."""
    m = scenario(TAUNT)
    illegal(m, "attack d5 d6", rule="R-COMBAT-5")
    illegal(m, "attack f5 f6", rule="R-COMBAT-5")
    m.apply("attack c3 c4")  # row 4 holds no taunt
    m.apply("attack a5 a6")  # the taunt unit is a legal target; it dies
    assert m.unit_at("a6") is None
    m.apply("attack d5 d6")
    m.apply("attack f5 f6")
    assert m.throne_hp(1) == 40 - (2 + 2) and at(m, "f6").hp == 9 - 2


def test_spells_ignore_taunt_R_COMBAT_5(scenario: ScenarioFn) -> None:
    """R-COMBAT-5: a spell may target a unit that taunt shields from attacks."""
    m = scenario(TAUNT)
    d6 = m.geo.parse("d6")
    assert any(a.kind == "play" and a.target == d6 for a in m.legal_actions())
    m.apply("play bomb_toss d6")
    assert m.throne_hp(1) == 40 - 3


# --- R-COMBAT-6: heal caps at max HP, lifesteal overflows ------------------------------


def test_heal_stops_at_max_hp_R_COMBAT_6(scenario: ScenarioFn) -> None:
    """R-COMBAT-6: 圣光术 heals 6 but only up to max HP."""
    m = scenario(HEAD + "hand blue holy_light holy_light\nunit c3 blue spearman hp=1/3")
    events = m.apply("play holy_light c3")
    assert at(m, "c3").hp == 3
    assert [(e.amount, e.note) for e in kinds(events, "heal")] == [(2, "")]
    assert not kinds(m.apply("play holy_light c3"), "heal")  # already full: nothing


def test_regeneration_stops_at_max_hp_R_COMBAT_6(scenario: ScenarioFn) -> None:
    """R-COMBAT-6: regeneration (树人 regen 2) heals at its side's turn start, capped."""
    m = scenario(RED_TURN + "unit c3 blue treant hp=6/7")
    m.apply("end")
    assert at(m, "c3").hp == 7


def test_lifesteal_heals_above_max_with_a_note_R_COMBAT_6(scenario: ScenarioFn) -> None:
    """R-COMBAT-6: 血小鬼 (lifesteal) hitting the throne for 4 heals 4 above its max HP;
    the heal event says 溢出上限; a normal heal then neither adds nor trims."""
    m = scenario(HEAD + "hand blue holy_light\nunit d5 blue blood_imp")
    events = m.apply("attack d5 d6")
    imp = at(m, "d5")
    assert (imp.hp, imp.max_hp) == (2 + 4, 2)
    heal = kinds(events, "heal")
    assert len(heal) == 1 and heal[0].amount == 4 and heal[0].note == "溢出上限"
    m.apply("play holy_light d5")
    assert imp.hp == 6


# --- R-COMBAT-7: fortified -------------------------------------------------------------


def test_fortified_takes_one_less_per_instance_R_COMBAT_7(scenario: ScenarioFn) -> None:
    """R-COMBAT-7: a 炮塔 (fortified goblin building) takes 1 less from each instance."""
    m = scenario(HEAD + "unit c5 red turret\nunit c4 blue spearman\nunit b5 blue militia")
    assert at(m, "c5").fortified
    events = m.apply("attack c4 c5")
    assert at(m, "c5").hp == 6 - 1
    assert any("固守-1" in e.note for e in kinds(events, "damage"))
    m.apply("attack b5 c5")  # 1 - 1 = 0
    assert at(m, "c5").hp == 5


def test_fortified_cannot_move_but_can_attack_R_COMBAT_7(
    scenario: ScenarioFn, illegal: IllegalFn
) -> None:
    """R-COMBAT-7: a fortified unit has no moves (rule named) yet attacks; a turret
    reaches range 3."""
    m = scenario(
        HEAD
        + "unit c3 blue militia fortified\nunit c4 red wolf hp=5/5\nunit f3 blue turret\nunit f6 red wolf"
    )
    illegal(m, "move c3 b3", rule="R-COMBAT-7")
    illegal(m, "move f3 f2", rule="R-COMBAT-7")
    m.apply("attack c3 c4")
    m.apply("attack f3 f6")
    assert m.unit_at("f6") is None


# --- R-COMBAT-8: formation ---------------------------------------------------------


def test_formation_gives_adjacent_allies_armor_at_turn_start_R_COMBAT_8(
    scenario: ScenarioFn,
) -> None:
    """R-COMBAT-8: at its side's turn start 旗手队长 (formation) gives each ally in the
    8 cells around +1 armor; not itself, not enemies, not far allies, not structures."""
    m = scenario(
        "first red\n"
        + RED_TURN
        + "unit c2 blue banner_captain\nunit b3 blue militia\nunit d2 blue militia\n"
        + "unit c4 blue militia\nunit c3 red militia\nunit b1 blue militia_camp"
    )
    m.apply("end")  # red's turn ends; blue's turn starts
    armor = {c: at(m, c).armor for c in ("c2", "b3", "d2", "c4", "c3", "b1", "d1")}
    assert armor == {"c2": 0, "b3": 1, "d2": 1, "c4": 0, "c3": 0, "b1": 0, "d1": 0}
    m.apply("end")  # red's turn start gives blue nothing
    assert at(m, "b3").armor == 1
    m.apply("end")  # blue again: it stacks (R-COMBAT-4)
    assert at(m, "b3").armor == 2


# --- R-SIEGE-* -------------------------------------------------------------------------


def test_every_attack_on_a_throne_deals_two_more_R_SIEGE_1(scenario: ScenarioFn) -> None:
    """R-SIEGE-1: +2 against a throne, by melee and by ranged attackers; not against
    a barracks or a unit."""
    m = scenario(
        HEAD
        + "unit d5 blue militia\nunit d4 blue longbowman\nunit f4 blue militia\nunit f5 red wolf_den"
    )
    m.apply("attack d5 d6")
    assert m.throne_hp(1) == 40 - 3
    m.apply("attack d4 d6")
    assert m.throne_hp(1) == 40 - 3 - 5
    m.apply("attack f4 f5")
    assert at(m, "f5").hp == 9 - 1


def test_siege_behemoth_deals_attack_plus_two_plus_three_R_SIEGE_2(scenario: ScenarioFn) -> None:
    """R-SIEGE-2: 攻城巨兽 (attack 5, Siege 3) hits a throne for 5 + 2 + 3 = 10,
    破城弩 (attack 3, Siege 2, range 2) for 7; against a unit siege adds nothing."""
    m = scenario(
        HEAD
        + "unit d5 blue siege_behemoth\nunit d4 blue siege_ballista\nunit f4 blue siege_behemoth\nunit f5 red militia hp=9/9"
    )
    events = m.apply("attack d5 d6")
    assert m.throne_hp(1) == 40 - 10
    assert kinds(events, "attack")[0].note == "围攻+5"
    m.apply("attack d4 d6")
    assert m.throne_hp(1) == 40 - 10 - 7
    m.apply("attack f4 f5")
    assert at(m, "f5").hp == 9 - 5


def test_spells_and_skills_get_no_siege_bonus_R_SIEGE_3(scenario: ScenarioFn) -> None:
    """R-SIEGE-3: 炸弹投掷 (3 damage) and 齿轮大王's skill (3 damage) hit a throne for 3."""
    m = scenario(HEAD.replace("general=lionheart", "general=tinker_king") + "hand blue bomb_toss")
    m.apply("play bomb_toss d6")
    assert m.throne_hp(1) == 40 - 3
    m.apply("skill d1 d6")
    assert m.throne_hp(1) == 40 - 6


# --- R-UNIT-3: no summoning sickness -------------------------------------------------


def test_summoned_soldiers_and_played_minions_act_at_once_R_UNIT_3(scenario: ScenarioFn) -> None:
    """R-UNIT-3: a soldier fresh from its barracks moves and attacks the same turn;
    so does a minion just played."""
    m = scenario(HEAD + "hand blue shield_wall\nunit c2 blue militia_camp\nunit c5 red wolf hp=1/2")
    m.apply("summon c2 militia c3")
    m.apply("move c3 c4")
    m.apply("attack c4 c5")
    assert m.unit_at("c5") is None
    m.apply("play shield_wall a3")
    m.apply("move a3 a4")
    assert at(m, "a4").card == "shield_wall"


def test_a_picked_captain_acts_at_once_R_UNIT_3(scenario: ScenarioFn) -> None:
    """R-UNIT-3: a captain from a barracks' offer may move and attack on arrival."""
    m = scenario(
        "round 3\n"
        + HEAD
        + "unit f2 blue archery_range offer=guard_captain,banner_captain\nunit f5 red wolf hp=1/2"
    )
    m.apply("captain f2")
    assert m.phase == "captain"
    m.apply("pick banner_captain f3")
    m.apply("move f3 f4")
    m.apply("attack f4 f5")
    assert m.unit_at("f5") is None and at(m, "f4").card == "banner_captain"


# --- R-FLY-* -----------------------------------------------------------------------------


def test_flying_units_take_off_at_their_turn_start_R_FLY_1(scenario: ScenarioFn) -> None:
    """R-FLY-1: a landed flyer takes off at its own side's turn start, not the enemy's."""
    m = scenario(HEAD + "unit c3 blue wyvern airborne=no attacked\nunit e5 red drake airborne=no")
    m.apply("end")  # red's turn starts: the red drake takes off, the blue wyvern does not
    assert at(m, "e5").airborne and not at(m, "c3").airborne
    m.apply("end")
    assert at(m, "c3").airborne


def test_ground_melee_cannot_hit_a_flying_unit_R_FLY_2(
    scenario: ScenarioFn, illegal: IllegalFn
) -> None:
    """R-FLY-2: ground melee may not target an airborne unit; ranged attacks, flying
    melee and spells may."""
    m = scenario(
        HEAD
        + "hand blue bomb_toss\nunit c5 red drake hp=9/9\nunit c4 blue boar\nunit b4 blue bowman\nunit b5 blue wyvern"
    )
    illegal(m, "attack c4 c5", rule="R-FLY-2")
    m.apply("attack b4 c5")
    m.apply("attack b5 c5")
    m.apply("play bomb_toss c5")
    assert at(m, "c5").hp == 9 - 1 - 2 - 3
    assert at(m, "b5").hp == 3  # flying melee draws no counter (R-COMBAT-1)


def test_flying_unit_moves_over_units_R_FLY_2(scenario: ScenarioFn) -> None:
    """R-FLY-2: an airborne 翼龙 (move 2) flies over a unit in its way; landed, the same
    path is blocked (R-UNIT-2)."""
    text = HEAD + "unit a2 blue wyvern{}\nunit a3 red militia\nunit b2 blue militia"
    m = scenario(text.format(""))
    a4 = m.geo.parse("a4")
    assert any(a.kind == "move" and a.target == a4 for a in m.legal_actions())
    m.apply("move a2 a4")
    landed = scenario(text.format(" airborne=no"))
    assert not any(a.kind == "move" and a.target == a4 for a in landed.legal_actions())


def test_flyer_lands_when_it_attacks_and_ground_melee_may_then_hit_it_R_FLY_3(
    scenario: ScenarioFn,
) -> None:
    """R-FLY-3: after attacking, a flyer is on the ground until its next turn start:
    an enemy ground melee unit may attack it in between."""
    m = scenario(HEAD + "unit c4 blue wyvern\nunit c5 red militia hp=5/5\nunit b4 red boar")
    m.apply("attack c4 c5")
    m.apply("end")
    c4 = m.geo.parse("c4")
    assert any(a.kind == "attack" and a.target == c4 for a in m.legal_actions())
    m.apply("attack b4 c4")
    assert m.unit_at("c4") is None  # boar 3 kills the 2/3 wyvern
    assert at(m, "b4").hp == 4 - 2  # and the landed wyvern countered (R-COMBAT-1)


def test_flyer_that_only_moves_stays_airborne_R_FLY_3(
    scenario: ScenarioFn, illegal: IllegalFn
) -> None:
    """R-FLY-3: moving without attacking keeps it flying: ground melee still cannot hit."""
    m = scenario(HEAD + "unit c3 blue wyvern\nunit b4 red boar")
    m.apply("move c3 c4")
    assert at(m, "c4").airborne
    m.apply("end")
    illegal(m, "attack b4 c4", rule="R-FLY-2")
