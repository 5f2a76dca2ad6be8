"""Seeded random matches (hypothesis) and the invariants every position keeps.

Covered: termination by the round limit (R-END-1, R-END-2: the round counter stays
within 1..40), card conservation (R-TURN-10, R-TURN-11: deck + hand + graveyard +
board + removed == the deck brought), HP above max only by lifesteal (R-COMBAT-6),
hand limit (R-TURN-5), mana never negative (R-TURN-1), deterministic replay
(R-TURN-12).
"""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from throne_lib import DEFAULT_RULES, CardDB, Match, Rules, load_cards
from throne_lib.games.throne.cards import RACES
from throne_lib.games.throne.decks import signature_deck
from throne_lib.kit.agents import RandomAgent

DB: CardDB = load_cards()  # module level: hypothesis tests cannot take function fixtures
PLAYABLE_RACES = [r for r in RACES if r != "neutral"]
SHORT = dataclasses.replace(DEFAULT_RULES, round_limit=12)
MAX_ACTIONS = 20_000

matches = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**31 - 1),
        "blue": st.sampled_from(PLAYABLE_RACES),
        "red": st.sampled_from(PLAYABLE_RACES),
        "end_weight": st.sampled_from([0.02, 0.05, 0.3, 1.0]),
        "rules": st.sampled_from([DEFAULT_RULES, DEFAULT_RULES, DEFAULT_RULES, SHORT]),
    }
)


def new_match(spec: dict[str, object]) -> Match:
    seed = spec["seed"]
    rules = spec["rules"]
    assert isinstance(seed, int) and isinstance(rules, Rules)
    return Match.new(
        DB,
        signature_deck(DB, str(spec["blue"])),
        signature_deck(DB, str(spec["red"])),
        seed=seed,
        rules=rules,
    )


def check_invariants(m: Match) -> None:
    """Everything that must hold after any action."""
    st_ = m.state
    rules = m.rules
    for side in (0, 1):
        # R-TURN-10, R-TURN-11: no card appears or disappears.
        assert m.card_count(side) == len(m.setups[side].deck), f"cards of side {side}"
        s = st_.sides[side]
        assert len(s.hand) <= rules.hand_limit  # R-TURN-5
        assert s.mana >= 0  # R-TURN-1: nothing is bought on credit
    for cell, u in enumerate(st_.board):
        if u is None:
            continue
        assert u.cell == cell
        assert u.hp > 0, f"a dead {u.card} stays on {m.geo.name(cell)}"
        # R-COMBAT-6: only lifesteal heals above max HP (and that overflow may persist).
        assert u.hp <= u.max_hp or u.lifesteal, f"{u.card} {u.hp}/{u.max_hp}"
        assert u.armor >= 0
    assert 0 <= st_.round <= rules.round_limit  # R-END-2: 第 X/40 回合
    if m.phase == "main":
        assert st_.round >= 1
    assert m.is_over or len(m.legal_actions()) >= 1


def play(m: Match, end_weight: float, every_action: bool) -> Match:
    agents = (RandomAgent(m.seed * 2 + 1, end_weight), RandomAgent(m.seed * 2 + 2, end_weight))
    for _ in range(MAX_ACTIONS):
        if m.is_over:
            return m
        m.apply(agents[m.turn].choose(m))
        if every_action:
            check_invariants(m)
    raise AssertionError(f"no end after {MAX_ACTIONS} actions: {m!r}")


def check_end(m: Match) -> None:
    check_invariants(m)
    assert m.is_over and len(m.legal_actions()) == 0
    assert m.round <= m.rules.round_limit <= 40  # R-END-1
    if m.end_reason == "throne":
        assert m.winner is not None and m.throne_hp(m.winner) > 0
        assert m.state.throne(1 - m.winner) is None
    else:
        assert m.end_reason in (
            "round_limit:hp",
            "round_limit:ratio",
            "round_limit:board",
            "round_limit:draw",
        )
        assert m.round == m.rules.round_limit
        assert (m.winner is None) == (m.end_reason == "round_limit:draw")


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(matches)
def test_random_matches_end_in_time_and_conserve_cards_R_END_1(spec: dict[str, object]) -> None:
    """R-END-1, R-TURN-10, R-TURN-11, R-COMBAT-6: 200 random matches of random race
    pairs end by the round limit without an exception; invariants hold at the end."""
    m = play(new_match(spec), float(spec["end_weight"]), every_action=False)  # type: ignore[arg-type]
    check_end(m)


@settings(max_examples=30, deadline=None, derandomize=True, database=None)
@given(matches)
def test_invariants_after_every_action_R_TURN_10_R_COMBAT_6(spec: dict[str, object]) -> None:
    """R-TURN-10, R-TURN-11, R-COMBAT-6, R-TURN-5, R-END-2: the invariants hold after
    every single action of 30 random matches."""
    m = new_match(spec)
    check_invariants(m)
    play(m, float(spec["end_weight"]), every_action=True)  # type: ignore[arg-type]
    check_end(m)


@settings(max_examples=10, deadline=None, derandomize=True, database=None)
@given(matches)
def test_copies_and_replays_are_exact_R_TURN_12(spec: dict[str, object]) -> None:
    """R-TURN-12: replaying the history on a fresh match gives the same final hash;
    a copy taken midway and played on with the same actions ends the same."""
    m = new_match(spec)
    play(m, float(spec["end_weight"]), every_action=False)  # type: ignore[arg-type]
    replay = new_match(spec)
    half = len(m.history) // 2
    for a in m.history[:half]:
        replay.apply(a)
    fork = replay.copy()
    for a in m.history[half:]:
        replay.apply(a)
        fork.apply(a)
    assert replay.hash() == fork.hash() == m.hash()
    assert replay.history == m.history
