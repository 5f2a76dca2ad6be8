"""城堡之心's belief-weighted determinization for ISMCTS (issue 32: 城主 and 援军 need to
guess who is who). With ``ismcts:belief=B`` the hidden identities of a determinization
are dealt weighted by the public tallies of harm and help (CH-AI-2's suspicion), not
uniformly; it still reads only what the acting seat sees."""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from tests.test_ismcts import SMALL, midgame, tree_stats
from throne_lib.games.castle.ismcts import _deals, _weighted, determinize
from throne_lib.kit.agents import make_agent
from throne_lib.kit.ismcts import IsmctsAgent


def _struck(seats: int = 6, seed: int = 4) -> tuple[object, int, int]:
    """A midgame, its acting seat, and a hidden seat that has struck the 城主 three times
    more (a public tally, CH-AI-2)."""
    m = midgame("castle", seed, actions=12, seats=seats)
    seat = m.current_seat
    lord = next(p.seat for p in m.state.players if p.role == "lord")
    q = next(p.seat for p in m.state.players if p.seat != seat and not p.revealed)
    m.state.harm[q][lord] += 3
    return m, seat, q


def test_the_deals_are_every_distinct_order_of_the_identities() -> None:
    deals = _deals(4, ("enemy", "enemy", "neutral", "reinforcement"))
    assert len(deals) == len(set(deals)) == math.factorial(4) // 2
    assert all(Counter(d) == Counter(deals[0]) for d in deals)
    # no evidence: every deal equally likely
    _, cum = _weighted((0.0, 0.0, 0.0, 0.0), ("enemy", "enemy", "neutral", "reinforcement"), 0.5)
    steps = [b - a for a, b in zip([0.0, *cum], cum, strict=False)]
    assert max(steps) - min(steps) < 1e-12


def test_a_seat_that_struck_the_lord_is_dealt_enemy_more_often_with_belief() -> None:
    """CH-AI-2: harm done to the 城主 is an enemy's mark. Uniform determinizations (the
    plain ``resample``) deal the seat 敌军 at the base rate; with belief, far more
    often."""
    m, seat, q = _struck()
    hidden = [p for p in m.state.players if p.seat != seat and not p.revealed]
    base = sum(p.role == "enemy" for p in hidden) / len(hidden)
    rng_u, rng_b = random.Random(1), random.Random(1)
    n = 400
    uniform = sum(m.resample(seat, rng_u).state.players[q].role == "enemy" for _ in range(n)) / n
    belief = (
        sum(determinize(m, seat, rng_b, 0.5).state.players[q].role == "enemy" for _ in range(n)) / n
    )
    assert abs(uniform - base) < 0.08
    assert belief > min(0.95, base + 0.25)
    # every world is still a deal of the same identities, the seen ones unchanged
    w = determinize(m, seat, random.Random(2), 0.5)
    assert Counter(p.role for p in w.state.players) == Counter(p.role for p in m.state.players)
    assert w.observation(seat) == m.observation(seat)


def test_the_weighted_deal_is_deterministic_by_rng() -> None:
    m, seat, _ = _struck()
    a = determinize(m, seat, random.Random(9), 0.5)
    b = determinize(m, seat, random.Random(9), 0.5)
    assert a.hash() == b.hash()


def test_with_belief_the_agent_still_sees_only_what_its_seat_sees() -> None:
    """Two positions whose hidden identities are swapped (CH-ROLE), with public harm on
    record, give the same search from the seat that cannot see them."""
    m, seat, _ = _struck()
    hidden = [p for p in m.state.players if p.seat != seat and not p.revealed]
    pair = next((p, q) for p in hidden for q in hidden if p.role != q.role)
    v = m.copy()
    a, b = (v.state.players[p.seat] for p in pair)
    a.role, b.role = b.role, a.role
    a.camp, b.camp = b.camp, a.camp
    assert v.observation(seat) == m.observation(seat) and v.hash() != m.hash()
    trees = [
        tree_stats(IsmctsAgent(3, game="castle", belief=0.5, **SMALL).search(x)) for x in (m, v)
    ]
    assert trees[0] == trees[1]
    # and the weighting changes the search: it is not the uniform one
    plain = tree_stats(IsmctsAgent(3, game="castle", belief=0.0, **SMALL).search(m))
    assert trees[0] != plain


def test_belief_is_an_agent_parameter_on_by_default_in_castle() -> None:
    """城堡之心's default is the measured one (belief 0.5, rollouts to the end:
    docs/agents.md); ``belief=0`` gives the uniform deals of ``resample``."""
    agent = make_agent("ismcts:iterations=4", 1, "castle")
    assert (agent.belief, agent.rollout_actions) == (0.5, 400)
    assert make_agent("ismcts:iterations=4:belief=0", 1, "castle").belief == 0.0
    assert make_agent("ismcts:iterations=4", 1, "cities").belief == 0.0  # no hook there


def _belief_fit() -> Any:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "castle_belief_fit.py"
    spec = importlib.util.spec_from_file_location("castle_belief_fit", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_belief_fit_reads_the_public_tallies_of_the_hidden_seats() -> None:
    """benchmarks/castle_belief_fit.py's features: one row per seat whose identity the
    observation hides, read from the tallies (CH-AI-2) — harm done to the 城主 counts
    where it should, and the row does not change when hidden identities are swapped."""
    fit = _belief_fit()
    m, seat, q = _struck()
    hidden, rows = fit.belief_features(m.agent_observation(seat))
    assert q in hidden and seat not in hidden
    assert all(m.agent_observation(seat)["players"][h]["role"] == "?" for h in hidden)
    lord = next(p.seat for p in m.state.players if p.role == "lord")
    assert rows[hidden.index(q)][fit.FEATURES.index("harm_lord")] == m.state.harm[q][lord] >= 3
    v = m.copy()
    pair = next(
        (a, b) for a in hidden for b in hidden if m.state.players[a].role != m.state.players[b].role
    )
    a, b = (v.state.players[x] for x in pair)
    a.role, b.role, a.camp, b.camp = b.role, a.role, b.camp, a.camp
    assert fit.belief_features(v.agent_observation(seat)) == (hidden, rows)


def test_the_belief_fit_learns_more_than_a_uniform_deal_on_its_samples() -> None:
    """The conditional logit over deals, fitted a few steps on two scripted 6-seat
    matches, gives the true deals more probability than uniform deals do."""
    fit = _belief_fit()
    groups = fit.Groups(fit.collect(6, 77, 2, 4))
    assert groups.n > 20
    w = fit.fit(groups, len(fit.FEATURES), steps=60)
    uniform = fit.scores(groups, "uniform")["log_p_true_deal"]["all"]
    fitted = fit.scores(groups, "fitted", w)["log_p_true_deal"]["all"]
    assert fitted > uniform + 0.1
    assert (w[0] == 0).all()  # the 敌军's row is the reference
