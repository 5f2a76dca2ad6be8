"""Turn structure, mana and cards: R-TURN-*, and the round limit R-END-*."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from throne_lib import DEFAULT_RULES, CardDB, IllegalAction, Match, SideSetup, parse_cards
from throne_lib.kit.agents import RandomAgent

HEAD = """
side blue general=lionheart mana=5
side red general=beast_king mana=5
"""
DECK10 = "deck blue " + " ".join(["militia_camp", "holy_light"] * 5) + "\n"

ScenarioFn = Callable[..., Match]  # the conftest 'scenario' fixture
IllegalFn = Callable[..., IllegalAction]  # the conftest 'illegal' fixture


def open_match(m: Match) -> Match:
    """Play the opening (R-OPEN-*) with the first legal action each time: keep, found."""
    while m.phase in ("replace", "found"):
        keep = [a for a in m.legal_actions() if a.kind == "keep"]
        m.apply(keep[0] if keep else m.legal_actions()[0])
    return m


def new_match(db: CardDB, seed: int, rules: object = DEFAULT_RULES) -> Match:
    return Match.new(
        db,
        SideSetup.signature(db, "human"),
        SideSetup.signature(db, "demon"),
        seed=seed,
        rules=rules,  # type: ignore[arg-type]
    )


# --- R-TURN-1, R-TURN-2, R-TURN-3: mana --------------------------------------------


def test_mana_resets_each_turn_and_unused_mana_is_lost_R_TURN_1(scenario: ScenarioFn) -> None:
    """R-TURN-1: 9 unspent mana does not carry over; the next turn starts at 5."""
    m = scenario("first blue\n" + HEAD.replace("mana=5", "mana=9", 1))
    m.apply("end")
    assert m.state.sides[1].mana == 5
    m.apply("end")
    assert m.round == 2 and m.state.sides[0].mana == 5


def test_base_mana_is_five_and_does_not_grow_R_TURN_2(scenario: ScenarioFn) -> None:
    """R-TURN-2: 5 mana in round 2 and in round 30 alike."""
    for start in (1, 29):
        m = scenario(f"round {start}\nfirst blue\nturn red\n" + HEAD.replace("mana=5", "mana=0"))
        m.apply("end")
        assert (m.round, m.state.sides[0].mana) == (start + 1, 5)


def test_peasants_add_mana_by_level_R_TURN_3(scenario: ScenarioFn) -> None:
    """R-TURN-3: living peasants of levels 1, 2, 3 add 1 + 2 + 3 to the base 5."""
    m = scenario(
        "first blue\nturn red\n"
        + HEAD
        + "unit a1 blue tenant\nunit b1 blue farmer\nunit c1 blue steward"
    )
    m.apply("end")
    assert m.state.sides[0].mana == 5 + 6


# --- R-TURN-4: draws per round ---------------------------------------------------------


def test_opening_hand_is_the_first_turns_draw_R_TURN_4(db: CardDB) -> None:
    """R-TURN-4: both sides start round 1 with their 5 opening cards, nothing more;
    from round 2 a turn draws 2."""
    m = open_match(new_match(db, seed=11))
    assert m.round == 1 and m.phase == "main"
    assert [len(s.hand) for s in m.state.sides] == [5, 5]
    m.apply("end")
    assert [len(s.hand) for s in m.state.sides] == [5, 5]  # second side: no draw in round 1
    m.apply("end")
    assert m.round == 2 and len(m.state.sides[m.turn].hand) == 5 + 2


@pytest.mark.parametrize(("start", "drawn"), [(1, 2), (5, 2), (6, 3), (20, 3)])
def test_draws_two_from_round_2_and_three_from_round_7_R_TURN_4(
    scenario: ScenarioFn, start: int, drawn: int
) -> None:
    """R-TURN-4: the draw phase of round start+1 draws 2 (rounds 2-6) or 3 (7 on)."""
    m = scenario(f"round {start}\nfirst blue\nturn red\n" + HEAD + DECK10)
    events = m.apply("end")
    assert len([e for e in events if e.kind == "draw" and e.side == 0]) == drawn
    assert len(m.state.sides[0].hand) == drawn and len(m.state.sides[0].deck) == 10 - drawn


# --- R-TURN-5: hand limit 8 ------------------------------------------------------------


def test_draw_beyond_the_hand_limit_does_not_happen_R_TURN_5(scenario: ScenarioFn) -> None:
    """R-TURN-5: with 7 cards a 2-card draw stops at 8 and the log says 手牌已满."""
    hand = "hand blue " + " ".join(["holy_light"] * 7) + "\n"
    m = scenario("round 3\nfirst blue\nturn red\n" + HEAD + DECK10 + hand)
    events = m.apply("end")
    assert len(m.state.sides[0].hand) == 8 and len(m.state.sides[0].deck) == 9
    assert [e.note for e in events if e.kind == "hand_full"] == ["手牌已满"]


def test_full_hand_is_kept_at_turn_end_and_turn_draw_fails_R_TURN_5(scenario: ScenarioFn) -> None:
    """R-TURN-5: nothing is discarded at turn end; a turn-start draw into 8 cards fails."""
    hand = "hand blue " + " ".join(["holy_light"] * 8) + "\n"
    m = scenario("round 3\nfirst blue\n" + HEAD + DECK10 + hand)
    m.apply("end")
    assert len(m.state.sides[0].hand) == 8
    events = m.apply("end")
    assert len(m.state.sides[0].hand) == 8 and len(m.state.sides[0].deck) == 10
    assert any(e.kind == "hand_full" and e.note == "手牌已满" for e in events)


# --- R-TURN-6: only the turn-start draw reshuffles ---------------------------------------


def test_turn_start_draw_reshuffles_the_graveyard_R_TURN_6(scenario: ScenarioFn) -> None:
    """R-TURN-6: empty deck at the draw phase: the graveyard becomes the deck for free."""
    m = scenario(
        "round 3\nfirst blue\nturn red\n" + HEAD + "grave blue holy_light militia_camp shield_wall"
    )
    events = m.apply("end")
    s = m.state.sides[0]
    assert any(e.kind == "reshuffle" for e in events)
    assert s.grave == [] and len(s.hand) == 2 and len(s.deck) == 1 and s.mana == 5
    assert sorted(s.hand + s.deck) == ["holy_light", "militia_camp", "shield_wall"]


def test_spell_draws_never_reshuffle_R_TURN_6(scenario: ScenarioFn) -> None:
    """R-TURN-6: 军令急递 (draw 2) with an empty deck draws nothing and leaves the
    graveyard alone."""
    m = scenario(HEAD + "hand blue urgent_orders\ngrave blue holy_light shield_wall")
    events = m.apply("play urgent_orders")
    s = m.state.sides[0]
    assert s.hand == [] and s.deck == []
    assert s.grave == ["holy_light", "shield_wall", "urgent_orders"]
    assert not any(e.kind in ("reshuffle", "draw") for e in events)


# --- R-TURN-7: manual shuffle costs ------------------------------------------------------


@pytest.mark.parametrize(
    ("done", "cost"), [(0, 2), (1, 4), (2, 6), (3, 8), (4, 10), (5, 10), (9, 10)]
)
def test_manual_shuffle_costs_2_4_6_8_10_then_10_R_TURN_7(
    scenario: ScenarioFn, done: int, cost: int
) -> None:
    """R-TURN-7: the next shuffle after ``done`` shuffles costs ``cost``."""
    m = scenario(
        HEAD.replace("mana=5", f"mana=20 shuffles={done}", 1)
        + "grave blue holy_light\ndeck blue militia_camp"
    )
    m.apply("shuffle")
    s = m.state.sides[0]
    assert (s.mana, s.shuffles, s.grave) == (20 - cost, done + 1, [])
    assert sorted(s.deck) == ["holy_light", "militia_camp"]


def test_shuffle_count_never_resets_and_needs_the_mana_R_TURN_7(
    scenario: ScenarioFn, illegal: IllegalFn
) -> None:
    """R-TURN-7: an empty graveyard has nothing to shuffle; after one shuffle, in a later
    round the next still costs 4; with 3 mana it is refused."""
    deck = "deck blue " + "scouting " * 6 + "\n"
    m = scenario("first blue\n" + HEAD + "hand blue scouting\n" + deck)
    illegal(m, "shuffle", rule="R-TURN-7")  # empty graveyard
    m.apply("play scouting")  # 0 mana, draw 1
    m.apply("shuffle")
    assert m.state.sides[0].mana == 5 - 2
    m.apply("end")
    m.apply("end")
    m.apply("play scouting")
    s = m.state.sides[0]
    assert (m.round, s.shuffles, s.mana, s.grave) == (2, 1, 5, ["scouting"])
    m.apply("shuffle")
    assert s.mana == 5 - 4 and s.shuffles == 2
    poor = scenario(HEAD.replace("mana=5", "mana=3 shuffles=1", 1) + "grave blue holy_light")
    illegal(poor, "shuffle", rule="R-TURN-7")


# --- R-TURN-8, R-TURN-9: playing cards ---------------------------------------------


def test_draw_only_spell_needs_room_in_hand_R_TURN_8(
    scenario: ScenarioFn, illegal: IllegalFn
) -> None:
    """R-TURN-8: 军令急递 cannot be cast with 8 cards in hand."""
    hand = "hand blue urgent_orders " + " ".join(["holy_light"] * 7) + "\n"
    m = scenario(HEAD + hand + DECK10)
    illegal(m, "play urgent_orders", rule="R-TURN-8")


def test_one_name_at_most_six_times_per_turn_R_TURN_9(
    scenario: ScenarioFn, illegal: IllegalFn
) -> None:
    """R-TURN-9: the 7th 血之契约 (0 mana) of a turn is refused; another card still
    plays; the next turn the count starts again."""
    m = scenario(
        "first blue\n"
        + HEAD.replace("mana=5", "mana=0", 1)
        + "hand blue "
        + " ".join(["blood_pact"] * 7 + ["scouting"])
        + "\n"
        + DECK10
    )
    for _ in range(6):
        m.apply("play blood_pact")
    assert m.state.sides[0].mana == 6 * 3
    illegal(m, "play blood_pact", rule="R-TURN-9")
    m.apply("play scouting")  # a different name: not a cap on cards per turn
    m.apply("end")
    m.apply("end")
    m.apply("play blood_pact")
    assert m.state.sides[0].hand.count("blood_pact") == 0


# --- R-TURN-10, R-TURN-11: one deck, one graveyard; where cards go ----------------


def test_all_card_kinds_share_one_graveyard_and_deck_R_TURN_10(scenario: ScenarioFn) -> None:
    """R-TURN-10: a spell and a dead minion land in the same graveyard, and a shuffle
    puts both into the one deck."""
    m = scenario(
        HEAD.replace("mana=5", "mana=10", 1)
        + "hand blue holy_light\nunit c3 blue shield_wall hp=1/5\nunit c4 red boar\nunit c2 blue boar hp=1/4"
    )
    m.apply("play holy_light c2")
    m.apply("attack c3 c4")  # the boar's counter kills the shield wall
    assert m.unit_at("c3") is None
    assert m.state.sides[0].grave == ["holy_light", "shield_wall"]
    m.apply("shuffle")
    assert sorted(m.state.sides[0].deck) == ["holy_light", "shield_wall"]


def test_where_dead_cards_go_R_TURN_11(scenario: ScenarioFn) -> None:
    """R-TURN-11: a dead minion or hero goes to the graveyard; a destroyed deck barracks
    goes to ``removed``, not the graveyard; an opening barracks, soldiers, captains and
    tokens vanish; a played spell goes to the graveyard."""
    victims = {
        "a5": "shield_wall",  # taunt: the two taunt units die first
        "f5": "templar_guard",
        "b5": "pain_lord",
        "c5": "wolf_den",
        "d5": "pack_captain",
        "e5": "beast_ranch from_deck=no",
        "g5": "wolf",
    }
    text = "round 3\n" + HEAD + "hand blue bomb_toss\n"
    for cell, card in victims.items():
        name, *attrs = card.split()
        text += f"unit {cell} red {name} hp=1/9 {' '.join(attrs)}\n"
        text += f"unit {cell[0]}4 blue boar\n"
    m = scenario(text)
    before = m.card_count(1)
    for cell in victims:
        m.apply(f"attack {cell[0]}4 {cell}")
    assert all(m.unit_at(c) is None for c in victims)
    red = m.state.sides[1]
    assert sorted(red.grave) == ["pain_lord", "shield_wall"]
    assert red.removed == ["wolf_den"]
    assert m.card_count(1) == before
    m.apply("play bomb_toss d6")
    assert m.state.sides[0].grave == ["bomb_toss"]


# A captain whose deathrattle damages: its nested cleanup once sent a card that died in
# the same blow to the graveyard twice (engine.cleanup re-entrancy, fixed).
BOMBER = (
    'test_bomber,测试爆破队长,demon,captain,1,2,1,,,,"death: damage(2, adjacent_enemies)",,,test\n'
)


def test_a_card_dying_beside_a_deathrattle_goes_to_the_graveyard_once_R_TURN_11(
    scenario: ScenarioFn, db: CardDB
) -> None:
    """R-TURN-11: a minion killed by the counter of a unit whose deathrattle also hits
    it dies once: one death event, one graveyard entry, cards conserved."""
    cards = parse_cards(db.source.rstrip("\n") + "\n" + BOMBER)
    m = scenario(HEAD + "unit c4 red test_bomber\nunit c5 blue magnet_bot hp=1/3", cards=cards)
    before = m.card_count(0)
    events = m.apply("attack c5 c4")
    assert m.unit_at("c4") is None and m.unit_at("c5") is None
    assert [e.actor for e in events if e.kind == "death"] == ["test_bomber", "magnet_bot"]
    assert m.state.sides[0].grave == ["magnet_bot"]
    assert m.card_count(0) == before


# --- R-TURN-12: turn order and deterministic replay ---------------------------------


def test_first_side_is_chosen_by_the_seed_R_TURN_12(db: CardDB) -> None:
    """R-TURN-12: the seed picks the first side (both happen), the same seed always the same."""
    firsts = {seed: new_match(db, seed).state.first for seed in range(16)}
    assert set(firsts.values()) == {0, 1}
    assert all(new_match(db, s).state.first == f for s, f in firsts.items())


def test_turn_order_opening_then_rounds_R_TURN_12(db: CardDB) -> None:
    """R-TURN-12: first side's opening, second side's opening, then round 1 first side,
    round 1 second side, round 2 first side."""
    m = new_match(db, seed=2)
    first = m.state.first
    seen = []
    while m.phase in ("replace", "found"):
        seen.append((m.phase, m.turn))
        m.apply(
            [a for a in m.legal_actions() if a.kind == "keep"][0]
            if m.phase == "replace"
            else m.legal_actions()[0]
        )
    order = list(dict.fromkeys(seen))
    assert order == [
        ("replace", first),
        ("found", first),
        ("replace", 1 - first),
        ("found", 1 - first),
    ]
    assert (m.round, m.turn, m.phase) == (1, first, "main")
    m.apply("end")
    assert (m.round, m.turn) == (1, 1 - first)
    m.apply("end")
    assert (m.round, m.turn) == (2, first)


def test_same_seed_and_actions_replay_to_the_same_state_R_TURN_12(db: CardDB) -> None:
    """R-TURN-12: a match is defined by (setup, seed, actions): replaying the history
    onto a fresh match of the same seed gives the same hash at every step."""
    played = new_match(db, seed=21)
    agents = (RandomAgent(1), RandomAgent(2))
    hashes = []
    for _ in range(400):
        if played.is_over:
            break
        played.apply(agents[played.turn].choose(played))
        hashes.append(played.hash())
    replay = new_match(db, seed=21)
    for action, expected in zip(played.history, hashes, strict=True):
        replay.apply(action)
        assert replay.hash() == expected
    other = new_match(db, seed=22)
    assert other.hash() != new_match(db, seed=21).hash()


# --- R-END-1, R-END-2: the 40-round limit ---------------------------------------------

LAST_TURN = "round 40\nfirst blue\nturn red\n" + HEAD


@pytest.mark.parametrize(
    ("units", "winner", "reason"),
    [
        ("unit d1 blue lionheart throne hp=30/40", 1, "round_limit:hp"),
        (
            "unit d1 blue lionheart throne hp=30/40\nunit d6 red beast_king throne hp=30/43",
            0,
            "round_limit:ratio",
        ),
        ("unit c2 blue militia", 0, "round_limit:board"),
        ("unit c5 red wolf\nunit c2 blue militia", 1, "round_limit:board"),
        ("", None, "round_limit:draw"),
    ],
)
def test_round_40_scoring_hp_ratio_board_draw_R_END_1(
    scenario: ScenarioFn, units: str, winner: int | None, reason: str
) -> None:
    """R-END-1: when round 40 ends: more throne HP wins, then the HP ratio, then the
    board (attack + HP of non-throne units), else a draw."""
    m = scenario(LAST_TURN + units)
    m.apply("end")
    assert m.is_over and (m.winner, m.end_reason) == (winner, reason)
    assert m.round == 40


def test_the_match_is_not_scored_before_round_40_ends_R_END_1(scenario: ScenarioFn) -> None:
    """R-END-1: the first side's round-40 turn ends normally; round 39's last turn too."""
    m = scenario("round 40\nfirst blue\n" + HEAD)
    m.apply("end")
    assert not m.is_over and m.round == 40 and m.turn == 1
    m = scenario("round 39\nfirst blue\nturn red\n" + HEAD)
    m.apply("end")
    assert not m.is_over and m.round == 40


def test_round_limit_is_a_rule_parameter_R_END_1_R_END_2(db: CardDB) -> None:
    """R-END-1, R-END-2: 40 rounds by default (the top bar's 第 X/40 回合); a variant of
    3 rounds ends after round 3's second turn with a score."""
    assert DEFAULT_RULES.round_limit == 40
    rules = dataclasses.replace(DEFAULT_RULES, round_limit=3)
    m = open_match(new_match(db, seed=4, rules=rules))
    ends = 0
    while not m.is_over:
        m.apply("end")
        ends += 1
        assert 1 <= m.round <= 3
    assert ends == 6 and m.end_reason.startswith("round_limit:")


def test_top_bar_shows_round_of_40_and_the_scoring_note_R_END_2(scenario: ScenarioFn) -> None:
    """R-END-2: the match widget's top bar reads 「第 X/40 回合 · 打满按血量结算」."""
    from throne_lib.games.throne.ui.widget import MatchWidget

    m = scenario("round 12\n" + HEAD)
    bar = MatchWidget(m, RandomAgent(1), ai_mode="manual").info.value
    assert "第 12/40 回合 · 打满按血量结算" in bar
    m.apply("end")
    m.apply("end")
    assert m.round == 13
    bar = MatchWidget(m, RandomAgent(1), ai_mode="manual").info.value
    assert "第 13/40 回合 · 打满按血量结算" in bar
