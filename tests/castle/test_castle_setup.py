"""Setup, identities, hero draft, preparation phase (CH-SETUP, CH-ROLE, CH-PREP, CH-DECK)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.castle.helpers import settle
from throne_lib.games.castle import CastleMatch, CastleRules, box_census
from throne_lib.games.castle.rules import DEFAULT_ROLE_TABLE, RoleTableError, check_role_row
from throne_lib.kit.protocol import IllegalAction


def to_battle(m: CastleMatch, pick: int = 0) -> None:
    """Answer setup prompts: first offered hero, draft the first soldier offered."""
    while m.state.stage != "battle":
        acts = m.legal_actions()
        m.apply(acts[pick if m.prompt_kind == "pick_hero" else 0])
    settle(m)  # the 城主's turn start (CH-UI-3: asked of every hero) to its 出牌阶段


@pytest.mark.parametrize("n", range(3, 9))
def test_players_and_role_table(n: int) -> None:
    """CH-SETUP-1 (3..8 players), CH-SETUP-4 (one identity per seat from the row for P),
    CH-ROLE-1 (four identities), CH-ROLE-4 (the table)."""
    m = CastleMatch(players=n, seed=n)
    roles = Counter(p.role for p in m.state.players)
    row = DEFAULT_ROLE_TABLE[n]
    assert (roles["lord"], roles["enemy"], roles["reinforcement"], roles["neutral"]) == row
    assert set(roles) <= {"lord", "enemy", "reinforcement", "neutral"}


@pytest.mark.parametrize("n", [2, 9])
def test_player_count_out_of_range_refused(n: int) -> None:
    """CH-SETUP-1: fewer than 3 or more than 8 players is refused."""
    with pytest.raises(RoleTableError, match="CH-SETUP-1"):
        CastleMatch(players=n)


def test_role_constraints_refuse_bad_rows() -> None:
    """CH-ROLE-3: one 城主; 敌军 > 1 + 援军; 中立 ≤ 援军 — a breaking row is refused, named."""
    for row in DEFAULT_ROLE_TABLE.items():
        check_role_row(*row)
    with pytest.raises(RoleTableError, match="城主只能有一名"):
        check_role_row(5, (2, 3, 0, 0))
    with pytest.raises(RoleTableError, match="敌军数量应该超过"):
        check_role_row(5, (1, 2, 2, 0))
    with pytest.raises(RoleTableError, match="中立的数量不得超过"):
        check_role_row(5, (1, 3, 0, 1))
    bad = CastleRules(role_table={**DEFAULT_ROLE_TABLE, 5: (1, 2, 1, 1)})
    with pytest.raises(RoleTableError):
        CastleMatch(players=5, rules=bad)


def test_seating_is_random_and_parameter_keeps_order() -> None:
    """CH-SETUP-3: seats drawn by the match RNG; random_seating=False keeps the order."""
    orders = {tuple(CastleMatch(players=6, seed=s).state.pos) for s in range(8)}
    assert len(orders) > 1
    fixed = CastleMatch(players=6, seed=3, rules=CastleRules(random_seating=False))
    assert fixed.state.pos == list(range(6))


def test_setup_order_and_hero_draft() -> None:
    """CH-SETUP-2 order; CH-SETUP-5: the 城主 is offered 3, the others 2, clockwise; a kept
    hero is public; CH-SETUP-6: printed HP is max HP; CH-SETUP-8: opening hand 4."""
    m = CastleMatch(players=5, seed=11)
    s = m.state
    lord = next(p.seat for p in s.players if p.role == "lord")
    assert m.prompt_kind == "pick_hero" and m.current_seat == lord
    assert len(m.legal_actions()) == 3
    m.apply(m.legal_actions()[0])
    order = s.clockwise_from(lord)
    for q in order:
        assert m.current_seat == q and len(m.legal_actions()) == 2
        picked = m.legal_actions()[1].args[0]
        m.apply(m.legal_actions()[1])
        assert s.players[q].hero == picked
        assert m.observation(lord)["players"][q]["hero"] == picked  # public at once
    assert m.prompt_kind == "draft" and m.current_seat == lord  # preparation follows
    assert len(s.set_aside) == 5  # heroes left over are set aside
    for p in s.players:
        assert p.hp == p.max_hp == s.cards[p.hero].hp and not p.equip
    to_battle(m)
    for p in s.players:  # the 城主 has drawn 2 more in its first 摸牌阶段 (CH-TURN-4)
        assert len([c for c in p.hand if c != "conjured_mana"]) == (6 if p.seat == lord else 4)
    assert s.turn_seat == lord  # CH-TURN-1: the battle starts with the 城主


def test_lord_bonus_hp_parameter() -> None:
    """CH-SETUP-6: lord_bonus_hp = 0 by default, a parameter."""
    m = CastleMatch(players=4, seed=2, rules=CastleRules(lord_bonus_hp=1))
    lord = m.current_seat
    m.apply(m.legal_actions()[0])
    p = m.state.players[lord]
    assert p.max_hp == m.state.cards[p.hero].hp + 1


def test_supply_deck_and_leadership_mana() -> None:
    """CH-SETUP-7 (30 soldiers face up, 100 shuffled into the deck); CH-PREP-1/2
    (leadership 2, 城主 4; mana 6, 城主 10); CH-PREP-3 draft one pick per turn, a pass is
    final; CH-PREP-4 deployed at once at full HP; CH-PREP-6 leftovers set aside."""
    m = CastleMatch(players=4, seed=5)
    s = m.state
    while m.prompt_kind == "pick_hero":
        m.apply(m.legal_actions()[0])
    assert len(s.supply) == 30 and len(s.deck) == 100
    lord = next(p for p in s.players if p.role == "lord")
    for p in s.players:
        lead = -1 if p.hero == "lai_en" else (4 if p is lord else 2)
        assert p.leadership == lead
        assert p.mana == (10 if p is lord else 6)
    m.apply("draft knight")  # the 城主 picks first
    assert lord.mana == 5 and lord.soldiers[-1].card == "knight" and lord.soldiers[-1].hp == 3
    nxt = m.current_seat
    assert nxt == s.clockwise_from(lord.seat)[0]
    m.apply("pass")
    assert not s.players[nxt].drafting
    while m.state.stage == "prep":
        assert m.current_seat != nxt  # a hero that passed is done
        m.apply(m.legal_actions()[0])
    for p in s.players:
        if p.leadership >= 0:
            assert len(p.soldiers) <= p.leadership
    assert not s.supply and len(s.set_aside) == 6 + 30 - sum(len(p.soldiers) for p in s.players)


def test_leftover_mana_becomes_conjured_mana() -> None:
    """CH-PREP-5: each leftover point gives one conjured 魔, not from the deck; public."""
    m = CastleMatch(players=3, seed=4)
    while m.prompt_kind == "pick_hero":
        m.apply(m.legal_actions()[0])
    while m.state.stage == "prep":
        m.apply("pass")
    s = m.state
    for p in s.players:
        assert p.conjured == (10 if p.role == "lord" else 6)
        assert p.hand.count("conjured_mana") == p.conjured
    assert s.deck.count("mana") + sum(p.hand.count("mana") for p in s.players) == 20
    assert any("剩余法力转换为10张魔" in line for line in m.log_lines(None))
    deck_rules = CastleRules(leftover_mana_source="deck")
    m2 = CastleMatch(players=3, seed=4, rules=deck_rules)
    while m2.state.stage != "battle":
        m2.apply("pass" if m2.prompt_kind == "draft" else m2.legal_actions()[0])
    assert all(p.hand.count("conjured_mana") == 0 for p in m2.state.players)
    assert sum(p.hand.count("mana") for p in m2.state.players) >= 20 - 2


def test_lord_identity_public_others_hidden() -> None:
    """CH-ROLE-5 / CH-SETUP-4: the 城主 is public, other identities known to their owners."""
    m = CastleMatch(players=6, seed=9)
    s = m.state
    for viewer in range(6):
        obs = m.observation(viewer)
        for p in obs["players"]:
            real = s.players[p["seat"]].role
            if p["seat"] == viewer or real == "lord":
                assert p["role"] == real
            else:
                assert p["role"] == "?"


def test_draft_refuses_unaffordable_and_illegal_left_unchanged() -> None:
    """CH-PREP-3 / CH-PREP-1: a soldier beyond mana or leadership is not offered; an
    illegal action raises IllegalAction naming the rule and changes nothing."""
    m = CastleMatch(players=3, seed=1)
    while m.prompt_kind == "pick_hero":
        m.apply(m.legal_actions()[0])
    seat = m.current_seat
    before = m.hash()
    m.apply("draft crusader")  # 6 of the 城主's 10
    assert "draft knight" not in [a.text() for a in m.legal_actions()] or m.current_seat != seat
    while m.current_seat != seat:
        m.apply("pass")
    assert "draft crusader" not in [a.text() for a in m.legal_actions()]  # 6 > 4 left
    h = m.hash()
    with pytest.raises(IllegalAction) as err:
        m.apply("draft great_lynx")
    assert err.value.rule == "CH-PREP-3" and m.hash() == h != before


def test_cards_conserved_through_setup_and_reshuffle() -> None:
    """CH-DECK-8: every box card is in exactly one place; CH-DECK-7: an empty deck takes
    the shuffled discard pile."""
    from tests.castle.helpers import P, do, scen

    m = CastleMatch(players=5, seed=3)
    assert sum(box_census(m.state).values()) == 140
    m2 = scen(
        "lord li_wei hand=horn_of_plenty",
        "enemy tang_na",
        "enemy bai_pa",
        "enemy di_shi",
        deck="sword",
        discard="heal,heal,mana",
    )
    do(m2, "magic horn_of_plenty")
    assert sorted(P(m2, 0).hand) == sorted(["sword", *P(m2, 0).hand[1:]])
    assert len(P(m2, 0).hand) == 2 and len(m2.state.deck) + len(m2.state.discard) == 3
    assert "弃牌堆洗入牌组" in " ".join(m2.log_lines(None))
    m3 = scen(
        "lord li_wei hand=horn_of_plenty",
        "enemy tang_na",
        "enemy bai_pa",
        deck="",
        discard="heal",
        rules=CastleRules(reshuffle_discard=False),
    )
    do(m3, "magic horn_of_plenty")
    assert P(m3, 0).hand == []  # no reshuffle: the draws are lost


def test_same_seed_same_match() -> None:
    """CH-RNG-1: one seeded RNG decides everything; same seed + actions = same match."""
    a, b = CastleMatch(players=7, seed=42), CastleMatch(players=7, seed=42)
    r1, r2 = random.Random(1), random.Random(1)
    for _ in range(300):
        if a.is_over:
            break
        x = a.legal_actions()[r1.randrange(len(a.legal_actions()))]
        y = b.legal_actions()[r2.randrange(len(b.legal_actions()))]
        assert x == y
        a.apply(x)
        b.apply(y)
        assert a.hash() == b.hash()
    assert a.log_lines(None) == b.log_lines(None)


@pytest.mark.parametrize("passing", ["by_seat", "by_hero"])
def test_first_round_turns_go_clockwise_from_the_lord_CH_TURN_1(passing: str) -> None:
    """CH-TURN-1: the battle starts with the 城主, then clockwise around the table drawn at
    setup (CH-SETUP-3), under either reading while nobody has swapped seats or died."""
    m = CastleMatch(players=6, seed=11, rules=CastleRules(turn_passing=passing))
    to_battle(m)
    lord = m.state.turn_seat
    assert m.state.players[lord].role == "lord"
    start = m.state.start_pos
    assert start == tuple(m.state.pos) and sorted(start) == list(range(6))
    assert list(start) != list(range(6))  # seats were shuffled: seat numbers ≠ the order
    expected = sorted(range(6), key=lambda seat: (start[seat] - start[lord]) % 6)
    order = [lord]
    while len(order) < 6:
        m.apply(m.legal_actions()[-1])  # the last legal action: passes, ends phases
        assert all(p.alive for p in m.state.players) and m.state.pos == list(start)
        if m.state.turn_seat != order[-1]:
            order.append(m.state.turn_seat)
    assert order == expected
