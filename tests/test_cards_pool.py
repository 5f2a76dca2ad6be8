"""The shape of the card pool (CONTENT.md), the signature decks, the generated
card reference, and 18 × 18 random-agent matches of the signature decks.

Rule IDs: R-RACE-1, R-RACE-2, R-HERO-1, R-HERO-3, R-UNIT-5, R-DECK-7,
R-BARRACKS-2, R-BARRACKS-3, R-BARRACKS-9, R-BARRACKS-12, R-GOBLIN-2, R-TURN-8.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from throne_lib import CardDB, Match, load_cards
from throne_lib.games.throne import decks as decks_mod
from throne_lib.games.throne.carddoc import (
    CARDS_MD,
    EFFECT_ZH,
    EFFECTS_MD,
    KEYWORD_ZH,
    PLACE_ZH,
    WHO_ZH,
    cards_markdown,
    effects_markdown,
    pool_report,
    text_problems,
)
from throne_lib.games.throne.decks import DECKS_DIR, load_deck, signature_deck, validate_deck
from throne_lib.games.throne.effects import DOCS, SPECS
from throne_lib.games.throne.lang import (
    AUTO_PLACE,
    AUTO_WHO,
    CHOSEN_PLACE,
    CHOSEN_WHO,
    KEYWORD_DOCS,
    KEYWORDS,
)
from throne_lib.games.throne.state import Unit
from throne_lib.kit.agents import RandomAgent, play_match

ScenarioFn = Callable[..., Match]


def at(m: Match, name: str) -> Unit:
    """The unit on a named cell (asserted present)."""
    u = m.state.board[m.geo.parse(name)]
    assert u is not None, f"no unit on {name}"
    return u


def throne_of(m: Match, side: int) -> Unit:
    t = m.state.throne(side)
    assert t is not None
    return t


IllegalFn = Callable[..., object]
DB = load_cards()
RACES = ("human", "goblin", "demon", "undead", "beast", "elf")
GENERALS = [g.id for g in DB.of("general")]


# --- the pool per race (R-RACE-1, R-HERO-3, R-UNIT-5) ---------------------------------


@pytest.mark.parametrize("race", RACES)
def test_race_has_the_full_pool_R_RACE_1(race: str) -> None:
    """R-RACE-1, R-HERO-3, R-UNIT-5: 3 generals, ≥3 barracks with a camp (the elves
    three, R-BARRACKS-12), exactly 7 minions of cost 1-6, ≥10 spells, ≥8 captains."""
    assert len(DB.of("general", race)) == 3
    barracks = DB.of("barracks", race)
    assert len(barracks) >= 3
    assert sum(1 for b in barracks if b.is_production) == (3 if race == "elf" else 1)
    minions = DB.of("minion", race)
    assert len(minions) == 7
    assert all(1 <= m.cost <= 6 for m in minions)
    assert {m.cost for m in minions} >= {1, 6}
    assert len(DB.of("spell", race)) >= 10
    captains = DB.of("captain", race)
    assert len(captains) >= 8
    assert all(1 <= c.cost <= 3 for c in captains)
    assert {c.cost for c in captains} >= {1, 2, 3}


def test_pool_report_and_cli_json_R_HERO_3() -> None:
    """``throne cards check --json`` reports the pool: 6 races, 18 valid signature decks."""
    report = pool_report(DB)
    assert report["ok"], report
    assert set(report["races"]) == set(RACES)
    assert len(report["signature_decks"]) == 18
    assert all(d["valid"] and d["cards"] == 30 for d in report["signature_decks"].values())


@pytest.mark.parametrize("gid", GENERALS)
def test_general_stats_and_skill_R_HERO_1(gid: str) -> None:
    """R-HERO-1, R-HERO-3: recruited for 5-6 mana; a skill with a cost (mana and/or HP)."""
    g = DB[gid]
    assert g.cost in (5, 6) and g.hp >= 10 and g.attack >= 1 and g.move >= 1
    skill = g.skill
    assert skill is not None and (skill.mana > 0 or skill.hp > 0)
    assert skill.mana + 1 <= 5  # castable from the throne on base mana (R-THRONE-6)


def test_demon_self_damage_skills_R_THRONE_6() -> None:
    """血怒, 痛苦共享, 炼狱 are the demons' skills and pay HP."""
    demons = DB.of("general", "demon")
    for name in ("血怒", "痛苦共享", "炼狱"):
        owner = [g for g in demons if f"「{name}」" in g.text]
        assert len(owner) == 1 and owner[0].skill is not None and owner[0].skill.hp > 0


@pytest.mark.parametrize("bid", [b.id for b in DB.of("barracks")])
def test_barracks_tiers_and_pool_R_BARRACKS_9(bid: str) -> None:
    """R-BARRACKS-3: tiers cost 1/2/3; R-BARRACKS-9: a racial pool offers ≥4 captains of
    its race, a camp's pool holds its level-3 worker; R-BARRACKS-12: camp soldiers are
    peasants of level 1/2/3."""
    b = DB[bid]
    tiers = [DB[t] for t in b.tiers]
    assert [t.cost for t in tiers] == [1, 2, 3]
    assert 7 <= b.hp <= 12
    if b.is_production:
        assert [t.kw("peasant") for t in tiers] == [1, 2, 3]
    if b.race == "neutral":
        assert b.is_production
        return
    caps = [DB[c] for c in b.captains if DB[c].kind == "captain"]
    assert len(caps) >= 4 and all(c.race == b.race for c in caps)
    if b.is_production:
        assert b.tiers[2] in b.captains


def test_summons_per_turn_R_BARRACKS_2() -> None:
    """R-BARRACKS-2: 民兵营, 农庄 and 补给营地 summon twice a turn."""
    two = {b.name for b in DB.of("barracks") if b.kw("summons") == 2}
    assert two == {"民兵营", "精灵农庄", "补给营地"}


def test_camps_named_by_the_seed_R_BARRACKS_12() -> None:
    """R-BARRACKS-12: each race's production camp with the seed's peasants."""
    camps = {
        "人族庄园": "佃农 农户 庄园管家",
        "地精锅炉房": "拾荒工 锅炉工 工段长",
        "魔族苦痛矿场": "苦工 灵魂收集者 血税官",
        "死灵尸池": "尸仆 骨匠 冥灯侍",
        "兽族荒原牧场": "牧崽 荒原牧人 兽栏管事",
    }
    for camp, workers in camps.items():
        card = DB.by_name(camp)
        assert card.is_production and " ".join(DB[t].name for t in card.tiers) == workers
    for name in ("精灵农庄", "风车田庄", "补给营地"):
        assert DB.by_name(name).is_production


def test_named_cards_do_what_content_md_says_R_RACE_2() -> None:
    """CONTENT.md's table of names (R-RACE-2, R-GOBLIN-2, R-SIEGE-2, R-TURN-8/9)."""
    n = DB.by_name
    assert n("盾墙兵").kw("taunt") and n("戟兵").kw("pierce")
    assert n("圣殿卫士").kind == "token"
    assert n("破城弩").kw("siege") == 2 and n("攻城巨兽").kw("siege") == 3
    assert n("旗手队长").kw("formation")  # 列阵, R-COMBAT-8
    for name in ("发条匠", "铆钉工", "修理工", "工兵队长", "总工程师"):
        assert n(name).kw("artisan"), name
    calls = {c.name: [x.name for cl in c.effects for x in cl.calls] for c in DB.values()}
    assert calls["铆钉工"] == ["load"] and calls["磁力机兵"] == ["load"]
    assert calls["修理工"] == ["reload"]
    assert n("工兵队长").kw("aura_summon") == 1 and n("总工程师").kw("aura_load")
    stats = {
        b: (n(b).cost, n(b).attack, n(b).hp, n(b).range) for b in ("炮塔", "维修站", "钢铁高达")
    }
    assert stats == {"炮塔": (3, 3, 6, 3), "维修站": (2, 0, 5, 1), "钢铁高达": (5, 6, 12, 2)}
    assert n("维修站").kw("heal_aura") == 2
    assert all(b.kw("fortified") for b in DB.of("building"))  # R-GOBLIN-1
    kinds = {b.id: [c.trigger for c in b.effects] for b in DB.of("building")}
    assert any("turn_start" in t for t in kinds.values())  # a summon building (机器人工厂)
    assert n("复生骑士").kw("reborn")
    for name in ("狼王", "棕熊", "犀牛"):
        assert n(name).kw("grow") >= 1, name
    for name in ("飞龙", "翼龙", "远古巨龙"):
        assert n(name).kw("flying"), name
    for name in ("狼崽", "狼", "野猪"):
        assert n(name).cost <= 3, name
    assert n("军令急递").draw_only and n("战场侦察").draw_only
    assert calls["潮汐"] == ["draw", "mana"] and set(calls["批发交易"]) == {"mana", "draw"}
    assert n("精灵农庄").kw("summons") == 2


IDENTITY = {
    "human": ("taunt", "formation", "armor", "shield"),
    "goblin": ("artisan", "load", "reload", "overload", "aura_load", "aura_summon"),
    "demon": ("own_throne", "hp_skill", "siege", "lifesteal"),
    "undead": ("reborn", "give_reborn", "raise_dead", "exhume", "death"),
    "beast": ("grow", "flying", "wolf_pup", "wolf", "cavalry"),
    "elf": ("regen", "give_regen", "max_hp", "ranged", "advance", "retreat", "heal_aura"),
}


def marks(cid: str) -> set[str]:
    """The identity marks of a card: keywords, effect names, selectors, triggers."""
    c = DB[cid]
    out = {k for k, _ in c.keywords}
    for cl in c.effects:
        out.add(cl.trigger)
        if cl.hp:
            out.add("hp_skill")
        for call in cl.calls:
            out.add(call.name)
            out.update(str(a) for a in call.args)
    if c.range > 1 and c.kind != "barracks":
        out.add("ranged")
    return out


@pytest.mark.parametrize("race", RACES)
def test_race_identity_is_distinct_R_RACE_1(race: str) -> None:
    """Each race leans on its own mechanics: at least 8 of its cards carry one of its
    marks, and its marks are at least twice as common there as in any other race."""

    def share(r: str) -> float:
        cards = [c.id for c in DB.of(race=r)]
        return sum(1 for c in cards if marks(c) & set(IDENTITY[race])) / len(cards)

    own = sum(1 for c in DB.of(race=race) if marks(c.id) & set(IDENTITY[race]))
    assert own >= 8
    assert all(share(race) >= 2 * share(r) for r in RACES if r != race), {
        r: round(share(r), 2) for r in RACES
    }


# --- text, reference pages, the effect language ----------------------------------------


def test_every_card_text_says_what_the_card_does() -> None:
    """The ``text`` column contains every generated fragment (keywords, clauses, costs)."""
    assert text_problems(DB) == []


def test_docs_cards_md_is_up_to_date() -> None:
    """docs/cards.md is generated from the table: run ``python -m throne_lib.games.throne.carddoc write``."""
    assert CARDS_MD.read_text(encoding="utf-8") == cards_markdown(DB)


def test_docs_effects_md_is_up_to_date() -> None:
    assert EFFECTS_MD.read_text(encoding="utf-8") == effects_markdown()


def test_language_is_fully_documented() -> None:
    assert set(KEYWORD_DOCS) == set(KEYWORDS) == set(KEYWORD_ZH)
    assert set(EFFECT_ZH) == set(SPECS) and all(DOCS[n] for n in SPECS)
    assert set(WHO_ZH) == set(CHOSEN_WHO) | set(AUTO_WHO)
    assert set(PLACE_ZH) == set(CHOSEN_PLACE) | set(AUTO_PLACE)


def test_every_effect_and_keyword_is_used_by_some_card() -> None:
    used = set().union(*(marks(c) for c in DB))
    assert set(SPECS) - used == set()
    assert set(KEYWORDS) - used == set()


# --- signature decks (R-DECK-7) ----------------------------------------------------------


@pytest.mark.parametrize("gid", GENERALS)
def test_signature_deck_file_R_DECK_7(gid: str) -> None:
    """R-DECK-7: decks/<general>.deck: the race's camp, exactly 8 minions, 30 cards,
    legal under R-DECK-1..5; signature_deck reads it."""
    path = DECKS_DIR / f"{gid}.deck"
    setup = load_deck(path)
    assert setup.general == gid
    assert validate_deck(DB, setup) == []
    race = DB[gid].race
    cards = [DB[c] for c in setup.deck]
    assert len(cards) == 30
    assert sum(1 for c in cards if c.kind == "minion") == 8
    assert any(c.is_production and c.race == race for c in cards)
    assert signature_deck(DB, gid) == setup


def test_signature_deck_falls_back_without_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A general without a deck file gets the algorithm's deck, still legal (R-DECK-7)."""
    monkeypatch.setattr(decks_mod, "DECKS_DIR", tmp_path)
    for gid in GENERALS:
        setup = signature_deck(DB, gid)
        assert validate_deck(DB, setup) == []
        assert sum(1 for c in setup.deck if DB[c].kind == "minion") == 8


def test_signature_deck_file_ignored_when_illegal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "lionheart.deck").write_text("general: lionheart\n4 shield_wall\n")
    monkeypatch.setattr(decks_mod, "DECKS_DIR", tmp_path)
    setup = signature_deck(DB, "lionheart")
    assert validate_deck(DB, setup) == [] and setup.deck.count("shield_wall") <= 3


# --- 18 × 18 random matches ----------------------------------------------------------------


def random_match(db: CardDB, blue: str, red: str, seed: int) -> Match:
    m = Match.new(db, signature_deck(db, blue), signature_deck(db, red), seed)
    return play_match(m, RandomAgent(seed), RandomAgent(seed + 1000))


@pytest.mark.parametrize("blue", GENERALS)
def test_random_matches_against_every_general(blue: str) -> None:
    """Each signature deck against each (18 × 18 in all, ~25 s): every match ends
    (throne or round limit, R-END-1) without an exception."""
    i = GENERALS.index(blue)
    for j, red in enumerate(GENERALS):
        m = random_match(DB, blue, red, seed=i * 18 + j)
        assert m.is_over and m.end_reason
        assert m.end_reason == "throne" or m.end_reason.startswith("round_limit")


# --- focused rules: throne skill, heroes, goblin buildings, loops, races -----------------


def test_throne_skill_cost_cooldown_and_hp_R_THRONE_6(
    scenario: ScenarioFn, illegal: IllegalFn
) -> None:
    """R-THRONE-6: the throne casts 血怒 at cost + 1, pays the HP itself (armor and
    shield do not help), and cannot cast in its side's next turn."""
    m = scenario(
        """
        side blue general=pain_lord mana=5
        side red general=beast_king
        unit e5 red boar
        """
    )
    throne = throne_of(m, 0)
    throne.armor, throne.shield = 5, True
    events = m.apply("skill d1 e5")
    assert [e.amount for e in events if e.kind == "pay_hp"] == [3]
    assert throne.hp == 37 and throne.armor == 5 and throne.shield
    assert m.state.sides[0].mana == 5 - 2  # 1 + 1 from the throne
    assert m.state.board[m.geo.parse("e5")] is None  # 5 damage killed the boar
    illegal(m, "skill d1 d6")
    m.apply("end")
    m.apply("end")
    assert m.state.sides[0].mana >= 2
    illegal(m, "skill d1 d6", rule="R-THRONE-6")  # the cooldown turn
    m.apply("end")
    m.apply("end")
    m.apply("skill d1 d6")  # available again
    assert throne_of(m, 1).hp == 35


def test_throne_cannot_pay_more_hp_than_it_has_R_THRONE_6(scenario: ScenarioFn) -> None:
    """R-THRONE-6: the throne needs cost + 1 mana and more HP than the skill takes."""
    m = scenario("side blue general=inferno_lord mana=9\nside red general=beast_king\n")
    throne_of(m, 0).hp = 4
    assert not m.legal_actions().of_kind("skill")
    m = scenario("side blue general=inferno_lord mana=2\nside red general=beast_king\n")
    assert not m.legal_actions().of_kind("skill")  # 2 + 1 mana needed


def test_vice_general_recruited_acts_at_once_R_HERO_1(
    scenario: ScenarioFn, illegal: IllegalFn
) -> None:
    """R-HERO-1: recruited from the hand for its 5-6 mana onto an empty cell of its
    half; it may move, attack and use its skill that turn."""
    m = scenario(
        """
        side blue general=lionheart mana=20
        side red general=beast_king
        hand blue torment_queen
        unit c4 red boar
        """
    )
    plays = m.legal_actions().of_kind("play")
    assert plays and all(m.geo.side_of_cell(a.target) == 0 for a in plays)
    illegal(m, "play torment_queen c5")
    m.apply("play torment_queen c3")
    assert m.state.sides[0].mana == 14
    mine = {a.kind for a in m.legal_actions() if a.cell == m.geo.parse("c3")}
    assert mine == {"move", "attack", "skill"}


def test_one_skill_per_hero_uses_its_action_R_HERO_2(
    scenario: ScenarioFn, illegal: IllegalFn
) -> None:
    """R-HERO-2: each hero (throne and vice) casts once a turn; the skill uses up the
    hero's action; a hero that attacked may not cast."""
    head = "side blue general=lionheart mana=20\nside red general=beast_king\n"
    m = scenario(head + "unit c3 blue torment_queen\nunit c4 red boar hp=8/8\n")
    m.apply("skill c3 c4")
    illegal(m, "move c3 b3", rule="R-HERO-2")
    illegal(m, "attack c3 c4", rule="R-HERO-2")
    illegal(m, "skill c3 c4", rule="R-HERO-2")
    m.apply("skill d1 c3")  # the throne is another hero: it may still cast
    assert at(m, "c3").armor == 3
    m = scenario(head + "unit c3 blue torment_queen\nunit c4 red boar hp=8/8\n")
    m.apply("attack c3 c4")
    illegal(m, "skill c3 c4", rule="R-HERO-2")


def test_artisan_builds_on_its_own_cell_R_GOBLIN_2(
    scenario: ScenarioFn, illegal: IllegalFn
) -> None:
    """R-GOBLIN-1, R-GOBLIN-2: artisans build 炮塔/维修站/钢铁高达 on their cell and are
    consumed; buildings are fortified (no move, -1 damage); others cannot build."""
    head = "side blue general=tinker_king mana={}\nside red general=beast_king\n"
    body = "unit c2 blue clockwork_smith\nunit e2 blue goblin_grunt\n"
    m = scenario(head.format(10) + body)
    builds = {a.card for a in m.legal_actions().of_kind("build") if a.cell == m.geo.parse("c2")}
    assert {"turret", "repair_station", "steel_gundam"} <= builds
    illegal(m, "build e2 turret", rule="R-GOBLIN-2")
    events = m.apply("build c2 turret")
    assert [e.kind for e in events][:2] == ["build", "summon"]
    t = at(m, "c2")
    stats = (t.card, t.kind, t.attack, t.hp, t.range, t.fortified)
    assert stats == ("turret", "building", 3, 6, 3, True)
    assert m.state.sides[0].mana == 7
    assert not [a for a in m.legal_actions() if a.cell == t.cell and a.kind == "move"]
    m.eng.damage(t, 3, "test", 1)
    assert t.hp == 4  # fortified: 1 less per instance
    poor = scenario(head.format(2) + body)
    assert {a.card for a in poor.legal_actions().of_kind("build")} == {"repair_station"}


def test_buildings_ignore_barracks_placement_R_GOBLIN_4(scenario: ScenarioFn) -> None:
    """R-GOBLIN-4: an artisan builds wherever it stands, even in the enemy half."""
    m = scenario(
        "side blue general=tinker_king mana=9\nside red general=beast_king\nunit d4 blue riveter\n"
    )
    m.apply("build d4 steel_gundam")  # in the enemy half, where no barracks may go
    assert at(m, "d4").card == "steel_gundam"


def test_load_adds_uses_overload_raises_level_R_GOBLIN_3(scenario: ScenarioFn) -> None:
    """R-GOBLIN-3: 超载 on a turret that already fired: level +1 (+1/+2) and a use."""
    m = scenario(
        """
        side blue general=tinker_king mana=5
        side red general=beast_king
        hand blue overclock
        unit c3 blue turret
        unit c5 red boar hp=20/20
        """
    )
    m.apply("attack c3 c5")
    assert not m.legal_actions().of_kind("attack")
    m.apply("play overclock c3")
    t = at(m, "c3")
    assert (t.level, t.attack, t.max_hp, t.uses) == (2, 4, 8, 1)
    m.apply("attack c3 c5")
    assert at(m, "c5").hp == 20 - 3 - 4


def test_repair_station_heals_around_each_turn_R_GOBLIN_2(scenario: ScenarioFn) -> None:
    """R-GOBLIN-2: 维修站 heals adjacent allies 2 at its side's turn start."""
    m = scenario(
        "side blue general=tinker_king\nside red general=beast_king\n"
        "unit c2 blue repair_station\nunit c3 blue goblin_grunt hp=1/5\n"
    )
    m.apply("end")
    m.apply("end")
    assert at(m, "c3").hp == 3


@pytest.mark.parametrize("card,cost", [("tide", 1), ("wholesale", 2)])
def test_loop_cards_capped_six_a_turn_R_TURN_9(
    scenario: ScenarioFn, illegal: IllegalFn, card: str, cost: int
) -> None:
    """R-TURN-9: 潮汐 and 批发交易 refund their cost, so only the name cap stops them:
    the 7th use of the name in a turn is refused, and the count resets next turn."""
    m = scenario(
        f"side blue general=lionheart mana={cost}\nside red general=beast_king\n"
        f"hand blue {' '.join([card] * 7)}\ndeck blue {' '.join(['militia_camp'] * 20)}\n"
    )
    for _ in range(6):
        m.apply(f"play {card}")
        assert m.state.sides[0].mana == cost
    illegal(m, f"play {card}", rule="R-TURN-9")
    m.apply("end")
    m.apply("end")
    m.apply(f"play {card}")


def test_beasts_grow_on_kill_and_swarm_R_RACE_2(scenario: ScenarioFn) -> None:
    """R-RACE-2: 棕熊 grows with every kill; 狼群之母 fills the board with wolf pups."""
    m = scenario(
        "side blue general=pack_mother mana=9\nside red general=lionheart\n"
        "unit c3 blue brown_bear\nunit c4 red wolf_pup\n"
    )
    m.apply("attack c3 c4")
    bear = at(m, "c3")
    assert (bear.attack, bear.max_hp) == (5, 6)
    events = m.apply("skill d1")
    assert [e.actor for e in events if e.kind == "summon"] == ["wolf_pup", "wolf_pup"]


def test_undead_reborn_returns_once_R_RACE_1(scenario: ScenarioFn) -> None:
    """R-RACE-1: the undead 复生骑士 returns once with 1 HP, then dies for good."""
    m = scenario(
        "side blue general=lich_lord mana=9\nside red general=lionheart\n"
        "unit c3 blue reborn_knight\n"
    )
    knight = at(m, "c3")
    m.eng.destroy(knight, "test")
    m.eng.cleanup()
    again = at(m, "c3")
    assert again is not None and again.hp == 1 and not again.reborn
    m.eng.destroy(again, "test")
    m.eng.cleanup()
    assert m.state.board[m.geo.parse("c3")] is None
