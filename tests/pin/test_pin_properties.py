"""Seeded random matches: they end, raise nothing, conserve cards, replay to the same
hashes, and observations hide what they must (PIN-TURN-7, PIN-TURN-8, PIN-PARAM-1)."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from throne_lib.games.pin.actions import PinAction
from throne_lib.games.pin.agents import RandomAgent
from throne_lib.games.pin.match import PinMatch
from throne_lib.games.pin.rules import PIN_RULES, Rules


def _cards_accounted(m: PinMatch, side: int) -> Counter[str]:
    s = m.state
    every = s.decks[side] + s.hands[side] + s.graves[side]
    every += [u.card for u in m.units() if u.side == side]
    for step in s.queue:  # a command or counter card between hand and graveyard
        if step[0] == "to_grave" and step[1] == side:
            every.append(step[2])
        if step[0] == "command" and step[1]["side"] == side:
            every.append(step[1]["card"])
    return Counter(c for c in every if not m.db[c].derived)


def _play(new_match, seed: int, rules: Rules = PIN_RULES) -> tuple[PinMatch, list[str]]:  # type: ignore[no-untyped-def]
    m = new_match(seed=seed, rules=rules)
    a0, a1 = RandomAgent(seed), RandomAgent(seed + 1)
    start = [Counter(m.state.decks[s] + m.state.hands[s]) for s in (0, 1)]
    log = []
    for _ in range(20_000):
        if m.is_over:
            break
        action = (a0, a1)[m.current_seat].choose(m)
        assert m.parse(action.text()) == action == PinAction.from_dict(action.to_dict())
        events = m.apply(action)
        json.dumps([e.to_dict() for e in events], ensure_ascii=False)  # logs can store them
        log.append(action.text())
        for s in (0, 1):
            assert _cards_accounted(m, s) == start[s]
        for u in m.state.units.values():
            assert u.hp <= u.max_hp
    assert m.is_over and m.state.round <= rules.round_limit
    json.dumps([m.observation(0), m.observation(1)], ensure_ascii=False)
    return m, log


@example(seed=8423)  # a winning command lost from the card count (PIN-CMD-1)
@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 10_000))
def test_random_matches_end_and_conserve_cards(new_match, seed: int) -> None:  # type: ignore[no-untyped-def]
    """PIN-TURN-7: every match ends by round 30; no exception; cards conserved; HP ≤ max."""
    _play(new_match, seed)


def test_variant_rules_play_too(new_match) -> None:  # type: ignore[no-untyped-def]
    """PIN-PARAM-1: every Reading is a parameter; a match with several flipped still runs."""
    variant = dataclasses.replace(
        PIN_RULES,
        mirror_board=True,
        round_limit=8,
        mulligan_to_bottom=False,
        interleaved_activations=False,
        guard_radius=1,
        leftover_cp_for_counters=False,
    )
    m, _ = _play(new_match, 5, variant)
    assert m.state.round <= 8
    assert set(PIN_RULES.to_dict()) >= {"round_limit", "guard_radius", "matrix", "ads_stops"}


def test_same_seed_same_actions_same_hashes(new_match) -> None:  # type: ignore[no-untyped-def]
    """Determinism: (cards, seed, actions) fixes the match; copies are independent."""
    m, log = _play(new_match, 21)
    again = new_match(seed=21)
    for text in log:
        again.apply(text)
    assert again.hash() == m.hash()
    fresh = new_match(seed=21)
    twin = fresh.copy()
    fresh.apply(fresh.legal_actions()[0])
    assert twin.hash() != fresh.hash() and twin.state.turn == 0


def test_observation_hides_opponent_hand_and_decks(new_match) -> None:  # type: ignore[no-untyped-def]
    """PIN-TURN-8: shuffling what seat 0 cannot see leaves its observation unchanged."""
    rng = random.Random(3)
    m = new_match(seed=8)
    agents = (RandomAgent(1), RandomAgent(2))
    for step in range(600):
        if m.is_over:
            break
        if step % 40 == 0:
            obs = m.observation(0)
            other = m.copy()
            s = other.state
            known = Counter(s.known[1])
            hidden = list((Counter(s.hands[1]) - known).elements()) + s.decks[1]
            rng.shuffle(hidden)
            kept = list((Counter(s.hands[1]) & known).elements())
            n = len(s.hands[1]) - len(kept)
            s.hands[1], s.decks[1] = kept + hidden[:n], hidden[n:]
            rng.shuffle(s.decks[0])
            assert other.observation(0) == obs
            sample = m.resample(0, rng)
            assert sample.observation(0) == obs
            assert sorted(sample.state.hands[0]) == sorted(m.state.hands[0])
        m.apply(agents[m.current_seat].choose(m))


def test_registry_match_is_rebuilt_from_its_json_setup() -> None:
    """PIN-PARAM-1: a match's setups and rule overrides are JSON and rebuild it."""
    from throne_lib.games.pin.rules import PIN_RULES as R
    from throne_lib.kit import registry

    game = registry.get("pin")
    m = game.new(["anvil", "aurora"], seed=9, rules=dataclasses.replace(R, round_limit=4))
    agent = RandomAgent(1)
    for _ in range(60):
        if not m.is_over:
            m.apply(agent.choose(m))
    data = json.loads(json.dumps({"setups": m.setups, "options": m.options}))
    again = game.new(data["setups"], 9, **data["options"])
    for a in m.history:
        again.apply(a.text())
    assert again.hash() == m.hash() and again.rules.round_limit == 4
