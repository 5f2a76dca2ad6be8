"""Peasants, production camps and mana (R-TURN-3, R-BARRACKS-12, R-TURN-8), and
random-play properties of barracks, captains and peasants.

The seeded random-agent match is checked from its JSON-lines log
(``throne_lib.kit.log``): the full opening, then peasants visibly changing mana.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from throne_lib import Event, IllegalAction, Match
from throne_lib.games.throne.cards import CardDB
from throne_lib.games.throne.decks import signature_deck
from throne_lib.games.throne.scenario import load_scenario
from throne_lib.kit.agents import RandomAgent, play_match
from throne_lib.kit.log import read_log, write_log

CAMPS = {  # R-BARRACKS-12: camp -> its peasants of level 1, 2, 3 (names from the seed)
    "人族庄园": ("佃农", "农户", "庄园管家"),
    "地精锅炉房": ("拾荒工", "锅炉工", "工段长"),
    "魔族苦痛矿场": ("苦工", "灵魂收集者", "血税官"),
    "死灵尸池": ("尸仆", "骨匠", "冥灯侍"),
    "兽族荒原牧场": ("牧崽", "荒原牧人", "兽栏管事"),
}
ELF_CAMPS = ("精灵农庄", "风车田庄", "补给营地")  # the seed's last entry: the elves' three
GENERAL_OF = {  # a general of each race for scenarios
    "human": "lionheart",
    "goblin": "tinker_king",
    "demon": "pain_lord",
    "undead": "lich_lord",
    "beast": "beast_king",
    "elf": "elf_queen",
}


def mana_resets(events: list[Event], side: int) -> list[Event]:
    return [e for e in events if e.kind == "mana_reset" and e.side == side]


def pass_round(m: Match) -> list[Event]:
    """End both turns; the events of both turn starts."""
    return m.apply("end") + m.apply("end")


# --- R-TURN-3 peasant bonus ------------------------------------------------------------


def test_living_peasants_add_1_2_3_mana_at_turn_start_R_TURN_3(db: CardDB) -> None:
    m = load_scenario(
        """
        side blue general=lionheart mana=0
        side red general=beast_king
        unit a1 blue tenant
        unit b1 blue farmer
        unit c1 blue steward
        unit a2 blue militia       # a soldier, not a peasant
        unit g6 red herd_cub       # red's peasant counts for red only
        """,
        db,
    )
    events = pass_round(m)
    (red,) = mana_resets(events, 1)
    (blue,) = mana_resets(events, 0)
    assert (red.amount, red.note) == (5 + 1, "农民+1")
    assert (blue.amount, blue.note) == (5 + 1 + 2 + 3, "农民+6")
    assert m.state.sides[0].mana == 11


def test_no_peasants_no_bonus_R_TURN_3(db: CardDB) -> None:
    m = load_scenario(
        "side blue general=lionheart\nside red general=beast_king\nunit a2 blue militia\n", db
    )
    (blue,) = mana_resets(pass_round(m), 0)
    assert (blue.amount, blue.note) == (5, "")


def test_a_dead_peasant_gives_nothing_R_TURN_3(db: CardDB) -> None:
    m = load_scenario(
        """
        side blue general=lionheart
        side red general=beast_king
        unit c3 blue farmer
        unit a1 blue tenant
        unit c4 red boar
        """,
        db,
    )
    m.apply("end")
    m.apply("attack c4 c3")  # the boar kills the farmer (3 HP)
    assert m.unit_at("c3") is None
    (blue,) = mana_resets(m.apply("end"), 0)
    assert (blue.amount, blue.note) == (6, "农民+1")


def test_peasants_keep_paying_after_their_camp_falls_R_TURN_3(db: CardDB) -> None:
    m = load_scenario(
        """
        side blue general=lionheart mana=5
        side red general=beast_king
        unit c2 blue human_manor hp=1/8
        unit b2 red boar
        """,
        db,
    )
    m.apply("summon c2 tenant c3")
    assert m.state.sides[0].mana == 4  # a peasant costs its mana now …
    m.apply("end")
    m.apply("attack b2 c2")
    assert m.unit_at("c2") is None
    (blue,) = mana_resets(m.apply("end"), 0)
    assert (blue.amount, blue.note) == (6, "农民+1")  # … and pays while it lives


# --- R-BARRACKS-12 production camps ----------------------------------------------------


@pytest.mark.parametrize("camp_name", [*CAMPS, *ELF_CAMPS])
def test_every_production_camp_summons_paying_peasants_R_BARRACKS_12(
    db: CardDB, camp_name: str
) -> None:
    camp = db.by_name(camp_name)
    assert camp.is_production
    workers = [db[s] for s in camp.tiers]
    if camp_name in CAMPS:
        assert tuple(w.name for w in workers) == CAMPS[camp_name]
    assert [w.kw("peasant") for w in workers] == [1, 2, 3]
    general = GENERAL_OF[camp.race]
    m = load_scenario(
        f"side blue general={general} mana=10\nside red general=beast_king\n"
        f"unit c2 blue {camp.id} level=3\n"
        f"unit a1 blue {workers[1].id}\nunit b1 blue {workers[2].id}\n",
        db,
    )
    m.apply(f"summon c2 {workers[0].id} c3")
    (blue,) = mana_resets(pass_round(m), 0)
    assert (blue.amount, blue.note) == (5 + 6, "农民+6")


def test_production_camps_cover_every_race_none_neutral_R_BARRACKS_12(db: CardDB) -> None:
    """R-BARRACKS-12: a camp per race, the elves' three (精灵农庄/风车田庄/补给营地), and no
    neutral barracks at all."""
    camps = [c for c in db.of("barracks") if c.is_production]
    assert {c.race for c in camps} == {"human", "goblin", "demon", "undead", "beast", "elf"}
    assert {c.name for c in camps if c.race == "elf"} == set(ELF_CAMPS)
    assert not db.of("barracks", "neutral")
    # military barracks make no peasants
    for b in db.of("barracks"):
        if not b.is_production:
            assert all(db[s].kw("peasant") == 0 for s in b.tiers), b.name


# --- R-TURN-8 draw-only spells at the hand limit -------------------------------------


def test_draw_only_spells_are_the_seed_s_two_R_TURN_8(db: CardDB) -> None:
    draw_only = {c.name for c in db.of("spell") if c.draw_only}
    assert {"军令急递", "战场侦察"} <= draw_only
    assert not db.by_name("潮汐").draw_only  # draws and refunds mana


def test_draw_only_spell_refused_at_the_hand_limit_R_TURN_8(db: CardDB) -> None:
    full = "scouting urgent_orders tide shield_wall shield_wall shield_wall halberdier halberdier"
    m = load_scenario(
        f"side blue general=lionheart mana=5\nside red general=beast_king\nhand blue {full}\n"
        "deck blue militia_camp militia_camp militia_camp\n",
        db,
    )
    assert len(m.state.sides[0].hand) == m.rules.hand_limit
    playable = {a.card for a in m.legal_actions().of_kind("play")}
    assert "scouting" not in playable and "urgent_orders" not in playable
    assert "tide" in playable  # not draw-only: castable with a full hand
    for card in ("scouting", "urgent_orders"):
        with pytest.raises(IllegalAction) as info:
            m.apply(f"play {card}")
        assert info.value.rule == "R-TURN-8"
    m.apply("play shield_wall c2")  # one card fewer: the draw spell is allowed again
    assert "scouting" in {a.card for a in m.legal_actions().of_kind("play")}
    events = m.apply("play scouting")
    assert [e.kind for e in events].count("draw") == 1


# --- a seeded random match, read from its log ----------------------------------------


def test_random_match_opens_fully_and_peasants_change_mana_R_TURN_3(
    db: CardDB, tmp_path: Path
) -> None:
    """R-OPEN-1..3, R-TURN-12 and R-TURN-3 seen in the logs of seeded random matches."""
    paid = []
    for seed in range(4):
        m = Match.new(db, signature_deck(db, "human"), signature_deck(db, "goblin"), seed=seed)
        play_match(m, RandomAgent(2 * seed), RandomAgent(2 * seed + 1))
        log = read_log(write_log(m, tmp_path / f"match{seed}.jsonl"))
        events = [[Event.from_dict(e) for e in r.events] for r in log.records]
        check_opening([r.action.split()[0] for r in log.records], events)
        # peasants: the mana at a turn start is 5 + the bonus the log names, and a
        # bonus only ever follows the summon of a peasant
        flat = [e for r in events for e in r]
        resets = [e for e in flat if e.kind == "mana_reset"]
        for e in resets:
            bonus = int(e.note.removeprefix("农民+")) if e.note else 0
            assert e.amount == 5 + bonus
        first_bonus = next(
            (i for i, e in enumerate(flat) if e.kind == "mana_reset" and e.note), None
        )
        if first_bonus is not None:
            assert any(e.kind == "summon" and db[e.actor].kw("peasant") for e in flat[:first_bonus])
            paid.append(max(e.amount for e in resets))
    assert paid and min(paid) > 5, "no peasant ever paid in these matches"


def check_opening(kinds: list[str], events: list[list[Event]]) -> None:
    """replace*/keep then 3 founds, for the first side then the second, then round 1."""
    cut = [i for i, k in enumerate(kinds) if k == "found"]
    assert len(cut) == 6 and kinds.count("keep") == 2
    first, second = kinds[: cut[2] + 1], kinds[cut[2] + 1 : cut[5] + 1]
    for part in (first, second):
        assert part[-4:] == ["keep", "found", "found", "found"]
        assert set(part[:-4]) <= {"replace"} and len(part) - 4 <= 3
    sides = [e.side for r in events[: cut[5] + 1] for e in r if e.kind == "found"]
    assert len(set(sides[:3])) == 1 and len(set(sides[3:])) == 1 and sides[0] != sides[3]
    assert any(e.kind == "turn_start" and e.round == 1 for e in events[cut[5]])


# --- random-play properties with barracks, captains and peasants -------------------


def _check_position(m: Match) -> None:
    eng, st = m.eng, m.state
    legal = m.legal_actions()
    for u in st.units():
        if u.kind == "barracks":
            assert 1 <= u.level <= m.rules.max_barracks_level
            assert 0 < u.hp <= u.max_hp
            assert u.summons_used <= eng.summons_per_turn(u)
    for side in (0, 1):
        assert st.sides[side].mana >= 0
        assert m.card_count(side) == len(m.setups[side].deck)  # R-TURN-11: nothing lost
    if m.phase == "captain":
        b = st.board[st.pending]
        assert b is not None and b.kind == "barracks" and b.offer
        assert {a.kind for a in legal} <= {"pick", "cancel"} and legal[-1].kind == "cancel"
        for a in legal.of_kind("pick"):
            assert a.card in b.offer and a.target in m.geo.around[b.cell]
    else:
        assert st.pending == -1
    for a in legal:
        if a.kind in ("summon", "captain", "extra"):
            b = st.board[a.cell]
            assert b is not None and b.kind == "barracks" and b.side == st.turn
            if a.kind == "extra":  # R-BARRACKS-10
                assert eng.is_loaded(b) and eng.summons_left(b) <= 0
            else:
                assert eng.summons_left(b) > 0
            if a.kind == "summon":  # R-BARRACKS-3, R-BARRACKS-5
                assert a.target in m.geo.around[b.cell] and st.board[a.target] is None
                assert m.db[b.card].tiers.index(a.card) < b.level


@pytest.mark.parametrize(
    ("blue", "red", "seed"),
    [("human", "goblin", 1), ("demon", "undead", 2), ("beast", "elf", 3), ("goblin", "elf", 4)],
)
def test_random_play_keeps_barracks_captain_and_peasant_invariants(
    db: CardDB, blue: str, red: str, seed: int
) -> None:
    """R-BARRACKS-2..10, R-TURN-3: properties checked after every random action."""
    m = Match.new(db, signature_deck(db, blue), signature_deck(db, red), seed=seed)
    agents = (RandomAgent(seed * 2), RandomAgent(seed * 2 + 1))
    seen: set[str] = set()
    while not m.is_over:
        _check_position(m)
        action = agents[m.turn].choose(m)
        seen.add(action.kind)
        events = m.apply(action)
        for e in events:
            if e.kind == "mana_reset":
                assert e.amount == m.rules.base_mana + m.eng.peasant_bonus(e.side)
    assert {"found", "summon", "end"} <= seen
